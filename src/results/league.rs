//! The results of a league: every listed policy against every other in both seats, paired
//! deals, Bradley-Terry ratings, each policy's score against the anchors, and the section-6
//! gaps between the paper's policies and the strong agents.
//!
//! Invariant: lists are in the league's policy order (pairs: row-major over the upper triangle),
//! so the JSON is byte-stable for the same inputs.

use serde::{Deserialize, Serialize};

use crate::game::RulesSpec;
use crate::policy::PolicySpec;

/// How a league was run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LeagueSettings {
    /// The seed of the chacha deals.
    pub seed: u64,
    /// Deals per pair of policies; each seating plays every deal once when paired.
    pub games_per_pair: u64,
    /// Whether the two seatings of a pair share their deals (duplicate format).
    pub paired: bool,
    /// The policies, in league order.
    pub policies: Vec<PolicySpec>,
    /// The policy whose rating is fixed at 0.
    pub reference: String,
    /// Level of every interval.
    pub confidence: f64,
    /// The policies every other is scored against.
    pub anchors: Vec<String>,
    /// The learned and search agents of the paper's section 6.
    pub agents: Vec<String>,
    /// The variant the games were played under; omitted when standard, so a league without
    /// `rules` keeps its bytes.
    #[serde(default, skip_serializing_if = "RulesSpec::is_default")]
    pub rules: RulesSpec,
}

/// A mean (or an estimate) with its interval.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Estimate {
    /// The value.
    pub value: f64,
    /// Its standard error.
    pub std_error: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// One seating's game counts, from the first-listed policy's (`a`'s) side.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct SeatingCounts {
    /// Games played.
    pub games: u64,
    /// Won by `a`.
    pub a_wins: u64,
    /// Won by `b`.
    pub b_wins: u64,
    /// 60-60 draws.
    pub draws: u64,
}

/// Variance of a per-deal statistic under paired deals and under independent deals.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct VarianceComparison {
    /// Sample variance of the statistic over paired deals (both seatings on the same deal).
    pub paired: f64,
    /// Sample variance of the same statistic when the two seatings' games come from different
    /// deals (the independent design, measured on the same games re-paired across deals).
    pub independent: f64,
    /// 1 - paired / independent: the share of the variance the pairing removes.
    pub reduction: f64,
    /// independent / paired: how many times more deals the independent design needs for the
    /// same precision (`None` when pairing removes all the variance).
    pub efficiency: Option<f64>,
}

impl VarianceComparison {
    /// The comparison of two variances (no reduction, efficiency 1, when both are 0).
    pub fn from_variances(paired: f64, independent: f64) -> VarianceComparison {
        let (reduction, efficiency) = if independent > 0.0 && paired > 0.0 {
            (1.0 - paired / independent, Some(independent / paired))
        } else if independent > 0.0 {
            (1.0, None)
        } else {
            (0.0, Some(1.0))
        };
        VarianceComparison {
            paired,
            independent,
            reduction,
            efficiency,
        }
    }
}

/// Everything about one pair of policies.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairResult {
    /// The first-listed policy.
    pub a: String,
    /// The second.
    pub b: String,
    /// `a` in seat G1.
    pub a_first: SeatingCounts,
    /// `b` in seat G1.
    pub b_first: SeatingCounts,
    /// `a`'s points per game over both seatings.
    pub a_points: Estimate,
    /// `b`'s points per game over both seatings, when some game's points do not sum to 120
    /// (Briscola a 31); otherwise it is 120 minus `a_points` and omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b_points: Option<Estimate>,
    /// `a`'s score per game (win 1, draw 1/2, loss 0) over both seatings.
    pub a_score: Estimate,
    /// `a`'s win rate over all games of both seatings.
    pub a_win: Estimate,
    /// `b`'s win rate over all games of both seatings.
    pub b_win: Estimate,
    /// The per-deal point margin's variance, paired against independent deals.
    pub points_variance: VarianceComparison,
    /// The per-deal score's variance, paired against independent deals.
    pub score_variance: VarianceComparison,
    /// Paired deals only: how the two games of each deal went together, `[x][y]` the number
    /// of deals whose `a`-in-G1 game had G1 result `x` and whose `b`-in-G1 game had G1 result
    /// `y` (0 G1 won, 1 G1 lost, 2 draw). The fit's errors are clustered by deal from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_outcomes: Option<[[u64; 3]; 3]>,
}

/// One policy's Bradley-Terry rating.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rating {
    /// The policy.
    pub policy: String,
    /// 1-based rank by rating (1 = strongest).
    pub rank: usize,
    /// Log-odds of beating the reference policy in a decisive game (0 for the reference, whose
    /// interval is then empty: it is fixed, not estimated).
    pub rating: Estimate,
    /// The same on the Elo scale (400 / ln 10 times the rating).
    pub elo: Estimate,
    /// Mean score against all other policies (each opponent weighted equally).
    pub score: Estimate,
}

