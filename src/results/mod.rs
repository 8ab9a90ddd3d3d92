//! The machine-readable results of every study: what `outputs/results.json` holds and what the
//! plots and templates read.
//!
//! Invariant: key order is the struct field order and lists are in matchup order (row-major over
//! the study's policies), so the JSON is byte-stable for the same inputs.

use serde::{Deserialize, Serialize};

use crate::policy::PolicySpec;
pub mod fixture;
pub mod league;
pub mod reduced;
pub mod sweep;

pub use crate::stats::Interval;
use crate::stats::p_value::PValue;

/// Every study's results; the first study is the main one ("paper").
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Results {
    /// Studies in configuration order.
    pub studies: Vec<StudyResults>,
    /// Sweeps in name order (absent when there are none, so a study file without sweeps keeps
    /// its bytes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sweeps: Vec<sweep::SweepResults>,
    /// Leagues in configuration order (absent when there is none, so a study without a league
    /// keeps its bytes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leagues: Vec<league::LeagueResults>,
}

/// How a study was run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudySettings {
    /// `dotnet-replay` or `chacha`.
    pub deal_source: String,
    /// The seed.
    pub seed: i64,
    /// Games requested.
    pub games_requested: u64,
    /// Games per ordered matchup.
    pub games_per_matchup: u64,
    /// Games played in all.
    pub games_total: u64,
    /// The policies in matchup order.
    pub policies: Vec<PolicySpec>,
    /// The rules as JSON when they are not the standard two-player game (absent otherwise, so a
    /// standard study's results keep their bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The follow reading (`partner-aware`) when it is not verbatim (absent otherwise, so
    /// existing studies' results keep their bytes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
}

/// Results of one study.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudyResults {
    /// `paper` or the variant's name.
    pub name: String,
    /// Human label.
    pub label: String,
    /// How it was run.
    pub settings: StudySettings,
    /// Table 3, per ordered matchup.
    pub table3: Vec<MatchupRate>,
    /// H0(1).
    pub folk_theorem: FolkTheorem,
    /// H0(2).
    pub pairwise: Pairwise,
    /// The power analysis, both ways.
    pub power: Power,
    /// Table 4.
    pub table4: Table4,
    /// Table 5, per policy.
    pub table5: Vec<BriscolaUse>,
    /// Figure 2's data, per ordered matchup.
    pub figure2: Vec<Figure2Panel>,
    /// Correlation of Delta_briscola with the point difference, per matchup.
    pub correlations: Vec<Correlation>,
    /// Where G1's win rate crosses 0.5, per matchup.
    pub breakeven: Vec<BreakEven>,
}

/// One cell of Table 3.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MatchupRate {
    /// 1-based, row-major.
    pub match_id: u32,
    /// G1's policy name.
    pub g1_policy: String,
    /// G2's policy name.
    pub g2_policy: String,
    /// Games played.
    pub games: u64,
    /// Games tied 60-60.
    pub ties: u64,
    /// Games not tied.
    pub non_tied: u64,
    /// G1 wins.
    pub g1_wins: u64,
    /// G1's win rate among non-tied games.
    pub rate: f64,
    /// Wilson lower bound.
    pub lo: f64,
    /// Wilson upper bound.
    pub hi: f64,
}

/// H0(1), the folk theorem.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FolkTheorem {
    /// Games not tied in points and with B1 != B2.
    pub games: u64,
    /// Of those, won by the briscola-majority holder.
    pub majority_wins: u64,
    /// Share won by the majority holder.
    pub rate: f64,
    /// Wilson lower bound.
    pub lo: f64,
    /// Wilson upper bound.
    pub hi: f64,
    /// Pearson chi-square with Yates' correction on the 2x2 table (1 df).
    pub chi2_yates: f64,
    /// Its p-value.
    pub p_value: PValue,
    /// Rows: majority holder G1, G2; columns: winner G1, G2.
    pub table: [[u64; 2]; 2],
    /// Per ordered matchup.
    pub per_matchup: Vec<FolkCell>,
}

/// The folk-theorem share in one matchup.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FolkCell {
    /// G1's policy name.
    pub g1_policy: String,
    /// G2's policy name.
    pub g2_policy: String,
    /// Games not tied, B1 != B2.
    pub games: u64,
    /// Won by the majority holder.
    pub majority_wins: u64,
    /// Share.
    pub rate: f64,
    /// Wilson lower bound.
    pub lo: f64,
    /// Wilson upper bound.
    pub hi: f64,
}

/// H0(2): each non-baseline cell against the baseline rate.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Pairwise {
    /// (G1, G2) of the baseline cell.
    pub baseline: [String; 2],
    /// The baseline rate p0.
    pub p0: f64,
    /// Family-wise alpha.
    pub alpha_family: f64,
    /// Number of tests.
    pub tests: u64,
    /// alpha_family / tests.
    pub alpha_per_test: f64,
    /// Two-sided normal critical value at alpha_per_test.
    pub z_critical: f64,
    /// One per non-baseline cell, in matchup order.
    pub cells: Vec<PairwiseCell>,
}

