//! The hash map of information-set keys ([`KeyMap`]): a 128-bit key mixed to 64 bits with
//! two multiply-xorshift rounds.
//!
//! Invariant: equal keys hash equally and the map compares whole keys, so a hash collision
//! costs time, never a wrong answer.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Hasher for `u128` keys.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    #[inline]
    fn write_u128(&mut self, k: u128) {
        let mut x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 30;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 27;
        x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = x ^ (x >> 31);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Map from an information-set key.
pub(crate) type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;
