//! The counter policy (Definition 3): the hoarder plus the carico trap, from public memory.
//!
//! Invariant: it only uses public information: the face-up card and cards of earlier tricks.

use super::TieBreak;
use super::explain::{Explanation, Rule, explain_lead, explained};
use super::hoarder::Hoarder;
use super::order::{lead_key, stable_min};
use crate::game::{Card, KeyTables, Suit};
use crate::game::{Policy, SeatRng, SeatView};

/// Per card id: the bit of its carico sibling (the Three for an Ace, the Ace for a Three), and 0
/// for every other rank. The one definition of the carico trap's sibling: the policy
/// language's `sibling-seen` reads it too.
const fn sibling_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 40 {
        t[i] = match i % 10 {
            0 => 1 << (i + 2),
            2 => 1 << (i - 2),
            _ => 0,
        };
        i += 1;
    }
    t
}
pub(crate) const SIBLING: [u64; 64] = sibling_table();

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

    /// [`Policy::choose`] with the rule that fired and why (see [`super::explain`]).
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let i = self.choose(v, rng);
        if v.table.is_some() {
            return self.hoarder.explain_follow(v, i);
        }
        let c = v.hand[i];
        let sib = SIBLING[(c.id() & 63) as usize];
        let seen = v.played | 1u64 << v.face_up.id();
        if c.suit() == v.trump || seen & sib == 0 {
            return explain_lead(v, i, self.hoarder.tie());
        }
        let (rule, other) = if c.rank() == 1 {
            (Rule::LeadCaricoTrapAce, 3)
        } else {
            (Rule::LeadCaricoTrapThree, 1)
        };
        let other = Card::new(c.suit(), other).expect("rank 1 or 3");
        let where_ = if other == v.face_up {
            "is the face-up card"
        } else {
            "has been played"
        };
        explained(
            v,
            i,
            rule,
            format!("the {other} {where_}, so only a trump can take the {c}"),
        )
    }
}

impl Counter {
    /// The leader key of `c` (smaller plays first) with trump `trump`, given whether its carico
    /// sibling is public: trap Aces (key 0) before trap Threes (key 1), then the hoarder's
    /// leader rule (its keys are below 2^9, shifted above both). The one definition read by
    /// [`Policy::choose`] and by [`Counter::key_tables`].
    #[inline(always)]
    fn lead_key(c: Card, trump: Suit, tie: TieBreak, sibling_seen: bool) -> u32 {
        if c.suit() != trump && sibling_seen {
            (c.rank() != 1) as u32
        } else {
            2 << 9 | lead_key(c, trump, tie)
        }
    }

    /// This policy as key tables (see [`KeyTables`]): the trap watches each card's sibling.
    pub fn key_tables(&self) -> KeyTables {
        let tie = self.hoarder.tie();
        KeyTables::build(
            |c, seen| Self::lead_key(c, Suit::Oro, tie, seen),
            |c| SIBLING[(c.id() & 63) as usize],
            |led, c| self.hoarder.follow_key(c, led, Suit::Oro),
        )
    }
}

impl Policy for Counter {
    #[inline(always)]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        if v.table.is_some() {
            return self.hoarder.choose(v, rng);
        }
        let seen = v.played | 1u64 << v.face_up.id();
        let tie = self.hoarder.tie();
        stable_min(v.hand, |c: Card| {
            let sib = SIBLING[(c.id() & 63) as usize];
            Self::lead_key(c, v.trump, tie, seen & sib != 0)
        })
    }
}
