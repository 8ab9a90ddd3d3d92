//! The parameters of a reduced two-player Briscola ([`ReducedSpec`]) and why a set of them is
//! refused ([`ReducedSpecError`]).
//!
//! Invariant: a spec that [`ReducedSpec::check`] accepts describes a playable game: 1 to 4
//! suits, distinct ranks in 1..=10, hands of 1 to 4 cards and a stock of even size at least 2
//! (so it holds the face-up card, drawn last), and an information-set key that fits 120 bits.

use serde::{Deserialize, Serialize};

/// The most cards a hand may hold in the reduced game.
pub const MAX_HAND: usize = 4;

/// A reduced two-player Briscola: `suits` suits (in the deck's order Oro, Spade, Bastoni,
/// Coppe) times `ranks`, hands of `hand` cards, the bottom card of the stock face up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReducedSpec {
    /// Number of suits, 1..=4.
    pub suits: u8,
    /// Ranks in each suit (1 = Ace .. 10 = King), distinct; any order (the deck sorts them).
    pub ranks: Vec<u8>,
    /// Cards in each hand, 1..=4.
    pub hand: u8,
}

impl Default for ReducedSpec {
    /// Two suits of Ace, Three, King and Knave (8 cards, 54 points), hands of 3.
    fn default() -> Self {
        ReducedSpec {
            suits: 2,
            ranks: vec![1, 3, 10, 8],
            hand: 3,
        }
    }
}

/// Why a [`ReducedSpec`] is refused: the field and what is valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReducedSpecError {
    /// `suits` outside 1..=4.
    #[error("suits must be 1 to 4, got {0}")]
    Suits(u8),
    /// `ranks` empty, with a repeat or a rank outside 1..=10.
    #[error("ranks must be a non-empty list of distinct ranks from 1 to 10, got {0:?}")]
    Ranks(Vec<u8>),
    /// `hand` outside 1..=4.
    #[error("hand must be 1 to {MAX_HAND} cards, got {0}")]
    Hand(u8),
    /// The deck does not leave an even stock of at least two cards after the deal.
    #[error(
        "a deck of {deck} cards with hands of {hand} leaves a stock of {stock}: the stock \
         (deck - 2*hand) must be even and at least 2, so that it holds the face-up card"
    )]
    Stock {
        /// Cards in the deck.
        deck: u32,
        /// Cards in each hand.
        hand: u8,
        /// deck - 2*hand.
        stock: i64,
    },
    /// The game's information-set keys would not fit (the deck is far beyond exact solving).
    #[error(
        "a deck of {deck} cards is too large for the exact solver: its information-set keys \
         need {bits} bits, at most 120 fit"
    )]
    TooLarge {
        /// Cards in the deck.
        deck: u32,
        /// Bits a key would need.
        bits: u32,
    },
}

impl ReducedSpec {
    /// Checks every field, in the order suits, ranks, hand, stock, key size.
    pub fn check(&self) -> Result<(), ReducedSpecError> {
        if !(1..=4).contains(&self.suits) {
            return Err(ReducedSpecError::Suits(self.suits));
        }
        let mut seen = [false; 11];
        let bad_rank = self.ranks.is_empty()
            || self.ranks.iter().any(|&r| {
                let bad = !(1..=10).contains(&r) || seen[r as usize];
                if (1..=10).contains(&r) {
                    seen[r as usize] = true;
                }
                bad
            });
        if bad_rank {
            return Err(ReducedSpecError::Ranks(self.ranks.clone()));
        }
        if !(1..=MAX_HAND as u8).contains(&self.hand) {
            return Err(ReducedSpecError::Hand(self.hand));
        }
        let deck = self.suits as u32 * self.ranks.len() as u32;
        let stock = deck as i64 - 2 * self.hand as i64;
        if stock < 2 || stock % 2 != 0 {
            return Err(ReducedSpecError::Stock {
                deck,
                hand: self.hand,
                stock,
            });
        }
        let bits = key_bits(deck, stock as u32);
        if bits > 120 {
            return Err(ReducedSpecError::TooLarge { deck, bits });
        }
        Ok(())
    }
}

/// Bits of the widest information-set key: the initial-hand mask (`deck` bits), the face-up
/// card (6) and the seat (1), then one base-`deck` digit per play seen and per own draw.
fn key_bits(deck: u32, stock: u32) -> u32 {
    let tokens = (deck - 1) + stock / 2;
    let digit = (deck as f64).log2();
    deck + 7 + (tokens as f64 * digit).ceil() as u32
}
