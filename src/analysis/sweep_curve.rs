//! A sweep's curve: from the two shards of every (point, opponent) pair, the point policy's win
//! rate in each seat and pooled, Wilson intervals, exact binomial tests against 0.5 and their
//! Holm adjustment across the sweep.
//!
//! Invariant: the output depends only on the shard counts and the settings, in their order.

use crate::results::sweep::{SeatRate, SweepCell, SweepResults};
use crate::stats::{StatsError, binom_test, holm, wilson};

/// The outcome counts of one shard, seen from seat G1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardOutcome {
    /// Games G1 won.
    pub g1_wins: u64,
    /// Games not tied.
    pub non_tied: u64,
    /// Tied games.
    pub ties: u64,
}

/// One (point, opponent) pair's two shards.
#[derive(Clone, Debug, PartialEq)]
pub struct PairOutcome {
    /// The parameter's value.
    pub value: f64,
    /// The point policy's name.
    pub policy: String,
    /// The opponent's name.
    pub opponent: String,
    /// Point in G1, opponent in G2.
    pub point_first: ShardOutcome,
    /// Opponent in G1, point in G2.
    pub point_second: ShardOutcome,
}

/// What a sweep's analysis needs besides the counts.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SweepSettings {
    /// Sweep name.
    pub name: String,
    /// Label.
    pub label: String,
    /// Report question.
    pub question: Option<String>,
    /// Parameter name.
    pub parameter: String,
    /// The template policy's kind.
    pub kind: String,
    /// Seed.
    pub seed: i64,
    /// Games per ordered matchup.
    pub games_per_matchup: u64,
    /// Wilson confidence.
    pub confidence: f64,
    /// Holm family alpha.
    pub family_alpha: f64,
    /// Opponent names, in order.
    pub opponents: Vec<String>,
    /// The grid value the other points are compared with on the same deals, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<f64>,
}

fn seat_rate(wins: u64, non_tied: u64, ties: u64, confidence: f64) -> Result<SeatRate, StatsError> {
    let i = wilson(wins, non_tied, confidence)?;
    Ok(SeatRate {
        wins,
        non_tied,
        ties,
        rate: i.rate,
        lo: i.lo,
        hi: i.hi,
    })
}

/// The sweep's results from its pairs, in grid order.
pub fn sweep_curve(
    pairs: &[PairOutcome],
    settings: &SweepSettings,
) -> Result<SweepResults, StatsError> {
    let c = settings.confidence;
    let mut cells = Vec::with_capacity(pairs.len());
    let mut raw = Vec::with_capacity(pairs.len());
    for p in pairs {
        let (a, b) = (p.point_first, p.point_second);
        let g2_wins = b.non_tied - b.g1_wins;
        let as_g1 = seat_rate(a.g1_wins, a.non_tied, a.ties, c)?;
        let as_g2 = seat_rate(g2_wins, b.non_tied, b.ties, c)?;
        let both = seat_rate(
            a.g1_wins + g2_wins,
            a.non_tied + b.non_tied,
            a.ties + b.ties,
            c,
        )?;
        let p_value = binom_test(both.wins, both.non_tied, 0.5)?;
        raw.push(p_value);
        cells.push(SweepCell {
            value: p.value,
            policy: p.policy.clone(),
            opponent: p.opponent.clone(),
            as_g1,
            as_g2,
            both,
            p_value,
            p_holm: p_value,
            beats: false,
            loses: false,
            vs_baseline: None,
        });
    }
    let alpha = settings.family_alpha;
    for (cell, adj) in cells.iter_mut().zip(holm(&raw)) {
        cell.p_holm = adj;
        let reject = adj.value.is_none_or(|v| v < alpha);
        cell.beats = reject && 2 * cell.both.wins > cell.both.non_tied;
        cell.loses = reject && 2 * cell.both.wins < cell.both.non_tied;
    }
    Ok(SweepResults {
        name: settings.name.clone(),
        label: settings.label.clone(),
        question: settings.question.clone(),
        parameter: settings.parameter.clone(),
        kind: settings.kind.clone(),
        seed: settings.seed,
        games_per_matchup: settings.games_per_matchup,
        confidence: settings.confidence,
        family_alpha: alpha,
        correction: "holm".into(),
        opponents: settings.opponents.clone(),
        points: cells,
        baseline: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SweepSettings {
        SweepSettings {
            name: "s".into(),
            label: "S".into(),
            question: None,
            parameter: "k".into(),
            kind: "switch".into(),
            seed: 1,
            games_per_matchup: 5000,
            confidence: 0.95,
            family_alpha: 0.05,
            opponents: vec!["greedy".into()],
            baseline: None,
        }
    }

    fn pair(value: f64, first_wins: u64, second_g1_wins: u64) -> PairOutcome {
        PairOutcome {
            value,
            policy: format!("s-k{value}"),
            opponent: "greedy".into(),
            point_first: ShardOutcome {
                g1_wins: first_wins,
                non_tied: 5000,
                ties: 0,
            },
            point_second: ShardOutcome {
                g1_wins: second_g1_wins,
                non_tied: 5000,
                ties: 0,
            },
        }
    }

    /// Pooled counts 5210, 5100, 4900, 5000 of 10,000; expected p-values from R 4.2.2:
    /// `p.adjust(sapply(c(5210, 5100, 4900, 5000), function(k) binom.test(k, 10000)$p.value),
    /// "holm")` = 0.000111297675188, 0.139756583115, 0.139756583115, 1.
    #[test]
    fn pools_both_seats_and_adjusts_with_holm() {
        // Point wins as G1 a, and as G2 5000 - b.
        let pairs = [
            pair(0.0, 2700, 5000 - 2510),
            pair(1.0, 2600, 5000 - 2500),
            pair(2.0, 2400, 5000 - 2500),
            pair(3.0, 2500, 5000 - 2500),
        ];
        let r = sweep_curve(&pairs, &settings()).unwrap();
        let wins: Vec<u64> = r.points.iter().map(|c| c.both.wins).collect();
        assert_eq!(wins, [5210, 5100, 4900, 5000]);
        assert_eq!(r.points[0].as_g1.wins, 2700);
        assert_eq!(r.points[0].as_g2.wins, 2510);
        let holm: Vec<f64> = r.points.iter().map(|c| c.p_holm.value.unwrap()).collect();
        for (a, e) in holm.iter().zip([
            0.000_111_297_675_188,
            0.139_756_583_115,
            0.139_756_583_115,
            1.0,
        ]) {
            assert!((a - e).abs() <= 1e-11, "{a} vs {e}");
        }
        assert!(r.points[0].beats && !r.points[0].loses);
        assert!(r.points[1..].iter().all(|c| !c.beats && !c.loses));
        assert_eq!(r.correction, "holm");
    }
}
