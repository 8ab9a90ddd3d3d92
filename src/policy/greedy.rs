//! The greedy policy (Definition 1): win every trick it can, as cheaply as it can.
//!
//! Invariant: as follower it never loses a trick it could win with a card in hand.

use super::TieBreak;
use super::order::{follow_key, lead_key, stable_min};
use crate::game::{Policy, SeatRng, SeatView};

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
    #[inline(always)]
    fn choose(&self, v: &SeatView<'_>, _rng: &mut SeatRng) -> usize {
        match v.table {
            None => stable_min(v.hand, |c| lead_key(c, v.trump, self.tie)),
            Some(led) => stable_min(v.hand, |c| {
                follow_key(c, led, v.trump, self.tie, true, false)
            }),
        }
    }
}
