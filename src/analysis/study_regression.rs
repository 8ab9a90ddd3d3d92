//! The regress stage's work: Table 4's logistic regression of G1 winning on treatment-coded
//! policy dummies and Delta_briscola, over one study's non-tied games.
//!
//! Invariant: the design matrix is rebuilt exactly from the shard counts (one row per non-tied
//! game, grouped by matchup and Delta), which is the game-level data up to row order.

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
    /// The row-level (linfa + Newton) and grouped (Newton) fits disagree.
    #[error(
        "Table 4 regression: the row-level fit (b = {0}, se = {2}) and the grouped fit (b = {1}, se = {3}) disagree; the solver did not converge"
    )]
    CrossCheck(f64, f64, f64, f64),
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
    let p = 2 * others.len() + 1;
    let n: u64 = shards
        .iter()
        .flat_map(|c| c.deltas.iter())
        .map(|d| d.non_tied)
        .sum();
    let mut x = Array2::<f64>::zeros((n as usize, p));
    let mut y = Vec::with_capacity(n as usize);
    let mut row = 0usize;
    for c in shards {
        let g1 = others.iter().position(|o| **o == c.g1_policy);
        let g2 = others.iter().position(|o| **o == c.g2_policy);
        for d in &c.deltas {
            for k in 0..d.non_tied {
                if let Some(i) = g1 {
                    x[[row, i]] = 1.0;
                }
                if let Some(j) = g2 {
                    x[[row, others.len() + j]] = 1.0;
                }
                x[[row, p - 1]] = d.delta as f64;
                y.push(k < d.g1_wins);
                row += 1;
            }
        }
    }
    let options = stats::LogisticOptions {
        confidence: s.confidence,
        ..Default::default()
    };
    let fit = stats::fit_logistic(&x, &y, &options)?;
    // Cross-check: the same model on the grouped counts (one row per matchup and Delta) must
    // reach the same optimum; a disagreement means a solver problem, never a result to report.
    let (gx, gs, gt) = grouped_design(shards, &others);
    let grouped = stats::fit_grouped(&gx, &gs, &gt, &options)?;
    for (a, b) in fit.coefficients.iter().zip(&grouped.coefficients) {
        let tol = 1e-7 * (1.0 + a.estimate.abs());
        if (a.estimate - b.estimate).abs() > tol || (a.std_error - b.std_error).abs() > tol {
            return Err(RegressionError::CrossCheck(
                a.estimate,
                b.estimate,
                a.std_error,
                b.std_error,
            ));
        }
    }
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
        })
        .collect();
    Ok(Table4 {
        n,
        reference_policy: s.reference_policy.clone(),
        terms,
        log_likelihood: fit.log_likelihood,
        iterations: fit.newton_iterations as u64
            + match fit.warm_start {
                stats::WarmStart::Linfa { iterations, .. } => iterations,
                _ => 0,
            },
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
