//! [`BatchStreams`]: where a batch of games sits in its matchup, and so which per-seat random
//! streams its games use.
//!
//! Invariant: game `i` of a batch gets the streams of game `first_game + i` of the matchup, so a
//! game's streams do not depend on how the matchup is cut into batches.

use crate::game::SeatRng;

/// Where a batch sits in its matchup: the index of its first deck (0-based) and the two seats'
/// stream keys (see [`super::seat_keys`]).
#[derive(Clone, Copy, Debug)]
pub struct BatchStreams<'k> {
    /// Index in the matchup of the batch's first game.
    pub first_game: u64,
    /// G1's and G2's stream keys.
    pub keys: &'k [[u8; 32]; 2],
}

impl BatchStreams<'_> {
    /// The seats' streams for game `i` of the batch.
    #[inline]
    pub(super) fn rngs(&self, i: usize) -> [SeatRng; 2] {
        let g = self.first_game + i as u64;
        [SeatRng::new(self.keys[0], g), SeatRng::new(self.keys[1], g)]
    }
}
