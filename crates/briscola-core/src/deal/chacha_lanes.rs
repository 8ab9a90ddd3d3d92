//! ChaCha decks eight games at a time ([`chacha_decks`]): the decks [`super::chacha_deck`]
//! deals, from each game's first three ChaCha8 blocks computed side by side in AVX2 registers
//! (word `w` of the eight games' blocks in one register: the same instructions for the eight
//! streams), then every game's Fisher-Yates draws taken from those words as rand's
//! `random_range` takes them, and the eight shuffles interleaved. `chacha_deck` builds a
//! `ChaCha8Rng` a game, whose first refill computes four blocks, and reads its words one call
//! a draw. Without AVX2, or on the `scalar` engine path, each game is `chacha_deck`'s.
//!
//! Invariant: the deck of game `g` is exactly `chacha_deck(key, g)` (tested game by game on
//! the AVX2 blocks and on a portable version of them, and the bounded draw against rand's own
//! on crafted words); a deck whose draws need more than the three blocks' 48 words (more than
//! nine of rand's bias corrections, each about one draw in 2^32 / n) is dealt by `chacha_deck`
//! itself.

// Without x86_64 only the tests use the lanes (every deck there is `chacha_deck`'s).
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use crate::game::Deck;

/// Games dealt at once.
pub const LANES: usize = 8;
/// Blocks computed a game: 48 words, for a deck's 39 draws and up to nine corrections.
const BLOCKS: usize = 3;
const WORDS: usize = 16 * BLOCKS;
/// "expand 32-byte k".
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// One ChaCha word of each of the eight games.
type Lanes = [u32; LANES];

/// The decks of games `first .. first + LANES` of the matchup keyed `key` (ChaCha8 with that
/// key, game `g` on stream `g`): the blocks in AVX2 registers where the CPU has them and the
/// engine path is not `scalar` ([`crate::game::engine_path`]), else each game by
/// [`super::chacha_deck`].
pub fn chacha_decks(key: &[u8; 32], first: u64) -> [Deck; LANES] {
    #[cfg(target_arch = "x86_64")]
    if crate::game::engine_path() != crate::game::EnginePath::Scalar
        && std::arch::is_x86_feature_detected!("avx2")
    {
        // SAFETY: the CPU has AVX2 (checked just above).
        let words = unsafe { avx2::stream_words(key, first) };
        return decks_from_lanes(key, first, &words);
    }
    std::array::from_fn(|l| super::chacha_deck(key, first.wrapping_add(l as u64)))
}

/// Each lane's deck from its words (by block, word and lane): every lane's bounded draws first,
/// then the eight shuffles with their swaps interleaved ([`Deck::shuffled`]). Draw `j` of every
/// lane reads word `j` of its lane (one vector operation for the eight) unless one of the lane's
/// draws takes a second word (about one deck in five million): that lane is drawn again word
/// by word.
fn decks_from_lanes(key: &[u8; 32], first: u64, words: &[[Lanes; 16]; BLOCKS]) -> [Deck; LANES] {
    let mut by_draw = [[0u32; LANES]; 39];
    let mut second = [false; LANES];
    for (j, draws) in by_draw.iter_mut().enumerate() {
        let n = 40 - j as u32;
        let w = &words[j / 16][j % 16];
        for l in 0..LANES {
            let m = u64::from(w[l]) * u64::from(n);
            draws[l] = (m >> 32) as u32;
            second[l] |= (m as u32) > n.wrapping_neg();
        }
    }
    let mut bounded: [[u32; 39]; LANES] =
        std::array::from_fn(|l| std::array::from_fn(|j| by_draw[j][l]));
    let mut short = [false; LANES];
    for l in (0..LANES).filter(|&l| second[l]) {
        let mut i = 0;
        let mut word = || {
            let w = words.get(i / 16).map_or(0, |b| b[i % 16][l]);
            short[l] |= i >= WORDS;
            i += 1;
            w
        };
        for (j, draw) in bounded[l].iter_mut().enumerate() {
            *draw = below(40 - j as u32, &mut word);
        }
    }
    let mut decks = Deck::shuffled(&bounded);
    for (l, d) in decks.iter_mut().enumerate() {
        if short[l] {
            *d = super::chacha_deck(key, first.wrapping_add(l as u64));
        }
    }
    decks
}

