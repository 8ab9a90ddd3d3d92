//! The greedy policy (Definition 1): win every trick it can, as cheaply as it can.
//!
//! Invariant: as follower it never loses a trick it could win with a card in hand.

use super::TieBreak;
use super::explain::{Explanation, Rule, explain_lead, explained, order_words};
use super::order::{follow_key, lead_key, stable_min};
use crate::game::{Card, KeyTables, Policy, SeatRng, SeatView, Suit};

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

    /// [`Policy::choose`] with the rule that fired and why (see [`super::explain`]).
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let i = self.choose(v, rng);
        let Some(led) = v.table else {
            return explain_lead(v, i, self.tie);
        };
        let c = v.hand[i];
        match follow_key(c, led, v.trump, self.tie, true, false) >> 8 {
            0 => explained(
                v,
                i,
                Rule::FollowCheapestInSuitWinner,
                format!("{c} is the cheapest card of the led suit that beats {led}"),
            ),
            1 => explained(
                v,
                i,
                Rule::FollowCheapestWinningTrump,
                format!("no card of the led suit beats {led}; {c} is the cheapest trump"),
            ),
            _ => explained(
                v,
                i,
                Rule::FollowCheapestCard,
                format!(
                    "no card in hand beats {led}; {c} ({} points) is the cheapest ({})",
                    c.points(),
                    order_words(self.tie)
                ),
            ),
        }
    }
}

impl Greedy {
    /// The follower key of `c` against `led` (smaller plays first): the one definition read by
    /// [`Policy::choose`] and by [`Greedy::key_tables`].
    #[inline(always)]
    fn follow_key(c: Card, led: Card, trump: Suit, tie: TieBreak) -> u32 {
        follow_key(c, led, trump, tie, true, false)
    }

    /// This policy as key tables (see [`KeyTables`]).
    pub fn key_tables(&self) -> KeyTables {
        KeyTables::build(
            |c, _| lead_key(c, Suit::Oro, self.tie),
            |_| 0,
            |led, c| Self::follow_key(c, led, Suit::Oro, self.tie),
        )
    }
}

impl Policy for Greedy {
    #[inline(always)]
    fn choose(&self, v: &SeatView<'_>, _rng: &mut SeatRng) -> usize {
        match v.table {
            None => stable_min(v.hand, |c| lead_key(c, v.trump, self.tie)),
            Some(led) => stable_min(v.hand, |c| Self::follow_key(c, led, v.trump, self.tie)),
        }
    }
}
