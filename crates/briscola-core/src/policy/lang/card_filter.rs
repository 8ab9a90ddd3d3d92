//! Card classes and filters: which cards of the hand a choice may pick (`trump & wins`,
//! `!trump`, `carico & sibling-seen`), compiled to two bit masks over per-card feature bits.
//!
//! Invariant: a filter is a conjunction of (possibly negated) classes, evaluated as
//! `features & set == set && features & clear == 0`: no strings and no allocation at play time.

// Per card id, the bit of its carico sibling: the counter policy's own table, so the
// language's `sibling-seen` and the built-in counter's trap are one rule.
use crate::policy::counter::SIBLING;
use std::fmt;

use super::LangError;
use super::lexer::Token;
use crate::game::{Card, SeatView};

/// The card is a trump (briscola).
pub(crate) const F_TRUMP: u32 = 1 << 0;
/// The card is of the led card's suit (following only).
pub(crate) const F_LED_SUIT: u32 = 1 << 1;
/// The card would win the trick against the led card (following only).
pub(crate) const F_WINS: u32 = 1 << 2;
/// The card is an Ace or a Three whose same-suit carico sibling is public (seen).
pub(crate) const F_SIB_SEEN: u32 = 1 << 3;
/// No unseen card of the card's suit is stronger (own hand and public cards accounted for).
pub(crate) const F_MASTER: u32 = 1 << 4;
/// Bits that depend on the view; the rest come from a per-card table.
pub(crate) const DYNAMIC: u32 = F_TRUMP | F_LED_SUIT | F_WINS | F_SIB_SEEN | F_MASTER;
/// Bits that need a led card.
pub(crate) const NEEDS_LED: u32 = F_LED_SUIT | F_WINS;
/// Bits that cost a little more to compute (only when a program names them).
pub(crate) const MEMORY_BITS: u32 = F_SIB_SEEN | F_MASTER;

const F_CARICO: u32 = 1 << 8;
const F_FIGURE: u32 = 1 << 9;
const F_LISCIO: u32 = 1 << 10;
const F_ACE: u32 = 1 << 11;
const F_THREE: u32 = 1 << 12;
const F_KING: u32 = 1 << 13;
const F_KNIGHT: u32 = 1 << 14;
const F_KNAVE: u32 = 1 << 15;
const F_COUNTING: u32 = 1 << 16;

/// Every class name, its (set, clear) masks and what it means (for `briscola policies` and
/// error messages).
pub(crate) const CLASSES: &[(&str, u32, u32, &str)] = &[
    ("any", 0, 0, "every card in hand"),
    ("trump", F_TRUMP, 0, "a briscola (trump)"),
    ("non-trump", 0, F_TRUMP, "not a briscola"),
    (
        "led-suit",
        F_LED_SUIT,
        0,
        "of the led card's suit (following only)",
    ),
    (
        "wins",
        F_WINS,
        0,
        "would win the trick against the led card (following only)",
    ),
    ("carico", F_CARICO, 0, "an Ace or a Three (10 or 11 points)"),
    (
        "figure",
        F_FIGURE,
        0,
        "a King, Knight or Knave (2 to 4 points)",
    ),
    ("liscio", F_LISCIO, 0, "a card worth 0 points"),
    ("counting", F_COUNTING, 0, "a card worth points"),
    (
        "briscolina",
        F_TRUMP | F_LISCIO,
        0,
        "a trump worth 0 points",
    ),
    ("ace", F_ACE, 0, "an Ace"),
    ("three", F_THREE, 0, "a Three"),
    ("king", F_KING, 0, "a King"),
    ("knight", F_KNIGHT, 0, "a Knight"),
    ("knave", F_KNAVE, 0, "a Knave"),
    (
        "sibling-seen",
        F_SIB_SEEN,
        0,
        "an Ace whose Three (or a Three whose Ace) of the same suit is public",
    ),
    (
        "master",
        F_MASTER,
        0,
        "no unseen card of its suit is stronger",
    ),
];

/// Static features per card id (64 entries so `id & 63` needs no bounds check).
const fn static_table() -> [u32; 64] {
    let mut t = [0u32; 64];
    let mut i = 0u8;
    while i < 40 {
        let c = match Card::from_id(i) {
            Some(c) => c,
            None => unreachable!(),
        };
        let p = c.points();
        let mut f = 0;
        if p >= 10 {
            f |= F_CARICO;
        }
        if p >= 2 && p <= 4 {
            f |= F_FIGURE;
        }
        if p == 0 {
            f |= F_LISCIO;
        } else {
            f |= F_COUNTING;
        }
        f |= match c.rank() {
            1 => F_ACE,
            3 => F_THREE,
            10 => F_KING,
            9 => F_KNIGHT,
            8 => F_KNAVE,
            _ => 0,
        };
        t[i as usize] = f;
        i += 1;
    }
    t
}
const STATIC: [u32; 64] = static_table();

