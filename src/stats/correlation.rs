//! Pearson's r and Spearman's rho of paired samples (R's `cor(x, y)` and
//! `cor(x, y, method = "spearman")`, scipy's `pearsonr` and `spearmanr`).
//!
//! Invariant: results lie in [-1, 1]; means are removed before products are summed (two-pass),
//! so large offsets do not cancel catastrophically.

use crate::stats::error::StatsError;

/// Pearson's product-moment correlation of the pairs (x[i], y[i]), two-pass.
///
/// Errors: lengths differ, fewer than 2 pairs, a non-finite value, a constant x or y.
pub fn pearson(x: &[f64], y: &[f64]) -> Result<f64, StatsError> {
    check_pairs("pearson", x, y)?;
    pearson_unchecked("pearson", x, y)
}

/// Spearman's rank correlation: Pearson's r of the ranks, ties given their average rank.
///
/// Errors: as [`pearson`].
pub fn spearman(x: &[f64], y: &[f64]) -> Result<f64, StatsError> {
    check_pairs("spearman", x, y)?;
    let rx = average_ranks(x);
    let ry = average_ranks(y);
    pearson_unchecked("spearman", &rx, &ry)
}

/// Ranks 1..=n, tied values sharing the mean of the ranks they span.
pub fn average_ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut ranks = vec![0.0; v.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && v[order[end]] == v[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end; their mean:
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

fn check_pairs(what: &'static str, x: &[f64], y: &[f64]) -> Result<(), StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            what,
            left_name: "x",
            left: x.len(),
            right_name: "y",
            right: y.len(),
        });
    }
    if x.len() < 2 {
        return Err(StatsError::TooFew {
            what,
            n: x.len(),
            needed: 2,
        });
    }
    for (input, values) in [("x", x), ("y", y)] {
        if let Some((index, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(StatsError::NonFinite {
                what,
                input,
                index,
                value,
            });
        }
    }
    Ok(())
}

fn pearson_unchecked(what: &'static str, x: &[f64], y: &[f64]) -> Result<f64, StatsError> {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (&a, &b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    // Constancy is tested on the data, not on sxx, which rounding can leave a hair above 0.
    if sxx == 0.0 || x.iter().all(|&v| v == x[0]) {
        return Err(StatsError::ZeroVariance { what, input: "x" });
    }
    if syy == 0.0 || y.iter().all(|&v| v == y[0]) {
        return Err(StatsError::ZeroVariance { what, input: "y" });
    }
    Ok((sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0))
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
mod tests {
    use super::*;

    /// Deterministic pairs with heavy ties in x (as Delta_briscola is) and a large offset in y.
    fn sample(n: usize) -> (Vec<f64>, Vec<f64>) {
        let mut state: u64 = 42;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut x = Vec::with_capacity(n);
        let mut y = Vec::with_capacity(n);
        for _ in 0..n {
            let delta = 2.0 * ((next() * 11.0).floor() - 5.0);
            let noise = (next() * 60.0).floor();
            x.push(delta);
            y.push(1e6 + 3.0 * delta + noise);
        }
        (x, y)
    }

    #[test]
    fn matches_scipy_with_ties() {
        // scipy 1.17.1: the same LCG sample (n = 1000, seed 42) rebuilt in Python;
        // scipy.stats.pearsonr(x, y).statistic, scipy.stats.spearmanr(x, y).statistic
        let (x, y) = sample(1000);
        assert!((pearson(&x, &y).unwrap() - 0.732644002084846).abs() < 1e-12);
        assert!((spearman(&x, &y).unwrap() - 0.7316332022671508).abs() < 1e-12);
    }

    #[test]
    fn small_exact_cases() {
        // scipy 1.17.1: scipy.stats.spearmanr([1, 2, 2, 3], [1, 3, 2, 4]).statistic,
        // scipy.stats.pearsonr([1, 2, 3, 4], [2, 4, 5, 9]).statistic
        assert!(
            (spearman(&[1.0, 2.0, 2.0, 3.0], &[1.0, 3.0, 2.0, 4.0]).unwrap() - 0.9486832980505139)
                .abs()
                < 1e-14
        );
        assert!(
            (pearson(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 5.0, 9.0]).unwrap() - 0.9647638212377322)
                .abs()
                < 1e-14
        );
        assert!((pearson(&[1.0, 2.0], &[5.0, 3.0]).unwrap() + 1.0).abs() < 1e-15);
        assert_eq!(
            average_ranks(&[3.0, 1.0, 3.0, 2.0]),
            vec![3.5, 1.0, 3.5, 2.0]
        );
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(
            pearson(&[1.0], &[1.0]),
            Err(StatsError::TooFew { .. })
        ));
        assert!(matches!(
            pearson(&[1.0, 2.0], &[1.0]),
            Err(StatsError::LengthMismatch { .. })
        ));
        assert!(matches!(
            spearman(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
            Err(StatsError::ZeroVariance { input: "x", .. })
        ));
        assert!(matches!(
            pearson(&[1.0, 2.0, 3.0], &[0.1, 0.1, 0.1]),
            Err(StatsError::ZeroVariance { input: "y", .. })
        ));
        assert!(matches!(
            pearson(&[1.0, f64::NAN], &[1.0, 2.0]),
            Err(StatsError::NonFinite { index: 1, .. })
        ));
    }

    #[test]
    fn full_size_runs() {
        let (x, y) = sample(111_111);
        let r = spearman(&x, &y).unwrap();
        assert!(r > 0.0 && r <= 1.0);
    }
}
