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
    /// Every card played so far in this game, in playing order, with the seat that played it
    /// (the current trick's cards are its tail): public memory with its order, which a policy
    /// that models its opponent (`exploit`) replays. Empty where an engine keeps no log.
    pub history: &'a [(u8, Card)],
}

impl<'a> SeatView<'a> {
    /// A two-player view at the first trick: `hand` to play, `face_up` turned up (so its suit is
    /// trump), nothing played, 34 cards in the stock (the face-up card included), no points yet,
    /// seat 0 to lead. Set any other field with struct update syntax, e.g. to follow a card:
    ///
    /// ```
    /// use briscola_core::game::{Card, SeatView, Suit};
    /// let hand = [Card::new(Suit::Oro, 1).unwrap(), Card::new(Suit::Coppe, 2).unwrap()];
    /// let led = Card::new(Suit::Oro, 3).unwrap();
    /// let v = SeatView {
    ///     table: Some(led),
    ///     trick_cards: std::slice::from_ref(&led),
    ///     seat: 1,
    ///     ..SeatView::opening(&hand, Card::new(Suit::Coppe, 7).unwrap())
    /// };
    /// assert_eq!((v.trump, v.stock_left, v.trick), (Suit::Coppe, 34, 1));
    /// assert!(v.seen(Card::new(Suit::Coppe, 7).unwrap()) && !v.seen(led));
    /// ```
    pub fn opening(hand: &'a [Card], face_up: Card) -> SeatView<'a> {
        SeatView {
            hand,
            table: None,
            trump: face_up.suit(),
            face_up,
            played: 0,
            stock_left: 34,
            trick: 1,
            my_points: 0,
            opp_points: 0,
            players: 2,
            seat: 0,
            trick_cards: &[],
            partner_winning: false,
            no_trump: false,
            open_hand: &[],
            stock_top: None,
            history: &[],
        }
    }

    /// Whether `card` is public knowledge from earlier tricks or the face-up card.
    #[inline]
    pub fn seen(&self, card: Card) -> bool {
        card == self.face_up || self.played & (1u64 << card.id()) != 0
    }
}