/// The view-independent feature bits of card id `id` (`id < 64`; ids 40..64 have none).
pub(crate) fn static_features(id: usize) -> u32 {
    STATIC[id & 63]
}

/// Per card id: the bits of the stronger cards of its suit.
const fn stronger_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut i = 0u8;
    while i < 40 {
        let c = match Card::from_id(i) {
            Some(c) => c,
            None => unreachable!(),
        };
        let mut j = 0u8;
        while j < 40 {
            let d = match Card::from_id(j) {
                Some(d) => d,
                None => unreachable!(),
            };
            if d.suit_index() == c.suit_index() && d.strength() < c.strength() {
                t[i as usize] |= 1u64 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
}
const STRONGER: [u64; 64] = stronger_table();

/// The view-dependent feature bits of `c` in `v`'s position but the public-memory ones (trump,
/// led suit, wins): the same bits [`features`] sets.
#[inline(always)]
pub(crate) fn dynamic_features(c: Card, v: &SeatView<'_>) -> u32 {
    let a = suit_strength(c);
    match v.table {
        None => lead_bits(a, v.trump as u32),
        Some(led) => follow_bits(a, suit_strength(led), v.trump as u32),
    }
}

/// A card's suit index (bits 4..6) and in-suit strength (bits 0..4, 0 strongest), one load
/// ([`Card::suit_strength`]).
#[inline(always)]
pub(crate) fn suit_strength(c: Card) -> u32 {
    c.suit_strength() as u32
}

/// The dynamic bits of a card (`a` from [`suit_strength`]) when leading: trump or not.
#[inline(always)]
pub(crate) fn lead_bits(a: u32, trump: u32) -> u32 {
    (a >> 4 == trump) as u32
}

/// The dynamic bits of a card (`a`) following the led card (`l`), without branches: trump, of
/// the led suit, and wins (a stronger card of the led suit, or a trump on another suit).
#[inline(always)]
pub(crate) fn follow_bits(a: u32, l: u32, trump: u32) -> u32 {
    let t = (a >> 4 == trump) as u32;
    let same = ((a ^ l) >> 4 == 0) as u32;
    let stronger = ((a & 15) < (l & 15)) as u32;
    let wins = same & stronger | (1 - same) & t;
    t | same << 1 | wins << 2
}

/// What the public-memory bits ([`MEMORY_BITS`]) read, gathered once per decision.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Memory {
    /// Cards public: played in earlier tricks, or the face-up card.
    seen: u64,
    /// Cards neither public nor in the own hand.
    unseen: u64,
}

impl Memory {
    /// The memory of `v`'s position.
    #[inline(always)]
    pub(crate) fn of(v: &SeatView<'_>) -> Memory {
        let seen = v.played | 1u64 << v.face_up.id();
        let mut mine = 0u64;
        for h in v.hand {
            mine |= 1u64 << h.id();
        }
        Memory {
            seen,
            unseen: !(seen | mine),
        }
    }

    /// The public-memory bits of `c`: its carico sibling is public; no unseen card of its suit
    /// is stronger.
    #[inline(always)]
    pub(crate) fn bits(self, c: Card) -> u32 {
        let id = (c.id() & 63) as usize;
        ((self.seen & SIBLING[id] != 0) as u32) << 3
            | ((STRONGER[id] & self.unseen == 0) as u32) << 4
    }
}

/// The feature bits of `c` in `v`'s position. `memory` says whether to compute the
/// public-memory bits ([`MEMORY_BITS`]).
#[inline(always)]
pub(crate) fn features(c: Card, v: &SeatView<'_>, memory: bool) -> u32 {
    let id = (c.id() & 63) as usize;
    let mut f = STATIC[id] | dynamic_features(c, v);
    if memory {
        f |= Memory::of(v).bits(c);
    }
    f
}

/// A conjunction of classes: a card passes when it has every bit of `set` and none of `clear`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CardFilter {
    pub(crate) set: u32,
    pub(crate) clear: u32,
}

impl CardFilter {
    /// Every card.
    pub const ANY: CardFilter = CardFilter { set: 0, clear: 0 };

    /// Whether a card with features `f` passes.
    #[inline(always)]
    pub(crate) fn admits(self, f: u32) -> bool {
        f & self.set == self.set && f & self.clear == 0
    }

    /// Every feature bit the filter reads.
    pub(crate) fn bits(self) -> u32 {
        self.set | self.clear
    }

