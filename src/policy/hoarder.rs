//! The hoarder policy (Definition 2): keep trumps for tricks worth at least a threshold.
//!
//! Invariant: as follower it spends a trump on an off-suit lead only when the led card is worth
//! at least `threshold` points (or when every card it holds is a trump).

use super::TieBreak;
use super::order::{follow_key, lead_key, stable_min};
use crate::game::{Policy, SeatRng, SeatView};

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

    /// The tie-break reading (shared with Counter's leader rule).
    #[inline]
    pub(crate) fn tie(&self) -> TieBreak {
        self.tie
    }

    /// The leader rule.
    #[inline]
    fn lead(&self, v: &SeatView<'_>) -> usize {
        stable_min(v.hand, |c| lead_key(c, v.trump, self.tie))
    }
}

impl Policy for Hoarder {
    #[inline(always)]
    fn choose(&self, v: &SeatView<'_>, _rng: &mut SeatRng) -> usize {
        match v.table {
            None => self.lead(v),
            Some(led) => {
                let overtrump = led.points() >= self.threshold;
                stable_min(v.hand, |c| {
                    follow_key(c, led, v.trump, self.tie, overtrump, true)
                })
            }
        }
    }
}
