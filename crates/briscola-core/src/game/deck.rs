//! A shuffled deck: 40 distinct cards in the order they are dealt.
//!
//! Invariant: a [`Deck`] is always a permutation of the 40 cards.

use super::card::Card;

/// A permutation of the 40 cards. Index 0..3 is G1's hand, 3..6 G2's, 6..40 the stock from the
/// top, and index 39 the face-up trump at the bottom of the stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deck([Card; 40]);

/// The unshuffled deck, built once at compile time.
const ORDERED: Deck = {
    let mut cards = [match Card::from_id(0) {
        Some(c) => c,
        None => unreachable!(),
    }; 40];
    let mut i = 0;
    while i < 40 {
        cards[i] = match Card::from_id(i as u8) {
            Some(c) => c,
            None => unreachable!(),
        };
        i += 1;
    }
    Deck(cards)
};

impl Deck {
    /// The unshuffled deck in the released simulator's order (suit by suit, ranks 1..10).
    #[inline]
    pub const fn ordered() -> Deck {
        ORDERED
    }

    /// Build from card ids; `None` unless they are a permutation of 0..40.
    pub fn from_ids(ids: &[u8]) -> Option<Deck> {
        if ids.len() != 40 {
            return None;
        }
        let mut seen = 0u64;
        let mut cards = Deck::ordered().0;
        for (slot, &id) in cards.iter_mut().zip(ids) {
            let c = Card::from_id(id)?;
            if seen & (1 << id) != 0 {
                return None;
            }
            seen |= 1 << id;
            *slot = c;
        }
        Some(Deck(cards))
    }

    /// Fisher-Yates from the end, as the released simulator does it: with `n = 40`, draw
    /// `k = next_below(n)`, decrement `n`, swap positions `n` and `k`; repeat while `n > 1`.
    /// Consumes exactly 39 draws.
    #[inline]
    pub fn shuffle_with(&mut self, mut next_below: impl FnMut(u32) -> u32) {
        let mut n = 40u32;
        while n > 1 {
            let k = next_below(n) as usize;
            n -= 1;
            self.0.swap(n as usize, k);
        }
    }

    /// `N` ordered decks shuffled as [`Deck::shuffle_with`] does, deck `j` with the bounded
    /// draws `bounded[j]` (draw `i` below `40 - i`, as `next_below(40 - i)` returns), the decks'
    /// swaps interleaved so that the processor overlaps them (one deck's swaps wait on its
    /// own earlier ones). A draw out of its range is clamped to it.
    ///
    /// ```
    /// use briscola_core::game::Deck;
    /// let draws = [[0u32; 39], std::array::from_fn(|i| (39 - i) as u32)];
    /// let [a, b] = Deck::shuffled(&draws);
    /// let mut want = Deck::ordered();
    /// want.shuffle_with(|_| 0);
    /// assert_eq!(a, want);
    /// assert_eq!(b, Deck::ordered()); // draw i = 39 - i swaps each card with itself
    /// ```
    #[inline]
    pub fn shuffled<const N: usize>(bounded: &[[u32; 39]; N]) -> [Deck; N] {
        let mut decks = [ORDERED; N];
        for i in 0..39 {
            let n = 39 - i;
            for (d, draws) in decks.iter_mut().zip(bounded) {
                d.0.swap(n, (draws[i] as usize).min(n));
            }
        }
        decks
    }

    /// The cards in deal order.
    #[inline]
    pub fn cards(&self) -> &[Card; 40] {
        &self.0
    }

    /// The face-up trump card (the last card).
    #[inline]
    pub fn face_up(&self) -> Card {
        self.0[39]
    }
}
