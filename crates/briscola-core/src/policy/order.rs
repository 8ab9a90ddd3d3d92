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
    /// Every reading, in declaration order.
    pub const ALL: [TieBreak; 2] = [TieBreak::AsReleased, TieBreak::AsWritten];

    /// The name used in `pipeline.toml` and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            TieBreak::AsReleased => "as-released",
            TieBreak::AsWritten => "as-written",
        }
    }

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

/// Packed per-card attributes under one tie-break reading, `[reading][id]`: bits 0..4 the
/// strength index, 4..6 the suit, 8..16 the "by points only" key, 16..24 the "by points then
/// strength" key. One load gives everything a follower rule compares.
const fn attr_table(written: bool) -> [u32; 64] {
    let (only, full) = if written {
        (&KEY_WEAKEST_FIRST, &KEY_WEAKEST_FIRST)
    } else {
        (&KEY_POINTS_ONLY, &KEY_STRONGEST_FIRST)
    };
    let mut t = [0u32; 64];
    let mut i = 0u8;
    while i < 40 {
        let c = match Card::from_id(i) {
            Some(c) => c,
            None => unreachable!(),
        };
        t[i as usize] = c.suit_strength() as u32
            | (only[i as usize] as u32) << 8
            | (full[i as usize] as u32) << 16;
        i += 1;
    }
    t
}
const ATTR: [[u32; 64]; 2] = [attr_table(false), attr_table(true)];

#[inline(always)]
fn attr(tie: TieBreak, c: Card) -> u32 {
    ATTR[tie as usize & 1][(c.id() & 63) as usize]
}

/// Index of the stable minimum of `key` over `hand` (at most 8 cards; Briscolone's hands hold
/// 5): the key is shifted left by three and the hand index put in the low bits, so equal keys
/// resolve to the earliest card (as a stable sort then taking the first element would). Keys
/// must fit in 29 bits.
#[inline(always)]
pub fn stable_min(hand: &[Card], mut key: impl FnMut(Card) -> u32) -> usize {
    let mut best = u32::MAX;
    for (i, &c) in hand.iter().enumerate() {
        best = best.min(key(c) << 3 | i as u32);
    }
    (best & 7) as usize
}

/// The leader rule of all three policies: the cheapest non-trump by points then strength,
/// falling back to the cheapest card of the whole hand (non-trumps first, then the same order).
#[inline(always)]
pub fn lead_key(c: Card, trump: Suit, tie: TieBreak) -> u32 {
    ((c.suit() == trump) as u32) << 8 | tie.points_then_strength(c) as u32
}

/// The follower rule chain as one key per card, whose stable minimum is the rule's pick:
/// category 0, the led suit's cards that beat `led`, by points only; category 1 (only when
/// `overtrump`), the trumps that win against an off-suit `led`, by points only; otherwise the
/// rest by points then strength, with trumps after non-trumps when `trumps_last` (the hoarder's
/// "cheapest non-trump, else the whole hand") or mixed in (greedy's "cheapest card").
///
/// A trump beating a led trump is in category 0; an off-suit trump can only win when `led` is
/// not a trump, so category 1 is exactly "the trumps that win the trick" minus category 0.
#[inline(always)]
pub fn follow_key(
    c: Card,
    led: Card,
    trump: Suit,
    tie: TieBreak,
    overtrump: bool,
    trumps_last: bool,
) -> u32 {
    let a = attr(tie, c);
    let l = attr(tie, led);
    let same_suit = (a ^ l) & 0x30 == 0;
    let is_trump = (a >> 4) & 3 == trump as u32;
    let only = (a >> 8) & 0xff;
    let full = (a >> 16) & 0xff;
    if same_suit && (a & 0xf) < (l & 0xf) {
        only
    } else if overtrump && !same_suit && is_trump {
        1 << 8 | only
    } else {
        (2 + (trumps_last && is_trump) as u32) << 8 | full
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Briscolone's five-card hands: the fifth card can be the pick, and equal keys still go
    /// to the earliest card.
    #[test]
    fn stable_min_reaches_the_fifth_card() {
        let c = |s, r| Card::new(s, r).unwrap();
        let hand = [
            c(Suit::Oro, 1),
            c(Suit::Oro, 3),
            c(Suit::Spade, 10),
            c(Suit::Spade, 9),
            c(Suit::Coppe, 2),
        ];
        let points = |card: Card| card.points() as u32;
        assert_eq!(stable_min(&hand, points), 4);
        assert_eq!(stable_min(&hand[..4], points), 3);
        assert_eq!(stable_min(&hand, |_| 7), 0);
    }
}
