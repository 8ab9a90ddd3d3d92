//! The report's first screen: [`Answers`], each question the report answers (H0(1), H0(2),
//! H0(3), Table 5's mechanism, every "beyond the paper" question, each league) in one computed
//! line with its number and interval and the anchor of its evidence, and one verdict line per
//! study scored against the paper.
//!
//! Invariant: every number in a line is read from the context's views (the results, the
//! sweeps, the variants, the leagues) and printed by [`super::format`]; no number is typed.

use serde::Serialize;

use super::beyond::SweepView;
use super::format::{fixed, signed, thousands};
use super::league_view::LeagueView;
use super::study_view::StudyView;
use super::variants::VariantsView;
use crate::results::StudyResults;
use crate::stats::wilson::wilson;

/// One question and its answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answer {
    /// What it is about, e.g. `H0(1)` or `League agents`.
    pub topic: String,
    /// The question in a few words.
    pub question: String,
    /// The answer in one computed line.
    pub answer: String,
    /// The id of the element holding the evidence (without `#`).
    pub anchor: String,
}

/// One scored study's verdict in a line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerdictLine {
    /// The study.
    pub study: String,
    /// The outcome's key (for the colour).
    pub outcome: super::study_verdict::Outcome,
    /// The outcome in words.
    pub outcome_label: String,
    /// The scorecard's counts, e.g. `60 exact, 3 within Monte Carlo error, 1 differs`.
    pub counts: String,
    /// The id of the study's scorecard (without `#`).
    pub anchor: String,
}

/// The Answers block.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Answers {
    /// Questions in report order.
    pub questions: Vec<Answer>,
    /// Scored studies, in study order.
    pub verdicts: Vec<VerdictLine>,
}

/// `rate [lo, hi]` with `d` decimals: the report's one way to print a proportion.
fn rate(r: f64, lo: f64, hi: f64, d: usize) -> String {
    format!("{} [{}, {}]", fixed(r, d), fixed(lo, d), fixed(hi, d))
}

fn answer(topic: &str, question: &str, answer: String, anchor: &str) -> Answer {
    Answer {
        topic: topic.to_string(),
        question: question.to_string(),
        answer,
        anchor: anchor.to_string(),
    }
}

fn folk(s: &StudyView) -> Answer {
    let f = &s.results.folk_theorem;
    let c = &s.conclusions;
    let head = if c.folk_deterministic_rejected {
        "No"
    } else {
        "Not rejected"
    };
    answer(
        "H0(1)",
        "Does the player with more trumps always win?",
        format!(
            "{head}: the majority holder wins {} of {} decided, trump-unequal games.",
            rate(f.rate, f.lo, f.hi, 4),
            thousands(i128::from(f.games))
        ),
        "h1",
    )
}

fn cell(r: &StudyResults, g1: &str, g2: &str) -> Option<(f64, f64, f64)> {
    r.table3
        .iter()
        .find(|c| c.g1_policy == g1 && c.g2_policy == g2)
        .map(|c| (c.rate, c.lo, c.hi))
}

/// The closest dominance of the chain: the winner's rate in its weaker seat, with interval.
fn closest(s: &StudyView) -> Option<String> {
    s.conclusions
        .dominance
        .iter()
        .filter_map(|d| {
            let as_g1 = cell(&s.results, &d.winner, &d.loser)?;
            let (r, lo, hi) = cell(&s.results, &d.loser, &d.winner)?;
            let as_g2 = (1.0 - r, 1.0 - hi, 1.0 - lo);
            Some(if as_g2.0 < as_g1.0 {
                (d, "G2", as_g2)
            } else {
                (d, "G1", as_g1)
            })
        })
        .min_by(|a, b| a.2.0.total_cmp(&b.2.0))
        .map(|(d, seat, (r, lo, hi))| {
            format!(
                "closest: {} over {} as {seat}, {}",
                d.winner,
                d.loser,
                rate(r, lo, hi, 3)
            )
        })
}

