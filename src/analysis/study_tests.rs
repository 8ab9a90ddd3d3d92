//! The test stage's work: from one study's shard counts to Table 3, H0(1), H0(2), the power
//! analysis, Table 5, Figure 2's bins, correlations and break-even points.
//!
//! Invariant: the output depends only on the counts and the `[test]`/`[plot]` settings; shards
//! are taken in matchup order, so the results are in matchup order too.

use serde::{Deserialize, Serialize};

use super::shard_counts::ShardCounts;
use crate::results::{
    BreakEven, BriscolaUse, Correlation, Figure2Bin, Figure2Panel, FolkCell, FolkTheorem,
    MatchupRate, Pairwise, PairwiseCell, Power, PowerCalc,
};
use crate::stats;

/// Errors assembling the tests.
#[derive(Debug, thiserror::Error)]
pub enum StudyTestError {
    /// A statistic could not be computed.
    #[error("{what}: {source}")]
    Stats {
        /// which statistic
        what: String,
        /// why
        source: stats::StatsError,
    },
    /// A statistic over no games: the study is too small for it (a matchup with no decided
    /// game, or none with unequal briscole).
    #[error(
        "{what}: no games to count; the study has too few games for it: give it more (its `games` or `games_per_matchup`)"
    )]
    TooFewGames {
        /// which statistic
        what: String,
    },
    /// The baseline cell is not among the shards.
    #[error("baseline matchup {0} vs {1} is not in the study")]
    NoBaseline(String, String),
}

/// Settings the test stage reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestSettings {
    /// Wilson confidence.
    pub confidence: f64,
    /// Family-wise alpha.
    pub family_alpha: f64,
    /// Baseline (G1, G2).
    pub baseline: [String; 2],
    /// Power: delta.
    pub power_delta: f64,
    /// Power: N of the prose.
    pub power_n: u64,
    /// Policy names in matchup order (Table 5's rows).
    pub policies: Vec<String>,
}

/// What the test stage writes (`tests.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyTests {
    /// Table 3.
    pub table3: Vec<MatchupRate>,
    /// H0(1).
    pub folk_theorem: FolkTheorem,
    /// H0(2).
    pub pairwise: Pairwise,
    /// Power.
    pub power: Power,
    /// Table 5.
    pub table5: Vec<BriscolaUse>,
    /// Figure 2 data.
    pub figure2: Vec<Figure2Panel>,
    /// Correlations.
    pub correlations: Vec<Correlation>,
    /// Break-even Delta.
    pub breakeven: Vec<BreakEven>,
}

/// Wilson interval of `s` successes in `n` trials; an error names the statistic `what`.
fn wilson(
    what: &str,
    s: u64,
    n: u64,
    conf: f64,
) -> Result<crate::results::Interval, StudyTestError> {
    stats::wilson(s, n, conf).map_err(stats_error(what))
}

/// A map_err adapter naming the statistic `what` that failed.
fn stats_error(what: &str) -> impl Fn(stats::StatsError) -> StudyTestError {
    let what = what.to_string();
    move |source| match source {
        stats::StatsError::Empty { .. } => StudyTestError::TooFewGames { what: what.clone() },
        source => StudyTestError::Stats {
            what: what.clone(),
            source,
        },
    }
}

/// Run every test of the study.
pub fn study_tests(shards: &[ShardCounts], s: &TestSettings) -> Result<StudyTests, StudyTestError> {
    let table3 = table3(shards, s.confidence)?;
    let folk_theorem = folk_theorem(shards, s.confidence)?;
    let pairwise = pairwise(shards, s)?;
    let power = power(shards, s, pairwise.alpha_per_test)?;
    let table5 = s
        .policies
        .iter()
        .map(|name| briscola_use(shards, name))
        .collect();
    let (figure2, breakeven) = figure2_and_breakeven(shards, s.confidence)?;
    let correlations = shards
        .iter()
        .map(|c| Correlation {
            g1_policy: c.g1_policy.clone(),
            g2_policy: c.g2_policy.clone(),
            n: c.games,
            pearson: c.pearson,
            spearman: c.spearman,
        })
        .collect();
    Ok(StudyTests {
        table3,
        folk_theorem,
        pairwise,
        power,
        table5,
        figure2,
        correlations,
        breakeven,
    })
}

/// Table 3: each matchup's G1 win rate over non-tied games, with its Wilson interval.
fn table3(shards: &[ShardCounts], confidence: f64) -> Result<Vec<MatchupRate>, StudyTestError> {
    let mut table3 = Vec::new();
    for (i, c) in shards.iter().enumerate() {
        let ci = wilson(
            &format!("Table 3 {} vs {}", c.g1_policy, c.g2_policy),
            c.g1_wins,
            c.non_tied,
            confidence,
        )?;
        table3.push(MatchupRate {
            match_id: i as u32 + 1,
            g1_policy: c.g1_policy.clone(),
            g2_policy: c.g2_policy.clone(),
            games: c.games,
            ties: c.ties,
            non_tied: c.non_tied,
            g1_wins: c.g1_wins,
            rate: ci.rate,
            lo: ci.lo,
            hi: ci.hi,
        });
    }
    Ok(table3)
}

