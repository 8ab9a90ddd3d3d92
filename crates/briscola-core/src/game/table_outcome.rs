//! [`TableOutcome`]: the result of one table game (points, trumps held and played, tricks won
//! per seat; the trump, the face-up card and a Briscola a 31 claim).
//!
//! Invariant: per-seat arrays hold `players` meaningful entries, and sides' totals are sums of
//! their seats' (`Rules::side_of`).

use super::card::{Card, Suit};
use super::rules::Rules;
use super::table_trick::MAX_PLAYERS;

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
    #[inline]
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
