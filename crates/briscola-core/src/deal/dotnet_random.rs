//! A bit-exact re-implementation of .NET's seeded `System.Random` (Knuth's subtractive
//! generator as the runtime seeds it), the generator that dealt the paper's games.
//!
//! Invariant: for every seed, the sequence of `next`/`next_below` values equals what
//! `new System.Random(seed)` returns on .NET (the "legacy" seeded algorithm).

use super::dotnet_round::{MBIG, round_in_place};
use crate::game::Deck;

const MSEED: i32 = 161_803_398;

/// .NET `System.Random(seed)`.
///
/// The runtime updates one table slot per draw, walking `inext` over 1..=55 with `inextp` 21
/// slots ahead (both wrapping). Each slot's update reads only slots already in their state for
/// that moment, so a whole round of 55 updates can be done at once, in the same order, and the
/// round's draws then read back one by one: same values, no per-draw index wrapping.
#[derive(Clone, Debug)]
pub struct DotNetRandom {
    /// The runtime's `SeedArray` after the current round's updates (slot 0 unused).
    seed_array: [i32; 56],
    /// The slot of the last draw (the runtime's `inext`); 55 means the round is used up.
    pos: usize,
}

impl DotNetRandom {
    /// Seed as `new System.Random(seed)` does.
    pub fn new(seed: i32) -> DotNetRandom {
        let subtraction = if seed == i32::MIN {
            i32::MAX
        } else {
            seed.abs()
        };
        let mut sa = [0i32; 56];
        let mut mj = MSEED - subtraction;
        sa[55] = mj;
        let mut mk = 1i32;
        for i in 1..55 {
            let ii = (21 * i) % 55;
            sa[ii] = mk;
            mk = mj.wrapping_sub(mk);
            if mk < 0 {
                mk = mk.wrapping_add(MBIG);
            }
            mj = sa[ii];
        }
        for _ in 0..4 {
            for i in 1..56 {
                sa[i] = sa[i].wrapping_sub(sa[1 + (i + 30) % 55]);
                if sa[i] < 0 {
                    sa[i] = sa[i].wrapping_add(MBIG);
                }
            }
        }
        // The runtime starts with inext = 0, inextp = 21: the next draw opens a new round.
        DotNetRandom {
            seed_array: sa,
            pos: 55,
        }
    }

    /// One round of the runtime's updates.
    #[inline(never)]
    fn next_round(&mut self) {
        round_in_place(&mut self.seed_array);
    }

    #[inline]
    fn internal_sample(&mut self) -> i32 {
        if self.pos >= 55 {
            self.next_round();
            self.pos = 0;
        }
        self.pos += 1;
        self.seed_array[self.pos]
    }

    /// `Next()`: a non-negative int below `i32::MAX`.
    #[inline]
    pub fn next_int(&mut self) -> i32 {
        self.internal_sample()
    }

    /// `Sample()`: a double in [0, 1).
    #[inline]
    pub fn sample(&mut self) -> f64 {
        self.internal_sample() as f64 * (1.0 / MBIG as f64)
    }

    /// `Next(max)`: an int in `0..max` (`max` > 0).
    #[inline]
    pub fn next_below(&mut self, max: u32) -> u32 {
        DotNetRandom::below(self.internal_sample(), max)
    }

    /// What `Next(max)` returns when the underlying draw (`Next()`) is `raw`: `Sample() * max`
    /// truncated, as the runtime computes it in f64.
    ///
    /// For `max <= 2^20` this is `raw * max / MBIG` in integers, which is the same number: the
    /// f64 result `w = fl(fl(raw * fl(1/MBIG)) * max)` is within `3 * 2^-53 * max < 2^-31` of
    /// `v = raw * max / MBIG`, while `v` is either an integer (only for `raw = 0`, as `MBIG` is
    /// prime) or at least `1 / MBIG > 2^-31` from one, so no integer lies between `v` and `w`
    /// and both truncate alike (tested at every boundary for `max <= 64`). The integer
    /// quotient is [`DotNetRandom::below_draw`]'s.
    #[inline(always)]
    pub fn below(raw: i32, max: u32) -> u32 {
        if raw >= 0 && max <= 1 << 20 {
            DotNetRandom::below_draw(raw, max)
        } else {
            DotNetRandom::below_f64(raw, max)
        }
    }

