//! What validating a study file derives from it, built once: every defined policy under every
//! tie-break override, every study's tournament, every sweep's points and every league.
//!
//! Invariant: only [`super::Config::parse`] builds one, after every check has passed, so the
//! code that reads it never re-resolves a name or expects a check to have held.

use std::collections::BTreeMap;

use crate::policy::{PolicySpec, TieBreak};

use super::league_config::League;
use super::study::Study;
use super::sweep_config::Sweep;

/// The typed plan of a validated [`super::Config`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResolvedConfig {
    /// Each `[policies.NAME]`, resolved with no override and with each tie-break override.
    pub(super) policies: BTreeMap<(String, Option<TieBreak>), PolicySpec>,
    /// The main study, then the variants in name order.
    pub(super) studies: Vec<Study>,
    /// Every sweep, expanded, in name order.
    pub(super) sweeps: Vec<Sweep>,
    /// Every league, in name order.
    pub(super) leagues: Vec<League>,
}

/// Every tie-break override a command or a variant may ask for: none, then each reading.
pub(super) fn tie_overrides() -> impl Iterator<Item = Option<TieBreak>> {
    std::iter::once(None).chain(TieBreak::ALL.map(Some))
}
