//! [`Lanes`] for AVX-512 (F and BW): eight games in the eight 64-bit lanes of a `__m512i`,
//! flags in `__mmask8` mask registers, and the 64-entry u16 tables (the leader keys, the cards'
//! trick ranks) held in registers, each as its two 32-entry halves, and looked up with
//! `vpermt2w` (`_mm512_permutex2var_epi16`); the follower table and the watches are gathers.
//! [`play`] is the path's entry, where the generic kernel inlines with the features enabled.
//!
//! Invariant: every method maps to the AVX-512 instructions the kernel was first written with
//! (one intrinsic, or the same short sequence), so the generic kernel is the same code on this
//! path; nothing here runs unless the CPU has AVX-512 F and BW.

use std::arch::x86_64::*;

use super::Lanes;
use super::group::play_groups;
use super::pair_tables::PairTables;
use crate::game::deck::Deck;
use crate::game::play::GameOutcome;
use crate::game::trump_use::TrumpUse;

impl Lanes for __m512i {
    const LANES: usize = 8;
    type Mask = __mmask8;
    /// The table's two 32-entry halves.
    type Table = [__m512i; 2];
    /// `lead` then `lead_watched`, per seat, each table's two halves.
    type LeadTable = [[[__m512i; 2]; 2]; 2];

    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_set1_epi64(x as i64) }
    }
    #[inline(always)]
    unsafe fn load(a: &[u64; 8]) -> Self {
        // SAFETY: the features, and `a` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn load_bytes(a: &[u8; 8]) -> Self {
        // SAFETY: the features, and `a` is 8 readable bytes.
        unsafe { _mm512_cvtepu8_epi64(_mm_loadl_epi64(a.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn store(self) -> [u64; 8] {
        let mut a = [0u64; 8];
        // SAFETY: the features, and `a` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(a.as_mut_ptr().cast(), self) };
        a
    }

    #[inline(always)]
    unsafe fn and(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_and_si512(self, b) }
    }
    #[inline(always)]
    unsafe fn or(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_or_si512(self, b) }
    }
    #[inline(always)]
    unsafe fn xor(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_xor_si512(self, b) }
    }
    #[inline(always)]
    unsafe fn andnot(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_andnot_si512(self, b) }
    }
    #[inline(always)]
    unsafe fn sub(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_sub_epi64(self, b) }
    }
    #[inline(always)]
    unsafe fn shl<const N: u32>(self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_slli_epi64::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shr<const N: u32>(self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_srli_epi64::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shlv(self, n: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_sllv_epi64(self, n) }
    }
    #[inline(always)]
    unsafe fn min(self, b: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_min_epu64(self, b) }
    }

    #[inline(always)]
    unsafe fn eq(self, b: Self) -> __mmask8 {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_cmpeq_epi64_mask(self, b) }
    }
    #[inline(always)]
    unsafe fn gt(self, b: Self) -> __mmask8 {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_cmpgt_epu64_mask(self, b) }
    }
    #[inline(always)]
    unsafe fn lt(self, b: Self) -> __mmask8 {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_cmplt_epu64_mask(self, b) }
    }
    #[inline(always)]
    unsafe fn test(self, b: Self) -> __mmask8 {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_test_epi64_mask(self, b) }
    }
    #[inline(always)]
    unsafe fn is_one(self) -> __mmask8 {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_test_epi64_mask(self, _mm512_set1_epi64(1)) }
    }
    #[inline(always)]
    unsafe fn mask_xor(a: __mmask8, b: __mmask8) -> __mmask8 {
        a ^ b
    }
    #[inline(always)]
    unsafe fn blend(m: __mmask8, a: Self, b: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_mask_blend_epi64(m, a, b) }
    }
    #[inline(always)]
    unsafe fn or_where(self, m: __mmask8, x: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_mask_or_epi64(self, m, self, x) }
    }
    #[inline(always)]
    unsafe fn add_where(self, m: __mmask8, x: Self) -> Self {
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_mask_add_epi64(self, m, self, x) }
    }

    #[inline(always)]
    unsafe fn gather_u64(table: &[u64], idx: Self) -> Self {
        // SAFETY: the features, and every index is below `table.len()` (the caller's promise).
        unsafe { _mm512_i64gather_epi64::<8>(idx, table.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn gather_u16(table: &[u16], idx: Self) -> Self {
        // SAFETY: the features, and each 4-byte read starts at an entry below `table.len() - 3` (the caller's
        // promise), so it ends inside the table.
        let w = unsafe { _mm512_i64gather_epi32::<2>(idx, table.as_ptr().cast()) };
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_and_si512(_mm512_cvtepu32_epi64(w), _mm512_set1_epi64(0xffff)) }
    }

    #[inline(always)]
    unsafe fn table(t: &[u16; 64]) -> [__m512i; 2] {
        // SAFETY: the features, and each half is 32 readable u16.
        unsafe {
            [
                _mm512_loadu_epi16(t.as_ptr().cast()),
                _mm512_loadu_epi16(t[32..].as_ptr().cast()),
            ]
        }
    }
    #[inline(always)]
    unsafe fn lookup(t: &[__m512i; 2], c: Self) -> Self {
        // The low 6 bits of each 16-bit index pick the entry; the lane's upper three 16-bit
        // words (index 0) read entry 0, which the caller masks off.
        // SAFETY: the CPU has AVX-512 F and BW (the trait's condition).
        unsafe { _mm512_permutex2var_epi16(t[0], c, t[1]) }
    }
    #[inline(always)]
    unsafe fn lead_table(lead: [&[u16; 64]; 2], watched: [&[u16; 64]; 2]) -> Self::LeadTable {
        // SAFETY: the caller's promise (the features) is this function's.
        unsafe {
            [
                [Self::table(lead[0]), Self::table(lead[1])],
                [Self::table(watched[0]), Self::table(watched[1])],
            ]
        }
    }
    #[inline(always)]
    unsafe fn lead_lookup(t: &Self::LeadTable, g2: __mmask8, card: Self, _: Self) -> (Self, Self) {
        // Each table's two seats looked up and blended by seat (the watched keys' permutes are
        // dropped by the compiler where the caller does not use them).
        // SAFETY: the caller's promise (the features) is this function's.
        unsafe {
            let [[l1, l2], [w1, w2]] = t;
            let (l1, l2) = (Self::lookup(l1, card), Self::lookup(l2, card));
            let (w1, w2) = (Self::lookup(w1, card), Self::lookup(w2, card));
            (
                _mm512_mask_blend_epi64(g2, l1, l2),
                _mm512_mask_blend_epi64(g2, w1, w2),
            )
        }
    }
}

/// Play `decks` (a multiple of eight) in groups of eight lanes and push their results, in deck
/// order: the batch kernel with AVX-512 F and BW enabled.
#[target_feature(enable = "avx512f,avx512bw")]
pub(in crate::game) fn play(
    t: &PairTables,
    decks: &[Deck],
    out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
) {
    // SAFETY: this function is compiled with AVX-512 F and BW and runs only where the CPU has
    // them (calling it elsewhere is itself unsafe), which is all `__m512i`'s methods need.
    unsafe { play_groups::<__m512i>(t, decks, out) }
}
