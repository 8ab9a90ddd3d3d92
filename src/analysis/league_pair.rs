//! One pair of a league: the two seatings' game tables read side by side, deal by deal, into
//! the pair's counts, per-game means with intervals, and the variance of the per-deal
//! statistics under paired deals against independent deals.
//!
//! A game is won by the seat with more points (also in Briscola a 31, where the claimant is the
//! only seat at the target), drawn when they are equal.
//!
//! The deal is the independent unit: a three-player pair reads three seatings and their
//! mirrors on the same deals ([`pair_result_over_deals`]), and averages them per deal before
//! any mean or interval. The point margin whose variance is compared is half a's points less
//! b's (a's points less 60 when a game's points sum to 120).
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

/// Each game's points of the seats whose point columns are `columns` (`points_g1`,
/// `points_g2` in a study shard; `points_s1`, `points_s2` in a rules league's seat table), in
/// game order.
pub fn seat_points(games: &Path, columns: [&str; 2]) -> Result<Vec<[u64; 2]>, PairError> {
    let mut c = point_columns(games, &columns)?.into_iter();
    let (x, y) = (c.next().unwrap_or_default(), c.next().unwrap_or_default());
    Ok(x.into_iter().zip(y).map(|(a, b)| [a, b]).collect())
}

/// The columns `columns` of a game table, each in game order.
pub fn point_columns(games: &Path, columns: &[&str]) -> Result<Vec<Vec<u64>>, PairError> {
    let pl = |source| PairError::Polars {
        path: games.to_path_buf(),
        source,
    };
    let p = games.to_string_lossy().to_string();
    let select: Vec<Expr> = std::iter::once(col("game_id"))
        .chain(columns.iter().map(|c| col(*c)))
        .collect();
    let df = LazyFrame::scan_parquet(PlRefPath::new(p.as_str()), ScanArgsParquet::default())
        .map_err(pl)?
        .select(select)
        .sort(["game_id"], SortMultipleOptions::default())
        .collect()
        .map_err(pl)?;
    columns
        .iter()
        .map(|c| {
            let c = df
                .column(c)
                .map_err(pl)?
                .cast(&DataType::UInt64)
                .map_err(pl)?;
            Ok(c.u64()
                .map_err(pl)?
                .iter()
                .map(|v| v.unwrap_or(0))
                .collect())
        })
        .collect()
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
pub(crate) fn estimate(xs: impl Iterator<Item = f64> + Clone, z: f64) -> Estimate {
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
/// share a deal). The rows are `blocks` blocks of `n` games, game `j` of every block deal `j`;
/// a deal's statistic is the mean of its blocks' (one block: the statistic itself).
fn variance_comparison(
    x: &[f64],
    y: &[f64],
    blocks: usize,
    f: impl Fn(f64, f64) -> f64,
) -> VarianceComparison {
    let n = x.len() / blocks;
    let per_deal = |shift: usize| -> Vec<f64> {
        (0..n)
            .map(|j| {
                let k = (j + shift) % n;
                let s: f64 = (0..blocks).map(|g| f(x[g * n + j], y[g * n + k])).sum();
                s / blocks as f64
            })
            .collect()
    };
    let (_, paired, _) = mean_var(per_deal(0).into_iter());
    let (_, independent, _) = mean_var(per_deal(1).into_iter());
    VarianceComparison::from_variances(paired, independent)
}

fn seating(games: &[[u64; 2]]) -> SeatingCounts {
    let mut c = SeatingCounts::default();
    for [p, q] in games {
        c.games += 1;
        match p.cmp(q) {
            std::cmp::Ordering::Greater => c.a_wins += 1,
            std::cmp::Ordering::Less => c.b_wins += 1,
            std::cmp::Ordering::Equal => c.draws += 1,
        }
    }
    c
}

/// Score of a game where one seat has `p` points and the other `q`: 1, 1/2 or 0 (the most
/// points win: also in Briscola a 31, where only the claimant reaches the target).
fn score(p: u64, q: u64) -> f64 {
    match p.cmp(&q) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Less => 0.0,
        std::cmp::Ordering::Equal => 0.5,
    }
}

/// How the two games of each deal went together (see [`PairResult::deal_outcomes`]): game `j`
/// of `ab` (`a` in G1) and of `ba` (`b` in G1) is deal `j`; each game's G1 result is 0 won,
/// 1 lost, 2 drawn.
pub fn deal_outcomes(ab: &[[u64; 2]], ba: &[[u64; 2]]) -> [[u64; 3]; 3] {
    let result = |[p, q]: [u64; 2]| match p.cmp(&q) {
        std::cmp::Ordering::Greater => 0,
        std::cmp::Ordering::Less => 1,
        std::cmp::Ordering::Equal => 2,
    };
    let mut t = [[0u64; 3]; 3];
    for (&x, &y) in ab.iter().zip(ba) {
        t[result(x)][result(y)] += 1;
    }
    t
}

/// Summarise the pair (`a`, `b`) from each game's (first seat, second seat) points with `a`
/// in the first seat (`ab`, the seating a-vs-b) and with `b` in the first seat (`ba`), at
/// `confidence`. Game `j` of both is deal `j`.
pub fn pair_result(
    a: &str,
    b: &str,
    ab: &[[u64; 2]],
    ba: &[[u64; 2]],
    confidence: f64,
) -> Result<PairResult, PairError> {
    pair_result_over_deals(a, b, ab, ba, 1, confidence)
}

/// [`pair_result`] for games in `blocks` blocks of `n` deals (a three-player pair: the three
/// seatings where `a` sits before `b`, each matched with its mirror): game `j` of every block
/// of `ab` and of `ba` is deal `j`. The counts count games; every mean and interval is over
/// deals (a deal's statistic averaged over its `2 * blocks` games), so the deal stays the
/// independent unit. One block is [`pair_result`].
pub fn pair_result_over_deals(
    a: &str,
    b: &str,
    ab: &[[u64; 2]],
    ba: &[[u64; 2]],
    blocks: usize,
    confidence: f64,
) -> Result<PairResult, PairError> {
    let blocks = blocks.max(1);
    if ab.len() != ba.len() || ab.len() < 2 * blocks || !ab.len().is_multiple_of(blocks) {
        return Err(PairError::Shape {
            message: format!(
                "the seatings {a}-vs-{b} and {b}-vs-{a} hold {} and {} games; a pair needs the same number, at least 2 deals in each of {blocks} block(s) of equal size",
                ab.len(),
                ba.len()
            ),
        });
    }
    if let Some([p, q]) = ab.iter().chain(ba).find(|[p, q]| p + q > GAME_POINTS) {
        return Err(PairError::Shape {
            message: format!(
                "{a}-vs-{b}: a game with {p} + {q} points for the two seats (at most {GAME_POINTS})"
            ),
        });
    }
    let z = crate::stats::z_critical(1.0 - confidence)?;
    // a's and b's points in each seating, deal by deal.
    let x: Vec<f64> = ab.iter().map(|g| g[0] as f64).collect();
    let y: Vec<f64> = ba.iter().map(|g| g[1] as f64).collect();
    let sx: Vec<f64> = ab.iter().map(|g| score(g[0], g[1])).collect();
    let sy: Vec<f64> = ba.iter().map(|g| score(g[1], g[0])).collect();
    // a's margin over b, halved, in each game: a's points less 60 when a game's points sum to
    // 120, and the margin's own scale when they do not (Briscola a 31).
    let mx: Vec<f64> = ab
        .iter()
        .map(|g| (g[0] as f64 - g[1] as f64) / 2.0)
        .collect();
    let my: Vec<f64> = ba
        .iter()
        .map(|g| (g[1] as f64 - g[0] as f64) / 2.0)
        .collect();
    let n = x.len() / blocks;
    // Per deal: the mean over its blocks of the mean of its two mirrored games.
    let both = |x: &[f64], y: &[f64], f: fn(f64) -> f64| -> Vec<f64> {
        (0..n)
            .map(|j| {
                let s: f64 = (0..blocks)
                    .map(|g| (f(x[g * n + j]) + f(y[g * n + j])) / 2.0)
                    .sum();
                s / blocks as f64
            })
            .collect()
    };
    let swapped = |c: SeatingCounts| SeatingCounts {
        games: c.games,
        a_wins: c.b_wins,
        b_wins: c.a_wins,
        draws: c.draws,
    };
    // Only when some game's points do not sum to 120 (Briscola a 31) is b's mean not
    // 120 minus a's; omitted otherwise, so a standard pair keeps its bytes.
    let b_points = ab
        .iter()
        .chain(ba)
        .any(|[p, q]| p + q != GAME_POINTS)
        .then(|| {
            let bx: Vec<f64> = ab.iter().map(|g| g[1] as f64).collect();
            let by: Vec<f64> = ba.iter().map(|g| g[0] as f64).collect();
            estimate(both(&bx, &by, |p| p).into_iter(), z)
        });
    let ident = |p: f64| p;
    Ok(PairResult {
        a: a.to_string(),
        b: b.to_string(),
        a_first: seating(ab),
        b_first: swapped(seating(ba)),
        a_points: estimate(both(&x, &y, ident).into_iter(), z),
        b_points,
        a_score: estimate(both(&sx, &sy, ident).into_iter(), z),
        a_win: estimate(
            both(&sx, &sy, |s| f64::from(u8::from(s == 1.0))).into_iter(),
            z,
        ),
        b_win: estimate(
            both(&sx, &sy, |s| f64::from(u8::from(s == 0.0))).into_iter(),
            z,
        ),
        points_variance: variance_comparison(&mx, &my, blocks, |u, v| (u + v) / 2.0),
        score_variance: variance_comparison(&sx, &sy, blocks, |u, v| (u + v) / 2.0),
        deal_outcomes: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games of 120 points from the first seat's points.
    fn full(g1: &[u64]) -> Vec<[u64; 2]> {
        g1.iter().map(|&p| [p, GAME_POINTS - p]).collect()
    }

    #[test]
    fn counts_and_means_from_both_seatings() {
        // a wins 70-50 as G1 on deal 0, draws on deal 1; as G2 a has 120-80 = 40 and 120-61 = 59.
        let r = pair_result("a", "b", &full(&[70, 60, 100]), &full(&[80, 61, 30]), 0.95).unwrap();
        assert!(r.b_points.is_none());
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
        let ab = full(&[90u64, 30, 75, 45, 61, 59]);
        let ba = ab.clone();
        let r = pair_result("a", "b", &ab, &ba, 0.95).unwrap();
        assert_eq!(r.points_variance.paired, 0.0);
        assert!(r.points_variance.independent > 0.0);
        assert_eq!(r.points_variance.reduction, 1.0);
    }

    #[test]
    fn unequal_or_tiny_seatings_are_refused() {
        assert!(pair_result("a", "b", &full(&[70, 50]), &full(&[70]), 0.95).is_err());
        assert!(pair_result("a", "b", &full(&[70]), &full(&[70]), 0.95).is_err());
        assert!(pair_result("a", "b", &[[170, 0], [50, 70]], &full(&[70, 1]), 0.95).is_err());
    }

    #[test]
    fn short_games_compare_points_and_report_both_means() {
        // Briscola a 31: the claimant has >= 31, the other less; points do not sum to 120.
        let ab = [[31, 12], [5, 33], [40, 0]];
        let ba = [[35, 20], [31, 30], [2, 31]];
        let r = pair_result("a", "b", &ab, &ba, 0.95).unwrap();
        assert_eq!((r.a_first.a_wins, r.a_first.b_wins), (2, 1));
        assert_eq!((r.b_first.a_wins, r.b_first.b_wins), (1, 2));
        let b = r
            .b_points
            .expect("b's mean is reported when points do not sum to 120");
        let want = ((12.0 + 35.0) + (33.0 + 31.0) + (0.0 + 2.0)) / 6.0;
        assert!((b.value - want).abs() < 1e-12);
        assert!((r.a_win.value - 0.5).abs() < 1e-12);
        // The point margin is half a's points less b's, not a's points less 60: paired, the
        // per-deal margins are ((31-12)/2 + (20-35)/2)/2 = 1, ((5-33)/2 + (30-31)/2)/2 = -7.25,
        // ((40-0)/2 + (31-2)/2)/2 = 17.25.
        let m: [f64; 3] = [1.0, -7.25, 17.25];
        let mean = m.iter().sum::<f64>() / 3.0;
        let var = m.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 2.0;
        assert!(
            (r.points_variance.paired - var).abs() < 1e-9,
            "{:?}",
            r.points_variance
        );
    }

    #[test]
    fn the_margin_equals_the_old_points_less_60_for_full_games() {
        let (ab, ba) = (full(&[90, 30, 75, 45, 61]), full(&[50, 70, 64, 45, 100]));
        let r = pair_result("a", "b", &ab, &ba, 0.95).unwrap();
        let d: Vec<f64> = (0..5)
            .map(|j| (ab[j][0] as f64 + ba[j][1] as f64) / 2.0 - 60.0)
            .collect();
        let (_, var, _) = mean_var(d.iter().copied());
        assert_eq!(r.points_variance.paired.to_bits(), var.to_bits());
    }

    #[test]
    fn blocks_of_one_deal_are_averaged_before_the_interval() {
        // Three blocks that repeat the same two-block pair: per deal the average is that of one
        // block, so means and standard errors equal the one-block pair's (n = deals, not 3n).
        let (ab, ba) = (full(&[70, 60, 100, 40]), full(&[80, 61, 30, 65]));
        let one = pair_result("a", "b", &ab, &ba, 0.95).unwrap();
        let rep = |v: &[[u64; 2]]| v.repeat(3);
        let three = pair_result_over_deals("a", "b", &rep(&ab), &rep(&ba), 3, 0.95).unwrap();
        for (x, y) in [
            (one.a_points, three.a_points),
            (one.a_score, three.a_score),
            (one.a_win, three.a_win),
            (one.b_win, three.b_win),
        ] {
            assert!((x.value - y.value).abs() < 1e-12);
            assert!((x.std_error - y.std_error).abs() < 1e-12, "{x:?} {y:?}");
        }
        assert_eq!(three.a_first.games, 12);
        assert!((one.points_variance.paired - three.points_variance.paired).abs() < 1e-9);
        // Blocks that do not divide the games, or fewer than two deals, are refused.
        assert!(
            pair_result_over_deals("a", "b", &rep(&ab)[..11], &rep(&ba)[..11], 3, 0.95).is_err()
        );
        assert!(pair_result_over_deals("a", "b", &ab[..3], &ba[..3], 3, 0.95).is_err());
    }
}
