//! "What the paper gets wrong or leaves unsaid": findings computed from our results (and the
//! published figures they contradict), each with what the paper says, what we find, and a
//! small table of the numbers behind it.
//!
//! Invariant: a finding is only emitted when the numbers it rests on are present in the
//! results; every number in its text is computed here, none is typed.

use serde::Serialize;

use super::conclusions::Conclusions;
use super::format::{fixed, signed, thousands};
use super::published::Published;
use super::scorecard::{Scorecard, StudyKind, Verdict};
use crate::results::{Results, StudyResults};

/// A small table inside a finding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FindingTable {
    /// Caption.
    pub caption: String,
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// Stable id (an HTML anchor).
    pub id: String,
    /// One-line title.
    pub title: String,
    /// What the paper says (where).
    pub paper_says: String,
    /// What we find.
    pub we_find: String,
    /// The numbers.
    pub table: Option<FindingTable>,
}

fn cell_rate(s: &StudyResults, a: &str, b: &str) -> Option<f64> {
    s.table3
        .iter()
        .find(|c| c.g1_policy == a && c.g2_policy == b)
        .map(|c| c.rate)
}

fn reproduced(card: &Scorecard) -> (usize, usize) {
    let compared = card
        .rows
        .iter()
        .filter(|r| r.verdict != Verdict::NotCompared)
        .count();
    let ok = card
        .rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Exact | Verdict::PrintedPrecision))
        .count();
    (ok, compared)
}

/// The finding that the published tables come from the released tie-break, not the prose's.
fn tie_break(results: &Results, cards: &[Scorecard], published: &Published) -> Option<Finding> {
    let main = results.studies.first()?;
    let (vi, variant) = results
        .studies
        .iter()
        .enumerate()
        .find(|(_, s)| StudyKind::of(s) == StudyKind::Variant)?;
    let (ok_main, n_main) = reproduced(cards.first()?);
    let (ok_var, n_var) = reproduced(cards.get(vi)?);
    let (mut rows, max_move) = tie_break_table3_rows(main, variant, published);
    rows.push(tie_break_folk_row(main, variant, published));
    rows.extend(tie_break_table4_rows(main, variant, published));
    rows.extend(tie_break_table5_rows(main, variant, published));
    Some(Finding {
        id: "tie-break".into(),
        title: "The tie-break the prose describes is not the one that produced the tables".into(),
        paper_says: "§2 defines every policy's choice by the comparator c ≺ c′ (fewer points, then WEAKER rank first) and says greedy leads the ≺-minimal card.".into(),
        we_find: format!(
            "The released code breaks equal-point ties the other way (stronger first, or hand order). Replaying the paper's deals with the released rule reproduces {ok_main} of {n_main} comparable published figures (exactly or at the printed precision); with the rule as written (study “{}”) only {ok_var} of {n_var} do. Table 3 moves by up to {} (a difference of proportions). The published tables therefore come from the code, not from the definitions in the text.",
            variant.name,
            fixed(max_move, 4)
        ),
        table: Some(FindingTable {
            caption: format!(
                "Same deals, two readings of the tie-break: “{}” (released) and “{}” (as written). z: difference over √2 standard errors (conservative: the deals are shared).",
                main.name, variant.name
            ),
            headers: vec![
                "figure".into(),
                "paper".into(),
                "as released".into(),
                "as written".into(),
                "difference".into(),
                "z".into(),
            ],
            rows,
        }),
    })
}

/// The tie-break table's Table 3 rows (released vs as written, with z), and the largest move
/// of a cell's rate.
fn tie_break_table3_rows(
    main: &StudyResults,
    variant: &StudyResults,
    published: &Published,
) -> (Vec<Vec<String>>, f64) {
    let mut rows = Vec::new();
    let mut max_move: f64 = 0.0;
    for c in &main.table3 {
        let Some(v) = cell_rate(variant, &c.g1_policy, &c.g2_policy) else {
            continue;
        };
        let paper = published
            .number(&format!("table3.{}_{}.rate", c.g1_policy, c.g2_policy))
            .map_or_else(|| "—".to_string(), |p| fixed(p, 3));
        let d = v - c.rate;
        max_move = max_move.max(d.abs());
        let se = (c.rate * (1.0 - c.rate) / c.non_tied.max(1) as f64).sqrt();
        rows.push(vec![
            format!("Table 3: {} vs {}", c.g1_policy, c.g2_policy),
            paper,
            fixed(c.rate, 4),
            fixed(v, 4),
            signed(d, 4),
            fixed(d / (std::f64::consts::SQRT_2 * se), 1),
        ]);
    }
    (rows, max_move)
}

