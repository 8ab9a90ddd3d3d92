//! The results of one sweep: per point and opponent, the point policy's win rate in each seat
//! and over both, with Wilson intervals, an exact binomial test against 0.5 and its Holm
//! adjustment across the sweep.
//!
//! Invariant: points are in grid order and, within a point, opponents in the configured order,
//! so the JSON is byte-stable for the same shards.

use serde::{Deserialize, Serialize};

use crate::stats::p_value::PValue;

/// One sweep's results.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepResults {
    /// The sweep's name.
    pub name: String,
    /// Human label.
    pub label: String,
    /// The report question it answers (e.g. "q1"), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The swept parameter's name.
    pub parameter: String,
    /// The template policy's kind (`switch`, `epsilon`, ...).
    pub kind: String,
    /// The ChaCha seed.
    pub seed: i64,
    /// Games per ordered matchup.
    pub games_per_matchup: u64,
    /// Confidence level of the Wilson intervals.
    pub confidence: f64,
    /// Family-wise alpha of the Holm-adjusted tests.
    pub family_alpha: f64,
    /// The multiplicity correction used across the sweep's tests: "holm".
    pub correction: String,
    /// The opponents' names, in order.
    pub opponents: Vec<String>,
    /// One row per (point, opponent), points in grid order.
    pub points: Vec<SweepCell>,
    /// The grid value every point is compared with on the same deals (`baseline`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<f64>,
}

/// A point against the sweep's baseline point (same opponent, same deals): the mean score
/// difference per deal (win 1, tie ½), its paired t interval and test, Holm-adjusted across
/// the sweep's comparisons.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct BaselineDiff {
    /// Deals compared (game indices; each holds both seat orders).
    pub deals: u64,
    /// Mean score difference, point minus baseline.
    pub mean: f64,
    /// Interval lower bound.
    pub lo: f64,
    /// Interval upper bound.
    pub hi: f64,
    /// Two-sided paired t test of no difference.
    pub p_value: PValue,
    /// Its Holm adjustment over the sweep's comparisons.
    pub p_holm: PValue,
    /// Holm rejects and the point scores more than the baseline.
    pub better: bool,
    /// Holm rejects and the point scores less.
    pub worse: bool,
}

/// A win count with its rate and Wilson interval.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeatRate {
    /// Games the point policy won.
    pub wins: u64,
    /// Games not tied.
    pub non_tied: u64,
    /// Tied games.
    pub ties: u64,
    /// wins / non_tied.
    pub rate: f64,
    /// Wilson lower bound.
    pub lo: f64,
    /// Wilson upper bound.
    pub hi: f64,
}

/// One point against one opponent.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepCell {
    /// The parameter's value.
    pub value: f64,
    /// The point's policy name.
    pub policy: String,
    /// The opponent's name.
    pub opponent: String,
    /// The point policy in seat G1 (it leads the first trick).
    pub as_g1: SeatRate,
    /// The point policy in seat G2.
    pub as_g2: SeatRate,
    /// Both seats pooled (equal games in each seat, so the seat advantage cancels).
    pub both: SeatRate,
    /// Two-sided exact binomial test of the pooled rate against 0.5.
    pub p_value: PValue,
    /// Its Holm adjustment over every cell of the sweep.
    pub p_holm: PValue,
    /// Holm rejects 0.5 and the point wins more than half its non-tied games.
    pub beats: bool,
    /// Holm rejects 0.5 and the point wins less than half.
    pub loses: bool,
    /// Against the sweep's baseline point on the same deals (not for the baseline itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_baseline: Option<BaselineDiff>,
}

impl SweepResults {
    /// The cells against `opponent`, in grid order.
    pub fn against<'a>(&'a self, opponent: &'a str) -> impl Iterator<Item = &'a SweepCell> + 'a {
        self.points.iter().filter(move |c| c.opponent == opponent)
    }
}