/// The input block of each lane (block counter 0): the constants, the key, game `first + l`
/// as the stream.
fn input_block(key: &[u8; 32], first: u64) -> [Lanes; 16] {
    let mut input = [[0u32; LANES]; 16];
    for (w, &s) in SIGMA.iter().enumerate() {
        input[w] = [s; LANES];
    }
    for w in 0..8 {
        let k = u32::from_le_bytes([key[4 * w], key[4 * w + 1], key[4 * w + 2], key[4 * w + 3]]);
        input[4 + w] = [k; LANES];
    }
    let game = |l: usize| first.wrapping_add(l as u64);
    input[14] = std::array::from_fn(|l| game(l) as u32);
    input[15] = std::array::from_fn(|l| (game(l) >> 32) as u32);
    input
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{BLOCKS, LANES, Lanes};
    use std::arch::x86_64::*;

    /// The first [`super::BLOCKS`] blocks of each lane's stream (as `stream_words_portable`
    /// in the tests gives them), each word of the eight lanes in one register.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn stream_words(key: &[u8; 32], first: u64) -> [[Lanes; 16]; BLOCKS] {
        let lanes = super::input_block(key, first);
        // SAFETY: `w` is 8 u32s, 32 bytes; unaligned loads.
        let load = |w: &Lanes| unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
        let mut input: [__m256i; 16] = std::array::from_fn(|w| load(&lanes[w]));
        // Rotations by 16 and 8 bits move whole bytes: one shuffle each.
        let r16 = _mm256_setr_epi8(
            2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11,
            8, 9, 14, 15, 12, 13,
        );
        let r8 = _mm256_setr_epi8(
            3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9,
            10, 15, 12, 13, 14,
        );
        let mut out = [[[0u32; LANES]; 16]; BLOCKS];
        for (b, block) in out.iter_mut().enumerate() {
            input[12] = _mm256_set1_epi32(b as i32);
            let mut x = input;
            macro_rules! quarter {
                ($a:expr, $b:expr, $c:expr, $d:expr) => {
                    x[$a] = _mm256_add_epi32(x[$a], x[$b]);
                    x[$d] = _mm256_shuffle_epi8(_mm256_xor_si256(x[$d], x[$a]), r16);
                    x[$c] = _mm256_add_epi32(x[$c], x[$d]);
                    let t = _mm256_xor_si256(x[$b], x[$c]);
                    x[$b] = _mm256_or_si256(_mm256_slli_epi32(t, 12), _mm256_srli_epi32(t, 20));
                    x[$a] = _mm256_add_epi32(x[$a], x[$b]);
                    x[$d] = _mm256_shuffle_epi8(_mm256_xor_si256(x[$d], x[$a]), r8);
                    x[$c] = _mm256_add_epi32(x[$c], x[$d]);
                    let t = _mm256_xor_si256(x[$b], x[$c]);
                    x[$b] = _mm256_or_si256(_mm256_slli_epi32(t, 7), _mm256_srli_epi32(t, 25));
                };
            }
            for _ in 0..4 {
                quarter!(0, 4, 8, 12);
                quarter!(1, 5, 9, 13);
                quarter!(2, 6, 10, 14);
                quarter!(3, 7, 11, 15);
                quarter!(0, 5, 10, 15);
                quarter!(1, 6, 11, 12);
                quarter!(2, 7, 8, 13);
                quarter!(3, 4, 9, 14);
            }
            for (w, word) in block.iter_mut().enumerate() {
                let v = _mm256_add_epi32(x[w], input[w]);
                // SAFETY: `word` is 8 u32s, 32 bytes.
                unsafe { _mm256_storeu_si256(word.as_mut_ptr().cast(), v) };
            }
        }
        out
    }
}

/// The first [`WORDS`] words of each lane's stream, by block, word and lane, word by word (the
/// reference the AVX2 path is tested against).
#[cfg(test)]
fn stream_words_portable(key: &[u8; 32], first: u64) -> [[Lanes; 16]; BLOCKS] {
    let mut input = input_block(key, first);
    std::array::from_fn(|b| {
        // Words 12 and 13: the block counter (block `b` of every lane's stream).
        input[12] = [b as u32; LANES];
        block(&input)
    })
}

/// One ChaCha8 block of every lane: four double rounds, then the input added.
#[cfg(test)]
fn block(input: &[Lanes; 16]) -> [Lanes; 16] {
    let mut x = *input;
    for _ in 0..4 {
        quarter(&mut x, 0, 4, 8, 12);
        quarter(&mut x, 1, 5, 9, 13);
        quarter(&mut x, 2, 6, 10, 14);
        quarter(&mut x, 3, 7, 11, 15);
        quarter(&mut x, 0, 5, 10, 15);
        quarter(&mut x, 1, 6, 11, 12);
        quarter(&mut x, 2, 7, 8, 13);
        quarter(&mut x, 3, 4, 9, 14);
    }
    for (w, i) in x.iter_mut().zip(input) {
        for l in 0..LANES {
            w[l] = w[l].wrapping_add(i[l]);
        }
    }
    x
}