/// The tie-break table's row of the majority holder's share (H0(1)).
fn tie_break_folk_row(
    main: &StudyResults,
    variant: &StudyResults,
    published: &Published,
) -> Vec<String> {
    let f = (&main.folk_theorem, &variant.folk_theorem);
    vec![
        "H0(1): majority holder's share".into(),
        published
            .number("folk_theorem.rate")
            .map_or("—".into(), |p| fixed(p, 4)),
        fixed(f.0.rate, 4),
        fixed(f.1.rate, 4),
        signed(f.1.rate - f.0.rate, 4),
        String::new(),
    ]
}

/// The tie-break table's Table 4 rows: each term's odds ratio, with z of the estimates.
fn tie_break_table4_rows(
    main: &StudyResults,
    variant: &StudyResults,
    published: &Published,
) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for t in &main.table4.terms {
        let Some(u) = variant.table4.terms.iter().find(|u| u.term == t.term) else {
            continue;
        };
        rows.push(vec![
            format!("Table 4: OR {}", t.label),
            published
                .number(&format!("table4.{}.or", t.term))
                .map_or("—".into(), |p| fixed(p, 3)),
            fixed(t.odds_ratio, 4),
            fixed(u.odds_ratio, 4),
            signed(u.odds_ratio - t.odds_ratio, 4),
            fixed(
                (u.estimate - t.estimate) / (std::f64::consts::SQRT_2 * t.std_error),
                1,
            ),
        ]);
    }
    rows
}

/// The tie-break table's Table 5 rows: each policy's briscola win rate and n_played.
fn tie_break_table5_rows(
    main: &StudyResults,
    variant: &StudyResults,
    published: &Published,
) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for r in &main.table5 {
        let Some(u) = variant.table5.iter().find(|u| u.policy == r.policy) else {
            continue;
        };
        rows.push(vec![
            format!("Table 5: {} briscola win rate", r.policy),
            published
                .number(&format!("table5.{}.win_rate", r.policy))
                .map_or("—".into(), |p| fixed(p, 3)),
            fixed(r.win_rate, 4),
            fixed(u.win_rate, 4),
            signed(u.win_rate - r.win_rate, 4),
            String::new(),
        ]);
        rows.push(vec![
            format!("Table 5: {} n_played", r.policy),
            published
                .number(&format!("table5.{}.n_played", r.policy))
                .map_or("—".into(), |p| thousands(p as i128)),
            thousands(i128::from(r.n_played)),
            thousands(i128::from(u.n_played)),
            signed(u.n_played as f64 - r.n_played as f64, 0),
            String::new(),
        ]);
    }
    rows
}

