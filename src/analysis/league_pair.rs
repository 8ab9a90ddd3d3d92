//! One pair of a league: the two seatings' game tables read side by side, deal by deal, into
//! the pair's counts, per-game means with intervals, and the variance of the per-deal
//! statistics under paired deals against independent deals.
//!
//! Invariant: game `j` of the seating (a, b) and game `j` of the seating (b, a) are the same
//! deal when the league is paired; everything here is a function of the two point columns in
//! game order, summed sequentially, so it is the same on every thread count.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::results::league::{Estimate, PairResult, SeatingCounts, VarianceComparison};
use crate::stats::StatsError;

/// Points in a game: a seat wins with more than half of them.
pub const GAME_POINTS: u64 = 120;

/// Errors reading or summarising a pair.
#[derive(Debug, thiserror::Error)]
pub enum PairError {
    /// Polars failed reading a table.
    #[error("cannot read {path}: {source}")]
    Polars {
        /// the table
        path: PathBuf,
        /// the error
        source: PolarsError,
    },
    /// The two tables do not form a pair.
    #[error("{message}")]
    Shape {
        /// what is wrong
        message: String,
    },
    /// A statistic could not be computed.
    #[error("pair statistics: {0}")]
    Stats(#[from] StatsError),
}

/// The first seat's points of every game of a shard's `games.parquet`, in game order.
pub fn g1_points(games: &Path) -> Result<Vec<u64>, PairError> {
    let pl = |source| PairError::Polars {
        path: games.to_path_buf(),
        source,
    };
    let p = games.to_string_lossy().to_string();
    let df = LazyFrame::scan_parquet(PlRefPath::new(p.as_str()), ScanArgsParquet::default())
        .map_err(pl)?
        .select([col("game_id"), col("points_g1")])
        .sort(["game_id"], SortMultipleOptions::default())
        .collect()
        .map_err(pl)?;
    let c = df
        .column("points_g1")
        .map_err(pl)?
        .cast(&DataType::UInt64)
        .map_err(pl)?;
    let ca = c.u64().map_err(pl)?;
    Ok(ca.iter().map(|v| v.unwrap_or(0)).collect())
}

/// Mean, sample variance (n - 1) of `xs`, summed in order.
fn mean_var(xs: impl Iterator<Item = f64> + Clone) -> (f64, f64, usize) {
    let n = xs.clone().count();
    let mean = xs.clone().sum::<f64>() / n as f64;
    let ss: f64 = xs.map(|x| (x - mean) * (x - mean)).sum();
    let var = if n > 1 { ss / (n - 1) as f64 } else { 0.0 };
    (mean, var, n)
}

/// The mean of `xs` with its normal interval at `z`.
fn estimate(xs: impl Iterator<Item = f64> + Clone, z: f64) -> Estimate {
    let (mean, var, n) = mean_var(xs);
    let se = (var / n as f64).sqrt();
    Estimate {
        value: mean,
        std_error: se,
        lo: mean - z * se,
        hi: mean + z * se,
    }
}

/// The variance of a per-deal statistic `f(x, y)` over paired deals (`x[j]`, `y[j]`) and over
/// independent deals (`x[j]`, `y[j + 1 mod n]`: the same games, re-paired so that no two
/// share a deal).
fn variance_comparison(x: &[f64], y: &[f64], f: impl Fn(f64, f64) -> f64) -> VarianceComparison {
    let n = x.len();
    let (_, paired, _) = mean_var((0..n).map(|j| f(x[j], y[j])));
    let (_, independent, _) = mean_var((0..n).map(|j| f(x[j], y[(j + 1) % n])));
    VarianceComparison::from_variances(paired, independent)
}

fn seating(a_points: impl Iterator<Item = u64>) -> SeatingCounts {
    let mut c = SeatingCounts::default();
    for p in a_points {
        c.games += 1;
        match (2 * p).cmp(&GAME_POINTS) {
            std::cmp::Ordering::Greater => c.a_wins += 1,
            std::cmp::Ordering::Less => c.b_wins += 1,
            std::cmp::Ordering::Equal => c.draws += 1,
        }
    }
    c
}

/// Score of a game with `p` points: 1, 1/2 or 0.
fn score(p: f64) -> f64 {
    let half = GAME_POINTS as f64 / 2.0;
    if p > half {
        1.0
    } else if p < half {
        0.0
    } else {
        0.5
    }
}

/// Summarise the pair (`a`, `b`) from `a`'s points with `a` in seat G1 (`ab`, the G1 points of
/// the seating a-vs-b) and from `b`'s points with `b` in seat G1 (`ba`), at `confidence`.
pub fn pair_result(
    a: &str,
    b: &str,
    ab: &[u64],
    ba: &[u64],
    confidence: f64,
) -> Result<PairResult, PairError> {
    if ab.len() != ba.len() || ab.len() < 2 {
        return Err(PairError::Shape {
            message: format!(
                "the seatings {a}-vs-{b} and {b}-vs-{a} hold {} and {} games; a pair needs the same number, at least 2",
                ab.len(),
                ba.len()
            ),
        });
    }
    if let Some(p) = ab.iter().chain(ba).find(|&&p| p > GAME_POINTS) {
        return Err(PairError::Shape {
            message: format!(
                "{a}-vs-{b}: a game with {p} points for one seat (at most {GAME_POINTS})"
            ),
        });
    }
    let z = crate::stats::z_critical(1.0 - confidence)?;
    // a's points in each seating, deal by deal.
    let x: Vec<f64> = ab.iter().map(|&p| p as f64).collect();
    let y: Vec<f64> = ba.iter().map(|&p| (GAME_POINTS - p) as f64).collect();
    let n = x.len();
    let both = |f: fn(f64) -> f64| {
        let (x, y) = (&x, &y);
        (0..n).map(move |j| (f(x[j]) + f(y[j])) / 2.0)
    };
    let half = GAME_POINTS as f64 / 2.0;
    let a_first = seating(ab.iter().copied());
    let b_first = {
        let c = seating(ba.iter().copied());
        SeatingCounts {
            games: c.games,
            a_wins: c.b_wins,
            b_wins: c.a_wins,
            draws: c.draws,
        }
    };
    Ok(PairResult {
        a: a.to_string(),
        b: b.to_string(),
        a_first,
        b_first,
        a_points: estimate(both(|p| p), z),
        a_score: estimate(both(score), z),
        a_win: estimate(both(|p| f64::from(u8::from(p > 60.0))), z),
        b_win: estimate(both(|p| f64::from(u8::from(p < 60.0))), z),
        points_variance: variance_comparison(&x, &y, |u, v| (u + v) / 2.0 - half),
        score_variance: variance_comparison(&x, &y, |u, v| (score(u) + score(v)) / 2.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_means_from_both_seatings() {
        // a wins 70-50 as G1 on deal 0, draws on deal 1; as G2 a has 120-80 = 40 and 120-61 = 59.
        let r = pair_result("a", "b", &[70, 60, 100], &[80, 61, 30], 0.95).unwrap();
        assert_eq!(
            r.a_first,
            SeatingCounts {
                games: 3,
                a_wins: 2,
                b_wins: 0,
                draws: 1
            }
        );
        assert_eq!(
            r.b_first,
            SeatingCounts {
                games: 3,
                a_wins: 1,
                b_wins: 2,
                draws: 0
            }
        );
        // a's points: (70 + 40)/2, (60 + 59)/2, (100 + 90)/2.
        let want = (55.0 + 59.5 + 95.0) / 3.0;
        assert!((r.a_points.value - want).abs() < 1e-12);
        assert!((r.a_win.value - 0.5).abs() < 1e-12);
        assert!((r.b_win.value - 2.0 / 6.0).abs() < 1e-12);
        assert!(r.a_points.lo < want && want < r.a_points.hi);
    }

    #[test]
    fn mirrored_deals_remove_the_deal_variance() {
        // a and b play identically: whoever holds the deal's cards scores the same, so over
        // both seatings a's points are exactly 60 on every deal: no variance left when paired.
        let ab = [90u64, 30, 75, 45, 61, 59];
        let ba = ab;
        let r = pair_result("a", "b", &ab, &ba, 0.95).unwrap();
        assert_eq!(r.points_variance.paired, 0.0);
        assert!(r.points_variance.independent > 0.0);
        assert_eq!(r.points_variance.reduction, 1.0);
    }

    #[test]
    fn unequal_or_tiny_seatings_are_refused() {
        assert!(pair_result("a", "b", &[70, 50], &[70], 0.95).is_err());
        assert!(pair_result("a", "b", &[70], &[70], 0.95).is_err());
        assert!(pair_result("a", "b", &[170, 50], &[70, 1], 0.95).is_err());
    }
}
