//! What one seat may see when it is asked to play.
//!
//! Invariant: nothing in a [`SeatView`] reveals the opponent's hand or the order of the stock.

use super::card::{Card, Suit};

/// The information available to the player about to play.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// Own hand, in arrival order (dealt cards first, each drawn card appended).
    pub hand: &'a [Card],
    /// The opponent's card on the table when following; `None` when leading.
    pub table: Option<Card>,
    /// The briscola suit.
    pub trump: Suit,
    /// The face-up card that fixed the trump suit.
    pub face_up: Card,
    /// Public memory: bit `id` is set for every card played in earlier tricks.
    pub played: u64,
    /// Cards left in the stock (the face-up card included while it is there).
    pub stock_left: u8,
    /// Trick number, 1..=20.
    pub trick: u8,
    /// Own points so far.
    pub my_points: u8,
    /// The opponent's points so far.
    pub opp_points: u8,
}

impl SeatView<'_> {
    /// Whether `card` is public knowledge from earlier tricks or the face-up card.
    #[inline]
    pub fn seen(&self, card: Card) -> bool {
        card == self.face_up || self.played & (1u64 << card.id()) != 0
    }
}
