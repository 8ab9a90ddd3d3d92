//! The lane abstraction the batch kernel is written over ([`Lanes`], in the manner of the
//! `memchr` crate's `Vector`): one register of 64-bit lanes, a game per lane, with the few
//! operations the kernel ([`group`]) uses, implemented for AVX-512 ([`avx512`], 8 lanes) and
//! AVX2 ([`avx2`], 4 lanes). The kernel is generic and `#[inline(always)]`, as is every method
//! here, so all of it inlines into one small `#[target_feature]` entry per instruction set
//! (`avx512::play`, `avx2::play`), where the intrinsics are enabled.
//!
//! Invariant: every method is an `unsafe fn` whose one shared condition is that the CPU has the
//! implementation's features (checked at run time by [`super::EnginePath::is_available`]
//! before an entry is called); the gathers add the bounds of their indices. Lane values are
//! always below 2^63 (cards, 16-bit keys and entries, 40-bit card sets), so signed and
//! unsigned comparisons agree, which AVX2 (signed 64-bit compares only) relies on.

pub(super) mod avx2;
pub(super) mod avx512;
pub(super) mod group;
pub(super) mod pair_tables;

/// One register of 64-bit lanes, a game per lane (see the module documentation). Every method
/// is `unsafe`: the CPU must have the implementation's features.
pub(super) trait Lanes: Copy {
    /// Lanes per register: the games of one group.
    const LANES: usize;
    /// A flag per lane.
    type Mask: Copy;
    /// A 64-entry u16 table in the form [`Lanes::lookup`] reads.
    type Table;
    /// The seats' leader keys (two 64-entry u16 tables per seat: `lead` and `lead_watched`) in
    /// the form [`Lanes::lead_lookup`] reads.
    type LeadTable;

    /// `x` in every lane.
    unsafe fn splat(x: u64) -> Self;
    /// Lane `i` from `a[i]` (the first [`Lanes::LANES`] entries).
    unsafe fn load(a: &[u64; 8]) -> Self;
    /// Lane `i` from `a[i]`, zero-extended (the first [`Lanes::LANES`] bytes).
    unsafe fn load_bytes(a: &[u8; 8]) -> Self;
    /// Lane `i` into entry `i` (the first [`Lanes::LANES`] entries; the rest 0).
    unsafe fn store(self) -> [u64; 8];

    unsafe fn and(self, b: Self) -> Self;
    unsafe fn or(self, b: Self) -> Self;
    unsafe fn xor(self, b: Self) -> Self;
    /// `!self & b`.
    unsafe fn andnot(self, b: Self) -> Self;
    unsafe fn sub(self, b: Self) -> Self;
    /// Shift left by `N` (below 64).
    unsafe fn shl<const N: u32>(self) -> Self;
    /// Shift right (logical) by `N` (below 64).
    unsafe fn shr<const N: u32>(self) -> Self;
    /// Shift left by each lane's count in `n` (below 64).
    unsafe fn shlv(self, n: Self) -> Self;
    /// The lane-wise minimum.
    unsafe fn min(self, b: Self) -> Self;

    /// Where `self == b`.
    unsafe fn eq(self, b: Self) -> Self::Mask;
    /// Where `self > b`.
    unsafe fn gt(self, b: Self) -> Self::Mask;
    /// Where `self < b`.
    unsafe fn lt(self, b: Self) -> Self::Mask;
    /// Where `self & b != 0`.
    unsafe fn test(self, b: Self) -> Self::Mask;
    /// Where `self == 1`, for lanes that hold 0 or 1.
    unsafe fn is_one(self) -> Self::Mask;
    /// Where `a` and `b` differ.
    unsafe fn mask_xor(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// `b` where `m`, else `a`.
    unsafe fn blend(m: Self::Mask, a: Self, b: Self) -> Self;
    /// `self | x` where `m`, else `self`.
    unsafe fn or_where(self, m: Self::Mask, x: Self) -> Self;
    /// `self + x` where `m`, else `self`.
    unsafe fn add_where(self, m: Self::Mask, x: Self) -> Self;

    /// `table[idx]` per lane.
    ///
    /// # Safety
    /// Besides the features: every lane's index is below `table.len()`.
    unsafe fn gather_u64(table: &[u64], idx: Self) -> Self;
    /// `table[idx]` per lane (zero-extended). An implementation may read up to 8 bytes from
    /// `&table[idx]`.
    ///
    /// # Safety
    /// Besides the features: every lane's index plus 3 is below `table.len()`.
    unsafe fn gather_u16(table: &[u16], idx: Self) -> Self;

    /// `t` in [`Lanes::lookup`]'s form.
    unsafe fn table(t: &[u16; 64]) -> Self::Table;
    /// `t[c]` per lane (`c` below 64) in the low 16 bits; the bits above are unspecified (the
    /// caller masks).
    unsafe fn lookup(t: &Self::Table, c: Self) -> Self;
    /// The seats' `lead` and `lead_watched` tables (G1's first) in [`Lanes::lead_lookup`]'s
    /// form.
    unsafe fn lead_table(lead: [&[u16; 64]; 2], watched: [&[u16; 64]; 2]) -> Self::LeadTable;
    /// `lead[seat][card]` and `lead_watched[seat][card]` per lane, each in the low 16 bits (the
    /// bits above unspecified), given the lanes where the seat is G2 (`g2`), the card (below
    /// 64) and `seat << 6 | card` (the same entries, for implementations that read one
    /// 128-entry table).
    unsafe fn lead_lookup(
        t: &Self::LeadTable,
        g2: Self::Mask,
        card: Self,
        seat_card: Self,
    ) -> (Self, Self);
}
