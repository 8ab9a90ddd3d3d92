//! Proptest strategies shared by the property tests of the engine, the general table engine and
//! the traced replay: random decks and random paper-policy specifications.
//!
//! Invariant: every generated deck is a permutation of the 40 cards and every spec builds.

use proptest::prelude::*;

use super::{PolicyKind, PolicySpec, TieBreak};
use crate::game::Deck;

/// A uniformly shuffled deck.
pub(crate) fn deck_strategy() -> impl Strategy<Value = Deck> {
    Just((0u8..40).collect::<Vec<u8>>())
        .prop_shuffle()
        .prop_map(|ids| Deck::from_ids(&ids).expect("a permutation"))
}

/// One of the paper's policies, either tie-break reading, thresholds `0..=max_threshold`.
pub(crate) fn spec_strategy(max_threshold: u8) -> impl Strategy<Value = PolicySpec> {
    (
        prop_oneof![
            Just(PolicyKind::Greedy),
            Just(PolicyKind::Hoarder),
            Just(PolicyKind::Counter)
        ],
        prop_oneof![Just(TieBreak::AsReleased), Just(TieBreak::AsWritten)],
        0u8..=max_threshold,
    )
        .prop_map(|(k, t, th)| {
            let mut s = PolicySpec::paper(k, t);
            if k != PolicyKind::Greedy {
                s.threshold = th;
            }
            s
        })
}
