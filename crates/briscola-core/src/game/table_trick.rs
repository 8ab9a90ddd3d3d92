//! [`TableTrick`]: one trick of a table game (2 to 6 players) as it is reported, the
//! [`TableSink`] that receives them, and [`MAX_PLAYERS`].
//!
//! Invariant: a trick's first `players` cards are in playing order from its leader, and
//! `winner` is the seat that played the winning one.

use super::card::Card;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 6;

/// One trick of a table game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTrick {
    /// 1-based trick number.
    pub trick: u8,
    /// The seat that led.
    pub leader: u8,
    /// The seat that won.
    pub winner: u8,
    /// The cards in playing order (the lead first); the first `players` entries are meaningful.
    pub cards: [Card; MAX_PLAYERS],
    /// Players (cards in this trick).
    pub players: u8,
    /// Points of the trick's cards.
    pub points: u8,
}

impl TableTrick {
    /// The cards in playing order.
    pub fn played(&self) -> &[Card] {
        &self.cards[..self.players as usize]
    }

    /// The seat that played the `k`-th card (0 = the lead).
    pub fn seat_of(&self, k: usize) -> usize {
        (self.leader as usize + k) % self.players as usize
    }

    /// The card seat `seat` played.
    #[inline]
    pub fn card_of(&self, seat: usize) -> Card {
        let n = self.players as usize;
        self.cards[(seat + n - self.leader as usize) % n]
    }
}

/// Receives each trick of a table game as it is played.
pub trait TableSink {
    /// Called once per trick, in order.
    fn trick(&mut self, t: &TableTrick);
    /// Called once per draw, in order: `seat` took `card` from the stock after trick `trick`.
    fn draw(&mut self, _trick: u8, _seat: u8, _card: Card) {}
}

impl TableSink for super::play::NoTricks {
    #[inline]
    fn trick(&mut self, _: &TableTrick) {}
}

impl<F: FnMut(&TableTrick)> TableSink for F {
    #[inline]
    fn trick(&mut self, t: &TableTrick) {
        self(t)
    }
}