fn dominance(s: &StudyView) -> Answer {
    let c = &s.conclusions;
    let head = if c.reference_dominates_all {
        "No"
    } else if c.some_policy_beats_reference {
        "Yes"
    } else {
        "Not throughout"
    };
    let mut parts = vec![format!("{head}: {}", c.chain_text)];
    parts.push(format!(
        "{} of {} cells reject after Bonferroni",
        c.pairwise_rejected, c.pairwise_tests
    ));
    parts.extend(closest(s));
    answer(
        "H0(2)",
        "Does a refinement beat greedy?",
        format!("{}.", parts.join("; ")),
        "h2",
    )
}

fn luck(s: &StudyView) -> Option<Answer> {
    let sl = s.conclusions.strategy_vs_luck.as_ref()?;
    let t = &s.results.table4;
    let delta = t.terms.iter().find(|x| x.term == "delta_briscola")?;
    let strongest = t.terms.iter().find(|x| x.term == sl.strongest_term)?;
    Some(answer(
        "H0(3)",
        "What is a trump worth beside strategy?",
        format!(
            "A trump moved to G1 multiplies its odds by {}; the largest policy effect ({}, OR {}) is worth {} trumps.",
            rate(
                sl.per_trump_or,
                delta.profile_lo.powi(2),
                delta.profile_hi.powi(2),
                3
            ),
            strongest.label,
            rate(
                strongest.odds_ratio,
                strongest.profile_lo,
                strongest.profile_hi,
                3
            ),
            fixed(sl.equivalent_trumps, 2)
        ),
        "h3",
    ))
}

fn wasted(s: &StudyView) -> Option<Answer> {
    let rows = &s.results.table5;
    let most = rows
        .iter()
        .max_by(|a, b| a.wasted_fraction.total_cmp(&b.wasted_fraction))?;
    let least = rows
        .iter()
        .min_by(|a, b| a.wasted_fraction.total_cmp(&b.wasted_fraction))?;
    let share = |r: &crate::results::BriscolaUse| {
        let (lo, hi) =
            wilson(r.wasted, r.n_played, 0.95).map_or((f64::NAN, f64::NAN), |i| (i.lo, i.hi));
        format!("{} {}", r.policy, rate(r.wasted_fraction, lo, hi, 3))
    };
    Some(answer(
        "Table 5",
        "How do the policies spend trumps?",
        format!(
            "On a zero-point card: {}, {} of trump plays; points per won trump {} and {}.",
            share(most),
            share(least),
            fixed(most.mean_points_per_win, 2),
            fixed(least.mean_points_per_win, 2)
        ),
        "t5",
    ))
}

/// A question of the paper's section 6 that a sweep may answer (`[sweeps.NAME] question`):
/// the id a study file writes, the heading the report gives it and that heading's anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepQuestion {
    /// What `question = "..."` names.
    pub id: &'static str,
    /// The report's short head ("Q1").
    pub head: &'static str,
    /// The question in words.
    pub text: &'static str,
    /// The "Beyond the paper" heading's anchor.
    pub anchor: &'static str,
}

/// The questions the report's "Beyond the paper" part heads (its templates write each one's
/// introduction); a sweep without one is listed under "Further sweeps". The study file's
/// check refuses any other id.
pub const SWEEP_QUESTIONS: [SweepQuestion; 2] = [
    SweepQuestion {
        id: "q1",
        head: "Q1",
        text: "Does a little exploration move the paper's policies?",
        anchor: "beyond-q1",
    },
    SweepQuestion {
        id: "q3",
        head: "Q3",
        text: "Does switching from greedy late in the game beat greedy?",
        anchor: "beyond-q3",
    },
];

/// The question a group of sweeps answers, as the report's "Beyond the paper" heads it, and
/// that heading's anchor.
fn sweep_question(q: &str) -> (&'static str, &'static str, &'static str) {
    match SWEEP_QUESTIONS.iter().find(|s| s.id == q) {
        Some(s) => (s.head, s.text, s.anchor),
        None => ("Sweeps", "Further sweeps:", "beyond-sweeps"),
    }
}

