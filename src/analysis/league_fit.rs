//! A league's ratings: the Bradley-Terry model fitted as a grouped logistic regression on the
//! decisive games of every seating, with each policy's score against the anchors and the
//! section-6 gaps between the paper's policies and the strong agents.
//!
//! The model: for a game with policy i in seat G1 and j in G2,
//! `logit P(G1 wins | decisive) = s + r_i - r_j`, where `s` (the intercept) is seat G1's
//! advantage and `r_ref = 0` for the reference policy. Design: one column per other policy,
//! +1 for G1's policy, -1 for G2's; one row per seating, counting G1's wins among the decisive
//! games. Draws (60-60) are left out of the fit and reported beside it; scores count them as
//! half a win. This is R's `glm(cbind(g1_wins, g2_wins) ~ X, family = binomial)`.
//!
//! Standard errors are cluster-robust over deals whenever a deal is played more than once: on
//! paired deals (a two-player pair's two seatings of a deal, from each pair's
//! `deal_outcomes`) and in a three-player league (a game's three comparisons and a deal's six
//! seatings, counts split by deal from the caller); R's `sandwich::vcovCL(fit, cluster =
//! deal)`. On unpaired deals every game is its own deal and they are the model-based ones.
//!
//! Invariant: ratings, anchors and gaps are listed in the league's policy order, and every
//! interval is at the league's confidence.

use ndarray::Array2;

use super::league_pair::GAME_POINTS;
use crate::policy::PolicyKind;
use crate::results::league::{
    AnchorRow, AnchorTable, ClusteredErrors, Estimate, Gap, LeagueFit, LeagueResults,
    LeagueSettings, PairResult, PairingSummary, Rating, VarianceComparison,
};
use crate::stats::{
    Cluster, LogisticFit, LogisticOptions, StatsError, cluster_covariance, fit_grouped, z_critical,
};

/// The Elo scale: 400 / ln 10 Elo points per unit of log-odds.
pub const ELO_PER_LOGIT: f64 = 400.0 / std::f64::consts::LN_10;

/// The grouped data of the Bradley-Terry fit: the design (no intercept column), G1's wins and
/// the decisive games, one row per seating, in pair order (a first, then b first).
#[derive(Clone, Debug, PartialEq)]
pub struct BradleyTerryData {
    /// Rows x (policies - 1): +1 for G1's policy, -1 for G2's; the reference has no column.
    pub x: Array2<f64>,
    /// G1's wins per row.
    pub g1_wins: Vec<u64>,
    /// Decisive games per row.
    pub decisive: Vec<u64>,
    /// The policy of each design column.
    pub columns: Vec<String>,
}

/// The design of the fit over `policies` with `reference` fixed at 0.
pub fn bradley_terry_data(
    policies: &[String],
    reference: &str,
    pairs: &[PairResult],
) -> BradleyTerryData {
    let columns: Vec<String> = policies
        .iter()
        .filter(|p| *p != reference)
        .cloned()
        .collect();
    let col = |p: &str| columns.iter().position(|c| c == p);
    let mut x = Array2::zeros((2 * pairs.len(), columns.len()));
    let (mut g1_wins, mut decisive) = (Vec::new(), Vec::new());
    for (k, pr) in pairs.iter().enumerate() {
        for (r, (g1, g2, wins, losses)) in [
            (&pr.a, &pr.b, pr.a_first.a_wins, pr.a_first.b_wins),
            (&pr.b, &pr.a, pr.b_first.b_wins, pr.b_first.a_wins),
        ]
        .into_iter()
        .enumerate()
        {
            let row = 2 * k + r;
            if let Some(c) = col(g1) {
                x[[row, c]] = 1.0;
            }
            if let Some(c) = col(g2) {
                x[[row, c]] = -1.0;
            }
            g1_wins.push(wins);
            decisive.push(wins + losses);
        }
    }
    BradleyTerryData {
        x,
        g1_wins,
        decisive,
        columns,
    }
}

fn fixed_zero() -> Estimate {
    Estimate {
        value: 0.0,
        std_error: 0.0,
        lo: 0.0,
        hi: 0.0,
    }
}

fn wald(value: f64, std_error: f64, z: f64) -> Estimate {
    Estimate {
        value,
        std_error,
        lo: value - z * std_error,
        hi: value + z * std_error,
    }
}

fn scaled(e: Estimate, k: f64, shift: f64) -> Estimate {
    let (a, b) = (shift + k * e.lo, shift + k * e.hi);
    Estimate {
        value: shift + k * e.value,
        std_error: k.abs() * e.std_error,
        lo: a.min(b),
        hi: a.max(b),
    }
}