/// The quarter round on words `a`, `b`, `c`, `d` of every lane.
#[cfg(test)]
#[allow(clippy::needless_range_loop)] // lane `l` of four words of `x` at once
fn quarter(x: &mut [Lanes; 16], a: usize, b: usize, c: usize, d: usize) {
    for l in 0..LANES {
        x[a][l] = x[a][l].wrapping_add(x[b][l]);
        x[d][l] = (x[d][l] ^ x[a][l]).rotate_left(16);
        x[c][l] = x[c][l].wrapping_add(x[d][l]);
        x[b][l] = (x[b][l] ^ x[c][l]).rotate_left(12);
        x[a][l] = x[a][l].wrapping_add(x[b][l]);
        x[d][l] = (x[d][l] ^ x[a][l]).rotate_left(8);
        x[c][l] = x[c][l].wrapping_add(x[d][l]);
        x[b][l] = (x[b][l] ^ x[c][l]).rotate_left(7);
    }
}

/// A draw below `n` from the words `word` gives, as rand 0.10's `random_range(0..n)` on `u32`
/// draws it (`UniformInt::sample_single_inclusive`, without its `unbiased` feature): the high
/// half of a word times `n`, and when the low half is within `n` of overflowing, the high half
/// of a second word times `n` added to it, carrying one on overflow.
#[inline]
fn below(n: u32, word: &mut impl FnMut() -> u32) -> u32 {
    let m = u64::from(word()) * u64::from(n);
    let (mut hi, lo) = ((m >> 32) as u32, m as u32);
    if lo > n.wrapping_neg() {
        let extra = ((u64::from(word()) * u64::from(n)) >> 32) as u32;
        hi += u32::from(lo.checked_add(extra).is_none());
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// The portable blocks give, lane by lane, the decks `chacha_deck` deals (so they are
    /// ChaCha8's words), and the AVX2 blocks are the portable ones.
    #[test]
    fn the_blocks_are_chacha8s_on_every_path() {
        for (seed, first) in [(3u8, 0u64), (9, 1 << 40), (200, u64::MAX - 5)] {
            let key = [seed; 32];
            let words = stream_words_portable(&key, first);
            let decks = decks_from_lanes(&key, first, &words);
            for (l, d) in decks.iter().enumerate() {
                let g = first.wrapping_add(l as u64);
                assert_eq!(*d, super::super::chacha_deck(&key, g), "game {g}");
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: checked just above.
                assert_eq!(unsafe { avx2::stream_words(&key, first) }, words);
            }
        }
    }

    /// Words whose draws take a second word wherever they can (`u32::MAX / n` leaves the low
    /// half within `n` of overflowing unless `n` divides 2^32) run out before the 39th draw:
    /// each lane is then dealt by `chacha_deck`.
    #[test]
    fn a_lane_short_of_words_is_dealt_by_chacha_deck() {
        let mut seq = Vec::new();
        for j in 0..39 {
            let n = 40 - j as u32;
            let w = u32::MAX / n;
            seq.push(w);
            if (u64::from(w) * u64::from(n)) as u32 > n.wrapping_neg() {
                seq.push(5);
            }
        }
        assert!(seq.len() > WORDS, "{} words", seq.len());
        let words: [[Lanes; 16]; BLOCKS] =
            std::array::from_fn(|b| std::array::from_fn(|w| [seq[16 * b + w]; LANES]));
        let key = [42u8; 32];
        let decks = decks_from_lanes(&key, 1000, &words);
        for (l, d) in decks.iter().enumerate() {
            assert_eq!(
                *d,
                super::super::chacha_deck(&key, 1000 + l as u64),
                "lane {l}"
            );
        }
    }

    /// A lane whose draws take a few second words (within its 48) is drawn word by word: its
    /// deck is Fisher-Yates on its words as rand draws them, and the other lanes' are theirs.
    #[test]
    fn a_lane_with_second_words_is_drawn_word_by_word() {
        // Lane 3: draws 0 and 5 (n = 40, 35) take a second word; other lanes: plain words.
        let mut lane3 = Vec::new();
        for j in 0..39u32 {
            let n = 40 - j;
            if j == 0 || j == 5 {
                lane3.extend([u32::MAX / n, 7 + j]);
            } else {
                lane3.push(j.wrapping_mul(0x9E37_79B9));
            }
        }
        lane3.resize(WORDS, 0);
        let words: [[Lanes; 16]; BLOCKS] = std::array::from_fn(|b| {
            std::array::from_fn(|w| {
                std::array::from_fn(|l| {
                    let i = 16 * b + w;
                    if l == 3 {
                        lane3[i]
                    } else {
                        (i as u32 + 1).wrapping_mul(0x85EB_CA6B) ^ l as u32
                    }
                })
            })
        });
        let decks = decks_from_lanes(&[1; 32], 0, &words);
        for (l, d) in decks.iter().enumerate() {
            let mut i = 0;
            let mut want = Deck::ordered();
            want.shuffle_with(|n| {
                below(n, &mut || {
                    i += 1;
                    words[(i - 1) / 16][(i - 1) % 16][l]
                })
            });
            assert_eq!(*d, want, "lane {l}");
        }
    }

    /// Real ChaCha words that take rand's second word (about one deck in five million): key
    /// zero, game 4,156,374, draw 3 (below 37), found by a search over the first 40 million
    /// games; its deck is `chacha_deck`'s.
    #[test]
    fn a_real_deck_with_a_second_word_is_chacha_decks() {
        let (key, game) = ([0u8; 32], 4_156_374u64);
        let first = game - game % LANES as u64;
        let l = (game - first) as usize;
        let words = stream_words_portable(&key, first);
        let m = u64::from(words[0][3][l]) * 37;
        assert!(
            (m as u32) > 37u32.wrapping_neg(),
            "draw 3 takes a second word"
        );
        assert_eq!(
            decks_from_lanes(&key, first, &words)[l],
            super::super::chacha_deck(&key, game)
        );
        assert_eq!(
            chacha_decks(&key, first)[l],
            super::super::chacha_deck(&key, game)
        );
    }

    #[test]
    fn every_lane_deals_the_deck_chacha_deck_deals() {
        for (seed, first) in [(0u8, 0u64), (7, 1_000_003), (255, u64::MAX - 3)] {
            let key = [seed; 32];
            for start in (first..first.saturating_add(64)).step_by(LANES) {
                let decks = chacha_decks(&key, start);
                for (l, d) in decks.iter().enumerate() {
                    let g = start.wrapping_add(l as u64);
                    assert_eq!(
                        *d,
                        super::super::chacha_deck(&key, g),
                        "key {seed}, game {g}"
                    );
                }
            }
        }
    }

    /// A generator that returns given words, then zeros.
    struct Words(Vec<u32>, usize);
    impl rand::TryRng for Words {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            let w = self.0.get(self.1).copied().unwrap_or(0);
            self.1 += 1;
            Ok(w)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let lo = self.try_next_u32()?;
            Ok(u64::from(self.try_next_u32()?) << 32 | u64::from(lo))
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for b in dst {
                *b = self.try_next_u32()? as u8;
            }
            Ok(())
        }
    }

    /// The bounded draw takes the words rand's takes and gives its answer, on words whose low
    /// half is near overflow (the second-word path, with and without a carry) and on others.
    #[test]
    fn the_bounded_draw_is_rands() {
        let mut cases = Vec::new();
        for n in [2u32, 3, 7, 39, 40] {
            for first in [u32::MAX, u32::MAX - 1, u32::MAX / n, 0, 12345] {
                for second in [0u32, u32::MAX, 1 << 31, 77] {
                    cases.push((n, first, second));
                }
            }
            // Words that land the low half in the top `n`: (2^32 - k) / n rounded, k < n.
            for k in 1..n {
                let target = (1u64 << 32) - u64::from(k);
                let w = target.div_ceil(u64::from(n)) as u32;
                cases.push((n, w, u32::MAX));
                cases.push((n, w, 0));
            }
        }
        let mut second_words = 0;
        for (n, first, second) in cases {
            let mut theirs = Words(vec![first, second], 0);
            let want = theirs.random_range(0..n);
            let mut ours = [first, second].into_iter();
            let mut taken = 0;
            let got = below(n, &mut || {
                taken += 1;
                ours.next().unwrap_or(0)
            });
            assert_eq!(
                (got, taken),
                (want, theirs.1),
                "n {n}, words {first} {second}"
            );
            second_words += usize::from(taken == 2);
        }
        assert!(second_words > 10, "the second-word path is exercised");
    }
}
