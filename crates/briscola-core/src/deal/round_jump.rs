//! Jumping .NET `System.Random` ahead by many rounds at once.
//!
//! When every slot of the generator's table is in `0..MBIG` (true after seeding for every seed
//! we tried, and checked before each jump; `skip` steps round by round otherwise), a round is the map `x_i <- x_i - x_j (mod MBIG)`
//! applied slot by slot, and `MBIG = 2^31 - 1` is prime: a round is a linear map `M` over the
//! field of integers mod `MBIG`, and `k` rounds are `M^k`. Its columns are the round applied
//! to the unit vectors (by the generator's own round, `dotnet_round::round_in_place`, so there is one definition of a
//! round), and `M^k` is a product of the squarings `M^(2^b)` for the bits `b` of `k`. A jump
//! of a million rounds (the last shard of the paper's design skips 2.8 M) costs 20
//! matrix-vector products instead of 55 million slot updates.
//!
//! Invariant: [`RoundJump::apply`] leaves the table exactly as `k` calls of the round would
//! (tested against stepping, in `dotnet_random.rs`).

use std::sync::{Mutex, PoisonError};

use super::dotnet_round::round_in_place;

/// The modulus: .NET's `MBIG`, a Mersenne prime.
const P: u64 = i32::MAX as u64;

/// Slots in a round (the table's slots 1..=55).
const N: usize = 55;

/// A 55x55 matrix over the integers mod `P`, row-major.
type Matrix = Box<[[u32; N]; N]>;

/// `M^(2^b)` for `b = 0, 1, ...`, computed as far as a jump has needed (shared by every
/// generator of the process; the matrices do not depend on the seed).
static POWERS: Mutex<Vec<Matrix>> = Mutex::new(Vec::new());

/// `x mod P` for `x < 2^62` (folded twice: `2^31 = 1 mod P`).
#[inline(always)]
fn fold(x: u64) -> u64 {
    let x = (x & P) + (x >> 31);
    let x = (x & P) + (x >> 31);
    if x >= P { x - P } else { x }
}

/// The round's matrix: column `j` is the round applied to the unit vector of slot `j + 1`.
fn round_matrix() -> Matrix {
    let mut m = Box::new([[0u32; N]; N]);
    for j in 0..N {
        let mut unit = [0i32; 56];
        unit[j + 1] = 1;
        round_in_place(&mut unit);
        for (i, row) in m.iter_mut().enumerate() {
            row[j] = unit[i + 1] as u32;
        }
    }
    m
}

/// `a * b` mod `P`.
fn product(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = Box::new([[0u32; N]; N]);
    for (i, row) in out.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            let s: u64 = (0..N).map(|k| fold(a[i][k] as u64 * b[k][j] as u64)).sum();
            *x = fold(s) as u32;
        }
    }
    out
}

/// `m * v` mod `P`, in place over the table's slots 1..=55.
fn apply_matrix(m: &Matrix, table: &mut [i32; 56]) {
    let v: [u64; N] = std::array::from_fn(|i| table[i + 1] as u64);
    for (i, row) in m.iter().enumerate() {
        let s: u64 = row.iter().zip(&v).map(|(&a, &x)| fold(a as u64 * x)).sum();
        table[i + 1] = fold(s) as i32;
    }
}

/// The jump (see the module documentation).
pub(super) struct RoundJump;

impl RoundJump {
    /// Advance `table` (slots 1..=55; slot 0 unused) by `k` rounds. Returns false, leaving
    /// the table untouched, when a slot is outside `0..MBIG` (then only stepping is exact).
    pub(super) fn apply(table: &mut [i32; 56], k: u64) -> bool {
        if table[1..].iter().any(|&x| x < 0 || x as u64 >= P) {
            return false;
        }
        let bits = (u64::BITS - k.leading_zeros()) as usize;
        let mut powers = POWERS.lock().unwrap_or_else(PoisonError::into_inner);
        while powers.len() < bits {
            let next = match powers.last() {
                None => round_matrix(),
                Some(m) => product(m, m),
            };
            powers.push(next);
        }
        for (b, m) in powers.iter().enumerate().take(bits) {
            if k >> b & 1 == 1 {
                apply_matrix(m, table);
            }
        }
        true
    }
}
