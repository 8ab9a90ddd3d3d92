//! The paper's conclusions restated from one study's own numbers: the dominance chain, the
//! folk theorem's two forms, the seat effect, and strategy against trump luck.
//!
//! Invariant: every boolean and ordering here is computed from the study's results alone (never
//! from the paper's values), so the replication's conclusions stand on the replication's data.

use serde::Serialize;

use crate::plot::policy_names;
use crate::results::StudyResults;

/// One unordered pair of policies: who beats whom, in both seats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dominance {
    /// The policy that wins more than half of non-tied games in both seats.
    pub winner: String,
    /// The other policy.
    pub loser: String,
    /// Winner's rate as G1 against the loser.
    pub rate_as_g1: f64,
    /// Winner's rate as G2 against the loser (1 - the loser's rate as G1).
    pub rate_as_g2: f64,
    /// Both Wilson intervals exclude 0.5.
    pub significant: bool,
}

/// A pair where neither policy wins in both seats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Undecided {
    /// First policy.
    pub a: String,
    /// Second policy.
    pub b: String,
}

/// Strategy against luck, from Table 4.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyVsLuck {
    /// Term with the largest |log odds ratio| among the policy dummies.
    pub strongest_term: String,
    /// Its label.
    pub strongest_label: String,
    /// Its odds ratio.
    pub strongest_or: f64,
    /// Odds ratio per +1 of Delta.
    pub delta_or: f64,
    /// Odds ratio per trump moved from G2 to G1 (Delta + 2).
    pub per_trump_or: f64,
    /// The strongest policy effect expressed as a shift of Delta.
    pub equivalent_delta: f64,
    /// The same in trumps moved (Delta / 2).
    pub equivalent_trumps: f64,
    /// Standard deviation of Delta over non-tied games (Figure 2's bins).
    pub delta_sd: f64,
    /// The odds ratio of one standard deviation of Delta.
    pub sd_or: f64,
    /// Luck (one sd of Delta) moves the log-odds more than the strongest policy effect.
    pub luck_larger: bool,
}

/// The study's conclusions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Conclusions {
    /// Pairs with a winner in both seats.
    pub dominance: Vec<Dominance>,
    /// Pairs without.
    pub undecided: Vec<Undecided>,
    /// A strict order where each policy beats every later one in both seats, if one exists.
    pub chain: Option<Vec<String>>,
    /// The chain as text, e.g. `greedy ≻ hoarder ≻ counter`, or `none (a and b split by seat)`.
    pub chain_text: String,
    /// Every dominance in the chain is significant.
    pub chain_significant: bool,
    /// The regression's reference policy (the paper's baseline).
    pub reference: String,
    /// The reference beats every other policy in both seats: the pre-registered hypothesis
    /// (some refinement beats the baseline) is rejected in the opposite direction.
    pub reference_dominates_all: bool,
    /// Some other policy beats the reference in both seats.
    pub some_policy_beats_reference: bool,
    /// The majority holder's share is below 1 with an interval excluding 1.
    pub folk_deterministic_rejected: bool,
    /// The share's interval lies above 0.5 and the chi-square test rejects independence.
    pub folk_probabilistic_supported: bool,
    /// Smallest per-matchup folk share.
    pub folk_min: f64,
    /// Largest per-matchup folk share.
    pub folk_max: f64,
    /// Pairwise cells rejected after Bonferroni.
    pub pairwise_rejected: usize,
    /// Pairwise tests.
    pub pairwise_tests: usize,
    /// Diagonal (same-policy) cells: G1's rate.
    pub diagonal: Vec<(String, f64, f64, f64)>,
    /// Every diagonal cell's interval lies below 0.5: the second seat is favoured.
    pub second_seat_favoured: bool,
    /// Strategy against luck, when Table 4 has the terms.
    pub strategy_vs_luck: Option<StrategyVsLuck>,
}

fn rate(study: &StudyResults, a: &str, b: &str) -> Option<(f64, f64, f64)> {
    study
        .table3
        .iter()
        .find(|c| c.g1_policy == a && c.g2_policy == b)
        .map(|c| (c.rate, c.lo, c.hi))
}

/// Standard deviation of Delta over all non-tied games of the study.
pub fn delta_sd(study: &StudyResults) -> f64 {
    let (mut n, mut s, mut s2) = (0.0, 0.0, 0.0);
    for b in study.figure2.iter().flat_map(|p| &p.bins) {
        let d = f64::from(b.delta);
        n += b.n as f64;
        s += d * b.n as f64;
        s2 += d * d * b.n as f64;
    }
    if n == 0.0 {
        return f64::NAN;
    }
    let m = s / n;
    (s2 / n - m * m).max(0.0).sqrt()
}

