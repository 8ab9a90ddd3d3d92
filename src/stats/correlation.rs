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
    pearson_unchecked("pearson", &singles(x, y))
}

/// Spearman's rank correlation: Pearson's r of the ranks, ties given their average rank.
///
/// Errors: as [`pearson`].
pub fn spearman(x: &[f64], y: &[f64]) -> Result<f64, StatsError> {
    check_pairs("spearman", x, y)?;
    spearman_unchecked(&singles(x, y))
}

/// [`pearson`] of pairs given as runs `(x, y, count)`: `count` copies of the pair `(x, y)`, run
/// after run. Equal bit for bit to [`pearson`] on the pairs written out in that order, in memory
/// proportional to the number of runs (a shard's 10^8 games are a few thousand runs).
///
/// ```
/// use briscola::stats::{pearson, pearson_runs};
/// let runs = [(1.0, 2.0, 3), (2.0, 5.0, 2), (4.0, 4.0, 1)];
/// let (x, y) = (
///     [1.0, 1.0, 1.0, 2.0, 2.0, 4.0],
///     [2.0, 2.0, 2.0, 5.0, 5.0, 4.0],
/// );
/// assert_eq!(pearson_runs(&runs).unwrap(), pearson(&x, &y).unwrap());
/// ```
///
/// Errors: as [`pearson`] (the index of a non-finite value counts the pairs written out).
pub fn pearson_runs(runs: &[(f64, f64, u64)]) -> Result<f64, StatsError> {
    check_runs("pearson", runs)?;
    pearson_unchecked("pearson", runs)
}

/// [`spearman`] of pairs given as runs, as [`pearson_runs`] is to [`pearson`].
pub fn spearman_runs(runs: &[(f64, f64, u64)]) -> Result<f64, StatsError> {
    check_runs("spearman", runs)?;
    spearman_unchecked(runs)
}

/// Each pair as a run of one.
fn singles(x: &[f64], y: &[f64]) -> Vec<(f64, f64, u64)> {
    x.iter().zip(y).map(|(&a, &b)| (a, b, 1)).collect()
}

/// Ranks 1..=n, tied values sharing the mean of the ranks they span.
pub fn average_ranks(v: &[f64]) -> Vec<f64> {
    let rank = RankTable::new(v.iter().map(|&x| (x, 1)));
    v.iter().map(|&x| rank.of(x)).collect()
}

/// The average rank of every distinct value of a sample given as (value, count) runs.
struct RankTable {
    /// Distinct values in `total_cmp` order, each with its average rank.
    ranks: Vec<(f64, f64)>,
}

impl RankTable {
    fn new(values: impl Iterator<Item = (f64, u64)>) -> RankTable {
        let mut counts: Vec<(f64, u64)> = values.collect();
        counts.sort_by(|a, b| a.0.total_cmp(&b.0));
        counts.dedup_by(|b, a| {
            let same = a.0.total_cmp(&b.0).is_eq();
            if same {
                a.1 += b.1;
            }
            same
        });
        // Values equal under `==` (0.0 and -0.0) share one block of ranks, as in a sort
        // followed by a scan for equal neighbours.
        let mut ranks = Vec::with_capacity(counts.len());
        let mut start = 0u64;
        let mut i = 0;
        while i < counts.len() {
            let mut j = i;
            let mut end = start;
            while j < counts.len() && counts[j].0 == counts[i].0 {
                end += counts[j].1;
                j += 1;
            }
            // Positions start..end hold ranks start+1..=end; their mean:
            let rank = (start + 1 + end) as f64 / 2.0;
            ranks.extend(counts[i..j].iter().map(|&(v, _)| (v, rank)));
            start = end;
            i = j;
        }
        RankTable { ranks }
    }

    fn of(&self, v: f64) -> f64 {
        let i = self
            .ranks
            .binary_search_by(|(x, _)| x.total_cmp(&v))
            .expect("every value was ranked");
        self.ranks[i].1
    }
}

