//! A league, ready for the templates: its results, the ratings strongest first, and the
//! section-6 claims of the paper restated as computed sentences (the gap between the paper's
//! deterministic policies and the learned and search agents, in points per game and win rate,
//! with intervals; the value of paired deals).
//!
//! A league played under `rules` also carries those rules in words, and (three players) its
//! standings strongest first.
//!
//! Invariant: every number in a sentence is read from the league's results; none is typed.

use serde::Serialize;

use super::format::{fixed, pct, signed, thousands};
use crate::results::league::{Estimate, LeagueResults, Rating};

/// One league for the templates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeagueView {
    /// The raw results.
    pub results: LeagueResults,
    /// Ratings, strongest first.
    pub ranking: Vec<Rating>,
    /// The paper's section-6 claims, tested: one computed sentence each.
    pub claims: Vec<String>,
    /// How the pairing changed the variance, in one sentence (absent without a pair of the
    /// paper's policies).
    pub pairing: Option<String>,
    /// The interval level as a percentage, e.g. `95%`.
    pub level: String,
    /// The league's rules in words, when it plays a variant.
    pub rules: Option<String>,
    /// Players at the table (2 or 3).
    pub players: u8,
    /// Three players: the standings, most wins first.
    pub standings: Vec<crate::results::league::Standing>,
    /// Who leads the first trick and the order of play, from the rules, e.g. `seat 1 leads
    /// the first trick`.
    pub lead: String,
    /// Three players: what the standings say beside the ratings, one computed sentence each
    /// (whether adjacent ranks are separated; a policy that outscores every opponent head to
    /// head without finishing first most often).
    pub standings_notes: Vec<String>,
    /// How the ratings' standard errors were computed, in two computed sentences, when they
    /// are cluster-robust over deals (paired deals, three players).
    pub errors_note: Option<String>,
    /// The Bradley-Terry fit's goodness of fit, when it is poor (see [`POOR_FIT_P`]).
    pub fit_warning: Option<String>,
    /// The same in a clause, for the Discussion.
    pub fit_short: Option<String>,
    /// Some pair reports b's points per game (points do not sum to 120: Briscola a 31), so
    /// the pair table shows b's column too.
    pub b_points: bool,
    /// Three players: the head-to-head paradox in a clause for the Discussion, when it holds
    /// (see `standings_notes`).
    pub paradox: Vec<String>,
    /// Three players: the standings in one clause for the Discussion (ranks joined by `≻` when
    /// separated, `≈` when not).
    pub standings_summary: Option<String>,
    /// Whether an exploit agent plays in it (the HTML folds it under the Exploitability part,
    /// which answers it).
    pub exploit: bool,
}

/// A fit is flagged as poor when its residual deviance, referred to the chi-square
/// distribution on its residual degrees of freedom, has an upper-tail p-value below this (the
/// usual deviance goodness-of-fit test of a grouped binomial model; its games are many, so the
/// chi-square approximation holds).
pub const POOR_FIT_P: f64 = 0.05;

fn interval(e: &Estimate, d: usize) -> String {
    format!("[{}, {}]", fixed(e.lo, d), fixed(e.hi, d))
}

fn rate_interval(e: &Estimate) -> String {
    format!(
        "{} [{}, {}]",
        fixed(e.value, 3),
        fixed(e.lo, 3),
        fixed(e.hi, 3)
    )
}

fn elo(e: &Estimate) -> String {
    format!(
        "{} Elo [{}, {}]",
        signed(e.value, 0),
        signed(e.lo, 0),
        signed(e.hi, 0)
    )
}

impl LeagueView {
    /// The view of `r`.
    pub fn new(r: &LeagueResults) -> LeagueView {
        let mut ranking = r.ratings.clone();
        ranking.sort_by_key(|x| x.rank);
        let mut standings = r.standings.clone();
        standings.sort_by_key(|x| x.rank);
        let rules = &r.settings.rules;
        LeagueView {
            exploit: r
                .settings
                .policies
                .iter()
                .any(|p| p.kind == crate::policy::PolicyKind::Exploit),
            results: r.clone(),
            ranking,
            claims: claims(r),
            pairing: pairing(r),
            level: pct(r.settings.confidence, 0),
            rules: (!rules.is_default()).then(|| super::variants::rules_text(rules)),
            players: rules.players,
            lead: lead_text(rules),
            b_points: r.pairs.iter().any(|p| p.b_points.is_some()),
            standings_notes: standings_notes(r, &standings),
            errors_note: errors_note(r),
            fit_warning: fit_warning(r).map(|f| f.0),
            fit_short: fit_warning(r).map(|f| f.1),
            paradox: paradoxes(r, &standings).into_iter().map(|p| p.1).collect(),
            standings_summary: standings_summary(&standings),
            standings,
        }
    }
}