/// Residual deviance of a grouped binomial fit: 2 (saturated log-likelihood - `loglik`), both
/// without the binomial constants (R's `deviance()`).
fn deviance(successes: &[u64], trials: &[u64], loglik: f64) -> f64 {
    let mut sat = 0.0;
    for (&s, &t) in successes.iter().zip(trials) {
        let (s, t) = (s as f64, t as f64);
        if s > 0.0 {
            sat += s * (s / t).ln();
        }
        if t > s {
            sat += (t - s) * ((t - s) / t).ln();
        }
    }
    (2.0 * (sat - loglik)).max(0.0)
}

/// One policy's view of a pair: (score, points, own win rate, opponent's win rate).
fn view_of(pr: &PairResult, policy: &str) -> (Estimate, Estimate, Estimate, Estimate) {
    if pr.a == policy {
        (pr.a_score, pr.a_points, pr.a_win, pr.b_win)
    } else {
        (
            scaled(pr.a_score, -1.0, 1.0),
            pr.b_points
                .unwrap_or_else(|| scaled(pr.a_points, -1.0, GAME_POINTS as f64)),
            pr.b_win,
            pr.a_win,
        )
    }
}

fn pair_of<'a>(pairs: &'a [PairResult], p: &str, q: &str) -> Option<&'a PairResult> {
    pairs
        .iter()
        .find(|r| (r.a == p && r.b == q) || (r.a == q && r.b == p))
}

fn pooled(rows: &[&VarianceComparison]) -> VarianceComparison {
    let n = rows.len() as f64;
    let paired = rows.iter().map(|v| v.paired).sum::<f64>() / n;
    let independent = rows.iter().map(|v| v.independent).sum::<f64>() / n;
    crate::results::league::VarianceComparison::from_variances(paired, independent)
}

/// Fit the league: `pairs` in pair order (row-major over the upper triangle of the policy
/// list).
pub fn league_results(
    name: &str,
    label: &str,
    settings: &LeagueSettings,
    pairs: Vec<PairResult>,
    deals: Option<&[Cluster]>,
) -> Result<LeagueResults, StatsError> {
    let names: Vec<String> = settings.policies.iter().map(|p| p.name.clone()).collect();
    let z = z_critical(1.0 - settings.confidence)?;
    let data = bradley_terry_data(&names, &settings.reference, &pairs);
    let options = LogisticOptions {
        confidence: settings.confidence,
        ..LogisticOptions::default()
    };
    let fit = fit_grouped(&data.x, &data.g1_wins, &data.decisive, &options)?;
    let paired = paired_clusters(&pairs);
    // Fewer than two clusters (a degenerate league) cannot carry a clustered variance.
    let clusters = deals
        .or(paired.as_deref())
        .filter(|c| Cluster::counted(c) >= 2);
    let (covariance, clustered) = match clusters {
        Some(deals) => {
            let (v, c) = clustered_errors(&data, &fit, deals)?;
            (v, Some(c))
        }
        None => (fit.covariance.clone(), None),
    };
    let rated = Rated {
        columns: &data.columns,
        fit: &fit,
        covariance: &covariance,
        z,
    };
    let paper: Vec<&String> = settings
        .policies
        .iter()
        .filter(|p| is_paper_kind(p.kind) && !settings.agents.contains(&p.name))
        .map(|p| &p.name)
        .collect();
    let draws = pairs
        .iter()
        .map(|r| r.a_first.draws + r.b_first.draws)
        .sum();
    let df_residual = (data.g1_wins.len() as u64).saturating_sub(fit.coefficients.len() as u64);
    let seat = &fit.coefficients[0];
    Ok(LeagueResults {
        name: name.to_string(),
        label: label.to_string(),
        settings: settings.clone(),
        fit: LeagueFit {
            decisive_games: data.decisive.iter().sum(),
            draws,
            seat_advantage: wald(seat.estimate, rated.se(0), z),
            deviance: deviance(&data.g1_wins, &data.decisive, fit.log_likelihood),
            df_residual,
            newton_iterations: fit.newton_iterations,
            clustered,
        },
        ratings: ratings(&names, &pairs, &rated),
        anchors: anchor_tables(&settings.anchors, &names, &pairs),
        gaps: gaps(&paper, &settings.agents, &pairs, &rated),
        pairing: pairing_summary(&paper, &pairs),
        pairs,
        standings: Vec::new(),
        reduced: None,
    })
}

/// The fitted ratings: each policy's coefficient (the reference's is 0) with its standard
/// error from `covariance` (clustered when the deals were paired), at level `z`.
struct Rated<'a> {
    columns: &'a [String],
    fit: &'a LogisticFit,
    covariance: &'a [Vec<f64>],
    z: f64,
}

