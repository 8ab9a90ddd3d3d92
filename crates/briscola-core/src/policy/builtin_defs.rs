//! The paper's three policies (Definitions 1-3) written in the policy language: the shipped
//! definitions behind the built-in names `greedy`, `hoarder` and `counter`, and the starting
//! point a researcher copies to write a new policy.
//!
//! Invariant: each definition, compiled under either tie-break reading, plays exactly as the
//! hand-written built-in of the same name (tests in `tests/it/policy_lang.rs` compare shards
//! byte for byte); a rule policy that compiles to one of them *is* that built-in.

use super::lang::RuleProgram;
use super::{PolicyKind, TieBreak};

/// Definition 1's and 2's leader rule (and the fallback of Definition 3's): the cheapest
/// non-trump, else the cheapest card.
pub const LEAD: [&str; 2] = ["cheapest of !trump", "cheapest"];

/// Definition 3's leader rule: the carico trap first (a non-trump Ace, then Three, whose
/// same-suit sibling carico is public), then the hoarder's.
pub const COUNTER_LEAD: [&str; 3] = [
    "dearest of carico & !trump & sibling-seen",
    "cheapest of !trump",
    "cheapest",
];

/// Definition 1's follower rule: the cheapest in-suit winner, else the cheapest winning trump,
/// else the cheapest card. (The released code sorts the winners by points only.)
pub const GREEDY_FOLLOW: [&str; 3] = [
    "cheapest-by-points of led-suit & wins",
    "cheapest-by-points of trump & wins",
    "cheapest",
];

/// Definitions 2's and 3's follower rule with overtrump threshold `t`: the cheapest in-suit
/// winner; a winning trump only on a led card worth at least `t`; else the cheapest non-trump,
/// else the cheapest card.
pub fn hoarder_follow(t: u8) -> [String; 4] {
    [
        "cheapest-by-points of led-suit & wins".into(),
        format!("if led.points >= {t} then cheapest-by-points of trump & wins"),
        "cheapest of !trump".into(),
        "cheapest".into(),
    ]
}

/// The lead and follow rules of a built-in kind with threshold `t` (ignored for greedy).
pub fn rules_of(kind: PolicyKind, t: u8) -> Option<(Vec<String>, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Some(match kind {
        PolicyKind::Greedy => (s(&LEAD), s(&GREEDY_FOLLOW)),
        PolicyKind::Hoarder => (s(&LEAD), hoarder_follow(t).to_vec()),
        PolicyKind::Counter => (s(&COUNTER_LEAD), hoarder_follow(t).to_vec()),
        _ => return None,
    })
}

/// The built-in definition of `kind` with threshold `t`, compiled under `tie`.
pub fn builtin_program(kind: PolicyKind, t: u8, tie: TieBreak) -> Option<RuleProgram> {
    let (lead, follow) = rules_of(kind, t)?;
    Some(RuleProgram::compile(&lead, &follow, tie).expect("the shipped definitions compile"))
}

/// If `p` is exactly one of the built-in definitions, its kind and threshold (so a copied
/// definition runs on the built-in's fast path and keeps its cache keys and shards).
pub fn as_builtin(p: &RuleProgram, max_threshold: u8) -> Option<(PolicyKind, u8)> {
    let tie = p.tie_break();
    if builtin_program(PolicyKind::Greedy, 0, tie).as_ref() == Some(p) {
        return Some((PolicyKind::Greedy, 0));
    }
    for kind in [PolicyKind::Hoarder, PolicyKind::Counter] {
        for t in 0..=max_threshold {
            if builtin_program(kind, t, tie).as_ref() == Some(p) {
                return Some((kind, t));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::{Deck, SeatRng, TrickRecord, play_game};
    use crate::policy::{AnyPolicy, PolicySpec};

    fn tricks(deck: &Deck, a: &AnyPolicy, b: &AnyPolicy) -> Vec<TrickRecord> {
        let mut out = Vec::new();
        let mut rngs = [SeatRng::new([1; 32], 0), SeatRng::new([2; 32], 0)];
        play_game(deck, a, b, &mut rngs, &mut |t: &TrickRecord| out.push(*t));
        out
    }

    /// Every decision of every game, for every pair of the three kinds, thresholds 0..=12 and
    /// both readings: the shipped definitions play exactly as the hand-written built-ins.
    #[test]
    fn shipped_definitions_play_exactly_as_the_builtins() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let kinds = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter];
        for game in 0..6000u32 {
            let mut deck = Deck::ordered();
            deck.shuffle_with(|m| rng.random_range(0..m));
            let tie = if game % 2 == 0 {
                TieBreak::AsReleased
            } else {
                TieBreak::AsWritten
            };
            let (ka, kb) = (kinds[game as usize % 3], kinds[game as usize / 3 % 3]);
            let t = (game % 13) as u8;
            let spec = |k| {
                let mut s = PolicySpec::paper(k, tie);
                if k != PolicyKind::Greedy {
                    s.threshold = t;
                }
                s
            };
            let prog = |k| AnyPolicy::Rules(Arc::new(builtin_program(k, t, tie).unwrap()));
            let want = tricks(&deck, &spec(ka).build(), &spec(kb).build());
            assert_eq!(tricks(&deck, &prog(ka), &prog(kb)), want, "game {game}");
            assert_eq!(
                tricks(&deck, &prog(ka), &spec(kb).build()),
                want,
                "game {game}"
            );
        }
    }

    #[test]
    fn a_shipped_definition_is_recognised_as_its_builtin() {
        for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
            for (k, t) in [
                (PolicyKind::Greedy, 0),
                (PolicyKind::Hoarder, 10),
                (PolicyKind::Counter, 4),
            ] {
                let p = builtin_program(k, t, tie).unwrap();
                assert_eq!(as_builtin(&p, 22), Some((k, t)));
            }
            let edited = RuleProgram::compile(&LEAD, &["cheapest"], tie).unwrap();
            assert_eq!(as_builtin(&edited, 22), None);
        }
    }
}
