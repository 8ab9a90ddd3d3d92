//! [`Lanes`] for AVX2: four games in the four 64-bit lanes of a `__m256i`, flags as vectors
//! (every bit of a lane set, or none), and every table lookup a gather (`vpgatherqq`, one
//! entry per lane): the trick ranks widened to u64, the seats' leader keys as one 128-entry
//! table indexed by `seat << 6 | card` whose entry holds both `lead` and `lead_watched` (one
//! gather for the two keys), the follower table and the watches as the kernel lays them out.
//! [`play`] is the path's entry, where the generic kernel inlines with the feature enabled.
//!
//! Measured on Zen 4 (`benches/batch.rs`, games/s with the engine alone): one gather for both
//! leader keys is ~10% faster than two with watches; the alternatives tried and left out were
//! the trick ranks from registers (four `vpermd` and three blends, 3-4% slower than their
//! gather), three groups interleaved instead of two (no gain), and the winner read from the
//! 64 x 64 `LEADER_WINS` table by one gather instead of two rank gathers (within the noise).
//!
//! AVX2 has no unsigned 64-bit compare or minimum: the signed ones stand in, which is exact
//! because every lane value the kernel compares is below 2^63 (cards, 16-bit entries, keys
//! below 2^14 shifted left by 16; see the [`Lanes`] invariant).
//!
//! Invariant: a mask lane is all ones or all zeros, so `vpblendvb` (which reads each byte's top
//! bit) selects whole lanes; nothing here runs unless the CPU has AVX2.

use std::arch::x86_64::*;

use super::Lanes;
use super::group::play_groups;
use super::pair_tables::PairTables;
use crate::game::deck::Deck;
use crate::game::play::GameOutcome;
use crate::game::trump_use::TrumpUse;

