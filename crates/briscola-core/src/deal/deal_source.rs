//! Where a matchup's deals come from: the paper's shared .NET stream, or ChaCha per game.
//!
//! Invariant: game `j` of a matchup always receives the same deck, however the games are split
//! into chunks or threads.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::chacha_lanes::{LANES, chacha_decks};
use super::dotnet_random::DotNetRandom;
use crate::game::Deck;

/// How deals are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DealSourceKind {
    /// One .NET `System.Random(seed)` shared by all games in matchup order, 39 draws per game:
    /// the stream that dealt the published tournament.
    #[serde(rename = "dotnet-replay")]
    DotnetReplay,
    /// An independent ChaCha8 stream per game, keyed by (seed, the two policies' names) and
    /// selected by the game's index within the matchup.
    #[serde(rename = "chacha")]
    Chacha,
}

impl DealSourceKind {
    /// The name used in `pipeline.toml` and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            DealSourceKind::DotnetReplay => "dotnet-replay",
            DealSourceKind::Chacha => "chacha",
        }
    }

    /// Parse a command-line name.
    pub fn parse(s: &str) -> Option<DealSourceKind> {
        match s {
            "dotnet-replay" => Some(DealSourceKind::DotnetReplay),
            "chacha" => Some(DealSourceKind::Chacha),
            _ => None,
        }
    }

    /// The seeds this deal source takes (inclusive): a .NET `int` for dotnet-replay, a
    /// non-negative `i64` for chacha. The ranges as messages print them; a seed is checked
    /// against them by making a [`super::DealSeed`].
    pub const fn seed_range(self) -> (i64, i64) {
        match self {
            DealSourceKind::DotnetReplay => (i32::MIN as i64, i32::MAX as i64),
            DealSourceKind::Chacha => (0, i64::MAX),
        }
    }

    /// The valid seeds as text, e.g. `-2147483648 to 2147483647`.
    pub fn seed_range_text(self) -> String {
        let (lo, hi) = self.seed_range();
        format!("{lo} to {hi}")
    }

    /// The 0-based index, in the whole tournament, of the first game of the matchup at position
    /// `matchup_index` (row-major) when every matchup plays `games_per_matchup` games. With
    /// dotnet-replay one stream runs through all matchups in order, so this is where the
    /// matchup's deals start; chacha streams are per matchup, so it is always 0. The one
    /// definition of the `first_game` rule.
    pub const fn first_game(self, matchup_index: usize, games_per_matchup: u64) -> u64 {
        match self {
            DealSourceKind::DotnetReplay => matchup_index as u64 * games_per_matchup,
            DealSourceKind::Chacha => 0,
        }
    }
}

/// Draws per game in the .NET stream (one Fisher-Yates shuffle of 40 cards).
pub const DRAWS_PER_GAME: u64 = 39;

/// The deals of one matchup, produced in game order.
pub enum DealStream {
    /// The shared .NET stream, positioned at this matchup's first game.
    Dotnet(Box<DotNetRandom>),
    /// Per-game ChaCha streams under one key.
    Chacha {
        /// The matchup's key.
        key: [u8; 32],
        /// Index of the next game within the matchup.
        next_game: u64,
    },
}

impl DealStream {
    /// The .NET stream for the matchup whose first game is game number `first_game` (0-based)
    /// of the whole tournament: `39 * first_game` draws are skipped.
    pub fn dotnet(seed: i32, first_game: u64) -> DealStream {
        let mut rng = DotNetRandom::new(seed);
        rng.skip(first_game * DRAWS_PER_GAME);
        DealStream::Dotnet(Box::new(rng))
    }

    /// The ChaCha stream of the ordered matchup (`g1`, `g2`) under `seed`. Depends on the
    /// policies' names only, not on their position in any list.
    pub fn chacha(seed: u64, g1: &str, g2: &str) -> DealStream {
        let mut h = Sha256::new();
        h.update(b"briscola/chacha-deals/v1\0");
        h.update(seed.to_le_bytes());
        h.update((g1.len() as u64).to_le_bytes());
        h.update(g1.as_bytes());
        h.update((g2.len() as u64).to_le_bytes());
        h.update(g2.as_bytes());
        let key: [u8; 32] = h.finalize().into();
        DealStream::Chacha { key, next_game: 0 }
    }

    /// The paired (duplicate-format) ChaCha stream of the unordered pair {`a`, `b`} under
    /// `seed`: the same for (`a`, `b`) and (`b`, `a`), so a matchup and its seat-swapped twin
    /// play the same deals. Its own domain string, so it shares no deal with any unpaired
    /// stream.
    ///
    /// ```
    /// use briscola_core::deal::DealStream;
    /// let mut ab = DealStream::chacha_paired(7, "greedy", "random");
    /// let mut ba = DealStream::chacha_paired(7, "random", "greedy");
    /// let (mut x, mut y) = (Vec::new(), Vec::new());
    /// ab.next_chunk(3, &mut x);
    /// ba.next_chunk(3, &mut y);
    /// assert_eq!(x, y);
    /// ```
    pub fn chacha_paired(seed: u64, a: &str, b: &str) -> DealStream {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let mut h = Sha256::new();
        h.update(b"briscola/chacha-paired-deals/v1\0");
        h.update(seed.to_le_bytes());
        h.update((lo.len() as u64).to_le_bytes());
        h.update(lo.as_bytes());
        h.update((hi.len() as u64).to_le_bytes());
        h.update(hi.as_bytes());
        let key: [u8; 32] = h.finalize().into();
        DealStream::Chacha { key, next_game: 0 }
    }