/// One line per question the sweeps answer (Q1, Q3, the others), each sweep's short answer
/// in it.
fn sweeps(sweeps: &[SweepView]) -> Vec<Answer> {
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    for v in sweeps {
        let key = sweep_question(&v.question).0;
        let parts = v
            .answers
            .iter()
            .map(|a| format!("{}: {}", v.results.name, a.short));
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.extend(parts),
            None => groups.push((key, parts.collect())),
        }
    }
    groups.sort_by_key(|g| g.0);
    groups
        .into_iter()
        .map(|(key, parts)| {
            let q = sweeps
                .iter()
                .map(|v| sweep_question(&v.question))
                .find(|q| q.0 == key)
                .unwrap_or(("Sweeps", "", "beyond"));
            answer(q.0, q.1, format!("{}.", parts.join("; ")), q.2)
        })
        .collect()
}

/// A reference policy's mean edge over the others in a team study, with a normal interval
/// from the edges' standard errors (the edges come from different matchups: independent).
fn mean_edge(t: &super::variants::TeamStudy, d: &super::variants::DrawOrderEffect) -> String {
    let edges: Vec<&super::variants::Edge> = t
        .standings
        .edges
        .iter()
        .filter(|e| e.a == t.reference)
        .collect();
    let k = edges.len().max(1) as f64;
    let se = edges.iter().map(|e| e.se * e.se).sum::<f64>().sqrt() / k;
    format!(
        "{} ({})",
        rate(
            d.team_edge,
            d.team_edge - 1.96 * se,
            d.team_edge + 1.96 * se,
            4
        ),
        t.standings.name
    )
}

fn team(v: &VariantsView) -> Option<Answer> {
    let rows: Vec<(
        &super::variants::TeamStudy,
        &super::variants::DrawOrderEffect,
    )> = v
        .team
        .iter()
        .filter_map(|t| Some((t, t.draw_order_effect.as_ref()?)))
        .collect();
    let (t0, d0) = rows.first()?;
    let larger = rows.iter().filter(|(_, d)| d.larger).count();
    let head = match larger {
        0 => "No",
        n if n == rows.len() => "Yes",
        _ => "Not in every study",
    };
    let edges: Vec<String> = rows.iter().map(|(t, d)| mean_edge(t, d)).collect();
    Some(answer(
        "§6",
        &format!("Is {}'s edge larger with partners?", t0.reference),
        format!(
            "{head}: its mean edge is {} against {} in the two-player study {}.",
            edges.join(", "),
            fixed(d0.two_player_edge, 4),
            d0.two_player
        ),
        "variants-conjecture",
    ))
}

fn trump_value(v: &VariantsView) -> Option<Answer> {
    let first = v.briscola_effect.first()?;
    let more = v.briscola_effect.iter().filter(|b| b.larger).count();
    let head = match more {
        0 => "Less",
        n if n == v.briscola_effect.len() => "More",
        _ => "Not in every study",
    };
    let ratios: Vec<String> = v
        .briscola_effect
        .iter()
        .map(|b| format!("{} ({})", rate(b.ratio, b.ratio_lo, b.ratio_hi, 4), b.study))
        .collect();
    Some(answer(
        "§6",
        "Is a trump worth more with partners?",
        format!(
            "{head}: the odds ratio per +1 of Δ is {} times that of the two-player study {}.",
            ratios.join(", "),
            first.reference
        ),
        "variants-briscola",
    ))
}

fn draw_refund(d: &super::variants::DrawOrderTest) -> Answer {
    let changes: Vec<String> = d
        .edges
        .iter()
        .filter(|e| e.a == "greedy" || e.b == "greedy")
        .map(|e| {
            // as greedy's edge: an edge of b over greedy is greedy's, negated
            let (s, other) = if e.a == "greedy" {
                (1.0, &e.b)
            } else {
                (-1.0, &e.a)
            };
            let (lo, hi) = if s > 0.0 {
                (e.change.lo, e.change.hi)
            } else {
                (-e.change.hi, -e.change.lo)
            };
            format!(
                "{} [{}, {}] over {other}",
                signed(s * e.change.estimate, 4),
                signed(lo, 4),
                signed(hi, 4)
            )
        })
        .collect();
    answer(
        "Mechanism",
        &format!(
            "Does greedy's edge come from the draw refund ({})?",
            d.study
        ),
        format!(
            "{}: with the loser drawing first, greedy's edge changes by {}.",
            if d.greedy_edges_grow {
                "No, it grows"
            } else {
                "Not contradicted"
            },
            changes.join(", ")
        ),
        &format!("variants-draw-order-{}", d.study),
    )
}