    /// [`DotNetRandom::below`] as the runtime computes it, in f64.
    #[inline(always)]
    fn below_f64(raw: i32, max: u32) -> u32 {
        (raw as f64 * (1.0 / MBIG as f64) * max as f64) as u32
    }

    /// [`DotNetRandom::below`] for a draw of the stream (`raw` in `0..i32::MAX`) and `max` at
    /// most 2^20, without a division: `x / MBIG` for `x = raw * max < 2^51` is
    /// `(x + (x >> 31) + 1) >> 31` (write `x = q * MBIG + r`: `x >> 31` is `q` when `r >= q`,
    /// else `q - 1`, and either way the sum is `q * 2^31` plus something in `0..2^31`). Equal
    /// to `below` at every boundary for `max <= 64` (tested). Only for draws of the stream: a
    /// `raw` or `max` outside that contract gives a wrong value, so this stays in the crate.
    #[inline(always)]
    pub(crate) fn below_draw(raw: i32, max: u32) -> u32 {
        debug_assert!(raw >= 0 && max <= 1 << 20);
        let x = raw as u32 as u64 * max as u64;
        ((x + (x >> 31) + 1) >> 31) as u32
    }

    /// The deck the released simulator deals from 39 consecutive draws of the stream
    /// (`next_int` values): [`Deck::shuffle_with`] with draw `i` bounded by `40 - i`, as
    /// `Next(40 - i)` does. The 39 bounded values are computed first, with no division and no
    /// branch, so that step vectorises; the swaps follow.
    ///
    /// ```
    /// use briscola_core::game::Deck;
    /// use briscola_core::deal::DotNetRandom;
    /// let (mut a, mut b) = (DotNetRandom::new(42), DotNetRandom::new(42));
    /// let mut draws = [0i32; 39];
    /// a.fill(&mut draws);
    /// let mut d = Deck::ordered();
    /// d.shuffle_with(|m| b.next_below(m));
    /// assert_eq!(DotNetRandom::deck_from_draws(&draws), d);
    /// ```
    pub fn deck_from_draws(draws: &[i32; 39]) -> Deck {
        let [d] = DotNetRandom::decks_from_draws(&[*draws]);
        d
    }

    /// [`DotNetRandom::deck_from_draws`] for `N` games at once (their shuffles interleaved, see
    /// [`Deck::shuffled`]).
    #[inline]
    pub fn decks_from_draws<const N: usize>(draws: &[[i32; 39]; N]) -> [Deck; N] {
        let bounded: [[u32; 39]; N] = std::array::from_fn(|j| {
            std::array::from_fn(|i| DotNetRandom::below_draw(draws[j][i], 40 - i as u32))
        });
        Deck::shuffled(&bounded)
    }

    /// Skip `n` draws, as `n` calls of `next_int` would: whole rounds by the jump ahead
    /// ([`super::round_jump`]), stepping only where the jump is not exact.
    pub fn skip(&mut self, n: u64) {
        let left = (55 - self.pos) as u64;
        if n <= left {
            self.pos += n as usize;
            return;
        }
        // `rounds` more rounds; the last one's draws are used up to `pos`.
        let n = n - left;
        let rounds = n.div_ceil(55);
        self.pos = (n - 55 * (rounds - 1)) as usize;
        if !super::round_jump::RoundJump::apply(&mut self.seed_array, rounds) {
            for _ in 0..rounds {
                self.next_round();
            }
        }
    }

