//! The paper's Table 5 counts (how each seat spends its trumps), tallied trick by trick while a
//! game is played, so the analysis never needs the 20-row-per-game trick log.
//!
//! Invariant: a tally is a sum over tricks of integer counts, so it is the same whatever order
//! the tricks (or the games, or the shards' chunks) are added in.

use serde::{Deserialize, Serialize};

use super::card::Suit;
use super::play::{Seat, TrickRecord};

/// Table 5's counts for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrumpUse {
    /// Tricks in which the seat played a trump.
    pub n_played: u64,
    /// Of those, won by the seat.
    pub wins: u64,
    /// Trick points of the won ones.
    pub points_won: u64,
    /// Of those played, the other card was worth 0 points.
    pub wasted: u64,
}

impl TrumpUse {
    /// Add one trick of a game with trump suit `trump` to both seats' counts (G1's first).
    ///
    /// ```
    /// use briscola_core::game::{Card, Seat, Suit, TrickRecord, TrumpUse};
    /// let mut t = [TrumpUse::default(); 2];
    /// let two_cups = Card::new(Suit::Coppe, 2).unwrap();
    /// let ace_coins = Card::new(Suit::Oro, 1).unwrap();
    /// let trick = TrickRecord {
    ///     trick: 1, card_g1: ace_coins, card_g2: two_cups,
    ///     leader: Seat::G1, winner: Seat::G2, points: 11,
    /// };
    /// TrumpUse::add_trick(&mut t, &trick, Suit::Coppe);
    /// assert_eq!(t[1], TrumpUse { n_played: 1, wins: 1, points_won: 11, wasted: 0 });
    /// assert_eq!(t[0], TrumpUse::default());
    /// ```
    #[inline]
    pub fn add_trick(uses: &mut [TrumpUse; 2], t: &TrickRecord, trump: Suit) {
        let cards = [t.card_g1, t.card_g2];
        let winner = match t.winner {
            Seat::G1 => 0,
            Seat::G2 => 1,
        };
        for seat in 0..2 {
            if cards[seat].suit() != trump {
                continue;
            }
            let u = &mut uses[seat];
            u.n_played += 1;
            if winner == seat {
                u.wins += 1;
                u.points_won += t.points as u64;
            }
            if cards[1 - seat].points() == 0 {
                u.wasted += 1;
            }
        }
    }

    /// The sum of two seats' tallies, seat by seat.
    pub fn sum(a: [TrumpUse; 2], b: [TrumpUse; 2]) -> [TrumpUse; 2] {
        let add = |x: TrumpUse, y: TrumpUse| TrumpUse {
            n_played: x.n_played + y.n_played,
            wins: x.wins + y.wins,
            points_won: x.points_won + y.points_won,
            wasted: x.wasted + y.wasted,
        };
        [add(a[0], b[0]), add(a[1], b[1])]
    }
}