impl Conclusions {
    /// Conclusions of `study`.
    pub fn of(study: &StudyResults) -> Conclusions {
        let names = policy_names(study);
        let mut dominance = Vec::new();
        let mut undecided = Vec::new();
        for (i, a) in names.iter().enumerate() {
            for b in names.iter().skip(i + 1) {
                let (Some(ab), Some(ba)) = (rate(study, a, b), rate(study, b, a)) else {
                    undecided.push(Undecided {
                        a: a.clone(),
                        b: b.clone(),
                    });
                    continue;
                };
                if ab.0 > 0.5 && ba.0 < 0.5 {
                    dominance.push(Dominance {
                        winner: a.clone(),
                        loser: b.clone(),
                        rate_as_g1: ab.0,
                        rate_as_g2: 1.0 - ba.0,
                        significant: ab.1 > 0.5 && ba.2 < 0.5,
                    });
                } else if ab.0 < 0.5 && ba.0 > 0.5 {
                    dominance.push(Dominance {
                        winner: b.clone(),
                        loser: a.clone(),
                        rate_as_g1: ba.0,
                        rate_as_g2: 1.0 - ab.0,
                        significant: ba.1 > 0.5 && ab.2 < 0.5,
                    });
                } else {
                    undecided.push(Undecided {
                        a: a.clone(),
                        b: b.clone(),
                    });
                }
            }
        }
        let beats = |w: &str, l: &str| dominance.iter().any(|d| d.winner == w && d.loser == l);
        let mut order = names.clone();
        order.sort_by_key(|p| {
            std::cmp::Reverse(dominance.iter().filter(|d| d.winner == *p).count())
        });
        let is_chain = undecided.is_empty()
            && order
                .iter()
                .enumerate()
                .all(|(i, a)| order.iter().skip(i + 1).all(|b| beats(a, b)));
        let chain = is_chain.then(|| order.clone());
        let chain_text = match &chain {
            Some(c) => c.join(" ≻ "),
            None => match undecided.first() {
                Some(u) => format!("none ({} and {} split by seat)", u.a, u.b),
                None => "none (the pairwise winners form a cycle)".to_string(),
            },
        };
        let chain_significant = is_chain && dominance.iter().all(|d| d.significant);
        let reference = study.table4.reference_policy.clone();
        let others: Vec<&String> = names.iter().filter(|p| **p != reference).collect();
        let reference_dominates_all =
            !others.is_empty() && others.iter().all(|p| beats(&reference, p));
        let some_policy_beats_reference = others.iter().any(|p| beats(p, &reference));
        let f = &study.folk_theorem;
        let folk_min = f
            .per_matchup
            .iter()
            .map(|c| c.rate)
            .fold(f64::INFINITY, f64::min);
        let folk_max = f
            .per_matchup
            .iter()
            .map(|c| c.rate)
            .fold(f64::NEG_INFINITY, f64::max);
        let diagonal: Vec<(String, f64, f64, f64)> = names
            .iter()
            .filter_map(|p| rate(study, p, p).map(|(r, lo, hi)| (p.clone(), r, lo, hi)))
            .collect();
        let second_seat_favoured = !diagonal.is_empty() && diagonal.iter().all(|d| d.3 < 0.5);
        let strategy_vs_luck = Self::strategy_vs_luck(study);
        Conclusions {
            dominance,
            undecided,
            chain,
            chain_text,
            chain_significant,
            reference,
            reference_dominates_all,
            some_policy_beats_reference,
            folk_deterministic_rejected: f.games > 0 && f.hi < 1.0,
            folk_probabilistic_supported: f.lo > 0.5 && f.p_value.value.is_none_or(|p| p < 0.05),
            folk_min,
            folk_max,
            pairwise_rejected: study.pairwise.cells.iter().filter(|c| c.reject).count(),
            pairwise_tests: study.pairwise.cells.len(),
            diagonal,
            second_seat_favoured,
            strategy_vs_luck,
        }
    }

    fn strategy_vs_luck(study: &StudyResults) -> Option<StrategyVsLuck> {
        let terms = &study.table4.terms;
        let delta = terms.iter().find(|t| t.term == "delta_briscola")?;
        let strongest = terms
            .iter()
            .filter(|t| t.term.starts_with("g1_") || t.term.starts_with("g2_"))
            .max_by(|a, b| a.estimate.abs().total_cmp(&b.estimate.abs()))?;
        let sd = delta_sd(study);
        let equivalent_delta = strongest.estimate.abs() / delta.estimate.abs();
        Some(StrategyVsLuck {
            strongest_term: strongest.term.clone(),
            strongest_label: strongest.label.clone(),
            strongest_or: strongest.odds_ratio,
            delta_or: delta.odds_ratio,
            per_trump_or: (2.0 * delta.estimate).exp(),
            equivalent_delta,
            equivalent_trumps: equivalent_delta / 2.0,
            delta_sd: sd,
            sd_or: (sd * delta.estimate).exp(),
            luck_larger: sd * delta.estimate.abs() > strongest.estimate.abs(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::fixture;

    #[test]
    fn paper_like_numbers_give_the_papers_chain() {
        let r = fixture::results(&["greedy", "hoarder", "counter"]);
        let c = Conclusions::of(&r.studies[0]);
        assert_eq!(c.chain_text, "greedy ≻ hoarder ≻ counter");
        assert!(c.chain_significant);
        assert!(c.reference_dominates_all);
        assert!(!c.some_policy_beats_reference);
        assert!(c.folk_deterministic_rejected);
        assert!(c.folk_probabilistic_supported);
        assert!(c.second_seat_favoured);
        let s = c.strategy_vs_luck.unwrap();
        assert!((s.per_trump_or - 1.217f64.powi(2)).abs() < 1e-3);
    }

    #[test]
    fn two_policies_scale_down() {
        let r = fixture::results(&["alpha", "beta"]);
        let c = Conclusions::of(&r.studies[0]);
        assert_eq!(c.dominance.len() + c.undecided.len(), 1);
    }
}
