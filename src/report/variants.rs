//! The report's "Rule variants" part: the questions the paper's section 6 leaves open, answered
//! from the studies played under other rules. Does greedy still dominate the four-player blind
//! game (under both readings of "win the trick")? Is the briscola effect (Table 4's odds ratio
//! per unit of Δ_briscola) larger or smaller there than in two-player play, with an interval
//! for the difference? What happens to each policy's edge and to Table 5's wasted-trump
//! fractions when the loser draws first? And the three policies' standings in every variant.
//!
//! Invariant: every number is computed from `Results` (the two-player reference is the first
//! study played under the standard rules); nothing here is typed, and a configuration without
//! variant studies yields an empty part.

use serde::Serialize;

use super::conclusions::Conclusions;
use crate::game::{DrawOrder, RulesSpec, TrumpRule};
use crate::plot::policy_names;
use crate::policy::{FollowReading, PolicyKind, PolicySpec, TablePolicy, TieBreak};
use crate::results::{Results, StudyResults};
use crate::stats::{normal_tail, p_value::PValue};

/// A difference of two estimates with its normal interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// The estimate.
    pub estimate: f64,
    /// Its standard error.
    pub se: f64,
    /// Lower bound of the 95% interval.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// estimate / se.
    pub z: f64,
    /// Two-sided normal p-value.
    pub p_value: PValue,
    /// The interval excludes 0.
    pub significant: bool,
}

impl Difference {
    fn new(estimate: f64, se: f64) -> Difference {
        let zc = normal_tail::z_critical(0.05).unwrap_or(1.959_963_984_540_054);
        let z = if se > 0.0 { estimate / se } else { 0.0 };
        Difference {
            estimate,
            se,
            lo: estimate - zc * se,
            hi: estimate + zc * se,
            z,
            p_value: normal_tail::two_sided_normal_p(z),
            significant: (estimate - zc * se) * (estimate + zc * se) > 0.0,
        }
    }
}

/// One policy's edge over another: its mean win rate (non-tied games) over both seatings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Edge {
    /// The policy.
    pub a: String,
    /// Its opponent.
    pub b: String,
    /// `a`'s rate as G1 (side 1, leading the first trick) against `b`.
    pub rate_as_g1: f64,
    /// `a`'s rate as G2 against `b`.
    pub rate_as_g2: f64,
    /// The mean of the two, with its standard error and 95% interval.
    pub edge: f64,
    /// Standard error of `edge` (two independent binomial cells).
    pub se: f64,
    /// Lower 95% bound.
    pub lo: f64,
    /// Upper 95% bound.
    pub hi: f64,
}

/// A policy's standing in one study: its mean edge over every other policy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based rank (by mean edge, descending).
    pub rank: usize,
    /// The policy.
    pub policy: String,
    /// Mean of its edges over the other policies.
    pub mean_edge: f64,
}

/// One variant study's standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantStandings {
    /// Study name.
    pub name: String,
    /// Its label.
    pub label: String,
    /// The rules in words (the fields that differ from the standard game).
    pub rules: String,
    /// Games in all.
    pub games: u64,
    /// Dominance chain as text.
    pub chain_text: String,
    /// Every pair's edge (the first policy of the list first).
    pub edges: Vec<Edge>,
    /// The standings.
    pub standings: Vec<Standing>,
}

/// Table 4's Δ_briscola odds ratio of a team study against the two-player reference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BriscolaEffect {
    /// The team study.
    pub study: String,
    /// Its follow reading.
    pub reading: String,
    /// Its odds ratio per +1 of the sides' briscola imbalance, with the profile interval.
    pub or_team: f64,
    /// Profile lower bound.
    pub or_team_lo: f64,
    /// Profile upper bound.
    pub or_team_hi: f64,
    /// The two-player reference study.
    pub reference: String,
    /// Its odds ratio per +1 of Δ_briscola.
    pub or_two: f64,
    /// Profile lower bound.
    pub or_two_lo: f64,
    /// Profile upper bound.
    pub or_two_hi: f64,
    /// log OR (team) - log OR (two players), from two independent fits.
    pub log_difference: Difference,
    /// exp of the difference and its bounds: the ratio of the two odds ratios.
    pub ratio: f64,
    /// Lower bound of the ratio.
    pub ratio_lo: f64,
    /// Upper bound of the ratio.
    pub ratio_hi: f64,
    /// The effect is larger in the team game.
    pub larger: bool,
}

