//! What a policy written as data is: rules, a switch between two policies, or a policy with an
//! exploration probability; the serialisable part of a [`super::PolicySpec`] (it enters cache
//! keys and `shard.json`).
//!
//! Invariant: rules are stored in their canonical printed form, so two spellings of the same
//! rules (spacing, `non-trump` vs `!trump`) have the same spec, cache keys and shards.

use serde::{Deserialize, Serialize};

use super::PolicySpec;
use super::epsilon::EpsMoves;

/// A probability in [0, 1], compared and hashed by its bits (so a spec can be a map key).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Prob(pub f64);

impl Eq for Prob {}

impl std::hash::Hash for Prob {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.to_bits().hash(h)
    }
}

/// The definition of a data-defined policy.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyDef {
    /// Ordered rules for leading and following (canonical text).
    Rules {
        /// Lead rules.
        lead: Vec<String>,
        /// Follow rules.
        follow: Vec<String>,
    },
    /// `play` while `when` holds, else `otherwise`.
    Switch {
        /// The policy played while the condition holds.
        play: Box<PolicySpec>,
        /// The condition (canonical text).
        when: String,
        /// The policy played otherwise.
        otherwise: Box<PolicySpec>,
    },
    /// `base`, exploring with probability `eps` on `moves`.
    Epsilon {
        /// The base policy.
        base: Box<PolicySpec>,
        /// Exploration probability.
        eps: Prob,
        /// Which moves may explore.
        moves: EpsMoves,
    },
    /// The search agent's parameters.
    Search {
        /// Worlds sampled per decision.
        worlds: u32,
        /// Tricks searched ahead in each world.
        horizon: u8,
    },
}
