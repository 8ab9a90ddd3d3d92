//! The keys of the seats' random streams ([`crate::game::SeatRng`]): one per (study seed, policy
//! name, seat), with the game's index in its matchup as the ChaCha stream number.
//!
//! Invariant: a seat's stream depends on the seed, its policy's name, its seat and the game's
//! index only, never on the deal source, the opponent, the chunking or the thread count; it is
//! disjoint from the deal streams (a different domain string), so a randomised study deals
//! exactly the games of its deterministic twin.

use sha2::{Digest, Sha256};

use crate::game::Seat;

/// The key of `policy`'s stream in `seat` under `seed`.
///
/// ```
/// use briscola_core::game::Seat;
/// use briscola_core::deal::seat_key;
/// assert_eq!(seat_key(42, "greedy", Seat::G1), seat_key(42, "greedy", Seat::G1));
/// assert_ne!(seat_key(42, "greedy", Seat::G1), seat_key(42, "greedy", Seat::G2));
/// ```
pub fn seat_key(seed: i64, policy: &str, seat: Seat) -> [u8; 32] {
    table_seat_key(
        seed,
        policy,
        match seat {
            Seat::G1 => 0,
            Seat::G2 => 1,
        },
    )
}

/// The key of `policy`'s stream at 0-based seat `seat` of a table of any size; seats 0 and 1
/// have the two-player game's G1 and G2 keys.
pub fn table_seat_key(seed: i64, policy: &str, seat: u8) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"briscola/seat-rng/v1\0");
    h.update(seed.to_le_bytes());
    h.update((policy.len() as u64).to_le_bytes());
    h.update(policy.as_bytes());
    h.update([seat + 1]);
    h.finalize().into()
}

/// Both seats' keys for a matchup, G1's first.
pub fn seat_keys(seed: i64, g1: &str, g2: &str) -> [[u8; 32]; 2] {
    [seat_key(seed, g1, Seat::G1), seat_key(seed, g2, Seat::G2)]
}
