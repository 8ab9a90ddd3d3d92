//! [`StudyView`]: one study ready for the templates and for the Answers block (its results,
//! verdict, Table 3 grid, scorecard and conclusions), and its [`Table3Row`]s.
//!
//! Invariant: plain data built by the template context from `Results` and the published
//! figures; nothing here computes.

use serde::Serialize;

use super::conclusions::Conclusions;
use super::scorecard::{Scorecard, StudyKind};
use super::study_verdict::StudyVerdict;
use crate::results::{MatchupRate, StudyResults};

/// One row of Table 3 (one G1 policy).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table3Row {
    /// G1's policy.
    pub g1: String,
    /// One cell per G2 policy, in order (`None` if missing).
    pub cells: Vec<Option<MatchupRate>>,
}

/// One study, ready for the templates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudyView {
    /// Name (`paper`, `replication`, ...).
    pub name: String,
    /// Label.
    pub label: String,
    /// Replay, variant, replication or a study of its own.
    pub kind: StudyKind,
    /// [`StudyKind::description`].
    pub kind_description: String,
    /// The top-line verdict.
    pub verdict: StudyVerdict,
    /// Policy names in matchup order.
    pub policies: Vec<String>,
    /// Non-tied games over all matchups.
    pub non_tied: u64,
    /// Tied games over all matchups.
    pub ties: u64,
    /// Table 3 as a grid.
    pub table3_rows: Vec<Table3Row>,
    /// The raw results.
    pub results: StudyResults,
    /// The scorecard against the paper.
    pub scorecard: Scorecard,
    /// Conclusions restated from this study's numbers.
    pub conclusions: Conclusions,
}