impl Rated<'_> {
    /// Coefficient `i`'s standard error.
    fn se(&self, i: usize) -> f64 {
        self.covariance[i][i].max(0.0).sqrt()
    }

    /// Policy `p`'s coefficient index (none for the reference).
    fn coef(&self, p: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == p).map(|i| i + 1)
    }

    /// Policy `p`'s rating in logits, with its interval.
    fn rating_of(&self, p: &str) -> Estimate {
        match self.coef(p) {
            Some(i) => wald(self.fit.coefficients[i].estimate, self.se(i), self.z),
            None => fixed_zero(),
        }
    }

    /// The covariance of two policies' ratings (0 with the reference).
    fn cov(&self, p: &str, q: &str) -> f64 {
        match (self.coef(p), self.coef(q)) {
            (Some(i), Some(j)) => self.covariance[i][j],
            _ => 0.0,
        }
    }
}

/// Each policy's rating, rank, Elo and mean score over its pairs.
fn ratings(names: &[String], pairs: &[PairResult], rated: &Rated<'_>) -> Vec<Rating> {
    let scores: Vec<Estimate> = names
        .iter()
        .map(|p| {
            let own: Vec<Estimate> = names
                .iter()
                .filter(|q| *q != p)
                .filter_map(|q| pair_of(pairs, p, q).map(|r| view_of(r, p).0))
                .collect();
            let k = own.len().max(1) as f64;
            let value = own.iter().map(|e| e.value).sum::<f64>() / k;
            let se = own.iter().map(|e| e.std_error.powi(2)).sum::<f64>().sqrt() / k;
            wald(value, se, rated.z)
        })
        .collect();
    let values: Vec<f64> = names.iter().map(|p| rated.rating_of(p).value).collect();
    names
        .iter()
        .zip(&scores)
        .enumerate()
        .map(|(i, (p, score))| {
            let rank = 1 + values.iter().filter(|&&v| v > values[i]).count();
            let rating = rated.rating_of(p);
            Rating {
                policy: p.clone(),
                rank,
                rating,
                elo: scaled(rating, ELO_PER_LOGIT, 0.0),
                score: *score,
            }
        })
        .collect()
}

/// Per anchor, every other policy's score, points and wins against it.
fn anchor_tables(anchors: &[String], names: &[String], pairs: &[PairResult]) -> Vec<AnchorTable> {
    anchors
        .iter()
        .map(|anchor| AnchorTable {
            anchor: anchor.clone(),
            rows: names
                .iter()
                .filter(|p| *p != anchor)
                .filter_map(|p| {
                    let (score, points, win, _) = view_of(pair_of(pairs, p, anchor)?, p);
                    Some(AnchorRow {
                        policy: p.clone(),
                        score,
                        points,
                        win,
                    })
                })
                .collect(),
        })
        .collect()
}

/// Per paper policy and agent that played each other: the rating gap (with the covariance of
/// the two ratings), the agent's points margin and both sides' win rates.
fn gaps(paper: &[&String], agents: &[String], pairs: &[PairResult], rated: &Rated<'_>) -> Vec<Gap> {
    let mut out = Vec::new();
    for d in paper {
        for agent in agents {
            let Some(pr) = pair_of(pairs, d, agent) else {
                continue;
            };
            let (_, agent_points, agent_win, policy_win) = view_of(pr, agent);
            let (rd, ra) = (rated.rating_of(d), rated.rating_of(agent));
            let var = rated.cov(agent, agent) + rated.cov(d, d) - 2.0 * rated.cov(agent, d);
            out.push(Gap {
                policy: (*d).clone(),
                agent: agent.clone(),
                rating_gap: wald(ra.value - rd.value, var.max(0.0).sqrt(), rated.z),
                points_margin: scaled(agent_points, 2.0, -(GAME_POINTS as f64)),
                agent_win,
                policy_win,
            });
        }
    }
    out
}

/// What pairing the deals bought among the paper's policies: their variances pooled.
fn pairing_summary(paper: &[&String], pairs: &[PairResult]) -> Option<PairingSummary> {
    let paper_pairs: Vec<&PairResult> = pairs
        .iter()
        .filter(|r| paper.contains(&&r.a) && paper.contains(&&r.b))
        .collect();
    (!paper_pairs.is_empty()).then(|| PairingSummary {
        pairs: paper_pairs
            .iter()
            .map(|r| format!("{}-vs-{}", r.a, r.b))
            .collect(),
        points: pooled(
            &paper_pairs
                .iter()
                .map(|r| &r.points_variance)
                .collect::<Vec<_>>(),
        ),
        score: pooled(
            &paper_pairs
                .iter()
                .map(|r| &r.score_variance)
                .collect::<Vec<_>>(),
        ),
    })
}