impl Lanes for __m256i {
    const LANES: usize = 4;
    /// All ones in a lane where set.
    type Mask = __m256i;
    /// The table widened to u64 (a gather reads one entry per lane).
    type Table = [u64; 64];
    /// G1's tables then G2's, entry `seat << 6 | card` holding `lead | lead_watched << 16`
    /// (one gather reads both keys).
    type LeadTable = [u64; 128];

    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_set1_epi64x(x as i64) }
    }
    #[inline(always)]
    unsafe fn load(a: &[u64; 8]) -> Self {
        // SAFETY: the features, and `a` has 32 readable bytes.
        unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn load_bytes(a: &[u8; 8]) -> Self {
        // SAFETY: the features, and `a` is 8 readable bytes (the first four are widened).
        unsafe { _mm256_cvtepu8_epi64(_mm_loadl_epi64(a.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn store(self) -> [u64; 8] {
        let mut a = [0u64; 8];
        // SAFETY: the features, and `a` has 32 writable bytes.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), self) };
        a
    }

    #[inline(always)]
    unsafe fn and(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_and_si256(self, b) }
    }
    #[inline(always)]
    unsafe fn or(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_or_si256(self, b) }
    }
    #[inline(always)]
    unsafe fn xor(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_xor_si256(self, b) }
    }
    #[inline(always)]
    unsafe fn andnot(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_andnot_si256(self, b) }
    }
    #[inline(always)]
    unsafe fn sub(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_sub_epi64(self, b) }
    }
    #[inline(always)]
    unsafe fn shl<const N: u32>(self) -> Self {
        // A variable shift by a constant splat compiles to the immediate form (`vpsllq`); the
        // immediate intrinsic's count is an `i32` const parameter, which a `u32` one cannot
        // name on stable Rust.
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_sllv_epi64(self, _mm256_set1_epi64x(N as i64)) }
    }
    #[inline(always)]
    unsafe fn shr<const N: u32>(self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_srlv_epi64(self, _mm256_set1_epi64x(N as i64)) }
    }
    #[inline(always)]
    unsafe fn shlv(self, n: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_sllv_epi64(self, n) }
    }
    #[inline(always)]
    unsafe fn min(self, b: Self) -> Self {
        // Signed: both below 2^63.
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_blendv_epi8(self, b, _mm256_cmpgt_epi64(self, b)) }
    }

    #[inline(always)]
    unsafe fn eq(self, b: Self) -> __m256i {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_cmpeq_epi64(self, b) }
    }
    #[inline(always)]
    unsafe fn gt(self, b: Self) -> __m256i {
        // Signed: both below 2^63.
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_cmpgt_epi64(self, b) }
    }
    #[inline(always)]
    unsafe fn lt(self, b: Self) -> __m256i {
        // Signed: both below 2^63.
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_cmpgt_epi64(b, self) }
    }
    #[inline(always)]
    unsafe fn test(self, b: Self) -> __m256i {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe {
            let zero = _mm256_cmpeq_epi64(_mm256_and_si256(self, b), _mm256_setzero_si256());
            _mm256_xor_si256(zero, _mm256_set1_epi64x(-1))
        }
    }
    #[inline(always)]
    unsafe fn is_one(self) -> __m256i {
        // 0 - 1 is all ones, 0 - 0 none.
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_sub_epi64(_mm256_setzero_si256(), self) }
    }
    #[inline(always)]
    unsafe fn mask_xor(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    unsafe fn blend(m: __m256i, a: Self, b: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_blendv_epi8(a, b, m) }
    }
    #[inline(always)]
    unsafe fn or_where(self, m: __m256i, x: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_or_si256(self, _mm256_and_si256(m, x)) }
    }
    #[inline(always)]
    unsafe fn add_where(self, m: __m256i, x: Self) -> Self {
        // SAFETY: the CPU has AVX2 (the trait's condition).
        unsafe { _mm256_add_epi64(self, _mm256_and_si256(m, x)) }
    }

    #[inline(always)]
    unsafe fn gather_u64(table: &[u64], idx: Self) -> Self {
        // SAFETY: the features, and every index is below `table.len()` (the caller's promise).
        unsafe { _mm256_i64gather_epi64::<8>(table.as_ptr().cast(), idx) }
    }
    #[inline(always)]
    unsafe fn gather_u16(table: &[u16], idx: Self) -> Self {
        // SAFETY: the features, and each 8-byte read starts at an entry below
        // `table.len() - 3` (the caller's promise), so it ends inside the table.
        unsafe {
            let w = _mm256_i64gather_epi64::<2>(table.as_ptr().cast(), idx);
            _mm256_and_si256(w, _mm256_set1_epi64x(0xffff))
        }
    }

    #[inline(always)]
    unsafe fn table(t: &[u16; 64]) -> [u64; 64] {
        t.map(u64::from)
    }
    #[inline(always)]
    unsafe fn lookup(t: &[u64; 64], c: Self) -> Self {
        // SAFETY: the features (the caller's promise), and `c` is below 64 (likewise).
        unsafe { Self::gather_u64(t, c) }
    }
    #[inline(always)]
    unsafe fn lead_table(lead: [&[u16; 64]; 2], watched: [&[u16; 64]; 2]) -> [u64; 128] {
        let mut w = [0u64; 128];
        for (i, x) in w.iter_mut().enumerate() {
            let (seat, card) = (i / 64, i % 64);
            *x = lead[seat][card] as u64 | (watched[seat][card] as u64) << 16;
        }
        w
    }
    #[inline(always)]
    unsafe fn lead_lookup(t: &[u64; 128], _: __m256i, _: Self, seat_card: Self) -> (Self, Self) {
        // SAFETY: the features (the caller's promise), and `seat_card` is below 128 (a seat
        // is 0 or 1, a card below 64).
        unsafe {
            let both = Self::gather_u64(t, seat_card);
            (both, _mm256_srli_epi64::<16>(both))
        }
    }
}

/// Play `decks` (a multiple of four) in groups of four lanes and push their results, in deck
/// order: the batch kernel with AVX2 enabled.
#[target_feature(enable = "avx2")]
pub(in crate::game) fn play(
    t: &PairTables,
    decks: &[Deck],
    out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
) {
    // SAFETY: this function is compiled with AVX2 and runs only where the CPU has it (calling
    // it elsewhere is itself unsafe), which is all `__m256i`'s methods need.
    unsafe { play_groups::<__m256i>(t, decks, out) }
}
