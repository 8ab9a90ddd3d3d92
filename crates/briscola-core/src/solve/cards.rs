//! A set of cards as a 40-bit mask (bit `id` for the card of that id), the solvers' currency.
//!
//! Invariant: only bits 0..40 are ever set.

use crate::game::Card;

/// A set of cards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 40 cards.
    pub const ALL: CardSet = CardSet((1u64 << 40) - 1);

    /// The set of `cards`.
    pub fn of(cards: &[Card]) -> CardSet {
        cards.iter().fold(CardSet::EMPTY, |s, &c| s.with(c))
    }

    /// Whether `c` is in the set.
    #[inline]
    pub const fn has(self, c: Card) -> bool {
        self.0 & (1u64 << c.id()) != 0
    }

    /// The set with `c` added.
    #[inline]
    pub const fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | (1u64 << c.id()))
    }

    /// The set with `c` removed.
    #[inline]
    pub const fn without(self, c: Card) -> CardSet {
        CardSet(self.0 & !(1u64 << c.id()))
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards, by increasing id.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let id = m.trailing_zeros() as u8;
            m &= m - 1;
            Card::from_id(id)
        })
    }

    /// Total card points.
    pub fn points(self) -> u32 {
        self.iter().map(|c| c.points() as u32).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_and_iteration_by_id() {
        let a = Card::from_id(3).unwrap();
        let b = Card::from_id(39).unwrap();
        let s = CardSet::EMPTY.with(b).with(a);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![a, b]);
        assert!(s.has(a) && !s.without(a).has(a));
        assert_eq!(s.len(), 2);
        assert_eq!(CardSet::ALL.len(), 40);
        assert_eq!(CardSet::ALL.points(), 120);
    }
}