/// H0(1): the pooled 2x2 table (majority holder x winner), its Yates chi-square and the
/// per-matchup shares of games the majority holder wins.
fn folk_theorem(shards: &[ShardCounts], confidence: f64) -> Result<FolkTheorem, StudyTestError> {
    let mut table = [[0u64; 2]; 2];
    let mut per_matchup = Vec::new();
    for c in shards {
        for (row, crow) in table.iter_mut().zip(&c.folk) {
            for (cell, v) in row.iter_mut().zip(crow) {
                *cell += v;
            }
        }
        per_matchup.push(folk_cell(c, confidence)?);
    }
    let folk_games: u64 = table.iter().flatten().sum();
    let majority_wins = table[0][0] + table[1][1];
    let ci = wilson("folk theorem", majority_wins, folk_games, confidence)?;
    let chi = stats::chi_square_yates(table).map_err(stats_error("folk theorem chi-square"))?;
    Ok(FolkTheorem {
        games: folk_games,
        majority_wins,
        rate: ci.rate,
        lo: ci.lo,
        hi: ci.hi,
        chi2_yates: chi.statistic,
        p_value: chi.p_value,
        table,
        per_matchup,
    })
}

/// One matchup's share of games the majority holder wins, with its Wilson interval.
fn folk_cell(c: &ShardCounts, confidence: f64) -> Result<FolkCell, StudyTestError> {
    let games: u64 = c.folk.iter().flatten().sum();
    let wins = c.folk[0][0] + c.folk[1][1];
    let what = format!("folk theorem, {} vs {}", c.g1_policy, c.g2_policy);
    let ci = wilson(&what, wins, games, confidence)?;
    Ok(FolkCell {
        g1_policy: c.g1_policy.clone(),
        g2_policy: c.g2_policy.clone(),
        games,
        majority_wins: wins,
        rate: ci.rate,
        lo: ci.lo,
        hi: ci.hi,
    })
}

/// H0(2): exact binomial tests of every other matchup against the baseline rate, Bonferroni.
fn pairwise(shards: &[ShardCounts], s: &TestSettings) -> Result<Pairwise, StudyTestError> {
    let base = shards
        .iter()
        .find(|c| c.g1_policy == s.baseline[0] && c.g2_policy == s.baseline[1])
        .ok_or_else(|| StudyTestError::NoBaseline(s.baseline[0].clone(), s.baseline[1].clone()))?;
    let p0 = base.g1_wins as f64 / base.non_tied as f64;
    let tests = shards.len() as u64 - 1;
    let alpha_per_test = s.family_alpha / tests.max(1) as f64;
    let z_critical = stats::z_critical(alpha_per_test).map_err(stats_error("critical value"))?;
    let mut cells = Vec::new();
    for c in shards.iter().filter(|c| !std::ptr::eq(*c, base)) {
        cells.push(pairwise_cell(c, p0, tests, s.family_alpha)?);
    }
    Ok(Pairwise {
        baseline: s.baseline.clone(),
        p0,
        alpha_family: s.family_alpha,
        tests,
        alpha_per_test,
        z_critical,
        cells,
    })
}

/// One matchup's exact binomial test against `p0`, Bonferroni-adjusted over `tests`.
fn pairwise_cell(
    c: &ShardCounts,
    p0: f64,
    tests: u64,
    family_alpha: f64,
) -> Result<PairwiseCell, StudyTestError> {
    let what = format!("binomial test {} vs {}", c.g1_policy, c.g2_policy);
    let p = stats::binom_test(c.g1_wins, c.non_tied, p0).map_err(stats_error(&what))?;
    let pb = stats::bonferroni(p, tests.max(1));
    Ok(PairwiseCell {
        g1_policy: c.g1_policy.clone(),
        g2_policy: c.g2_policy.clone(),
        non_tied: c.non_tied,
        g1_wins: c.g1_wins,
        rate: c.g1_wins as f64 / c.non_tied as f64,
        p_value: p,
        p_bonferroni: pb,
        reject: pb.log10 < family_alpha.log10(),
    })
}

/// Power, both ways: the prose's normal approximation at its N, and Cohen's h at the
/// smallest matchup's non-tied games, each at the per-test alpha.
fn power(
    shards: &[ShardCounts],
    s: &TestSettings,
    alpha_per_test: f64,
) -> Result<Power, StudyTestError> {
    let min_cell = shards.iter().map(|c| c.non_tied).min().unwrap_or(0);
    let h = stats::cohens_h(0.5 + s.power_delta, 0.5).map_err(stats_error("Cohen's h"))?;
    Ok(Power {
        normal_approx: PowerCalc {
            n: s.power_n,
            delta: s.power_delta,
            effect: s.power_delta / 0.5,
            alpha: alpha_per_test,
            power: stats::power_normal_approx(s.power_delta, s.power_n, alpha_per_test)
                .map_err(stats_error("power (normal approximation)"))?,
        },
        cohens_h: PowerCalc {
            n: min_cell,
            delta: s.power_delta,
            effect: h,
            alpha: alpha_per_test,
            power: stats::power_cohens_h(h, min_cell, alpha_per_test)
                .map_err(stats_error("power (Cohen's h)"))?,
        },
    })
}