fn delta_even(main: &StudyResults, published: &Published) -> Option<Finding> {
    let delta = main
        .table4
        .terms
        .iter()
        .find(|t| t.term == "delta_briscola")?;
    let bins = main.figure2.iter().flat_map(|p| &p.bins);
    let odd: u64 = bins.clone().filter(|b| b.delta % 2 != 0).map(|b| b.n).sum();
    let all: u64 = bins.map(|b| b.n).sum();
    let per_trump = (2.0 * delta.estimate).exp();
    let paper_or = published.number("table4.delta_briscola.or");
    let ce = main
        .breakeven
        .iter()
        .filter_map(|b| b.delta.map(|d| (b, d)))
        .max_by(|x, y| x.1.total_cmp(&y.1));
    let mut rows = vec![
        vec!["non-tied games".into(), thousands(i128::from(all))],
        vec![
            "of which with odd Δ_briscola".into(),
            thousands(i128::from(odd)),
        ],
        vec![
            "OR per +1 of Δ_briscola (Table 4's unit)".into(),
            fixed(delta.odds_ratio, 3),
        ],
        vec![
            "OR per trump moved from G2 to G1 (Δ + 2)".into(),
            fixed(per_trump, 3),
        ],
    ];
    if let Some(p) = paper_or {
        rows.push(vec!["the paper's 1.217 squared".into(), fixed(p * p, 3)]);
    }
    if let Some((b, d)) = ce {
        rows.push(vec![
            format!("largest break-even Δ ({} vs {})", b.g1_policy, b.g2_policy),
            format!(
                "{} = {} trumps moved from an even split",
                fixed(d, 2),
                fixed(d / 2.0, 2)
            ),
        ]);
    }
    Some(Finding {
        id: "delta-even".into(),
        title: "Δ_briscola is always even, so \"per +1\" is half a briscola".into(),
        paper_says: "§4: Δ_briscola ∈ {−10, −9, …, 10}; §5: \"each additional briscola held by G1 multiplies the odds of G1 winning by 1.22\"; §5: a counter player \"needs two extra briscole\".".into(),
        we_find: format!(
            "Every trump is held by one of the two players by the end (B1 + B2 = 10), so Δ = 2·B1 − 10 takes only even values: {} of {} non-tied games have an odd Δ. Table 4's coefficient is per +1 of Δ, i.e. per half a trump. One more trump for G1 (one fewer for G2) moves Δ by 2 and multiplies the odds by {} — not {}.",
            thousands(i128::from(odd)),
            thousands(i128::from(all)),
            fixed(per_trump, 3),
            fixed(delta.odds_ratio, 3)
        ),
        table: Some(FindingTable {
            caption: format!("Study “{}”.", main.name),
            headers: vec!["quantity".into(), "value".into()],
            rows,
        }),
    })
}

fn or_three_ways(main: &StudyResults, published: &Published) -> Option<Finding> {
    let delta = main
        .table4
        .terms
        .iter()
        .find(|t| t.term == "delta_briscola")?;
    let mut rows = Vec::new();
    let mut intervals = Vec::new();
    for (key, place) in [
        ("delta_briscola", "Table 4"),
        ("delta_briscola_text", "§5 prose"),
        ("delta_briscola_abstract", "abstract"),
    ] {
        let e = |f: &str| published.get(&format!("table4.{key}.{f}"));
        let (Some(or), Some(lo), Some(hi)) = (e("or"), e("lo"), e("hi")) else {
            continue;
        };
        let (lo_v, hi_v) = (lo.value.as_f64()?, hi.value.as_f64()?);
        let prec = or.precision();
        let ours_rounded = prec.format(delta.odds_ratio);
        intervals.push((place, lo_v, hi_v, or.value.as_f64()?));
        rows.push(vec![
            place.to_string(),
            format!("{} [{}, {}]", or.printed(), lo.printed(), hi.printed()),
            format!(
                "{} [{}, {}]",
                ours_rounded,
                prec.format(delta.lo),
                prec.format(delta.hi)
            ),
            if ours_rounded == prec.format(or.value.as_f64()?) {
                "yes".into()
            } else {
                "no".into()
            },
        ]);
    }
    if rows.len() < 2 {
        return None;
    }
    let clash = intervals
        .iter()
        .any(|(_, lo, hi, _)| intervals.iter().any(|(_, _, _, v)| *v < *lo || *v > *hi));
    Some(Finding {
        id: "or-three-ways".into(),
        title: "The Δ_briscola odds ratio is quoted three different ways".into(),
        paper_says: "Table 4 prints 1.217 [1.215, 1.219]; the §5 prose 1.220 [1.218, 1.222]; the abstract 1.22 [1.21, 1.22].".into(),
        we_find: format!(
            "Ours is {} [{}, {}] (Wald). {}",
            fixed(delta.odds_ratio, 4),
            fixed(delta.lo, 4),
            fixed(delta.hi, 4),
            if clash {
                "The versions are not roundings of one another: one version's point estimate lies outside another's interval, so at most one can be the fitted value."
            } else {
                "The versions are consistent roundings of one another."
            }
        ),
        table: Some(FindingTable {
            caption: format!("Ours rounded to each version's printed digits (study “{}”).", main.name),
            headers: vec!["where".into(), "paper".into(), "ours at that precision".into(), "same?".into()],
            rows,
        }),
    })
}

