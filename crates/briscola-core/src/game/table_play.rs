//! One game under any valid [`Rules`]: 2, 3, 4 or 6 players, partnerships, any deck, hand size,
//! trump rule, draw order, redraw, Scoperta, must-follow-suit and Briscola a 31. The standard
//! two-player game has its own specialised engine ([`super::play_game`]); on the standard rules
//! this one plays the same game card for card (a property test checks it). The game itself is
//! [`TableState`]'s, one card at a time; [`play_table`] asks the seats' policies for the cards.
//!
//! Invariant: every player plays exactly one card per trick, in seat order from the leader;
//! exactly one card wins each trick and its player leads the next; after a trick every player
//! draws one card (in the variant's order) while the stock lasts; each card of the variant's
//! deck is played at most once, and exactly once in a game played to the end.

use super::card::{Card, Suit};
use super::deck::Deck;
use super::policy::Policy;
use super::rules::Rules;
use super::seat_rng::SeatRng;
use super::table_state::TableState;

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

/// The result of one table game. Per-seat arrays hold `players` meaningful entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableOutcome {
    /// Players.
    pub players: u8,
    /// Points each seat took.
    pub points: [u8; MAX_PLAYERS],
    /// Trumps each seat ever held (initial hand plus draws, the face-up card included).
    pub briscole: [u8; MAX_PLAYERS],
    /// Tricks in which each seat played a trump.
    pub trumps_played: [u8; MAX_PLAYERS],
    /// Tricks each seat won.
    pub tricks_won: [u8; MAX_PLAYERS],
    /// Tricks played (fewer than the variant's total when a side reached the target).
    pub tricks_played: u8,
    /// The trump suit, if the variant has one.
    pub trump: Option<Suit>,
    /// The face-up card after any redraw, if the variant has one.
    pub face_up: Option<Card>,
    /// Briscola a 31: the side whose claim ended the game.
    pub claimed_by: Option<u8>,
}

impl TableOutcome {
    /// Points per side (`rules.sides()` meaningful entries).
    pub fn side_points(&self, rules: &Rules) -> [u16; 3] {
        let mut s = [0u16; 3];
        for seat in 0..self.players as usize {
            s[rules.side_of(seat)] += self.points[seat] as u16;
        }
        s
    }

    /// Trumps each side ever held.
    pub fn side_briscole(&self, rules: &Rules) -> [u16; 3] {
        let mut s = [0u16; 3];
        for seat in 0..self.players as usize {
            s[rules.side_of(seat)] += self.briscole[seat] as u16;
        }
        s
    }

    /// The winning side: the claimant in Briscola a 31, else the side with the most points;
    /// `None` for a tie at the top.
    pub fn winner_side(&self, rules: &Rules) -> Option<usize> {
        if let Some(s) = self.claimed_by {
            return Some(s as usize);
        }
        let pts = self.side_points(rules);
        let pts = &pts[..rules.sides()];
        let best = *pts.iter().max()?;
        let mut at_best = pts.iter().enumerate().filter(|(_, p)| **p == best);
        let first = at_best.next().map(|(i, _)| i);
        if at_best.next().is_some() {
            None
        } else {
            first
        }
    }
}

/// The variant's deck in deal order: the 40-card `deck` with the variant's removed cards
/// skipped, then (if the variant says so) a face-up Ace or Three put back into the middle of the
/// stock until the bottom card is neither. Returns the cards and their count.
pub fn deal_order(rules: &Rules, deck: &Deck) -> ([Card; 40], usize) {
    let mut seq = *deck.cards();
    let mut len = 0;
    for &c in deck.cards() {
        if rules.in_deck(c) {
            seq[len] = c;
            len += 1;
        }
    }
    if rules.spec().redraw_ace_three {
        let dealt = rules.players() * rules.hand_size();
        // The put-back card goes to the middle of the stock above the bottom card; the card
        // above the bottom is turned up. A put-back card is never turned up again: every valid
        // variant's stock holds more cards below its middle than the deck has Aces and Threes.
        let mid = dealt + (len - 1 - dealt) / 2;
        let mut guard = 0;
        while matches!(seq[len - 1].rank(), 1 | 3) && guard < len - 1 - mid {
            let c = seq[len - 1];
            seq.copy_within(mid..len - 1, mid + 1);
            seq[mid] = c;
            guard += 1;
        }
    }
    (seq, len)
}

/// Play one game of `rules` on `deck` (a shuffle of the 40 cards; the variant's removed cards
/// are skipped) with `seats[s]` deciding for seat `s`, reporting tricks to `sink`. `rngs[s]` is
/// seat `s`'s random stream for this game.
///
/// # Panics
/// If `seats` or `rngs` does not hold one entry per player, or a policy returns an index
/// outside its (playable) hand: both are bugs in the caller, not in the input.
pub fn play_table<P, S>(
    rules: &Rules,
    deck: &Deck,
    seats: &[&P],
    rngs: &mut [SeatRng],
    sink: &mut S,
) -> TableOutcome
where
    P: Policy + ?Sized,
    S: TableSink + ?Sized,
{
    let n = rules.players();
    assert!(
        seats.len() == n && rngs.len() == n,
        "one policy and stream per seat"
    );
    let mut state = TableState::new(rules, deck);
    while let Some(view) = state.view() {
        let seat = view.seat as usize;
        let i = seats[seat].choose(&view, &mut rngs[seat]);
        assert!(
            i < view.hand.len(),
            "policy chose card {i} of a {}-card hand",
            view.hand.len()
        );
        let card = view.hand[i];
        state
            .play(card, sink)
            .expect("a card of the seat's playable hand is legal");
    }
    *state.outcome()
}