/// The clustered standard errors in words (see [`LeagueView::errors_note`]).
fn errors_note(r: &LeagueResults) -> Option<String> {
    let c = r.fit.clustered.as_ref()?;
    let (what, deals, independent) = if r.settings.rules.players > 2 {
        (
            "The three comparisons of one game, and the six seatings of one deal, are correlated",
            "deals with a decisive comparison",
            "every comparison as an independent game",
        )
    } else {
        (
            "A deal's two games (the seats swapped) are correlated",
            "deals over all pairs with a decisive game",
            "the two games of a deal as independent",
        )
    };
    let [lo, hi] = c.ratio_range.map(|x| fixed(x, 2));
    let times = if lo == hi {
        lo
    } else {
        format!("{lo} to {hi}")
    };
    Some(format!(
        "{what}, so the ratings' and the seat advantage's standard errors are cluster-robust over deals ({} {deals}; the sandwich estimator with the deal as cluster, R's sandwich::vcovCL), and their Wald intervals use them. The ratings' standard errors are {times} times the model-based ones, which would treat {independent}; the seat advantage's is {} times.",
        thousands(i128::from(c.deals)),
        fixed(c.seat_ratio, 2)
    ))
}

/// Who leads the first trick, and with three players the order of play.
fn lead_text(rules: &crate::game::RulesSpec) -> String {
    let k = rules.players.max(1);
    let first = rules.first_leader % k;
    if k <= 2 {
        return format!("seat {} leads the first trick", first + 1);
    }
    let order: Vec<String> = (0..k).map(|i| ((first + i) % k + 1).to_string()).collect();
    format!(
        "seat {} leads the first trick, then play goes {}",
        first + 1,
        order.join(", ")
    )
}

/// Whether the lower-numbered seat of every pair of seats is also the earlier in the first
/// trick's order (true exactly when seat 1 leads).
fn lower_is_earlier(rules: &crate::game::RulesSpec) -> bool {
    rules.first_leader == 0
}

fn separated(e: &Estimate) -> bool {
    e.lo > 0.0 || e.hi < 0.0
}

/// Three players: adjacent ranks separated or not, and the head-to-head paradox when it holds.
fn standings_notes(
    r: &LeagueResults,
    standings: &[crate::results::league::Standing],
) -> Vec<String> {
    let mut out = Vec::new();
    for w in standings.windows(2) {
        let (x, y) = (&w[0], &w[1]);
        let Some(d) = x.ahead_of_next.as_ref() else {
            continue;
        };
        out.push(format!(
            "{} (rank {}) and {} (rank {}) are {}: {}'s share of games won exceeds {}'s by {} per deal {} (the paired difference over the same deals).",
            x.policy,
            x.rank,
            y.policy,
            y.rank,
            if separated(d) { "separated" } else { "not separated" },
            x.policy,
            y.policy,
            signed(d.value, 5),
            interval(d, 5
            ),
        ));
    }
    out.extend(paradoxes(r, standings).into_iter().map(|p| p.0));
    out
}

