//! The counter policy (Definition 3): the hoarder plus the carico trap, from public memory.
//!
//! Invariant: it only uses public information: the face-up card and cards of earlier tricks.

use super::hoarder::Hoarder;
use super::{Policy, SeatView, TieBreak};
use crate::game::Card;

/// Counter: leads a non-trump Ace (then Three) whose same-suit sibling carico has been seen;
/// otherwise plays as the hoarder with the same threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    hoarder: Hoarder,
}

impl Counter {
    /// Counter with the follower rule's overtrump threshold.
    pub fn new(threshold: u8, tie: TieBreak) -> Counter {
        Counter {
            hoarder: Hoarder::new(threshold, tie),
        }
    }
}

impl Policy for Counter {
    #[inline]
    fn choose(&self, v: &SeatView<'_>) -> usize {
        if v.table.is_some() {
            return self.hoarder.choose(v);
        }
        // Descending points: Aces (11) before Threes (10), ties to hand order.
        for (rank, sibling) in [(1u8, 3u8), (3, 1)] {
            for (i, &c) in v.hand.iter().enumerate() {
                if c.suit() != v.trump && c.rank() == rank {
                    let sib = Card::new(c.suit(), sibling).expect("rank 1 or 3");
                    if v.seen(sib) {
                        return i;
                    }
                }
            }
        }
        self.hoarder.lead(v)
    }
}