fn variants(v: &VariantsView) -> Vec<Answer> {
    let mut out: Vec<Answer> = v.draw_order.iter().map(draw_refund).collect();
    out.extend(team(v));
    out.extend(trump_value(v));
    out
}

fn leagues(leagues: &[LeagueView]) -> Vec<Answer> {
    leagues
        .iter()
        // A league of exploit agents is answered by the Exploitability line instead.
        .filter(|lg| {
            !lg.results
                .settings
                .policies
                .iter()
                .any(|p| p.kind == crate::policy::PolicyKind::Exploit)
        })
        .filter_map(|lg| {
            let reference = &lg.results.settings.reference;
            let top = lg.ranking.first()?;
            let last = lg.ranking.last()?;
            // the strongest policy other than the reference, against the reference
            let best = lg.ranking.iter().find(|x| &x.policy != reference)?;
            let e = &best.elo;
            Some(answer(
                "League",
                &match &lg.rules {
                    Some(r) => format!("{} ({r}): who is strongest?", lg.results.name),
                    None => format!("{}: who is strongest?", lg.results.name),
                },
                format!(
                    "{} first, {} last; {} at {} Elo [{}, {}] with {} at 0.",
                    top.policy,
                    last.policy,
                    best.policy,
                    signed(e.value, 0),
                    signed(e.lo, 0),
                    signed(e.hi, 0),
                    reference,
                ),
                &format!("league-{}", lg.results.name),
            ))
        })
        .collect()
}

fn verdict_line(s: &StudyView) -> VerdictLine {
    let counts: Vec<String> = s
        .scorecard
        .counts
        .iter()
        .filter(|c| c.count > 0)
        .map(|c| c.phrase.clone())
        .collect();
    VerdictLine {
        study: s.name.clone(),
        outcome: s.verdict.outcome,
        outcome_label: s.verdict.outcome_label.clone(),
        counts: counts.join(", "),
        anchor: format!("details-{}", s.name),
    }
}

impl Answers {
    /// These answers with the exploitability question (after the leagues), when some league
    /// plays an exploit agent.
    pub fn with_exploitability(mut self, view: &super::exploitability::ExploitView) -> Answers {
        if view.rows.is_empty() {
            return self;
        }
        let each: Vec<String> = view
            .rows
            .iter()
            .map(|r| {
                let s = &r.exploit.score;
                format!("{} {}", r.target, rate(s.value, s.lo, s.hi, 3))
            })
            .collect();
        let search: Vec<String> = view
            .rows
            .iter()
            .filter_map(|r| r.search.as_ref().map(|x| fixed(x.score.value, 3)))
            .collect();
        let search = if search.len() == view.rows.len() {
            format!("; plain search {}", search.join(", "))
        } else {
            String::new()
        };
        self.questions.push(answer(
            "Exploitability",
            "How much can a player who knows a policy take from it?",
            format!(
                "At least this score (exploit agent's): {}{search}.",
                each.join(", ")
            ),
            "exploitability",
        ));
        self
    }

    /// The answers of a report whose main study is `studies[0]`.
    pub fn of(
        studies: &[StudyView],
        sweep_views: &[SweepView],
        variant_view: &VariantsView,
        league_views: &[LeagueView],
    ) -> Answers {
        let mut questions = Vec::new();
        if let Some(main) = studies.first() {
            questions.push(folk(main));
            questions.push(dominance(main));
            questions.extend(luck(main));
            questions.extend(wasted(main));
        }
        questions.extend(variants(variant_view));
        questions.extend(sweeps(sweep_views));
        questions.extend(leagues(league_views));
        Answers {
            questions,
            verdicts: studies
                .iter()
                .filter(|s| !s.scorecard.rows.is_empty())
                .map(verdict_line)
                .collect(),
        }
    }
}
