//! A sweep's points against its baseline point on the same deals: per opponent, each point's
//! mean score difference from the baseline's (win 1, tie ½, loss 0), a paired t interval over
//! deals, and Holm's adjustment across the sweep's comparisons.
//!
//! Every point of a sweep plays the same deals in the same order (common random numbers), so
//! game `i` of a point's shard and game `i` of the baseline's shard are the same deal: the
//! difference is paired, and far more precise than comparing the two win rates. A unit is one
//! game index: the mean of the two seat orders' differences at that index (independent
//! across indices whether or not the two seat orders share their deals).
//!
//! Invariant: a comparison is made only between shards whose deals agree game by game (the
//! face-up cards are checked); otherwise it is an error naming the point, never a silent
//! unpaired comparison.

use crate::results::sweep::{BaselineDiff, SweepResults};
use crate::stats::{StatsError, holm, paired_t};

/// One (point, opponent) pair's games: the point policy's score and the face-up card of every
/// game, in each seat order.
#[derive(Clone, Debug, PartialEq)]
pub struct PairGames {
    /// The parameter's value.
    pub value: f64,
    /// The opponent's name.
    pub opponent: String,
    /// Point in G1: (score, face-up card id) per game.
    pub first: Vec<(f64, u8)>,
    /// Point in G2.
    pub second: Vec<(f64, u8)>,
}

/// Why a baseline comparison could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The sweep has no point at the baseline value against this opponent.
    #[error(
        "sweep `{sweep}`: no point at the baseline {parameter} = {baseline} against `{opponent}`"
    )]
    NoBaseline {
        /// The sweep.
        sweep: String,
        /// The parameter's name.
        parameter: String,
        /// The baseline value.
        baseline: f64,
        /// The opponent.
        opponent: String,
    },
    /// A point's games are not the baseline's deals.
    #[error(
        "sweep `{sweep}`: {parameter} = {value} against `{opponent}` did not play the baseline's deals (game {game} differs); a baseline comparison needs every point on the same deals"
    )]
    NotPaired {
        /// The sweep.
        sweep: String,
        /// The parameter's name.
        parameter: String,
        /// The point's value.
        value: f64,
        /// The opponent.
        opponent: String,
        /// First differing game index.
        game: usize,
    },
    /// A statistic failed.
    #[error(transparent)]
    Stats(#[from] StatsError),
}

/// Fill `r`'s cells' `vs_baseline` from `games` (one per cell, in the cells' order), comparing
/// every point with the point at `baseline` against the same opponent.
pub fn compare_with_baseline(
    r: &mut SweepResults,
    games: &[PairGames],
    baseline: f64,
) -> Result<(), BaselineError> {
    let mut diffs = Vec::with_capacity(games.len());
    for g in games {
        let base = games
            .iter()
            .find(|b| b.value == baseline && b.opponent == g.opponent)
            .ok_or_else(|| BaselineError::NoBaseline {
                sweep: r.name.clone(),
                parameter: r.parameter.clone(),
                baseline,
                opponent: g.opponent.clone(),
            })?;
        if g.value == baseline {
            diffs.push(None);
            continue;
        }
        let units = paired_units(g, base).map_err(|game| BaselineError::NotPaired {
            sweep: r.name.clone(),
            parameter: r.parameter.clone(),
            value: g.value,
            opponent: g.opponent.clone(),
            game,
        })?;
        diffs.push(Some(paired_t(&units, r.confidence)?));
    }
    let raw: Vec<_> = diffs.iter().flatten().map(|d| d.p).collect();
    let mut adjusted = holm(&raw).into_iter();
    r.baseline = Some(baseline);
    for (cell, d) in r.points.iter_mut().zip(diffs) {
        cell.vs_baseline = d.map(|d| {
            let p_holm = adjusted.next().expect("one adjusted p per comparison");
            let reject = p_holm.value.is_none_or(|v| v < r.family_alpha);
            BaselineDiff {
                deals: d.n,
                mean: d.mean,
                lo: d.lo,
                hi: d.hi,
                p_value: d.p,
                p_holm,
                better: reject && d.mean > 0.0,
                worse: reject && d.mean < 0.0,
            }
        });
    }
    Ok(())
}

