//! What one seat may see when it is asked to play.
//!
//! Invariant: nothing in a [`SeatView`] reveals another seat's hand or the order of the stock,
//! except what the variant makes public (Briscola Scoperta: the open hand and the stock's top).

use super::card::{Card, Suit};

/// The information available to the player about to play.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// Own hand, in arrival order (dealt cards first, each drawn card appended).
    pub hand: &'a [Card],
    /// The card to beat when following: the opponent's card in two-player play, the card
    /// currently winning the trick with more players (see `trick_cards` for all of them);
    /// `None` when leading.
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
    /// Own points so far (the own side's in partnership games).
    pub my_points: u8,
    /// The opponent's points so far (the other side's; with three players, the other two's sum).
    pub opp_points: u8,
    /// Players at the table (2 in the standard game).
    pub players: u8,
    /// This seat's index (seat 0 receives the first hand of the deal).
    pub seat: u8,
    /// The cards already played to this trick, in playing order (empty when leading).
    pub trick_cards: &'a [Card],
    /// Whether the card to beat (`table`) was played by this seat's partner.
    pub partner_winning: bool,
    /// Whether the variant has no trump suit (Briscolone): then `trump` and `face_up` mean
    /// nothing (the last card of the stock is an ordinary card).
    pub no_trump: bool,
    /// Briscola Scoperta: the opponent's open hand; empty otherwise.
    pub open_hand: &'a [Card],
    /// Briscola Scoperta: the stock's top card while the stock lasts; `None` otherwise.
    pub stock_top: Option<Card>,
}

impl SeatView<'_> {
    /// Whether `card` is public knowledge from earlier tricks or the face-up card.
    #[inline]
    pub fn seen(&self, card: Card) -> bool {
        card == self.face_up || self.played & (1u64 << card.id()) != 0
    }
}