    /// Fill `out` with the next `out.len()` draws (`next_int`), a round's run at a time.
    pub fn fill(&mut self, out: &mut [i32]) {
        let mut out = out;
        while !out.is_empty() {
            if self.pos >= 55 {
                self.next_round();
                self.pos = 0;
            }
            let take = (55 - self.pos).min(out.len());
            let (head, rest) = out.split_at_mut(take);
            head.copy_from_slice(&self.seed_array[self.pos + 1..self.pos + 1 + take]);
            self.pos += take;
            out = rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `below_draw` is `below` (the runtime's f64 arithmetic) on both sides of every point
    /// where `Next(max)` changes value, for every `max` up to 64, and at the ends of the range.
    #[test]
    fn below_draw_is_below_at_every_boundary() {
        for max in 1..=64u32 {
            for j in 0..=max as u64 {
                let edge = (j * MBIG as u64).div_ceil(max as u64) as i64;
                for raw in edge - 2..=edge + 2 {
                    if (0..MBIG as i64).contains(&raw) {
                        let raw = raw as i32;
                        assert_eq!(
                            DotNetRandom::below_draw(raw, max),
                            DotNetRandom::below_f64(raw, max),
                            "raw {raw} max {max}"
                        );
                    }
                }
            }
        }
    }

    /// Dealing from drawn values is dealing draw by draw, over many games of one stream.
    #[test]
    fn decks_from_draws_are_the_decks_drawn_one_by_one() {
        let (mut a, mut b) = (DotNetRandom::new(7), DotNetRandom::new(7));
        for _ in 0..2000 {
            let mut draws = [0i32; 39];
            a.fill(&mut draws);
            let mut d = Deck::ordered();
            d.shuffle_with(|m| b.next_below(m));
            assert_eq!(DotNetRandom::deck_from_draws(&draws), d);
        }
    }

    // Vectors published in released-simulator.md (from the .NET runtime and its test suite).
    #[test]
    fn seed_42_next() {
        let mut r = DotNetRandom::new(42);
        let got: Vec<i32> = (0..5).map(|_| r.next_int()).collect();
        assert_eq!(
            got,
            [1434747710, 302596119, 269548474, 1122627734, 361709742]
        );
    }

    #[test]
    fn seed_42_next_max() {
        let mut r = DotNetRandom::new(42);
        let got: Vec<u32> = [100, 200, 300, 400, 500]
            .iter()
            .map(|&m| r.next_below(m))
            .collect();
        assert_eq!(got, [66, 28, 37, 209, 84]);
    }

    #[test]
    fn seed_12345_next_1000() {
        let mut r = DotNetRandom::new(12345);
        let got: Vec<u32> = (0..5).map(|_| r.next_below(1000)).collect();
        assert_eq!(got, [66, 70, 774, 511, 797]);
    }

    #[test]
    fn seed_1_next_100() {
        let mut r = DotNetRandom::new(1);
        assert_eq!((r.next_below(100), r.next_below(100)), (24, 11));
    }

    #[test]
    fn runtime_suite_seeds_0_1_and_minus_1() {
        let mut r = DotNetRandom::new(0);
        let got: Vec<i32> = (0..3).map(|_| r.next_int()).collect();
        assert_eq!(got, [1559595546, 1755192844, 1649316166]);
        let mut r = DotNetRandom::new(1);
        let got: Vec<i32> = (0..3).map(|_| r.next_int()).collect();
        assert_eq!(got, [534011718, 237820880, 1002897798]);
        let mut a = DotNetRandom::new(-1);
        let mut b = DotNetRandom::new(1);
        for _ in 0..100 {
            assert_eq!(a.next_int(), b.next_int());
        }
    }

    #[test]
    fn skip_and_fill_equal_single_draws() {
        for skip in [0u64, 1, 3, 54, 55, 56, 109, 110, 111, 1000] {
            let mut a = DotNetRandom::new(42);
            let mut b = DotNetRandom::new(42);
            a.next_int(); // start mid-round
            b.next_int();
            for _ in 0..skip {
                a.next_int();
            }
            b.skip(skip);
            let mut filled = vec![0; 200];
            b.fill(&mut filled[..7]);
            b.fill(&mut filled[7..]);
            let single: Vec<i32> = (0..200).map(|_| a.next_int()).collect();
            assert_eq!(filled, single, "skip {skip}");
        }
    }

    /// The jump ahead against stepping round by round, for jumps that use every bit up to
    /// 2^22 rounds, from several positions in a round, for small, large and negative seeds
    /// (every seed's table is in range after seeding; the fallback is tested below).
    #[test]
    fn skip_jumps_exactly_as_stepping() {
        for seed in [0, 1, 42, 2026, 161_803_398, i32::MAX, -7] {
            for (start, n) in [
                (0u64, 56u64),
                (1, 110),
                (54, 5_000),
                (3, 1 << 20),
                (17, 123_456_789),
            ] {
                let mut a = DotNetRandom::new(seed);
                let mut b = DotNetRandom::new(seed);
                for _ in 0..start {
                    a.next_int();
                    b.next_int();
                }
                // Stepping: draw through whole rounds.
                let mut left = n;
                while left > 0 {
                    if a.pos >= 55 {
                        a.next_round();
                        a.pos = 0;
                    }
                    let take = ((55 - a.pos) as u64).min(left);
                    a.pos += take as usize;
                    left -= take;
                }
                b.skip(n);
                let single: Vec<i32> = (0..120).map(|_| a.next_int()).collect();
                let jumped: Vec<i32> = (0..120).map(|_| b.next_int()).collect();
                assert_eq!(jumped, single, "seed {seed}, start {start}, skip {n}");
            }
        }
    }

    /// A table with a slot outside `0..MBIG` is not jumped (the map is linear only on the
    /// canonical residues): `apply` refuses it and leaves it as it was.
    #[test]
    fn the_jump_refuses_tables_out_of_range() {
        for bad in [MBIG, -1, i32::MIN] {
            let mut table = DotNetRandom::new(42).seed_array;
            table[17] = bad;
            let before = table;
            assert!(!super::super::round_jump::RoundJump::apply(
                &mut table, 1000
            ));
            assert_eq!(table, before);
        }
    }

    /// After a round every slot is in range, so the jump (not the stepping fallback) is what
    /// `skip_jumps_exactly_as_stepping` tests.
    #[test]
    fn the_jump_applies_after_a_round() {
        for seed in [0, 42, i32::MAX] {
            let mut r = DotNetRandom::new(seed);
            r.next_int();
            let mut table = r.seed_array;
            assert!(super::super::round_jump::RoundJump::apply(&mut table, 1));
            r.next_round();
            assert_eq!(table, r.seed_array);
        }
    }

    /// The integer `Next(max)` against the runtime's f64 arithmetic at every point where the
    /// result steps (raw near `j * MBIG / max`), for every `max` up to 64, and at random
    /// draws and larger `max` up to the integer path's limit.
    #[test]
    fn integer_next_max_is_the_runtimes_f64() {
        for max in 1..=64u32 {
            for j in 0..=max as i64 {
                let at = j * MBIG as i64 / max as i64;
                for raw in (at - 3).max(0)..=(at + 3).min(MBIG as i64 - 1) {
                    let raw = raw as i32;
                    assert_eq!(
                        DotNetRandom::below(raw, max),
                        DotNetRandom::below_f64(raw, max),
                        "raw {raw}, max {max}"
                    );
                }
            }
        }
        let mut r = DotNetRandom::new(7);
        for i in 0..200_000u32 {
            let raw = r.next_int();
            let max = [2, 3, 40, 1000, 65_537, 1 << 20][i as usize % 6];
            assert_eq!(
                DotNetRandom::below(raw, max),
                DotNetRandom::below_f64(raw, max)
            );
        }
    }

    #[test]
    fn int_min_seed_does_not_overflow() {
        let mut a = DotNetRandom::new(i32::MIN);
        let mut b = DotNetRandom::new(i32::MAX);
        assert_eq!(a.next_int(), b.next_int());
    }
}