/// Table 5's row of the policy `name`: its trump use pooled over both seats and all matchups.
fn briscola_use(shards: &[ShardCounts], name: &str) -> BriscolaUse {
    let (mut n, mut w, mut pts, mut z) = (0u64, 0u64, 0u64, 0u64);
    for c in shards {
        for (seat, pname) in [(0, &c.g1_policy), (1, &c.g2_policy)] {
            if pname == name {
                let u = &c.trump_use[seat];
                n += u.n_played;
                w += u.wins;
                pts += u.points_won;
                z += u.wasted;
            }
        }
    }
    let div = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    BriscolaUse {
        policy: name.to_string(),
        n_played: n,
        wins: w,
        win_rate: div(w, n),
        points_won: pts,
        mean_points_per_win: div(pts, w),
        wasted: z,
        wasted_fraction: div(z, n),
    }
}

/// Figure 2's panels (every bin kept) and each matchup's break-even Delta from them.
fn figure2_and_breakeven(
    shards: &[ShardCounts],
    confidence: f64,
) -> Result<(Vec<Figure2Panel>, Vec<BreakEven>), StudyTestError> {
    let mut figure2 = Vec::new();
    let mut breakeven = Vec::new();
    for c in shards {
        let bins = figure2_bins(c, confidence)?;
        breakeven.push(BreakEven {
            g1_policy: c.g1_policy.clone(),
            g2_policy: c.g2_policy.clone(),
            delta: crossing(&bins),
        });
        figure2.push(Figure2Panel {
            g1_policy: c.g1_policy.clone(),
            g2_policy: c.g2_policy.clone(),
            bins,
        });
    }
    Ok((figure2, breakeven))
}

/// One matchup's Figure 2 bins: G1's win rate per Delta, with Wilson intervals.
fn figure2_bins(c: &ShardCounts, confidence: f64) -> Result<Vec<Figure2Bin>, StudyTestError> {
    let mut bins = Vec::new();
    for d in &c.deltas {
        let ci = wilson("Figure 2 bin", d.g1_wins, d.non_tied, confidence)?;
        bins.push(Figure2Bin {
            delta: d.delta,
            n: d.non_tied,
            wins: d.g1_wins,
            rate: ci.rate,
            lo: ci.lo,
            hi: ci.hi,
            // The plot section's threshold is applied when results are read
            // ([`apply_min_games_per_bin`]), so changing it re-runs only plot and render.
            kept: true,
        });
    }
    Ok(bins)
}

/// Mark Figure 2's bins with fewer than `min` games as not kept, and recompute the break-even
/// points from the kept bins.
pub fn apply_min_games_per_bin(
    figure2: &mut [Figure2Panel],
    breakeven: &mut [BreakEven],
    min: u64,
) {
    for (panel, be) in figure2.iter_mut().zip(breakeven.iter_mut()) {
        for b in &mut panel.bins {
            b.kept = b.n >= min;
        }
        be.delta = crossing(&panel.bins);
    }
}

/// First crossing of rate 0.5 between consecutive kept bins, linearly interpolated.
fn crossing(bins: &[Figure2Bin]) -> Option<f64> {
    let kept: Vec<&Figure2Bin> = bins.iter().filter(|b| b.kept).collect();
    for w in kept.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.rate == 0.5 {
            return Some(a.delta as f64);
        }
        if (a.rate - 0.5) * (b.rate - 0.5) < 0.0 {
            let t = (0.5 - a.rate) / (b.rate - a.rate);
            return Some(a.delta as f64 + t * (b.delta - a.delta) as f64);
        }
    }
    kept.last()
        .filter(|b| b.rate == 0.5)
        .map(|b| b.delta as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(delta: i32, rate: f64, kept: bool) -> Figure2Bin {
        Figure2Bin {
            delta,
            n: 100,
            wins: 0,
            rate,
            lo: 0.0,
            hi: 1.0,
            kept,
        }
    }

    #[test]
    fn crossing_interpolates_between_kept_bins() {
        let bins = [
            bin(-4, 0.3, true),
            bin(-2, 0.45, true),
            bin(0, 0.55, true),
            bin(2, 0.7, true),
        ];
        assert!((crossing(&bins).unwrap() - (-1.0)).abs() < 1e-12);
        let none = [bin(0, 0.6, true), bin(2, 0.7, true)];
        assert_eq!(crossing(&none), None);
        // An unkept bin is skipped.
        let skip = [bin(-2, 0.4, true), bin(0, 0.9, false), bin(2, 0.6, true)];
        assert!((crossing(&skip).unwrap() - 0.0).abs() < 1e-12);
    }
}
