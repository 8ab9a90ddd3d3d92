//! The hoarder policy (Definition 2): keep trumps for tricks worth at least a threshold.
//!
//! Invariant: as follower it spends a trump on an off-suit lead only when the led card is worth
//! at least `threshold` points (or when every card it holds is a trump).

use super::order::{cheapest_non_trump, in_suit_winner, winning_trump};
use super::{Policy, SeatView, TieBreak};

/// Hoarder: leads its cheapest non-trump; follows with the cheapest in-suit winner, else (only on
/// a led card worth `>= threshold`) the cheapest winning trump, else its cheapest non-trump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hoarder {
    threshold: u8,
    tie: TieBreak,
}

impl Hoarder {
    /// Hoarder with an overtrump threshold in points.
    pub fn new(threshold: u8, tie: TieBreak) -> Hoarder {
        Hoarder { threshold, tie }
    }

    /// The leader rule (shared with Counter's fallback).
    #[inline]
    pub(crate) fn lead(&self, v: &SeatView<'_>) -> usize {
        cheapest_non_trump(v.hand, v.trump, self.tie)
    }
}

impl Policy for Hoarder {
    #[inline]
    fn choose(&self, v: &SeatView<'_>) -> usize {
        match v.table {
            None => self.lead(v),
            Some(led) => in_suit_winner(v.hand, led, self.tie)
                .or_else(|| {
                    if led.points() >= self.threshold {
                        winning_trump(v.hand, led, v.trump, self.tie)
                    } else {
                        None
                    }
                })
                .unwrap_or_else(|| cheapest_non_trump(v.hand, v.trump, self.tie)),
        }
    }
}