/// One exact binomial test.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PairwiseCell {
    /// G1's policy name.
    pub g1_policy: String,
    /// G2's policy name.
    pub g2_policy: String,
    /// Trials.
    pub non_tied: u64,
    /// Successes.
    pub g1_wins: u64,
    /// Observed rate.
    pub rate: f64,
    /// Two-sided exact p-value (R's binom.test).
    pub p_value: PValue,
    /// min(1, tests * p).
    pub p_bonferroni: PValue,
    /// p_bonferroni < alpha_family.
    pub reject: bool,
}

/// The power analysis of section 3.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Power {
    /// The prose: Phi(|delta| sqrt(N) / 0.5 - z).
    pub normal_approx: PowerCalc,
    /// The released script: Cohen's h with N the smallest non-tied cell count.
    pub cohens_h: PowerCalc,
}

/// One power calculation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PowerCalc {
    /// Games per cell.
    pub n: u64,
    /// Effect: |p - 0.5|.
    pub delta: f64,
    /// Effect size h (Cohen's h only; the normal approximation's standardised effect otherwise).
    pub effect: f64,
    /// Per-test alpha.
    pub alpha: f64,
    /// Power.
    pub power: f64,
}

/// Table 4.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Table4 {
    /// Games in the fit.
    pub n: u64,
    /// Reference policy of the treatment coding.
    pub reference_policy: String,
    /// Terms: intercept, G1 dummies, G2 dummies, delta_briscola.
    pub terms: Vec<Term>,
    /// Log-likelihood at the optimum.
    pub log_likelihood: f64,
    /// Solver iterations (L-BFGS + Newton).
    pub iterations: u64,
    /// Largest absolute score (gradient) component at the optimum.
    pub max_abs_gradient: f64,
}

/// One regression term.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Term {
    /// Machine name: `intercept`, `g1_hoarder`, `g2_counter`, `delta_briscola`.
    pub term: String,
    /// Human label.
    pub label: String,
    /// Coefficient (log-odds).
    pub estimate: f64,
    /// Standard error from the observed information.
    pub std_error: f64,
    /// Wald z.
    pub z: f64,
    /// Two-sided Wald p-value.
    pub p_value: PValue,
    /// exp(estimate).
    pub odds_ratio: f64,
    /// Lower Wald bound of the odds ratio.
    pub lo: f64,
    /// Upper Wald bound of the odds ratio.
    pub hi: f64,
    /// Lower profile-likelihood bound of the odds ratio (R's `confint()` on the glm, as the
    /// paper's Table 4 reports it).
    pub profile_lo: f64,
    /// Upper profile-likelihood bound of the odds ratio.
    pub profile_hi: f64,
}

/// Table 5: how a policy uses its trumps.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BriscolaUse {
    /// Policy name.
    pub policy: String,
    /// Tricks in which it played a trump.
    pub n_played: u64,
    /// Of those, won.
    pub wins: u64,
    /// wins / n_played.
    pub win_rate: f64,
    /// Trick points summed over the won ones.
    pub points_won: u64,
    /// points_won / wins.
    pub mean_points_per_win: f64,
    /// Tricks where the other card was worth 0 points.
    pub wasted: u64,
    /// wasted / n_played.
    pub wasted_fraction: f64,
}

/// One panel of Figure 2.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Figure2Panel {
    /// G1's policy name.
    pub g1_policy: String,
    /// G2's policy name.
    pub g2_policy: String,
    /// Every Delta with at least one non-tied game, ascending.
    pub bins: Vec<Figure2Bin>,
}

/// One Delta bin.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Figure2Bin {
    /// Delta_briscola = B1 - B2.
    pub delta: i32,
    /// Non-tied games.
    pub n: u64,
    /// G1 wins.
    pub wins: u64,
    /// Rate.
    pub rate: f64,
    /// Wilson lower bound.
    pub lo: f64,
    /// Wilson upper bound.
    pub hi: f64,
    /// n >= the configured minimum: drawn.
    pub kept: bool,
}

/// Correlations in one matchup (all games).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Correlation {
    /// G1's policy name.
    pub g1_policy: String,
    /// G2's policy name.
    pub g2_policy: String,
    /// Games.
    pub n: u64,
    /// Pearson r of Delta_briscola and points_g1 - points_g2.
    pub pearson: Option<f64>,
    /// Spearman rho of the same.
    pub spearman: Option<f64>,
}

/// Where G1 breaks even.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BreakEven {
    /// G1's policy name.
    pub g1_policy: String,
    /// G2's policy name.
    pub g2_policy: String,
    /// Delta at which the kept bins' rate crosses 0.5 (linear interpolation between the two
    /// bins around the first crossing); `None` if it never crosses.
    pub delta: Option<f64>,
}
