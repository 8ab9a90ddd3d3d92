//! The hoarder policy (Definition 2): keep trumps for tricks worth at least a threshold.
//!
//! Invariant: as follower it spends a trump on an off-suit lead only when the led card is worth
//! at least `threshold` points (or when every card it holds is a trump).

use super::TieBreak;
use super::explain::{Explanation, Rule, explain_lead, explained, order_words};
use super::order::{follow_key, lead_key, stable_min};
use crate::game::{Card, KeyTables, Policy, SeatRng, SeatView, Suit};

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

    /// [`Policy::choose`] with the rule that fired and why (see [`super::explain`]).
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let i = self.choose(v, rng);
        match v.table {
            None => explain_lead(v, i, self.tie),
            Some(_) => self.explain_follow(v, i),
        }
    }

    /// Names the follower rule behind the card at `i` (chosen by [`Policy::choose`]).
    pub(crate) fn explain_follow(&self, v: &SeatView<'_>, i: usize) -> Explanation {
        let Some(led) = v.table else {
            return explain_lead(v, i, self.tie);
        };
        let c = v.hand[i];
        let (p, th) = (led.points(), self.threshold);
        let overtrump = p >= th;
        let worth = if overtrump {
            format!("the led {led} is worth {p} >= {th} points")
        } else {
            format!("the led {led} is worth {p} < {th} points, not worth a trump")
        };
        match follow_key(c, led, v.trump, self.tie, overtrump, true) >> 8 {
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
                format!("{worth} and no card of its suit beats it; {c} is the cheapest trump"),
            ),
            2 => explained(
                v,
                i,
                Rule::FollowCheapestNonTrump,
                format!(
                    "{}; {c} ({} points) is the cheapest non-trump ({})",
                    if led.suit() == v.trump || overtrump {
                        format!("nothing in hand that may be played wins against {led}")
                    } else {
                        worth
                    },
                    c.points(),
                    order_words(self.tie)
                ),
            ),
            _ => explained(
                v,
                i,
                Rule::FollowCheapestTrump,
                format!(
                    "only trumps in hand and none may win against {led}; {c} ({} points) is the cheapest",
                    c.points()
                ),
            ),
        }
    }

    /// The follower key of `c` against `led` (smaller plays first): the one definition read by
    /// [`Policy::choose`] and by the key tables (its and the counter's).
    #[inline(always)]
    pub(crate) fn follow_key(&self, c: Card, led: Card, trump: Suit) -> u32 {
        let overtrump = led.points() >= self.threshold;
        follow_key(c, led, trump, self.tie, overtrump, true)
    }

    /// This policy as key tables (see [`KeyTables`]).
    pub fn key_tables(&self) -> KeyTables {
        KeyTables::build(
            |c, _| lead_key(c, Suit::Oro, self.tie),
            |_| 0,
            |led, c| self.follow_key(c, led, Suit::Oro),
        )
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
            Some(led) => stable_min(v.hand, |c| self.follow_key(c, led, v.trump)),
        }
    }
}
