//! Ordered matchups: who sits in G1 and G2, and the paper's MatchId numbering.
//!
//! Invariant: matchups are numbered row-major over the policy list (G1's policy is the row),
//! from 1, exactly as the released simulator numbers them.

use serde::{Deserialize, Serialize};

use crate::policy::PolicySpec;

/// One ordered pairing of policies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matchup {
    /// 0-based row-major position.
    pub index: usize,
    /// 1-based MatchId.
    pub match_id: u32,
    /// Seat 1's policy.
    pub g1: PolicySpec,
    /// Seat 2's policy.
    pub g2: PolicySpec,
}

impl Matchup {
    /// All k^2 ordered matchups of `policies`, row-major.
    pub fn all(policies: &[PolicySpec]) -> Vec<Matchup> {
        let k = policies.len();
        let mut out = Vec::with_capacity(k * k);
        for (i, g1) in policies.iter().enumerate() {
            for (j, g2) in policies.iter().enumerate() {
                let index = i * k + j;
                out.push(Matchup {
                    index,
                    match_id: index as u32 + 1,
                    g1: g1.clone(),
                    g2: g2.clone(),
                });
            }
        }
        out
    }

    /// A path-safe name, e.g. `greedy-vs-hoarder`.
    pub fn slug(&self) -> String {
        format!("{}-vs-{}", self.g1.name, self.g2.name)
    }
}
