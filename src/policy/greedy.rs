//! The greedy policy (Definition 1): win every trick it can, as cheaply as it can.
//!
//! Invariant: as follower it never loses a trick it could win with a card in hand.

use super::order::{cheapest, cheapest_non_trump, in_suit_winner, winning_trump};
use super::{Policy, SeatView, TieBreak};

/// Greedy: leads its cheapest non-trump; follows with the cheapest in-suit winner, else the
/// cheapest winning trump, else its cheapest card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Greedy {
    tie: TieBreak,
}

impl Greedy {
    /// Greedy with the given tie-break reading.
    pub fn new(tie: TieBreak) -> Greedy {
        Greedy { tie }
    }
}

impl Policy for Greedy {
    #[inline]
    fn choose(&self, v: &SeatView<'_>) -> usize {
        match v.table {
            None => cheapest_non_trump(v.hand, v.trump, self.tie),
            Some(led) => in_suit_winner(v.hand, led, self.tie)
                .or_else(|| winning_trump(v.hand, led, v.trump, self.tie))
                .unwrap_or_else(|| cheapest(v.hand, self.tie)),
        }
    }
}