/// A two-player league's deals as clusters, when every pair was played on paired deals (its
/// [`PairResult::deal_outcomes`]): per pair and per way its deal's two games can go, the deals
/// that went so, with the counts of the pair's two design rows ([`bradley_terry_data`]'s order).
fn paired_clusters(pairs: &[PairResult]) -> Option<Vec<Cluster>> {
    let rows = 2 * pairs.len();
    let mut out = Vec::new();
    for (k, pr) in pairs.iter().enumerate() {
        let table = pr.deal_outcomes?;
        for (x, line) in table.iter().enumerate() {
            for (y, &weight) in line.iter().enumerate() {
                if weight == 0 {
                    continue;
                }
                // G1's result in each game: 0 won, 1 lost, 2 drawn (not fitted).
                let count = |r: usize| [u64::from(r == 0), u64::from(r != 2)];
                let mut counts = vec![[0, 0]; rows];
                counts[2 * k] = count(x);
                counts[2 * k + 1] = count(y);
                out.push(Cluster { counts, weight });
            }
        }
    }
    Some(out)
}

/// The cluster-robust covariance of `fit` over `deals` (see [`cluster_covariance`]) and how
/// its standard errors compare with the model-based ones.
fn clustered_errors(
    data: &BradleyTerryData,
    fit: &LogisticFit,
    deals: &[Cluster],
) -> Result<(Vec<Vec<f64>>, ClusteredErrors), StatsError> {
    let v = cluster_covariance(&data.x, fit, deals)?;
    let model: Vec<f64> = fit.coefficients.iter().map(|c| c.std_error).collect();
    let robust: Vec<f64> = (0..v.len()).map(|i| v[i][i].max(0.0).sqrt()).collect();
    let ratios: Vec<f64> = robust.iter().zip(&model).map(|(r, m)| r / m).collect();
    let ratings = &ratios[1..];
    let ratio_range = [
        ratings.iter().copied().fold(f64::INFINITY, f64::min),
        ratings.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    ];
    Ok((
        v,
        ClusteredErrors {
            deals: Cluster::counted(deals),
            model_std_errors: model,
            robust_std_errors: robust,
            ratio_range,
            seat_ratio: ratios[0],
        },
    ))
}

/// The paper's three rule kinds (their gaps to the agents are section 6's question).
pub fn is_paper_kind(kind: PolicyKind) -> bool {
    matches!(
        kind,
        PolicyKind::Greedy | PolicyKind::Hoarder | PolicyKind::Counter
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::league_pair::{deal_outcomes, pair_result};

    /// The clusters built from the pair jobs' `deal_outcomes` sum to the counts the fit reads,
    /// row by row, for pairs summarised from real games (wins, losses and draws in both
    /// seatings): the stage's x/y and the fit's rows agree.
    #[test]
    fn paired_clusters_sum_to_the_fits_counts() {
        let games = |k: u64| -> (Vec<[u64; 2]>, Vec<[u64; 2]>) {
            let ab = (0..7).map(|j| [[70, 50], [50, 70], [60, 60]][((j + k) % 3) as usize]);
            let ba = (0..7).map(|j| [[80, 40], [60, 60], [30, 90]][((j * 2 + k) % 3) as usize]);
            (ab.collect(), ba.collect())
        };
        let names = ["p", "q", "r"].map(String::from);
        let mut pairs = Vec::new();
        for (k, (a, b)) in [(0, 1), (0, 2), (1, 2)].into_iter().enumerate() {
            let (ab, ba) = games(k as u64);
            let mut pr = pair_result(&names[a], &names[b], &ab, &ba, 0.95).unwrap();
            pr.deal_outcomes = Some(deal_outcomes(&ab, &ba));
            pairs.push(pr);
        }
        let data = bradley_terry_data(&names, "p", &pairs);
        let clusters = paired_clusters(&pairs).expect("every pair is paired");
        for r in 0..6 {
            let sum =
                |i: usize| -> u64 { clusters.iter().map(|c| c.weight * c.counts[r][i]).sum() };
            assert_eq!(
                (sum(0), sum(1)),
                (data.g1_wins[r], data.decisive[r]),
                "row {r}"
            );
        }
        // Deals whose two games were both drawn are no cluster.
        let drawn = clusters
            .iter()
            .filter(|c| c.counts.iter().all(|&[_, t]| t == 0));
        assert_eq!(
            Cluster::counted(&clusters),
            3 * 7 - drawn.map(|c| c.weight).sum::<u64>()
        );
    }
}
