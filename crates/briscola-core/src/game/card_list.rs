//! A short list of cards kept inline and in order ([`CardList`]): the hands every engine keeps
//! in arrival order (the two-player engine, the general table, the exploit agent's worlds) and
//! the exploit agent's stocks; and [`remove_in_order`], its removal, for the engines that keep
//! cards by other numbers (the reduced game's table).
//!
//! Invariant: the list's first `len` entries are its cards, in the order they were pushed and
//! inserted, less those removed; it is `Copy`, so a search copies a whole position with one
//! move of bytes (not item by item, as a cloned `ArrayVec` is).

use std::hint::select_unpredictable;
use std::ops::Deref;

use super::card::Card;

/// At most `N` (<= 255) cards, in order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CardList<const N: usize> {
    cards: [Card; N],
    len: u8,
}

/// What fills the entries past a list's length (never read as a card of the list).
const FILL: Card = match Card::from_id(0) {
    Some(c) => c,
    None => panic!("card 0 exists"),
};

impl<const N: usize> CardList<N> {
    /// The empty list.
    #[inline]
    pub(crate) const fn new() -> CardList<N> {
        CardList {
            cards: [FILL; N],
            len: 0,
        }
    }

    /// The list of `cards`.
    ///
    /// # Panics
    /// If there are more than `N` (a bug in the caller).
    #[inline]
    pub(crate) fn of(cards: &[Card]) -> CardList<N> {
        let mut l = CardList::new();
        l.cards[..cards.len()].copy_from_slice(cards);
        l.len = cards.len() as u8;
        l
    }

    /// The cards, in order.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Append `c`.
    ///
    /// # Panics
    /// If the list is full (a bug in the caller).
    #[inline]
    pub(crate) fn push(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }

    /// Remove and return the last card, if any.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Card> {
        let n = self.len.checked_sub(1)?;
        self.len = n;
        Some(self.cards[n as usize])
    }

    /// Remove and return card `i`, keeping the others in order.
    ///
    /// # Panics
    /// If `i` is not an index of the list (a bug in the caller).
    #[inline]
    pub(crate) fn remove(&mut self, i: usize) -> Card {
        assert!(
            i < self.len as usize,
            "card {i} of a {}-card list removed",
            self.len
        );
        let c = self.cards[i];
        remove_in_order(&mut self.cards, i);
        self.len -= 1;
        c
    }

    /// Put `c` at index `i` (<= the length), the later cards after it in order.
    ///
    /// # Panics
    /// If the list is full or `i` is past its end (a bug in the caller).
    #[inline]
    pub(crate) fn insert(&mut self, i: usize, c: Card) {
        assert!(
            i <= self.len as usize && (self.len as usize) < N,
            "card inserted at {i} of a {}-card list of at most {N}",
            self.len
        );
        // One select per entry, as `remove_in_order` shifts (no call to `memmove`, no branch).
        let old = self.cards;
        for (j, x) in self.cards.iter_mut().enumerate() {
            let before = old[j.saturating_sub(1)];
            *x = select_unpredictable(j < i, old[j], select_unpredictable(j == i, c, before));
        }
        self.len += 1;
    }
}

impl<const N: usize> Deref for CardList<N> {
    type Target = [Card];
    #[inline]
    fn deref(&self) -> &[Card] {
        self.as_slice()
    }
}

/// Shift the entries after `i` down by one in a small fixed array, as one select per entry over
/// the whole array: a `copy_within` of a few bytes is a call to `memmove` on every card played
/// (1.4 % of a cold pipeline run in the general engine alone, BENCHMARKS.md). The selects are
/// marked unpredictable (`i` is a policy's choice): as plain `if`s the compiler branched on `i`,
/// and the mispredictions cost the general engine's team and variant shards 7-8 % (BENCHMARKS.md).
/// The last entry is left as it was; entries past the caller's length are unspecified.
#[inline(always)]
pub(crate) fn remove_in_order<T: Copy, const N: usize>(a: &mut [T; N], i: usize) {
    let old = *a;
    for (j, x) in a[..N - 1].iter_mut().enumerate() {
        *x = select_unpredictable(j < i, old[j], old[j + 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::{CardList, remove_in_order};
    use crate::game::Card;

    fn cards(ids: &[u8]) -> Vec<Card> {
        ids.iter()
            .map(|&i| Card::from_id(i).expect("a card id"))
            .collect()
    }

    /// Every index of every length of a five-entry array: the others keep their order.
    #[test]
    fn removing_keeps_the_others_in_order() {
        for len in 1..=5usize {
            for i in 0..len {
                let mut a = [10u8, 11, 12, 13, 14];
                remove_in_order(&mut a, i);
                let want: Vec<u8> = (0..len as u8)
                    .filter(|&k| k as usize != i)
                    .map(|k| 10 + k)
                    .collect();
                assert_eq!(&a[..len - 1], &want[..], "len {len}, removing {i}");
            }
        }
    }

    /// A list does what a vector does: push, pop, remove and insert at every index of every
    /// length, against `Vec` (the reference).
    #[test]
    fn a_list_does_what_a_vector_does() {
        for len in 0..=4usize {
            let base = cards(&[7, 21, 3, 39][..len]);
            for i in 0..=len {
                let mut l = CardList::<5>::of(&base);
                let mut v = base.clone();
                l.insert(i, Card::from_id(11).expect("a card"));
                v.insert(i, Card::from_id(11).expect("a card"));
                assert_eq!(&*l, &v[..], "insert at {i} of {len}");
                let r = (i * 7 + 1) % l.len();
                assert_eq!(l.remove(r), v.remove(r));
                assert_eq!(&*l, &v[..], "remove {r} after insert at {i} of {len}");
                l.push(Card::from_id(30).expect("a card"));
                v.push(Card::from_id(30).expect("a card"));
                assert_eq!(l.pop(), v.pop());
                assert_eq!(&*l, &v[..]);
            }
        }
        assert_eq!(CardList::<3>::new().pop(), None);
    }
}