/// Each policy that outscores every opponent head to head (every pair score's interval above
/// 1/2) without being first in the standings: (sentence, clause).
fn paradoxes(
    r: &LeagueResults,
    standings: &[crate::results::league::Standing],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let k = standings.len();
    for st in standings {
        // The policy's score against each other policy head to head (win 1, equal points 1/2).
        let heads: Vec<(String, Estimate)> = r
            .pairs
            .iter()
            .filter_map(|p| {
                if p.a == st.policy {
                    Some((p.b.clone(), p.a_score))
                } else if p.b == st.policy {
                    let e = p.a_score;
                    Some((
                        p.a.clone(),
                        Estimate {
                            value: 1.0 - e.value,
                            std_error: e.std_error,
                            lo: 1.0 - e.hi,
                            hi: 1.0 - e.lo,
                        },
                    ))
                } else {
                    None
                }
            })
            .collect();
        let beats_all = heads.len() + 1 == k && heads.iter().all(|(_, e)| e.lo > 0.5);
        if !beats_all || st.rank == 1 {
            continue;
        }
        let place = if st.rank == k {
            "finishes first least often".to_string()
        } else {
            format!("finishes first less often than {} other(s)", st.rank - 1)
        };
        let vs: Vec<String> = heads
            .iter()
            .map(|(q, e)| format!("{} {} against {}", fixed(e.value, 3), interval(e, 3), q))
            .collect();
        out.push((
            format!(
                "{} outscores each opponent head to head (score per comparison {}; above 1/2 in every interval) yet {} (rank {} of {}, a share {} of games won): at a table of three, taking more points than each rival in most games is not the same as taking the most points at the table, which is what wins.",
                st.policy,
                vs.join("; "),
                place,
                st.rank,
                k,
                fixed(st.win_share.value, 3),
            ),
            format!(
                "{} outscores each opponent head to head yet {}",
                st.policy, place
            ),
        ));
    }
    out
}

/// The standings in one clause, e.g. `hoarder ≈ counter ≻ greedy` (≻: the intervals of the
/// per-deal difference exclude 0; ≈: they do not).
fn standings_summary(standings: &[crate::results::league::Standing]) -> Option<String> {
    if standings.is_empty() {
        return None;
    }
    let mut s = String::new();
    for (i, x) in standings.iter().enumerate() {
        if i > 0 {
            let sep = standings[i - 1]
                .ahead_of_next
                .as_ref()
                .is_some_and(separated);
            s.push_str(if sep { " ≻ " } else { " ≈ " });
        }
        s.push_str(&x.policy);
    }
    Some(s)
}

/// A sentence and a clause flagging a poor Bradley-Terry fit (upper-tail chi-square p-value of
/// the residual deviance below [`POOR_FIT_P`]).
fn fit_warning(r: &LeagueResults) -> Option<(String, String)> {
    let f = &r.fit;
    let p = crate::stats::chi_square_sf(f.deviance, f.df_residual)?;
    if p >= POOR_FIT_P {
        return None;
    }
    let p_text = super::format::p_is(&crate::stats::PValue::from_value(p), 2);
    let short = format!(
        "the Bradley-Terry fit is poor (residual deviance {} on {} df, {})",
        fixed(f.deviance, 0),
        f.df_residual,
        p_text
    );
    let long = format!(
        "The Bradley-Terry model fits these results poorly: residual deviance {} on {} df ({}, chi-square, below {}), so one strength per policy does not account for the pairwise results and the ratings summarise them only roughly{}.",
        fixed(f.deviance, 2),
        f.df_residual,
        p_text,
        POOR_FIT_P,
        if r.standings.is_empty() {
            ""
        } else {
            "; the standings, which count who took the most points at the table, are the direct measure"
        }
    );
    Some((long, short))
}

