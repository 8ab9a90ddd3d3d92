//! The orderings policies use to pick "the cheapest" card, and the tie-break reading.
//!
//! Invariant: every pick is a stable minimum: among cards with equal keys the earliest in the
//! hand wins, exactly as a stable sort followed by taking the first element.

use serde::{Deserialize, Serialize};

use crate::game::{Card, Suit};

/// How equal-point cards are ordered.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
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

/// Sort keys per card id (64 entries so `id & 63` needs no bounds check): `[reading][id]`.
const fn key_table(strongest_first: bool, with_strength: bool) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0u8;
    while i < 40 {
        let c = match Card::from_id(i) {
            Some(c) => c,
            None => unreachable!(),
        };
        let s = if !with_strength {
            0
        } else if strongest_first {
            c.strength()
        } else {
            9 - c.strength()
        };
        // points <= 11 and s <= 9: (points << 4) | s fits in a byte.
        t[i as usize] = (c.points() << 4) | s;
        i += 1;
    }
    t
}
const KEY_STRONGEST_FIRST: [u8; 64] = key_table(true, true);
const KEY_WEAKEST_FIRST: [u8; 64] = key_table(false, true);
const KEY_POINTS_ONLY: [u8; 64] = key_table(true, false);

impl TieBreak {
    /// Key for "by points, then by strength" under this reading (smaller plays first).
    #[inline(always)]
    pub fn points_then_strength(self, c: Card) -> u16 {
        let t = match self {
            TieBreak::AsReleased => &KEY_STRONGEST_FIRST,
            TieBreak::AsWritten => &KEY_WEAKEST_FIRST,
        };
        t[(c.id() & 63) as usize] as u16
    }

    /// Key for the code's "by points only" sorts; the prose's reading uses the full comparator.
    #[inline(always)]
    pub fn points_only(self, c: Card) -> u16 {
        let t = match self {
            TieBreak::AsReleased => &KEY_POINTS_ONLY,
            TieBreak::AsWritten => &KEY_WEAKEST_FIRST,
        };
        t[(c.id() & 63) as usize] as u16
    }
}

/// Index of the stable minimum of `key` over the cards of `hand` accepted by `keep`.
#[inline(always)]
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
#[inline(always)]
pub fn in_suit_winner(hand: &[Card], led: Card, tie: TieBreak) -> Option<usize> {
    stable_min(
        hand,
        |c| c.suit() == led.suit() && c.strength() < led.strength(),
        |c| tie.points_only(c),
    )
}

/// The cheapest trump (by points only, in the released code) that wins against `led`.
#[inline(always)]
pub fn winning_trump(hand: &[Card], led: Card, trump: Suit, tie: TieBreak) -> Option<usize> {
    stable_min(
        hand,
        |c| c.suit() == trump && (led.suit() != trump || c.strength() < led.strength()),
        |c| tie.points_only(c),
    )
}

/// The cheapest card of the whole hand.
#[inline(always)]
pub fn cheapest(hand: &[Card], tie: TieBreak) -> usize {
    stable_min(hand, |_| true, |c| tie.points_then_strength(c)).unwrap_or(0)
}

/// The cheapest non-trump, falling back to the cheapest card of the whole hand.
#[inline(always)]
pub fn cheapest_non_trump(hand: &[Card], trump: Suit, tie: TieBreak) -> usize {
    stable_min(hand, |c| c.suit() != trump, |c| tie.points_then_strength(c))
        .unwrap_or_else(|| cheapest(hand, tie))
}
