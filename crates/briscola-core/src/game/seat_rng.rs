//! The randomness a seat may draw on when it decides: a ChaCha8 stream per (key, game), handed
//! to the policy by the engine. Randomised policies (an exploration probability, a uniformly
//! random player, a sampling agent) draw from it; deterministic ones never touch it.
//!
//! Invariant: a seat's draws depend only on its key and its game index, never on the thread,
//! the batch a game shares or the clock; the stream is separate from the deal stream, so a
//! randomised study deals exactly the games of its deterministic twin.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One seat's random stream for one game. Seeded lazily: a policy that never draws costs no
/// ChaCha set-up, and the generator lives on the heap, so creating a seat's stream for every
/// game writes 48 bytes, not the generator's 300-odd (a copy the engine paid per game for any
/// policy that might draw, measured with callgrind: ~1,300 instructions a game).
///
/// ```
/// use briscola_core::game::SeatRng;
/// let mut a = SeatRng::new([7; 32], 12);
/// let mut b = SeatRng::new([7; 32], 12);
/// let draws: Vec<u32> = (0..5).map(|_| a.below(3)).collect();
/// assert_eq!(draws, (0..5).map(|_| b.below(3)).collect::<Vec<_>>());
/// assert!(draws.iter().all(|&d| d < 3));
/// ```
#[derive(Clone, Debug)]
pub struct SeatRng {
    key: [u8; 32],
    game: u64,
    rng: Option<Box<ChaCha8Rng>>,
}

impl SeatRng {
    /// The stream of game `game` under `key` (the tournament derives keys from the study's seed,
    /// the policy's name and the seat).
    #[inline]
    pub const fn new(key: [u8; 32], game: u64) -> SeatRng {
        SeatRng {
            key,
            game,
            rng: None,
        }
    }

    /// The generator itself, for policies that need a full [`rand::Rng`].
    #[inline]
    pub fn rng(&mut self) -> &mut ChaCha8Rng {
        let (key, game) = (self.key, self.game);
        self.rng.get_or_insert_with(|| {
            let mut r = ChaCha8Rng::from_seed(key);
            r.set_stream(game);
            Box::new(r)
        })
    }

    /// A uniform integer in `0..n` (unbiased). `n` must be positive.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        self.rng().random_range(0..n)
    }

    /// A uniform float in `[0, 1)` (53 random bits).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.rng().next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::SeatRng;

    #[test]
    fn streams_differ_by_game_and_key() {
        let draw = |key: u8, game: u64| {
            let mut r = SeatRng::new([key; 32], game);
            (0..8).map(|_| r.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draw(1, 5), draw(1, 5));
        assert_ne!(draw(1, 5), draw(1, 6));
        assert_ne!(draw(1, 5), draw(2, 5));
    }

    #[test]
    fn unit_is_in_the_half_open_interval() {
        let mut r = SeatRng::new([3; 32], 0);
        for _ in 0..10_000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
