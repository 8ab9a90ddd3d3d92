//! One round of .NET `System.Random`'s table updates ([`round_in_place`]) and the subtraction
//! its draws use: the one definition both the generator ([`super::DotNetRandom`]) and its
//! jump ahead (`round_jump`, which builds its matrix from rounds of unit vectors) share.
//!
//! Invariant: `round_in_place` updates slots 1..=55 in the runtime's order, each reading slots
//! already in their state for that moment, so its result is the runtime's, bit for bit.

/// The generator's modulus (`int.MaxValue`).
pub(super) const MBIG: i32 = i32::MAX;

/// `a - b` as the runtime's draw computes it (`MBIG` maps to `MBIG - 1`, negatives wrap).
#[inline(always)]
pub(super) fn subtract(a: i32, b: i32) -> i32 {
    let mut r = a.wrapping_sub(b);
    if r == MBIG {
        r -= 1;
    }
    if r < 0 {
        r = r.wrapping_add(MBIG);
    }
    r
}

/// One round of the runtime's updates on table `sa`, in its order: slot i (1..=55) minus
/// slot i + 21 (wrapping from 55 to 1, so i - 34 for i >= 35, which this round has already
/// updated). Split into three runs whose read and written slots are disjoint, so each
/// vectorises. The one definition of a round (the jump ahead builds its matrix from it).
#[inline(always)]
pub(super) fn round_in_place(sa: &mut [i32; 56]) {
    let step = |x: &mut i32, y: &i32| *x = subtract(*x, *y);
    // i in 1..=21 reads 22..=42; i in 22..=34 reads 43..=55 (neither updated yet).
    let (lo, hi) = sa.split_at_mut(22);
    lo[1..]
        .iter_mut()
        .zip(&hi[..21])
        .for_each(|(x, y)| step(x, y));
    let (mid, top) = hi.split_at_mut(21);
    mid[..13]
        .iter_mut()
        .zip(&top[..13])
        .for_each(|(x, y)| step(x, y));
    // i in 35..=55 reads 1..=21, updated above.
    let (lo, hi) = sa.split_at_mut(35);
    hi.iter_mut().zip(&lo[1..22]).for_each(|(x, y)| step(x, y));
}
