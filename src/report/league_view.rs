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

use super::format::{fixed, pct, signed};
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
}

fn interval(e: &Estimate, d: usize) -> String {
    format!("[{}, {}]", fixed(e.lo, d), fixed(e.hi, d))
}

fn pct_interval(e: &Estimate) -> String {
    format!("{} [{}, {}]", pct(e.value, 1), pct(e.lo, 1), pct(e.hi, 1))
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
            results: r.clone(),
            ranking,
            claims: claims(r),
            pairing: pairing(r),
            level: pct(r.settings.confidence, 0),
            rules: (!rules.is_default()).then(|| super::variants::rules_text(rules)),
            players: rules.players,
            standings,
        }
    }
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
            "{} {} {}: {} more points per game {} head to head, a rating gap of {}; {} wins {} of their games, {} wins {}.",
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
            pct_interval(&g.agent_win),
            g.policy,
            pct_interval(&g.policy_win),
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
    let seat = if r.settings.rules.players > 2 {
        "The lower-numbered seat's advantage over a later one (earlier in the first trick's order)"
    } else {
        "Seat G1's advantage"
    };
    out.push(format!(
        "{seat} in decisive games is {} in log-odds {} (0 would mean the seats are equal).",
        signed(s.value, 3),
        interval(s, 3)
    ));
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
        pct(p.points.reduction, 1),
        match p.points.efficiency {
            Some(e) => format!(
                "the same precision as {} times as many independent deals",
                fixed(e, 2)
            ),
            None => "no deal luck is left".to_string(),
        },
        fixed(p.score.paired, 4),
        fixed(p.score.independent, 4),
        pct(p.score.reduction, 1),
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
        pct(lo.0, 1),
        lo.1,
        pct(hi.0, 1),
        hi.1
    )
}