/// Per game index, the mean over the two seat orders of the point's score minus the
/// baseline's; `Err(i)` when game `i`'s deal differs (or the tables differ in length).
fn paired_units(g: &PairGames, base: &PairGames) -> Result<Vec<f64>, usize> {
    let lens = [
        g.first.len(),
        g.second.len(),
        base.first.len(),
        base.second.len(),
    ];
    let n = lens[0];
    if lens.iter().any(|&l| l != n) {
        return Err(lens.into_iter().min().unwrap_or(0));
    }
    (0..n)
        .map(|i| {
            let (a, b) = (g.first[i], base.first[i]);
            let (c, d) = (g.second[i], base.second[i]);
            if a.1 != b.1 || c.1 != d.1 {
                return Err(i);
            }
            Ok(((a.0 - b.0) + (c.0 - d.0)) / 2.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::sweep_curve::{PairOutcome, ShardOutcome, SweepSettings, sweep_curve};

    fn results(values: &[f64]) -> SweepResults {
        let settings = SweepSettings {
            name: "s".into(),
            label: "l".into(),
            question: None,
            parameter: "eps".into(),
            kind: "epsilon".into(),
            seed: 1,
            games_per_matchup: 4,
            confidence: 0.95,
            family_alpha: 0.05,
            opponents: vec!["greedy".into()],
            baseline: Some(0.0),
        };
        let o = ShardOutcome {
            g1_wins: 2,
            non_tied: 4,
            ties: 0,
        };
        let pairs: Vec<PairOutcome> = values
            .iter()
            .map(|&value| PairOutcome {
                value,
                policy: format!("p{value}"),
                opponent: "greedy".into(),
                point_first: o,
                point_second: o,
            })
            .collect();
        sweep_curve(&pairs, &settings).unwrap()
    }

    fn games(value: f64, first: &[f64], second: &[f64]) -> PairGames {
        PairGames {
            value,
            opponent: "greedy".into(),
            first: first
                .iter()
                .enumerate()
                .map(|(i, &s)| (s, i as u8))
                .collect(),
            second: second
                .iter()
                .enumerate()
                .map(|(i, &s)| (s, i as u8))
                .collect(),
        }
    }

    /// The units are the per-deal means of the two seat orders' differences; the t interval
    /// on them is R 4.2.2's `t.test(c(0, -0.5, -0.25, -0.5))` (fields printed with
    /// `digits = 10`): mean -0.3125, interval -0.69337004521 0.06837004521, p 0.07960498082.
    #[test]
    fn pairs_game_by_game_and_matches_r() {
        let mut r = results(&[0.0, 0.5]);
        let g = [
            games(0.0, &[1.0, 1.0, 0.5, 1.0], &[0.0, 1.0, 1.0, 1.0]),
            games(0.5, &[1.0, 0.0, 0.0, 0.0], &[0.0, 1.0, 1.0, 1.0]),
        ];
        compare_with_baseline(&mut r, &g, 0.0).unwrap();
        assert_eq!(r.baseline, Some(0.0));
        assert!(r.points[0].vs_baseline.is_none(), "the baseline itself");
        let d = r.points[1].vs_baseline.unwrap();
        assert_eq!(d.deals, 4);
        assert!((d.mean - -0.3125).abs() < 1e-12, "{}", d.mean);
        assert!((d.lo - -0.69337004521).abs() < 5e-11, "{}", d.lo);
        assert!((d.hi - 0.06837004521).abs() < 5e-11, "{}", d.hi);
        assert!((d.p_value.value.unwrap() - 0.07960498082).abs() < 5e-11);
        assert!(!d.better && !d.worse, "not significant at 0.05");
    }

    #[test]
    fn different_deals_are_an_error_naming_the_point() {
        let mut r = results(&[0.0, 0.5]);
        let mut g = vec![
            games(0.0, &[1.0, 1.0], &[0.0, 1.0]),
            games(0.5, &[1.0, 0.0], &[0.0, 1.0]),
        ];
        g[1].second[1].1 = 9;
        let e = compare_with_baseline(&mut r, &g, 0.0).unwrap_err();
        assert!(e.to_string().contains("eps = 0.5"), "{e}");
        assert!(e.to_string().contains("game 1"), "{e}");
        let e = compare_with_baseline(&mut results(&[0.0, 0.5]), &g[..1], 0.7).unwrap_err();
        assert!(e.to_string().contains("no point at the baseline"), "{e}");
    }
}
