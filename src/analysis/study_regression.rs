//! The regress stage's work: Table 4's logistic regression of G1 winning on treatment-coded
//! policy dummies and Delta_briscola, over one study's non-tied games.
//!
//! Invariant: the fit uses the grouped counts (one row per matchup and Delta with its wins and
//! non-tied games), whose likelihood equals the game-level data's; estimates and standard errors
//! equal the row-level fit's (checked in `stats::logistic`'s tests), and the intervals are both
//! Wald and R's profile likelihood.

use ndarray::Array2;

use serde::{Deserialize, Serialize};

use super::shard_counts::ShardCounts;
use crate::results::{Table4, Term};
use crate::stats;

/// Errors of the regression.
#[derive(Debug, thiserror::Error)]
pub enum RegressionError {
    /// The fit failed (separation, singular information, no data...).
    #[error("Table 4 regression: {0}")]
    Fit(#[from] stats::StatsError),
    /// The fit has no estimate (separation) or no information (a singular matrix) on this
    /// study's data: with few games, some policy wins (or loses) every game at some
    /// Delta_briscola it meets.
    #[error(
        "Table 4 regression: its {n} non-tied games cannot fit it ({source}); in a small study some policy wins or loses every game at a Delta_briscola it meets: if so, give it more games (its `games` or `games_per_matchup`)"
    )]
    TooFewGames {
        /// The study's non-tied games.
        n: u64,
        /// The fit's error.
        source: stats::StatsError,
    },
    /// The reference policy is not in the study.
    #[error("reference policy `{0}` is not among the study's policies ({1})")]
    Reference(String, String),
}

/// Settings the regress stage reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegressSettings {
    /// Reference level.
    pub reference_policy: String,
    /// Wald interval confidence.
    pub confidence: f64,
    /// Policy names in matchup order.
    pub policies: Vec<String>,
}

/// Fit Table 4.
pub fn study_regression(
    shards: &[ShardCounts],
    s: &RegressSettings,
) -> Result<Table4, RegressionError> {
    if !s.policies.contains(&s.reference_policy) {
        return Err(RegressionError::Reference(
            s.reference_policy.clone(),
            s.policies.join(", "),
        ));
    }
    let others: Vec<&String> = s
        .policies
        .iter()
        .filter(|p| **p != s.reference_policy)
        .collect();
    let n: u64 = shards
        .iter()
        .flat_map(|c| c.deltas.iter())
        .map(|d| d.non_tied)
        .sum();
    let options = stats::LogisticOptions {
        confidence: s.confidence,
        ..Default::default()
    };
    // Every regressor is categorical or a small integer, so the likelihood is a sum over the
    // (matchup, Delta) cells: the grouped fit is the row-level fit (a test checks both agree).
    let (gx, gs, gt) = grouped_design(shards, &others);
    let too_few = |e: stats::StatsError| match e {
        stats::StatsError::Separation { .. } | stats::StatsError::Singular { .. } => {
            RegressionError::TooFewGames { n, source: e }
        }
        e => RegressionError::Fit(e),
    };
    let fit = stats::fit_grouped(&gx, &gs, &gt, &options).map_err(too_few)?;
    let profile = stats::profile_grouped(&gx, &gs, &gt, &fit, s.confidence).map_err(too_few)?;
    let mut names = vec![("intercept".to_string(), "Intercept".to_string())];
    for o in &others {
        names.push((format!("g1_{o}"), format!("G1 = {o}")));
    }
    for o in &others {
        names.push((format!("g2_{o}"), format!("G2 = {o}")));
    }
    names.push(("delta_briscola".into(), "Δ_briscola (per +1)".into()));
    let terms = names
        .into_iter()
        .enumerate()
        .map(|(i, (term, label))| Term {
            term,
            label,
            estimate: fit.coefficients[i].estimate,
            std_error: fit.coefficients[i].std_error,
            z: fit.coefficients[i].z_value,
            p_value: fit.coefficients[i].p_value,
            odds_ratio: fit.coefficients[i].odds_ratio,
            lo: fit.coefficients[i].ci_lo,
            hi: fit.coefficients[i].ci_hi,
            profile_lo: profile[i].0.exp(),
            profile_hi: profile[i].1.exp(),
        })
        .collect();
    Ok(Table4 {
        n,
        reference_policy: s.reference_policy.clone(),
        terms,
        log_likelihood: fit.log_likelihood,
        iterations: fit.newton_iterations as u64,
        max_abs_gradient: fit.max_abs_gradient,
    })
}

/// One row per (matchup, Delta) with the counts: the grouped form of the same design.
fn grouped_design(shards: &[ShardCounts], others: &[&String]) -> (Array2<f64>, Vec<u64>, Vec<u64>) {
    let p = 2 * others.len() + 1;
    let rows: usize = shards.iter().map(|c| c.deltas.len()).sum();
    let mut x = Array2::<f64>::zeros((rows, p));
    let (mut s, mut t) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
    let mut r = 0;
    for c in shards {
        let g1 = others.iter().position(|o| **o == c.g1_policy);
        let g2 = others.iter().position(|o| **o == c.g2_policy);
        for d in &c.deltas {
            if let Some(i) = g1 {
                x[[r, i]] = 1.0;
            }
            if let Some(j) = g2 {
                x[[r, others.len() + j]] = 1.0;
            }
            x[[r, p - 1]] = d.delta as f64;
            s.push(d.g1_wins);
            t.push(d.non_tied);
            r += 1;
        }
    }
    (x, s, t)
}