fn spearman_unchecked(runs: &[(f64, f64, u64)]) -> Result<f64, StatsError> {
    let rx = RankTable::new(runs.iter().map(|r| (r.0, r.2)));
    let ry = RankTable::new(runs.iter().map(|r| (r.1, r.2)));
    let ranked: Vec<(f64, f64, u64)> = runs
        .iter()
        .map(|&(x, y, n)| (rx.of(x), ry.of(y), n))
        .collect();
    pearson_unchecked("spearman", &ranked)
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
    check_runs(what, &singles(x, y))
}

fn check_runs(what: &'static str, runs: &[(f64, f64, u64)]) -> Result<(), StatsError> {
    let n: u64 = runs.iter().map(|r| r.2).sum();
    if n < 2 {
        return Err(StatsError::TooFew {
            what,
            n: n as usize,
            needed: 2,
        });
    }
    for (input, pick) in [("x", 0), ("y", 1)] {
        let mut index = 0u64;
        for r in runs {
            let value = if pick == 0 { r.0 } else { r.1 };
            if r.2 > 0 && !value.is_finite() {
                return Err(StatsError::NonFinite {
                    what,
                    input,
                    index: index as usize,
                    value,
                });
            }
            index += r.2;
        }
    }
    Ok(())
}

/// Two-pass Pearson over the runs written out, pair by pair in order (so every sum rounds as
/// it would over the written-out slices).
fn pearson_unchecked(what: &'static str, runs: &[(f64, f64, u64)]) -> Result<f64, StatsError> {
    let pairs = || {
        runs.iter()
            .flat_map(|&(x, y, c)| std::iter::repeat_n((x, y), c as usize))
    };
    let n = runs.iter().map(|r| r.2).sum::<u64>() as f64;
    let mx = pairs().map(|p| p.0).sum::<f64>() / n;
    let my = pairs().map(|p| p.1).sum::<f64>() / n;
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (a, b) in pairs() {
        let (dx, dy) = (a - mx, b - my);
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    // Constancy is tested on the data, not on sxx, which rounding can leave a hair above 0.
    let constant = |pick: fn(&(f64, f64, u64)) -> f64| {
        let mut live = runs.iter().filter(|r| r.2 > 0);
        let first = live.next().map(pick);
        live.all(|r| Some(pick(r)) == first)
    };
    if sxx == 0.0 || constant(|r| r.0) {
        return Err(StatsError::ZeroVariance { what, input: "x" });
    }
    if syy == 0.0 || constant(|r| r.1) {
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

    /// The run form equals the written-out form bit for bit (the aggregate stage's published
    /// correlations must not move), on heavy ties with a large offset.
    #[test]
    fn runs_equal_the_written_out_pairs_bit_for_bit() {
        let (x, y) = sample(20_000);
        // Group equal neighbours after sorting by (x, y), as the aggregate's group-by does.
        let mut pairs: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut runs: Vec<(f64, f64, u64)> = Vec::new();
        for &(a, b) in &pairs {
            match runs.last_mut() {
                Some(r) if r.0 == a && r.1 == b => r.2 += 1,
                _ => runs.push((a, b, 1)),
            }
        }
        assert!(runs.len() < pairs.len() / 3);
        let (xs, ys): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
        assert_eq!(
            pearson_runs(&runs).unwrap().to_bits(),
            pearson(&xs, &ys).unwrap().to_bits()
        );
        assert_eq!(
            spearman_runs(&runs).unwrap().to_bits(),
            spearman(&xs, &ys).unwrap().to_bits()
        );
        assert!(matches!(
            pearson_runs(&[(1.0, 2.0, 1)]),
            Err(StatsError::TooFew { n: 1, .. })
        ));
        assert!(matches!(
            spearman_runs(&[(1.0, 2.0, 5), (1.0, 3.0, 2)]),
            Err(StatsError::ZeroVariance { input: "x", .. })
        ));
        assert!(matches!(
            pearson_runs(&[(1.0, 2.0, 5), (f64::NAN, 3.0, 2)]),
            Err(StatsError::NonFinite { index: 5, .. })
        ));
    }

    #[test]
    fn full_size_runs() {
        let (x, y) = sample(111_111);
        let r = spearman(&x, &y).unwrap();
        assert!(r > 0.0 && r <= 1.0);
    }
}
