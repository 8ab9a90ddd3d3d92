//! What one seat has seen in the reduced game ([`Observation`]), and its information-set key
//! both ways: built from the cards, and read back from a key.
//!
//! Invariant: `Observation::key` and the keys [`super::state::State`] accumulates agree:
//! the tokens are the plays in order with the seat's own draw after each trick while the
//! stock lasts, so [`Observation::from_key`] of a state's key gives back its observation.

use super::game::ReducedGame;
use super::state::{key_of, key_prefix};
use crate::game::Card;

/// Everything a seat has seen: its seat, the face-up card, its dealt hand (a set), its own
/// draws in order and every card played in order (both seats', the current trick's included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// 0 (leads the first trick) or 1.
    pub seat: u8,
    /// The face-up card.
    pub face_up: Card,
    /// The dealt hand (any order).
    pub hand: Vec<Card>,
    /// The seat's own draws, in order.
    pub draws: Vec<Card>,
    /// Every card played so far, in order.
    pub plays: Vec<Card>,
}

impl Observation {
    /// Its key, or `None` when a card is not in the game's deck or the draws do not match
    /// the plays (one draw after each complete trick while the stock lasts).
    pub(crate) fn key(&self, game: &ReducedGame) -> Option<u128> {
        let local = |c: Card| game.local(c);
        let mask = self
            .hand
            .iter()
            .try_fold(0u64, |m, &c| local(c).map(|i| m | 1 << i))?;
        let radix = game.deck_size() as u128;
        let rounds = (game.deck_size() - 2 * game.hand_size()) / 2;
        let mut acc = key_prefix(self.seat as usize & 1, local(self.face_up)?, mask);
        let mut count = 0u8;
        let mut draws = self.draws.iter();
        for (i, &c) in self.plays.iter().enumerate() {
            acc = acc * radix + local(c)? as u128;
            count += 1;
            if i % 2 == 1 && i / 2 < rounds {
                acc = acc * radix + local(*draws.next()?)? as u128;
                count += 1;
            }
        }
        if draws.next().is_some() || self.seat > 1 {
            return None;
        }
        Some(key_of(acc, count))
    }

    /// The observation a key encodes (a key of this game's states).
    pub(crate) fn from_key(game: &ReducedGame, key: u128) -> Observation {
        let radix = game.deck_size() as u128;
        let count = (key >> 120) as usize;
        let mut acc = key & ((1u128 << 120) - 1);
        let mut digits = vec![0u8; count];
        for d in digits.iter_mut().rev() {
            *d = (acc % radix) as u8;
            acc /= radix;
        }
        let cards = game.cards();
        let seat = (acc & 1) as u8;
        let face_up = cards[(acc >> 1 & 63) as usize];
        let mask = (acc >> 7) as u64;
        let hand = (0..game.deck_size())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| cards[i])
            .collect();
        let rounds = (game.deck_size() - 2 * game.hand_size()) / 2;
        let (mut draws, mut plays) = (Vec::new(), Vec::new());
        let mut it = digits.into_iter();
        while let Some(d) = it.next() {
            plays.push(cards[d as usize]);
            let i = plays.len() - 1;
            if i % 2 == 1
                && i / 2 < rounds
                && let Some(d) = it.next()
            {
                draws.push(cards[d as usize]);
            }
        }
        Observation {
            seat,
            face_up,
            hand,
            draws,
            plays,
        }
    }
}