/// One team study (four or six players): the standings and whether greedy dominates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamStudy {
    /// Standings and edges.
    pub standings: VariantStandings,
    /// Players at the table.
    pub players: u8,
    /// The follow reading.
    pub reading: String,
    /// The regression's reference policy (the paper's baseline, greedy).
    pub reference: String,
    /// The reference wins every pair in both seats.
    pub reference_dominates_all: bool,
    /// ... and every one of those dominances is significant.
    pub reference_dominance_significant: bool,
    /// The reference's place in the standings (1 = first) and how many policies there are.
    pub reference_rank: usize,
    /// Policies in the standings.
    pub policies: usize,
    /// The reference loses every pair in both seatings, every interval clear of one half.
    pub reference_loses_all: bool,
    /// The paper's conjecture read as it states it (section 6: "the draw-order effect
    /// identified here is, if anything, more pronounced in the four-player game"), the
    /// draw-order effect being what the paper credits for greedy's edge: the reference's mean
    /// edge here and in the two-player reference study.
    pub draw_order_effect: Option<DrawOrderEffect>,
}

/// The reference policy's mean edge with partners against the two-player game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrawOrderEffect {
    /// The two-player study.
    pub two_player: String,
    /// The reference's mean edge over the other policies in the team study.
    pub team_edge: f64,
    /// ... and in the two-player study.
    pub two_player_edge: f64,
    /// The team edge is the larger (the conjecture's direction).
    pub larger: bool,
}

/// One pair's edge in the reference study and in the loser-first study.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EdgeChange {
    /// The policy.
    pub a: String,
    /// Its opponent.
    pub b: String,
    /// Edge with the winner drawing first.
    pub winner_first: f64,
    /// Edge with the loser drawing first.
    pub loser_first: f64,
    /// loser_first - winner_first.
    pub change: Difference,
}

/// One policy's Table 5 wasted fraction in both studies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WasteChange {
    /// The policy.
    pub policy: String,
    /// Wasted fraction, winner first.
    pub winner_first: f64,
    /// Wasted fraction, loser first.
    pub loser_first: f64,
    /// Trump win rate, winner first.
    pub win_rate_winner_first: f64,
    /// Trump win rate, loser first.
    pub win_rate_loser_first: f64,
    /// loser_first - winner_first (wasted fraction).
    pub change: Difference,
}

/// The draw-order intervention against the two-player reference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrawOrderTest {
    /// The loser-first study.
    pub study: String,
    /// The reference study.
    pub reference: String,
    /// Both studies deal the same games (same deal source and seed).
    pub same_deals: bool,
    /// Every pair's edge change.
    pub edges: Vec<EdgeChange>,
    /// Table 5's wasted fractions.
    pub waste: Vec<WasteChange>,
    /// Greedy's edges all grow.
    pub greedy_edges_grow: bool,
}

/// A variant the paper's policies have no meaning in, and why (the engine's own refusal).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Refusal {
    /// The variant.
    pub variant: String,
    /// The refusal.
    pub reason: String,
}

/// The whole part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantsView {
    /// The two-player reference study, if any.
    pub reference: Option<String>,
    /// Team studies.
    pub team: Vec<TeamStudy>,
    /// The briscola effect in each team study against the reference.
    pub briscola_effect: Vec<BriscolaEffect>,
    /// The draw-order intervention.
    pub draw_order: Vec<DrawOrderTest>,
    /// Every other variant study's standings.
    pub others: Vec<VariantStandings>,
    /// Variants the paper's policies have no meaning in.
    pub refusals: Vec<Refusal>,
    /// True when there is anything to show.
    pub any: bool,
}

fn rules_of(s: &StudyResults) -> RulesSpec {
    s.settings
        .rules
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
        .unwrap_or_default()
}

fn reading_of(s: &StudyResults) -> String {
    s.settings
        .reading
        .clone()
        .unwrap_or_else(|| FollowReading::Verbatim.as_str().to_string())
}

/// The fields of `r` that differ from the standard game, in words.
pub fn rules_text(r: &RulesSpec) -> String {
    let d = RulesSpec::default();
    let mut parts = Vec::new();
    if r.players != d.players {
        parts.push(match r.players {
            4 => "four players in two partnerships".to_string(),
            6 => "six players in two teams of three".to_string(),
            n => format!("{n} players"),
        });
    }
    if r.deck != d.deck {
        parts.push(format!("{}-card deck", r.deck));
    }
    if r.hand_size != d.hand_size {
        parts.push(format!("{}-card hands", r.hand_size));
    }
    if r.trump == TrumpRule::None {
        parts.push("no trump".into());
    }
    if r.draw_order == DrawOrder::LoserFirst {
        parts.push("the loser draws first".into());
    }
    if r.redraw_ace_three {
        parts.push("a face-up Ace or Three is redrawn".into());
    }
    if r.scoperta {
        parts.push("open hands (Scoperta)".into());
    }
    if r.must_follow_suit {
        parts.push("followers must follow suit".into());
    }
    if let Some(t) = r.target {
        parts.push(format!("first side to {t} points wins"));
    }
    if r.first_leader != d.first_leader {
        parts.push(format!("seat {} leads first", r.first_leader + 1));
    }
    if parts.is_empty() {
        "the standard two-player rules".into()
    } else {
        parts.join("; ")
    }
}

