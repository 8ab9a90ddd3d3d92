//! Cards of the 40-card Italian deck: suits, ranks, points and in-suit strength (the paper's Table 1).
//!
//! Invariant: a [`Card`] is always a valid id in `0..40`, laid out as the released simulator builds its
//! deck: `suit * 10 + (rank - 1)` with suits in the order Oro, Spade, Bastoni, Coppe.

use std::fmt;

/// One of the four Italian suits, in the released simulator's deck order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    /// Coins (the paper's *Denari*; the released simulator calls it *Oro*).
    Oro = 0,
    /// Swords.
    Spade = 1,
    /// Clubs.
    Bastoni = 2,
    /// Cups.
    Coppe = 3,
}

impl Suit {
    /// All suits in deck order.
    pub const ALL: [Suit; 4] = [Suit::Oro, Suit::Spade, Suit::Bastoni, Suit::Coppe];

    /// The suit with index `i` (`0..4`).
    #[inline]
    pub const fn from_index(i: u8) -> Suit {
        // A `match`, not a table: the compiler sees it is the identity on `i & 3`, so comparing
        // suits compares the indices (a load from `Suit::ALL` cost the counter policy ~6%).
        match i & 3 {
            0 => Suit::Oro,
            1 => Suit::Spade,
            2 => Suit::Bastoni,
            _ => Suit::Coppe,
        }
    }

    /// The released simulator's name for the suit (used in its CSV).
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Oro => "Oro",
            Suit::Spade => "Spade",
            Suit::Bastoni => "Bastoni",
            Suit::Coppe => "Coppe",
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Points by rank index (rank - 1): Ace 11, Three 10, King (10) 4, Knight (9) 3, Knave (8) 2.
const POINTS: [u8; 10] = [11, 0, 10, 0, 0, 0, 0, 2, 3, 4];
/// Strength index by rank index, 0 = strongest: 1, 3, 10, 9, 8, 7, 6, 5, 4, 2.
const STRENGTH: [u8; 10] = [0, 9, 1, 8, 7, 6, 5, 4, 3, 2];

/// Per-card lookup tables, 64 entries so that `id & 63` needs no bounds check in the hot loop.
/// `which`: 0 suit, 1 points, 2 strength, 3 suit and strength packed (`suit << 4 | strength`).
const fn table(which: u8) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 40 {
        t[i] = match which {
            0 => (i / 10) as u8,
            1 => POINTS[i % 10],
            2 => STRENGTH[i % 10],
            _ => ((i / 10) as u8) << 4 | STRENGTH[i % 10],
        };
        i += 1;
    }
    t
}
const SUIT_OF: [u8; 64] = table(0);
const POINTS_OF: [u8; 64] = table(1);
const STRENGTH_OF: [u8; 64] = table(2);
const SUIT_STRENGTH_OF: [u8; 64] = table(3);

/// A card, as its id `suit * 10 + rank - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// Number of cards in the deck.
    pub const COUNT: usize = 40;

    /// The card with id `id`, or `None` if `id >= 40`.
    #[inline]
    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 40 { Some(Card(id)) } else { None }
    }

    /// The card of `suit` and `rank` (1..=10), or `None` for a rank out of range.
    #[inline]
    pub const fn new(suit: Suit, rank: u8) -> Option<Card> {
        if rank >= 1 && rank <= 10 {
            Some(Card(suit as u8 * 10 + rank - 1))
        } else {
            None
        }
    }

    /// The id in `0..40`.
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The suit.
    #[inline]
    pub const fn suit(self) -> Suit {
        Suit::from_index(SUIT_OF[(self.0 & 63) as usize])
    }

    /// The suit's index in `0..4` (deck order), without building a [`Suit`].
    #[inline]
    pub const fn suit_index(self) -> u8 {
        SUIT_OF[(self.0 & 63) as usize]
    }

    /// The rank, 1 (Ace) to 10 (King).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 10 + 1
    }

    /// Card points (Table 1).
    #[inline]
    pub const fn points(self) -> u8 {
        POINTS_OF[(self.0 & 63) as usize]
    }

    /// In-suit strength index: 0 for the Ace (strongest) up to 9 for the Two (weakest).
    #[inline]
    pub const fn strength(self) -> u8 {
        STRENGTH_OF[(self.0 & 63) as usize]
    }

    /// [`Card::suit_index`] and [`Card::strength`] in one load: `suit << 4 | strength`, so two
    /// cards are of one suit when `(a ^ b) >> 4 == 0` and `a` beats `b` in it when
    /// `a & 15 < b & 15`.
    #[inline]
    pub const fn suit_strength(self) -> u8 {
        SUIT_STRENGTH_OF[(self.0 & 63) as usize]
    }

    /// Every card, in the released simulator's deck order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..40).map(Card)
    }

    /// The released simulator's textual form, e.g. `Carta { Seme = Oro, Rango = 1, Punti = 11 }`.
    pub fn dotnet_repr(self) -> String {
        format!(
            "Carta {{ Seme = {}, Rango = {}, Punti = {} }}",
            self.suit().name(),
            self.rank(),
            self.points()
        )
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.rank() {
            1 => "Asso".to_string(),
            8 => "Fante".to_string(),
            9 => "Cavallo".to_string(),
            10 => "Re".to_string(),
            r => r.to_string(),
        };
        write!(f, "{} di {}", name, self.suit().name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_holds_120_points_and_40_distinct_cards() {
        let total: u32 = Card::all().map(|c| c.points() as u32).sum();
        assert_eq!(total, 120);
        let mut seen = [false; 40];
        for c in Card::all() {
            assert!(!seen[c.id() as usize]);
            seen[c.id() as usize] = true;
        }
    }

    #[test]
    fn table1_points_and_strength_order() {
        // Strength order 1, 3, 10, 9, 8, 7, 6, 5, 4, 2 with points 11, 10, 4, 3, 2, 0...
        let order = [1u8, 3, 10, 9, 8, 7, 6, 5, 4, 2];
        let points = [11u8, 10, 4, 3, 2, 0, 0, 0, 0, 0];
        for (i, (&r, &p)) in order.iter().zip(points.iter()).enumerate() {
            let c = Card::new(Suit::Coppe, r).unwrap();
            assert_eq!(c.strength() as usize, i, "rank {r}");
            assert_eq!(c.points(), p, "rank {r}");
        }
    }

    #[test]
    fn ids_follow_the_released_deck_order() {
        assert_eq!(Card::new(Suit::Oro, 1).unwrap().id(), 0);
        assert_eq!(Card::new(Suit::Spade, 1).unwrap().id(), 10);
        assert_eq!(Card::new(Suit::Coppe, 10).unwrap().id(), 39);
        assert_eq!(Card::from_id(40), None);
        assert_eq!(Card::new(Suit::Oro, 0), None);
        assert_eq!(
            Card::new(Suit::Oro, 1).unwrap().dotnet_repr(),
            "Carta { Seme = Oro, Rango = 1, Punti = 11 }"
        );
    }
}
