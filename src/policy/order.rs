//! The orderings policies use to pick "the cheapest" card, and the tie-break reading.
//!
//! Invariant: every pick is a stable minimum: among cards with equal keys the earliest in the
//! hand wins, exactly as a stable sort followed by taking the first element.

use serde::{Deserialize, Serialize};

use crate::game::{Card, Suit};

/// How equal-point cards are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TieBreak {
    /// What the released code does (and what produced the published tables): among equal points
    /// the strongest card first; where the code sorts "by points only", hand order.
    #[default]
    #[serde(rename = "as-released")]
    AsReleased,
    /// What the paper's prose says: among equal points the weakest card first, everywhere.
    #[serde(rename = "as-written")]
    AsWritten,
}

impl TieBreak {
    /// Key for "by points, then by strength" under this reading (smaller plays first).
    #[inline]
    pub fn points_then_strength(self, c: Card) -> u16 {
        let s = match self {
            TieBreak::AsReleased => c.strength(),
            TieBreak::AsWritten => 9 - c.strength(),
        };
        ((c.points() as u16) << 4) | s as u16
    }

    /// Key for the code's "by points only" sorts; the prose's reading uses the full comparator.
    #[inline]
    pub fn points_only(self, c: Card) -> u16 {
        match self {
            TieBreak::AsReleased => (c.points() as u16) << 4,
            TieBreak::AsWritten => self.points_then_strength(c),
        }
    }
}

/// Index of the stable minimum of `key` over the cards of `hand` accepted by `keep`.
#[inline]
pub fn stable_min(
    hand: &[Card],
    mut keep: impl FnMut(Card) -> bool,
    mut key: impl FnMut(Card) -> u16,
) -> Option<usize> {
    let mut best: Option<(usize, u16)> = None;
    for (i, &c) in hand.iter().enumerate() {
        if !keep(c) {
            continue;
        }
        let k = key(c);
        match best {
            Some((_, bk)) if bk <= k => {}
            _ => best = Some((i, k)),
        }
    }
    best.map(|(i, _)| i)
}

/// The follower rules shared by all three policies.
#[inline]
pub fn in_suit_winner(hand: &[Card], led: Card, tie: TieBreak) -> Option<usize> {
    stable_min(
        hand,
        |c| c.suit() == led.suit() && c.strength() < led.strength(),
        |c| tie.points_only(c),
    )
}

/// The cheapest trump (by points only, in the released code) that wins against `led`.
#[inline]
pub fn winning_trump(hand: &[Card], led: Card, trump: Suit, tie: TieBreak) -> Option<usize> {
    stable_min(
        hand,
        |c| c.suit() == trump && (led.suit() != trump || c.strength() < led.strength()),
        |c| tie.points_only(c),
    )
}

/// The cheapest card of the whole hand.
#[inline]
pub fn cheapest(hand: &[Card], tie: TieBreak) -> usize {
    stable_min(hand, |_| true, |c| tie.points_then_strength(c)).unwrap_or(0)
}

/// The cheapest non-trump, falling back to the cheapest card of the whole hand.
#[inline]
pub fn cheapest_non_trump(hand: &[Card], trump: Suit, tie: TieBreak) -> usize {
    stable_min(hand, |c| c.suit() != trump, |c| tie.points_then_strength(c))
        .unwrap_or_else(|| cheapest(hand, tie))
}