/// Section 6: "the gap between a deterministic policy and a learned policy" and what search
/// can reason about.
fn claims(r: &LeagueResults) -> Vec<String> {
    let mut out = Vec::new();
    // The agents play the standard game only, so a variant's league never holds one.
    if r.gaps.is_empty() && r.settings.rules.is_default() {
        out.push(format!(
            "No learned or search agent plays in league `{}` (agents: {}), so this league does not measure the gap section 6 speculates about; a league with a search or learned agent among its policies does.",
            r.name,
            if r.settings.agents.is_empty() {
                "none".to_string()
            } else {
                r.settings.agents.join(", ")
            }
        ));
    }
    for g in &r.gaps {
        let verdict = if g.points_margin.lo > 0.0 {
            "beats"
        } else if g.points_margin.hi < 0.0 {
            "loses to"
        } else {
            "is not separated from"
        };
        out.push(format!(
            "{} {} {}: {} more points per game {} head to head, a rating gap of {}; {} wins a share {} of their games, {} a share {}.",
            g.agent,
            verdict,
            g.policy,
            signed(g.points_margin.value, 2),
            interval(&g.points_margin, 2),
            elo(&crate::results::league::Estimate {
                value: g.rating_gap.value * crate::analysis::league_fit::ELO_PER_LOGIT,
                std_error: g.rating_gap.std_error * crate::analysis::league_fit::ELO_PER_LOGIT,
                lo: g.rating_gap.lo * crate::analysis::league_fit::ELO_PER_LOGIT,
                hi: g.rating_gap.hi * crate::analysis::league_fit::ELO_PER_LOGIT,
            }),
            g.agent,
            rate_interval(&g.agent_win),
            g.policy,
            rate_interval(&g.policy_win),
        ));
    }
    for t in &r.anchors {
        let scores: Vec<String> = t
            .rows
            .iter()
            .map(|row| {
                format!(
                    "{} {} {}",
                    row.policy,
                    fixed(row.score.value, 3),
                    interval(&row.score, 3)
                )
            })
            .collect();
        if !scores.is_empty() {
            out.push(format!(
                "Score per game against {} (win 1, draw 1/2): {}.",
                t.anchor,
                scores.join("; ")
            ));
        }
    }
    let s = &r.fit.seat_advantage;
    let rules = &r.settings.rules;
    if rules.players > 2 {
        out.push(format!(
            "The fit's intercept, {} in log-odds {}, pools the lower-numbered seat's edge over three different pairs of seats (1 over 2, 1 over 3, 2 over 3), {}; it is no single seat's advantage, and 0 would mean the pooled edge vanishes.",
            signed(s.value, 3),
            interval(s, 3),
            if lower_is_earlier(rules) {
                "where the lower-numbered seat is also the earlier in the first trick's order".to_string()
            } else {
                format!(
                    "where the lower-numbered seat is not always the earlier in the first trick's order ({})",
                    lead_text(rules)
                )
            },
        ));
    } else {
        let who = if lower_is_earlier(rules) {
            String::new()
        } else {
            format!(" (seat G1 is seat 1; {})", lead_text(rules))
        };
        out.push(format!(
            "Seat G1's advantage{who} in decisive games is {} in log-odds {} (0 would mean the seats are equal).",
            signed(s.value, 3),
            interval(s, 3)
        ));
    }
    out
}

fn pairing(r: &LeagueResults) -> Option<String> {
    let p = r.pairing.as_ref()?;
    let design = if r.settings.paired {
        "Paired deals (each deal played in both seatings)"
    } else {
        "This league deals each seating independently; re-pairing its games deal by deal"
    };
    Some(format!(
        "{design}: over the pairs of the paper's policies ({}), the variance of the per-deal point margin is {} paired against {} for independent deals, a reduction of {} ({}); for the per-deal score it is {} against {}, a reduction of {}.{}",
        p.pairs.join(", "),
        fixed(p.points.paired, 1),
        fixed(p.points.independent, 1),
        fixed(p.points.reduction, 3),
        match p.points.efficiency {
            Some(e) => format!(
                "the same precision as {} times as many independent deals",
                fixed(e, 2)
            ),
            None => "no deal luck is left".to_string(),
        },
        fixed(p.score.paired, 4),
        fixed(p.score.independent, 4),
        fixed(p.score.reduction, 3),
        range_text(r, &p.pairs),
    ))
}

