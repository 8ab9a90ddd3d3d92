//! One reduced game's table as it is played ([`Sim`]): hands in arrival order, the stock's
//! count, points and the trick; the one place a reduced trick is resolved (from the game's
//! table of tricks, built with the engine's rule) and a seat's [`SeatView`] is built.
//!
//! Invariant: hands keep arrival order (draws appended, plays removed in place, as the
//! two-player engine keeps them); the stock holds `unknown_left` unseen cards plus the
//! face-up card while `face_in_stock`, and `unknown_left` is odd until the last draw.

use super::game::{FOLLOWER_WINS, ReducedGame};
use super::spec::MAX_HAND;
use crate::game::{Card, SeatView, remove_in_order};

/// A reduced game in progress, cards as local numbers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sim {
    /// Each seat's hand in arrival order (first `lens[seat]` entries).
    pub hands: [[u8; MAX_HAND]; 2],
    /// Cards in each hand.
    pub lens: [u8; 2],
    /// Unseen cards left in the stock (the face-up card not counted).
    pub unknown_left: u8,
    /// Whether the face-up card is still at the bottom of the stock.
    pub face_in_stock: bool,
    /// The face-up card (its suit is trump).
    pub face_up: u8,
    /// Core card-id bits of the cards of completed tricks (the view's `played`).
    pub played_ids: u64,
    /// Points won so far by each seat.
    pub points: [u8; 2],
    /// Who leads the current trick.
    pub leader: u8,
    /// The led card when the follower is to move.
    pub table: Option<u8>,
    /// Trick number, from 1.
    pub trick: u8,
}

impl Sim {
    /// The position after the deal: seat 0 leads trick 1.
    pub fn deal(face_up: u8, hands: [&[u8]; 2], unknown_left: u8) -> Sim {
        let mut h = [[0u8; MAX_HAND]; 2];
        for s in 0..2 {
            h[s][..hands[s].len()].copy_from_slice(hands[s]);
        }
        Sim {
            hands: h,
            lens: [hands[0].len() as u8, hands[1].len() as u8],
            unknown_left,
            face_in_stock: true,
            face_up,
            played_ids: 0,
            points: [0, 0],
            leader: 0,
            table: None,
            trick: 1,
        }
    }

    /// The seat to move, or `None` when the game is over.
    #[inline]
    pub fn mover(&self) -> Option<usize> {
        match self.table {
            Some(_) => Some(1 - self.leader as usize),
            None if self.lens[self.leader as usize] > 0 => Some(self.leader as usize),
            None => None,
        }
    }

    /// `seat`'s hand.
    #[inline]
    pub fn hand(&self, seat: usize) -> &[u8] {
        &self.hands[seat][..self.lens[seat] as usize]
    }

    /// Seat 0's points minus seat 1's.
    #[inline]
    pub fn margin0(&self) -> i32 {
        self.points[0] as i32 - self.points[1] as i32
    }

    /// The mover plays the card at `pos` of its hand. Returns the card and, when it completes
    /// the trick, the trick's winner (who then leads; the caller deals the draws with
    /// [`Sim::give`]).
    #[inline]
    pub fn play(&mut self, game: &ReducedGame, pos: usize) -> (u8, Option<usize>) {
        let seat = self.mover().expect("the game is not over");
        let hand = &mut self.hands[seat];
        let card = hand[pos];
        remove_in_order(hand, pos);
        self.lens[seat] -= 1;
        let Some(led) = self.table else {
            self.table = Some(card);
            return (card, None);
        };
        let cards = game.cards();
        let trick = game.trick(self.face_up, led, card);
        let winner = self.leader as usize ^ usize::from(trick & FOLLOWER_WINS != 0);
        self.points[winner] += trick & !FOLLOWER_WINS;
        self.played_ids |= 1u64 << cards[led as usize].id() | 1u64 << cards[card as usize].id();
        self.table = None;
        self.trick += 1;
        self.leader = winner as u8;
        (card, Some(winner))
    }

    /// Whether a trick just completed is followed by draws: `Some(true)` when both seats draw
    /// unseen cards, `Some(false)` for the last draw (the winner takes the last unseen card,
    /// the loser the face-up card), `None` when the stock is empty.
    #[inline]
    pub fn draws(&self) -> Option<bool> {
        match self.unknown_left {
            0 => None,
            1 => Some(false),
            _ => Some(true),
        }
    }

    /// `seat` draws `card` (an unseen card, or the face-up card on the last draw).
    #[inline]
    pub fn give(&mut self, seat: usize, card: u8) {
        self.hands[seat][self.lens[seat] as usize] = card;
        self.lens[seat] += 1;
        if card == self.face_up {
            self.face_in_stock = false;
        } else {
            self.unknown_left -= 1;
        }
    }

    /// The engine's view for `seat` (the mover), its cards written into `buf`.
    pub fn view<'a>(
        &self,
        game: &ReducedGame,
        seat: usize,
        buf: &'a mut [Card; MAX_HAND + 1],
    ) -> SeatView<'a> {
        let cards = game.cards();
        let (hand_buf, table_buf) = buf.split_at_mut(MAX_HAND);
        for (slot, &c) in hand_buf.iter_mut().zip(self.hand(seat)) {
            *slot = cards[c as usize];
        }
        let table = self.table.map(|t| cards[t as usize]);
        if let Some(t) = table {
            table_buf[0] = t;
        }
        let face_up = cards[self.face_up as usize];
        SeatView {
            hand: &hand_buf[..self.lens[seat] as usize],
            table,
            trump: face_up.suit(),
            face_up,
            played: self.played_ids,
            stock_left: self.unknown_left + self.face_in_stock as u8,
            trick: self.trick,
            my_points: self.points[seat],
            opp_points: self.points[1 - seat],
            players: 2,
            seat: seat as u8,
            trick_cards: if table.is_some() {
                &table_buf[..1]
            } else {
                &[]
            },
            partner_winning: false,
            no_trump: false,
            open_hand: &[],
            stock_top: None,
            // The reduced game keeps no log (its table is copied at every node of the walks).
            history: &[],
        }
    }
}