fn profile_vs_wald(main: &StudyResults, card: &Scorecard) -> Option<Finding> {
    let bounds: Vec<_> = card
        .rows
        .iter()
        .filter(|r| r.published_key.is_table4_bound())
        .collect();
    if bounds.is_empty() {
        return None;
    }
    let same = bounds
        .iter()
        .filter(|r| r.verdict == Verdict::PrintedPrecision)
        .count();
    Some(Finding {
        id: "profile-vs-wald".into(),
        title: "Table 4's intervals are captioned Wald but the released script computes profile-likelihood intervals".into(),
        paper_says: "§4 and Table 4: \"95% Wald confidence intervals … computed via broom::tidy()\".".into(),
        we_find: format!(
            "broom::tidy(conf.int = TRUE) on a glm calls confint(), which profiles the likelihood; it does not give Wald intervals. We compute both: profile intervals by R's own algorithm (MASS's profile.glm grid, fmm spline and interpolation; checked against R 4.2.2's confint) and Wald intervals (estimate ± z·SE on the log-odds scale). {} of {} of Table 4's published bounds equal our profile bounds at the printed precision; with N = {} games the log-likelihood is close to quadratic and the two methods differ by at most {} in an odds-ratio bound here, so the caption is wrong in method rather than in value at this size (in small studies the two differ materially).",
            same,
            bounds.len(),
            thousands(i128::from(main.table4.n)),
            super::format::scientific(
                main.table4
                    .terms
                    .iter()
                    .flat_map(|t| [(t.profile_lo - t.lo).abs(), (t.profile_hi - t.hi).abs()])
                    .fold(0.0, f64::max),
                1
            ),
        ),
        table: None,
    })
}

fn game_count(main: &StudyResults) -> Finding {
    let s = &main.settings;
    let k = s.policies.len().max(1) as u64;
    Finding {
        id: "game-count".into(),
        title: format!(
            "The abstract's 10^6 games are {} (a rounding the body states)",
            thousands(i128::from(s.games_total))
        ),
        paper_says:
            "Abstract and §1: \"a round-robin Monte Carlo tournament of 10^6 simulated games\"."
                .into(),
        we_find: format!(
            "Each of the {} ordered matchups plays floor({} / {}) = {} games, so {} games are played in all; {} requested game(s) are never played. §3 and §5 state this count themselves (N = 999 999): only the abstract and §1 round it to 10^6, a harmless rounding listed for completeness.",
            k * k,
            thousands(i128::from(s.games_requested)),
            k * k,
            thousands(i128::from(s.games_per_matchup)),
            thousands(i128::from(s.games_total)),
            thousands(i128::from(s.games_requested) - i128::from(s.games_total)),
        ),
        table: None,
    }
}

fn retained(main: &StudyResults) -> Finding {
    let non_tied: u64 = main.table3.iter().map(|c| c.non_tied).sum();
    let folk = main.folk_theorem.games;
    Finding {
        id: "retained".into(),
        title: "Which games are \"retained\": two different counts".into(),
        paper_says: "§5: \"999 999 games … of which 693 633 end without a tie in points and are retained for the inferential analysis\"; Table 4 is fitted on N = 975,263 non-tied games.".into(),
        we_find: format!(
            "{} games end without a tie in points (Table 4's N, and the base of Table 3). {} is the folk theorem's subset: games without a tie in points AND with unequal briscola counts; the other {} non-tied games have Δ_briscola = 0. Only H0(1) uses the smaller set.",
            thousands(i128::from(non_tied)),
            thousands(i128::from(folk)),
            thousands(i128::from(non_tied) - i128::from(folk)),
        ),
        table: None,
    }
}