/// " Per pair it ranges from ... (a vs b) to ... (c vs d)." over the pooled pairs.
fn range_text(r: &LeagueResults, names: &[String]) -> String {
    let mut rows: Vec<(f64, String)> = r
        .pairs
        .iter()
        .filter(|x| names.contains(&format!("{}-vs-{}", x.a, x.b)))
        .map(|x| (x.points_variance.reduction, format!("{} vs {}", x.a, x.b)))
        .collect();
    if rows.len() < 2 {
        return String::new();
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (lo, hi) = (&rows[0], &rows[rows.len() - 1]);
    format!(
        " Per pair, the point margin's reduction ranges from {} ({}) to {} ({}).",
        fixed(lo.0, 3),
        lo.1,
        fixed(hi.0, 3),
        hi.1
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RulesSpec;
    use crate::policy::{PolicyKind, PolicySpec, TieBreak};
    use crate::results::league::{
        LeagueFit, LeagueSettings, PairResult, SeatingCounts, Standing, VarianceComparison,
    };

    fn est(value: f64, lo: f64, hi: f64) -> Estimate {
        Estimate {
            value,
            std_error: (hi - lo) / 3.92,
            lo,
            hi,
        }
    }

    fn pair(a: &str, b: &str, score: Estimate) -> PairResult {
        let v = VarianceComparison::from_variances(1.0, 2.0);
        PairResult {
            a: a.into(),
            b: b.into(),
            a_first: SeatingCounts::default(),
            b_first: SeatingCounts::default(),
            a_points: est(40.0, 39.0, 41.0),
            b_points: Some(est(40.0, 39.0, 41.0)),
            a_score: score,
            a_win: est(0.5, 0.4, 0.6),
            b_win: est(0.5, 0.4, 0.6),
            points_variance: v,
            score_variance: v,
            deal_outcomes: None,
        }
    }

    fn standing(policy: &str, rank: usize, share: f64, ahead: Option<Estimate>) -> Standing {
        Standing {
            policy: policy.into(),
            rank,
            win_share: est(share, share - 0.001, share + 0.001),
            outright_wins: 0,
            tied_first: 0,
            points: est(40.0, 39.0, 41.0),
            ahead_of_next: ahead,
        }
    }

    /// A three-player league where greedy beats each rival head to head but wins the fewest
    /// games, hoarder and counter are not separated, and the fit is poor.
    fn three(first_leader: u8, deviance: f64) -> LeagueResults {
        let policies: Vec<PolicySpec> =
            [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter]
                .map(|k| PolicySpec::paper(k, TieBreak::AsReleased))
                .to_vec();
        LeagueResults {
            name: "three".into(),
            label: "three".into(),
            settings: LeagueSettings {
                seed: 1,
                games_per_pair: 100,
                paired: true,
                policies,
                reference: "greedy".into(),
                confidence: 0.95,
                anchors: vec![],
                agents: vec![],
                rules: RulesSpec {
                    players: 3,
                    deck: 39,
                    first_leader,
                    ..RulesSpec::default()
                },
            },
            fit: LeagueFit {
                decisive_games: 100,
                draws: 0,
                seat_advantage: est(-0.04, -0.05, -0.03),
                deviance,
                df_residual: 3,
                newton_iterations: 3,
                clustered: None,
            },
            ratings: vec![],
            pairs: vec![
                pair("greedy", "hoarder", est(0.503, 0.502, 0.504)),
                pair("greedy", "counter", est(0.503, 0.502, 0.504)),
                pair("hoarder", "counter", est(0.5, 0.49, 0.51)),
            ],
            anchors: vec![],
            gaps: vec![],
            pairing: None,
            reduced: None,
            standings: vec![
                standing("hoarder", 1, 0.341, Some(est(0.001, -0.0005, 0.0025))),
                standing("counter", 2, 0.340, Some(est(0.021, 0.019, 0.023))),
                standing("greedy", 3, 0.319, None),
            ],
        }
    }

    #[test]
    fn the_lead_is_read_from_the_rules() {
        let v = LeagueView::new(&three(0, 2.0));
        assert_eq!(
            v.lead,
            "seat 1 leads the first trick, then play goes 1, 2, 3"
        );
        assert!(v.claims.iter().any(|c| c.contains("also the earlier")));
        let v = LeagueView::new(&three(1, 2.0));
        assert_eq!(
            v.lead,
            "seat 2 leads the first trick, then play goes 2, 3, 1"
        );
        assert!(
            v.claims
                .iter()
                .any(|c| c.contains("not always the earlier") && c.contains("seat 2 leads")),
            "{:?}",
            v.claims
        );
        let two = RulesSpec {
            first_leader: 1,
            ..RulesSpec::default()
        };
        assert_eq!(lead_text(&two), "seat 2 leads the first trick");
    }

    #[test]
    fn standings_say_what_is_separated_and_when_head_to_head_disagrees() {
        let v = LeagueView::new(&three(0, 7540.0));
        assert_eq!(
            v.standings_summary.as_deref(),
            Some("hoarder ≈ counter ≻ greedy")
        );
        assert!(
            v.standings_notes[0].contains("are not separated"),
            "{:?}",
            v.standings_notes
        );
        assert!(v.standings_notes[1].contains("are separated"));
        assert_eq!(
            v.paradox,
            vec!["greedy outscores each opponent head to head yet finishes first least often"]
        );
        let warn = v
            .fit_warning
            .expect("a deviance of 7540 on 3 df is a poor fit");
        assert!(warn.contains("7540.00 on 3 df"), "{warn}");
        // A fit within chance, and a head-to-head edge whose interval reaches 1/2, say nothing.
        let mut r = three(0, 2.0);
        r.pairs[1].a_score = est(0.503, 0.499, 0.507);
        let v = LeagueView::new(&r);
        assert!(v.fit_warning.is_none() && v.fit_short.is_none());
        assert!(v.paradox.is_empty());
    }
}