    /// Whether the filter can never admit a card (a class and its negation together).
    pub(crate) fn is_empty_by_construction(self) -> bool {
        self.set & self.clear != 0
    }

    /// Parse `term (& term)*` where a term is `[!]class`, starting at `toks[*i]`; advances `*i`.
    pub(crate) fn parse(
        toks: &[Token<'_>],
        i: &mut usize,
        end_at: usize,
    ) -> Result<CardFilter, LangError> {
        let mut f = CardFilter::ANY;
        loop {
            let mut negate = false;
            if toks.get(*i).is_some_and(|t| t.text == "!") {
                negate = true;
                *i += 1;
            }
            let Some(t) = toks.get(*i) else {
                return Err(LangError::new(
                    end_at,
                    format!("a card class is missing here; {}", class_list()),
                ));
            };
            let Some(&(_, set, clear, _)) = CLASSES.iter().find(|c| c.0 == t.text) else {
                return Err(LangError::new(
                    t.at,
                    format!("unknown card class `{}`; {}", t.text, class_list()),
                ));
            };
            *i += 1;
            if negate {
                if clear != 0 || set.count_ones() != 1 {
                    return Err(LangError::new(
                        t.at,
                        format!(
                            "`!{}` cannot be negated (only single classes can); write the classes you want instead, e.g. `!trump` rather than `!non-trump`",
                            t.text
                        ),
                    ));
                }
                f.clear |= set;
            } else {
                f.set |= set;
                f.clear |= clear;
            }
            if toks.get(*i).is_some_and(|t| t.text == "&") {
                *i += 1;
            } else {
                return Ok(f);
            }
        }
    }
}

/// "valid classes: any, trump, ..." for error messages.
pub(crate) fn class_list() -> String {
    let names: Vec<&str> = CLASSES.iter().map(|c| c.0).collect();
    format!(
        "valid card classes: {} (combine with `&`, negate with `!`)",
        names.join(", ")
    )
}

impl fmt::Display for CardFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        let (mut set, mut clear) = (self.set, self.clear);
        // Combined classes first (briscolina), then single bits in table order.
        for &(name, s, c, _) in CLASSES {
            if s.count_ones() > 1 && set & s == s && c == 0 {
                parts.push(name.into());
                set &= !s;
            }
        }
        for &(name, s, c, _) in CLASSES {
            if s.count_ones() == 1 && c == 0 && set & s != 0 {
                parts.push(name.into());
                set &= !s;
            }
            if s.count_ones() == 1 && c == 0 && clear & s != 0 {
                parts.push(format!("!{name}"));
                clear &= !s;
            }
        }
        if parts.is_empty() {
            f.write_str("any")
        } else {
            f.write_str(&parts.join(" & "))
        }
    }
}

/// Unused-bit guard: every class bit is either dynamic or static.
const _: () = assert!(DYNAMIC & (1 << 8) == 0);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Suit;
    use crate::policy::lang::lexer::tokenize;

    fn parse(s: &str) -> Result<CardFilter, LangError> {
        let t = tokenize(s)?;
        let mut i = 0;
        let f = CardFilter::parse(&t, &mut i, s.len())?;
        assert_eq!(i, t.len());
        Ok(f)
    }

    #[test]
    fn filters_round_trip_through_their_canonical_form() {
        for s in [
            "any",
            "trump & wins",
            "!trump",
            "carico & !trump & sibling-seen",
            "briscolina",
        ] {
            let f = parse(s).unwrap();
            assert_eq!(parse(&f.to_string()).unwrap(), f, "{s} -> {f}");
        }
        assert_eq!(parse("non-trump").unwrap(), parse("!trump").unwrap());
        assert!(parse("!briscolina").is_err());
        assert!(parse("trump & !trump").unwrap().is_empty_by_construction());
        assert_eq!(parse("trump & queen").unwrap_err().at, 8);
    }

    #[test]
    fn winning_follows_proposition_1() {
        let trump = Suit::Coppe;
        for led in Card::all() {
            for c in Card::all().filter(|&c| c != led) {
                let hand = [c];
                let v = SeatView {
                    table: Some(led),
                    trump,
                    stock_left: 10,
                    trick: 5,
                    seat: 1,
                    trick_cards: std::slice::from_ref(&led),
                    ..SeatView::opening(&hand, Card::new(trump, 5).unwrap())
                };
                let wins = features(c, &v, false) & F_WINS != 0;
                assert_eq!(
                    wins,
                    !crate::game::leader_wins(led, c, trump),
                    "{led} then {c}"
                );
            }
        }
    }
}
