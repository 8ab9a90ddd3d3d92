//! The matchup grid of a study: its policies in matchup order and the k x k ordered pairs
//! (rows G1's policy, columns G2's).
//!
//! Invariant: the order is the study's configured policy order, so every figure lays its panels
//! out in the same row-major order as Table 3 and `results.json`.

use crate::results::StudyResults;

/// The policy names of `study`, in matchup order. Falls back to the order in which G1 policies
/// appear in Table 3 when the settings list none.
pub fn policy_names(study: &StudyResults) -> Vec<String> {
    if !study.settings.policies.is_empty() {
        return study
            .settings
            .policies
            .iter()
            .map(|p| p.name.clone())
            .collect();
    }
    let mut names: Vec<String> = Vec::new();
    for cell in &study.table3 {
        for n in [&cell.g1_policy, &cell.g2_policy] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}

/// Every ordered pair (G1, G2), row-major.
pub fn matchups(names: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(names.len() * names.len());
    for a in names {
        for b in names {
            out.push((a.clone(), b.clone()));
        }
    }
    out
}

/// The label of a matchup as panels and axes show it.
pub fn matchup_label(g1: &str, g2: &str) -> String {
    format!("{g1} (G1) vs {g2} (G2)")
}