/// One policy's results against one anchor.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AnchorRow {
    /// The policy.
    pub policy: String,
    /// Its score per game against the anchor.
    pub score: Estimate,
    /// Its points per game against the anchor.
    pub points: Estimate,
    /// Its win rate against the anchor.
    pub win: Estimate,
}

/// Every other policy against one anchor.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AnchorTable {
    /// The anchor policy.
    pub anchor: String,
    /// One row per other policy, in league order.
    pub rows: Vec<AnchorRow>,
}

/// The gap between one of the paper's policies and one strong agent.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Gap {
    /// The paper's policy.
    pub policy: String,
    /// The agent.
    pub agent: String,
    /// Agent's rating minus the policy's (log-odds), with the interval from the covariance.
    pub rating_gap: Estimate,
    /// Agent's points per game minus the policy's, head to head.
    pub points_margin: Estimate,
    /// Agent's win rate against the policy.
    pub agent_win: Estimate,
    /// The policy's win rate against the agent.
    pub policy_win: Estimate,
}

/// The Bradley-Terry fit's summary.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LeagueFit {
    /// Decisive games fitted (draws are left out of the fit).
    pub decisive_games: u64,
    /// Draws (60-60), reported but not fitted.
    pub draws: u64,
    /// Seat G1's advantage (the intercept, log-odds).
    pub seat_advantage: Estimate,
    /// Residual deviance of the grouped fit (R's `deviance()`).
    pub deviance: f64,
    /// Its degrees of freedom (rows - parameters).
    pub df_residual: u64,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// Present when the ratings' and the intercept's standard errors are cluster-robust over
    /// deals: a two-player league on paired deals (a cluster is one pair's deal, played in
    /// both seatings) and a three-player league (a cluster is a deal, played in all six
    /// seatings). Absent on unpaired deals, whose errors are model-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clustered: Option<ClusteredErrors>,
}

/// How a fit's cluster-robust standard errors compare with the model-based ones they replace.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ClusteredErrors {
    /// Clusters with a decisive game (two players: deals summed over the pairs).
    pub deals: u64,
    /// Per coefficient (the intercept, then each non-reference policy in league order): the
    /// model-based standard error, (X'WX)^{-1}'s.
    pub model_std_errors: Vec<f64>,
    /// The same coefficients' cluster-robust standard errors (the ones reported).
    pub robust_std_errors: Vec<f64>,
    /// The smallest and largest ratio robust / model-based over the ratings (the design's
    /// policy columns).
    pub ratio_range: [f64; 2],
    /// The same ratio for the seat advantage (the intercept).
    pub seat_ratio: f64,
}

/// Variance reduction from paired deals over a set of pairs (pooled: mean of the variances).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairingSummary {
    /// The pairs pooled (`a-vs-b`).
    pub pairs: Vec<String>,
    /// Points margin, pooled.
    pub points: VarianceComparison,
    /// Score, pooled.
    pub score: VarianceComparison,
}

/// One league's results.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LeagueResults {
    /// The league's name.
    pub name: String,
    /// Label.
    pub label: String,
    /// How it was run.
    pub settings: LeagueSettings,
    /// The fit.
    pub fit: LeagueFit,
    /// Ratings in league order.
    pub ratings: Vec<Rating>,
    /// Every pair.
    pub pairs: Vec<PairResult>,
    /// Every policy against each anchor present.
    pub anchors: Vec<AnchorTable>,
    /// The paper's policies against each agent present.
    pub gaps: Vec<Gap>,
    /// Variance reduction of paired deals over the pairs of the paper's policies (`None` when
    /// the league is not paired or holds fewer than two of them).
    pub pairing: Option<PairingSummary>,
    /// Three players: each policy's standing over every seating (empty, and omitted, for two).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standings: Vec<Standing>,
    /// A league of exploit agents: the reduced game solved exactly, with the targets' exact
    /// exploitability beside the exploit agent's sampled bound (absent, and omitted, otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<super::reduced::ReducedResults>,
}

/// One policy's standing in a three-player league, over every seating of every deal.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Standing {
    /// The policy.
    pub policy: String,
    /// 1-based rank by share of games won (1 = most).
    pub rank: usize,
    /// Share of games won: a game's win goes to the seat with the most points, and a tie for
    /// first gives each of the tied seats an equal share (1/2 or 1/3). Interval: normal over
    /// deals (each deal's mean over its six seatings).
    pub win_share: Estimate,
    /// Games won outright (no tie for first), over every seating.
    pub outright_wins: u64,
    /// Games tied for first, over every seating.
    pub tied_first: u64,
    /// Points per game (interval as for the share).
    pub points: Estimate,
    /// This policy's share of games won less that of the policy ranked just below it, as the
    /// mean of the per-deal differences (both shares on the same deals) with its normal
    /// interval over deals; absent for the last. An interval holding 0 leaves the two ranks
    /// not separated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ahead_of_next: Option<Estimate>,
}