fn seat(main: &StudyResults, c: &Conclusions) -> Option<Finding> {
    if c.diagonal.is_empty() {
        return None;
    }
    let rows = c
        .diagonal
        .iter()
        .map(|(p, r, lo, hi)| {
            vec![
                format!("{p} vs {p}"),
                fixed(*r, 4),
                format!("[{}, {}]", fixed(*lo, 4), fixed(*hi, 4)),
            ]
        })
        .collect();
    Some(Finding {
        id: "seat".into(),
        title: "The first seat is a disadvantage, and excluding ties does not explain it".into(),
        paper_says: "§3: G1 \"leads the first trick and therefore enjoys a modest structural advantage\"; §5: the baseline's \"slight sub-0.5 value reflects the fact that we exclude tied games, not any asymmetry in the rules\".".into(),
        we_find: format!(
            "{} Dropping tied games removes the same games from G1's and G2's tallies, so it cannot move G1's share of the rest away from 0.5: the deficit is a genuine second-seat advantage under these policies, the opposite of the structural advantage §3 expects.",
            if c.second_seat_favoured {
                format!("In every same-policy matchup of study “{}” G1 wins less than half of the non-tied games, and every Wilson interval lies below 0.5.", main.name)
            } else {
                format!("In study “{}” not every same-policy interval lies below 0.5.", main.name)
            }
        ),
        table: Some(FindingTable {
            caption: "G1's win rate when both seats play the same policy.".into(),
            headers: vec!["matchup".into(), "G1 rate".into(), "Wilson 95%".into()],
            rows,
        }),
    })
}

fn folk_range(main: &StudyResults, c: &Conclusions) -> Option<Finding> {
    if main.folk_theorem.per_matchup.is_empty() {
        return None;
    }
    Some(Finding {
        id: "folk-range".into(),
        title: "The per-matchup folk-theorem shares are cited to a table that does not hold them".into(),
        paper_says: "§5: the majority holder's share is \"remarkably stable across the nine matchups (range 0.60–0.66; Table 3)\".".into(),
        we_find: format!(
            "Table 3 holds G1's win rates, not the folk-theorem shares. Computed per matchup (the released script prints them but the paper does not), the shares range from {} to {}; they are shown in the H0(1) section below.",
            fixed(c.folk_min, 4),
            fixed(c.folk_max, 4)
        ),
        table: None,
    })
}

fn power(main: &StudyResults) -> Finding {
    let p = &main.power;
    Finding {
        id: "power".into(),
        title: "The power analysis is not for the test that is run".into(),
        paper_says: "§3: power of a binomial test of p = 0.5 by a normal approximation with N_p = 1.1 × 10^5 and |δ| = 0.01.".into(),
        we_find: format!(
            "H0(2) tests each cell against the estimated baseline p̂0 = {} (treated as known), not against 0.5; the released script computes power by Cohen's h with N = {} per cell. Both give high power: {} (prose's approximation, N = {}) and {} (Cohen's h).",
            fixed(main.pairwise.p0, 4),
            thousands(i128::from(p.cohens_h.n)),
            fixed(p.normal_approx.power, 5),
            thousands(i128::from(p.normal_approx.n)),
            fixed(p.cohens_h.power, 5),
        ),
        table: None,
    }
}

fn z_critical(main: &StudyResults, published: &Published) -> Option<Finding> {
    let paper = published.get("pairwise.z_critical")?;
    let alpha = main.pairwise.alpha_per_test;
    let z = crate::stats::z_critical(alpha).ok()?;
    let prec = paper.precision();
    if prec.format(z) == prec.format(paper.value.as_f64()?) {
        return None;
    }
    Some(Finding {
        id: "z-critical".into(),
        title: "The Bonferroni critical value is misrounded".into(),
        paper_says: format!(
            "§3: α = 0.05/8 = 6.25 × 10^−3, z_(1−α/2) ≈ {}.",
            paper.printed()
        ),
        we_find: format!(
            "For a per-test α of {} the two-sided critical value is z = {}, which rounds to {}, not {}. The error does not change any conclusion.",
            super::format::fixed(alpha, 5),
            fixed(z, 4),
            prec.format(z),
            paper.printed()
        ),
        table: None,
    })
}