    /// The ChaCha stream of a league table of any size under `seed`: for two seats exactly
    /// [`DealStream::chacha_paired`] (paired) or [`DealStream::chacha`] (not), so a rules
    /// league of two deals the shuffles of the standard league with the same seed and
    /// policies; for more seats its own domain string, keyed by the seats' names in order, or
    /// sorted when `paired` (every seating of the same policies then plays the same deals).
    ///
    /// ```
    /// use briscola_core::deal::DealStream;
    /// let mut a = DealStream::chacha_table(7, &["greedy", "hoarder", "counter"], true);
    /// let mut b = DealStream::chacha_table(7, &["counter", "greedy", "hoarder"], true);
    /// let (mut x, mut y) = (Vec::new(), Vec::new());
    /// a.next_chunk(3, &mut x);
    /// b.next_chunk(3, &mut y);
    /// assert_eq!(x, y);
    /// ```
    pub fn chacha_table(seed: u64, names: &[&str], paired: bool) -> DealStream {
        match (names, paired) {
            ([a, b], true) => return DealStream::chacha_paired(seed, a, b),
            ([a, b], false) => return DealStream::chacha(seed, a, b),
            _ => {}
        }
        let mut names = names.to_vec();
        if paired {
            names.sort_unstable();
        }
        let mut h = Sha256::new();
        h.update(b"briscola/chacha-table-deals/v1\0");
        h.update(seed.to_le_bytes());
        h.update([paired as u8]);
        for n in names {
            h.update((n.len() as u64).to_le_bytes());
            h.update(n.as_bytes());
        }
        let key: [u8; 32] = h.finalize().into();
        DealStream::Chacha { key, next_game: 0 }
    }

    /// Skip the next `n` games' decks (a ChaCha stream jumps; the .NET stream jumps its table
    /// ahead by `39 * n` draws).
    pub fn skip(&mut self, n: u64) {
        match self {
            DealStream::Dotnet(rng) => rng.skip(n * DRAWS_PER_GAME),
            DealStream::Chacha { next_game, .. } => *next_game += n,
        }
    }

    /// Append the next `n` decks to `out`.
    pub fn next_chunk(&mut self, n: usize, out: &mut Vec<Deck>) {
        match self {
            DealStream::Dotnet(rng) => {
                // The stream is sequential but cheap; the shuffles it drives are not, so draw
                // the chunk's raw values first and shuffle the decks in parallel.
                let mut raw = vec![0i32; n * DRAWS_PER_GAME as usize];
                rng.fill(&mut raw);
                // Four games' shuffles at a time (see `Deck::shuffled`), in game order.
                let (games, _) = raw.as_chunks::<{ DRAWS_PER_GAME as usize }>();
                let (quads, rest) = games.as_chunks::<4>();
                out.par_extend(
                    quads
                        .par_iter()
                        .with_min_len(256)
                        .flat_map_iter(DotNetRandom::decks_from_draws),
                );
                out.extend(rest.iter().map(DotNetRandom::deck_from_draws));
            }
            DealStream::Chacha { key, next_game } => {
                let start = *next_game;
                // Each game's deck is its own ChaCha stream: eight games at a time
                // (`chacha_lanes`), dealt in parallel, in game order.
                // Written in place (a parallel extend collects per-thread lists, then copies).
                let base = out.len();
                out.resize(base + n, Deck::ordered());
                out[base..]
                    .par_chunks_mut(LANES * 32)
                    .enumerate()
                    .for_each(|(c, slice)| {
                        chacha_decks_into(key, start + (c * LANES * 32) as u64, slice);
                    });
                *next_game += n as u64;
            }
        }
    }
}

/// Games `first ..` of the matchup keyed `key` (each [`chacha_deck`]) into `out`, in order, dealt
/// on this thread eight at a time: the decks [`DealStream::next_chunk`] deals on the rayon pool,
/// for a caller whose chunks are already tasks of their own.
pub fn chacha_decks_into(key: &[u8; 32], first: u64, out: &mut [Deck]) {
    for (k, decks) in out.chunks_mut(LANES).enumerate() {
        let at = first + (k * LANES) as u64;
        decks.copy_from_slice(&chacha_decks(key, at)[..decks.len()]);
    }
}

/// Game `game` of the matchup keyed `key`: ChaCha8 with that key on stream `game`, Fisher-Yates
/// with rand 0.10's bounded draws on 32-bit words (`random_range`: the high half of a word times
/// the bound, corrected by a second word when the low half is within the bound of overflowing).
/// The reference `next_chunk` deals eight games at a time against (`chacha_lanes`).
pub fn chacha_deck(key: &[u8; 32], game: u64) -> Deck {
    use rand::RngExt;
    let mut rng = ChaCha8Rng::from_seed(*key);
    rng.set_stream(game);
    let mut d = Deck::ordered();
    d.shuffle_with(|m| rng.random_range(0..m));
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk's decks are games `start ..` of the stream, however the chunks fall: a skipped
    /// start, a chunk shorter than eight games, one that ends inside a group of eight, after
    /// decks already in `out`.
    #[test]
    fn chacha_chunks_are_the_streams_games_in_order() {
        let key = [9u8; 32];
        let mut stream = DealStream::Chacha { key, next_game: 0 };
        stream.skip(5);
        let mut out = vec![Deck::ordered()];
        stream.next_chunk(3, &mut out);
        stream.next_chunk(300, &mut out);
        stream.next_chunk(1, &mut out);
        assert_eq!(out.len(), 305);
        assert_eq!(out[0], Deck::ordered());
        for (i, d) in out[1..].iter().enumerate() {
            assert_eq!(*d, chacha_deck(&key, 5 + i as u64), "game {}", 5 + i);
        }
    }
}