/// G1's rate and non-tied games in the cell (g1, g2).
fn cell(s: &StudyResults, g1: &str, g2: &str) -> Option<(f64, u64)> {
    s.table3
        .iter()
        .find(|c| c.g1_policy == g1 && c.g2_policy == g2)
        .map(|c| (c.rate, c.non_tied))
}

fn edge(s: &StudyResults, a: &str, b: &str) -> Option<Edge> {
    let (r1, n1) = cell(s, a, b)?;
    let (r2, n2) = cell(s, b, a)?;
    let as_g2 = 1.0 - r2;
    let var = |p: f64, n: u64| if n > 0 { p * (1.0 - p) / n as f64 } else { 0.0 };
    let se = 0.5 * (var(r1, n1) + var(r2, n2)).sqrt();
    let e = 0.5 * (r1 + as_g2);
    let d = Difference::new(e, se);
    Some(Edge {
        a: a.into(),
        b: b.into(),
        rate_as_g1: r1,
        rate_as_g2: as_g2,
        edge: e,
        se,
        lo: d.lo,
        hi: d.hi,
    })
}

fn standings(s: &StudyResults) -> VariantStandings {
    let names = policy_names(s);
    let mut edges = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            edges.extend(edge(s, a, b));
        }
    }
    let mut table: Vec<(String, f64)> = names
        .iter()
        .map(|p| {
            let mine: Vec<f64> = edges
                .iter()
                .filter_map(|e| {
                    if e.a == *p {
                        Some(e.edge)
                    } else if e.b == *p {
                        Some(1.0 - e.edge)
                    } else {
                        None
                    }
                })
                .collect();
            let mean = if mine.is_empty() {
                0.5
            } else {
                mine.iter().sum::<f64>() / mine.len() as f64
            };
            (p.clone(), mean)
        })
        .collect();
    table.sort_by(|x, y| y.1.total_cmp(&x.1));
    VariantStandings {
        name: s.name.clone(),
        label: s.label.clone(),
        rules: rules_text(&rules_of(s)),
        games: s.settings.games_total,
        chain_text: Conclusions::of(s).chain_text,
        edges,
        standings: table
            .into_iter()
            .enumerate()
            .map(|(i, (policy, mean_edge))| Standing {
                rank: i + 1,
                policy,
                mean_edge,
            })
            .collect(),
    }
}

fn delta_term(s: &StudyResults) -> Option<&crate::results::Term> {
    s.table4.terms.iter().find(|t| t.term == "delta_briscola")
}

fn briscola_effect(team: &StudyResults, two: &StudyResults) -> Option<BriscolaEffect> {
    let (t, r) = (delta_term(team)?, delta_term(two)?);
    let d = Difference::new(
        t.estimate - r.estimate,
        (t.std_error.powi(2) + r.std_error.powi(2)).sqrt(),
    );
    Some(BriscolaEffect {
        study: team.name.clone(),
        reading: reading_of(team),
        or_team: t.odds_ratio,
        or_team_lo: t.profile_lo,
        or_team_hi: t.profile_hi,
        reference: two.name.clone(),
        or_two: r.odds_ratio,
        or_two_lo: r.profile_lo,
        or_two_hi: r.profile_hi,
        ratio: d.estimate.exp(),
        ratio_lo: d.lo.exp(),
        ratio_hi: d.hi.exp(),
        larger: d.estimate > 0.0,
        log_difference: d,
    })
}