/// The paper says every rejecting cell has p < its bound; the largest Bonferroni p among the
/// cells that reject, computed.
fn reject_bound(main: &StudyResults, published: &Published) -> Option<Finding> {
    let bound = published.number("pairwise.all_reject_below")?;
    let worst = main
        .pairwise
        .cells
        .iter()
        .filter(|c| c.reject)
        .max_by(|a, b| a.p_bonferroni.log10.total_cmp(&b.p_bonferroni.log10))?;
    if worst.p_bonferroni.log10 < bound.log10() {
        return None;
    }
    Some(Finding {
        id: "reject-bound".into(),
        title: "Not every rejecting cell has the p-value the paper claims".into(),
        paper_says: format!(
            "§5: every non-baseline cell but counter vs counter rejects with Bonferroni-adjusted p < {}.",
            super::format::pval(&crate::stats::p_value::PValue::from_value(bound), 1)
        ),
        we_find: format!(
            "The cell {} vs {} rejects (Bonferroni p = {}), but its p is above the paper's bound of {}. The rejection itself stands (the family α is {}); only the stated bound is wrong.",
            worst.g1_policy,
            worst.g2_policy,
            super::format::pval(&worst.p_bonferroni, 2),
            super::format::pval(&crate::stats::p_value::PValue::from_value(bound), 1),
            super::format::short(main.pairwise.alpha_family, 4)
        ),
        table: None,
    })
}

fn strategy_vs_luck(main: &StudyResults, c: &Conclusions) -> Option<Finding> {
    let s = c.strategy_vs_luck.as_ref()?;
    Some(Finding {
        id: "strategy-vs-luck".into(),
        title: "Is strategy \"substantially larger\" than trump luck, or \"comparable\"?".into(),
        paper_says: "Abstract: \"the strategy effect substantially larger than the briscola-count effect\"; §5: \"the two families of effects are therefore of comparable magnitude\".".into(),
        we_find: format!(
            "The largest policy effect in Table 4 ({}, OR {}) equals a shift of Δ_briscola by {} — {} of one trump moved between the players. A typical deal's luck is larger: Δ_briscola has a standard deviation of {} over non-tied games (study “{}”), an odds ratio of {} per standard deviation. {}",
            s.strongest_label,
            fixed(s.strongest_or, 3),
            fixed(s.equivalent_delta, 2),
            fixed(s.equivalent_trumps, 2),
            fixed(s.delta_sd, 2),
            main.name,
            fixed(s.sd_or, 3),
            if s.luck_larger {
                "Per deal, trump luck outweighs the choice of policy; the abstract's claim does not hold on this scale."
            } else {
                "On this scale the policy effect is the larger."
            }
        ),
        table: None,
    })
}

/// Every finding that the results support, in reading order.
pub fn findings(results: &Results, cards: &[Scorecard], published: &Published) -> Vec<Finding> {
    let Some(main) = results.studies.first() else {
        return Vec::new();
    };
    let conclusions = Conclusions::of(main);
    let mut out = Vec::new();
    if !cards.is_empty() {
        out.extend(tie_break(results, cards, published));
    }
    out.extend(delta_even(main, published));
    out.extend(or_three_ways(main, published));
    if let Some(card) = cards.first() {
        out.extend(profile_vs_wald(main, card));
    }
    out.push(game_count(main));
    out.push(retained(main));
    out.extend(seat(main, &conclusions));
    out.extend(folk_range(main, &conclusions));
    out.extend(z_critical(main, published));
    out.extend(reject_bound(main, published));
    out.push(power(main));
    out.extend(strategy_vs_luck(main, &conclusions));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::scorecard::{ScoreInputs, score};
    use crate::results::fixture;

    #[test]
    fn fixture_gives_every_finding() {
        let text = include_str!("../../templates/published.toml");
        let published = Published::parse(text, "published.toml").unwrap();
        let r = fixture::results(&["greedy", "hoarder", "counter"]);
        let cards: Vec<_> = r
            .studies
            .iter()
            .map(|s| score(s, &published, &ScoreInputs::default()))
            .collect();
        let f = findings(&r, &cards, &published);
        let ids: Vec<&str> = f.iter().map(|x| x.id.as_str()).collect();
        for id in [
            "tie-break",
            "delta-even",
            "or-three-ways",
            "profile-vs-wald",
            "game-count",
            "retained",
            "seat",
            "power",
        ] {
            assert!(ids.contains(&id), "{id} missing from {ids:?}");
        }
        let even = f.iter().find(|x| x.id == "delta-even").unwrap();
        assert!(even.we_find.contains(" 0 of "), "{}", even.we_find);
        let count = f.iter().find(|x| x.id == "game-count").unwrap();
        assert!(count.title.contains("999,999"));
    }
}