fn draw_order_test(lf: &StudyResults, two: &StudyResults) -> DrawOrderTest {
    let names = policy_names(lf);
    let mut edges = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            if let (Some(w), Some(l)) = (edge(two, a, b), edge(lf, a, b)) {
                edges.push(EdgeChange {
                    a: a.clone(),
                    b: b.clone(),
                    winner_first: w.edge,
                    loser_first: l.edge,
                    change: Difference::new(l.edge - w.edge, (w.se.powi(2) + l.se.powi(2)).sqrt()),
                });
            }
        }
    }
    let waste = lf
        .table5
        .iter()
        .filter_map(|l| {
            let w = two.table5.iter().find(|w| w.policy == l.policy)?;
            let var = |f: f64, n: u64| if n > 0 { f * (1.0 - f) / n as f64 } else { 0.0 };
            Some(WasteChange {
                policy: l.policy.clone(),
                winner_first: w.wasted_fraction,
                loser_first: l.wasted_fraction,
                win_rate_winner_first: w.win_rate,
                win_rate_loser_first: l.win_rate,
                change: Difference::new(
                    l.wasted_fraction - w.wasted_fraction,
                    (var(w.wasted_fraction, w.n_played) + var(l.wasted_fraction, l.n_played))
                        .sqrt(),
                ),
            })
        })
        .collect();
    let greedy = |e: &&EdgeChange| e.a == "greedy" || e.b == "greedy";
    let greedy_edges_grow = edges.iter().filter(greedy).count() > 0
        && edges.iter().filter(greedy).all(|e| {
            let sign = if e.a == "greedy" { 1.0 } else { -1.0 };
            sign * e.change.estimate > 0.0
        });
    DrawOrderTest {
        study: lf.name.clone(),
        reference: two.name.clone(),
        same_deals: lf.settings.deal_source == two.settings.deal_source
            && lf.settings.seed == two.settings.seed,
        edges,
        waste,
        greedy_edges_grow,
    }
}

/// The paper's three policies under Briscolone (two players, five-card hands, no trump): the
/// engine's refusal, as a researcher gets it.
fn refusals() -> Vec<Refusal> {
    let briscolone = RulesSpec {
        hand_size: 5,
        trump: TrumpRule::None,
        ..RulesSpec::default()
    };
    let Ok(rules) = briscolone.validate() else {
        return Vec::new();
    };
    let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased);
    match TablePolicy::new(&greedy, &rules, FollowReading::Verbatim) {
        Ok(_) => Vec::new(),
        Err(e) => vec![Refusal {
            variant: format!("Briscolone ({})", rules_text(&briscolone)),
            reason: e.to_string(),
        }],
    }
}

impl VariantsView {
    /// The part, from every study's results.
    pub fn of(results: &Results) -> VariantsView {
        let two = results
            .studies
            .iter()
            .find(|s| s.settings.rules.is_none() && s.settings.reading.is_none());
        let mut team = Vec::new();
        let mut briscola = Vec::new();
        let mut draw_order = Vec::new();
        let mut others = Vec::new();
        for s in results
            .studies
            .iter()
            .filter(|s| s.settings.rules.is_some())
        {
            let r = rules_of(s);
            if r.players >= 4 {
                let c = Conclusions::of(s);
                let reference = c.reference.clone();
                let significant = c.reference_dominates_all
                    && c.dominance
                        .iter()
                        .filter(|d| d.winner == reference)
                        .all(|d| d.significant);
                let st = standings(s);
                let rank_of = |st: &VariantStandings| {
                    st.standings.iter().find(|x| x.policy == reference).cloned()
                };
                let mine = rank_of(&st);
                let loses_all = st
                    .edges
                    .iter()
                    .filter(|e| e.a == reference || e.b == reference)
                    .all(|e| {
                        if e.a == reference {
                            e.hi < 0.5
                        } else {
                            e.lo > 0.5
                        }
                    });
                let draw_order_effect = two.and_then(|two| {
                    let theirs = rank_of(&standings(two))?;
                    let team_edge = mine.as_ref()?.mean_edge;
                    Some(DrawOrderEffect {
                        two_player: two.name.clone(),
                        team_edge,
                        two_player_edge: theirs.mean_edge,
                        larger: team_edge > theirs.mean_edge,
                    })
                });
                team.push(TeamStudy {
                    players: r.players,
                    reading: reading_of(s),
                    reference_dominates_all: c.reference_dominates_all,
                    reference_dominance_significant: significant,
                    reference_rank: mine.map_or(0, |m| m.rank),
                    policies: st.standings.len(),
                    reference_loses_all: loses_all,
                    draw_order_effect,
                    standings: st,
                    reference,
                });
                if let Some(two) = two {
                    briscola.extend(briscola_effect(s, two));
                }
            } else if r
                == (RulesSpec {
                    draw_order: DrawOrder::LoserFirst,
                    ..RulesSpec::default()
                })
            {
                if let Some(two) = two {
                    draw_order.push(draw_order_test(s, two));
                }
                others.push(standings(s));
            } else {
                others.push(standings(s));
            }
        }
        let any = !team.is_empty() || !draw_order.is_empty() || !others.is_empty();
        VariantsView {
            reference: two.map(|s| s.name.clone()),
            team,
            briscola_effect: briscola,
            draw_order,
            others,
            refusals: if any { refusals() } else { Vec::new() },
            any,
        }
    }
}
