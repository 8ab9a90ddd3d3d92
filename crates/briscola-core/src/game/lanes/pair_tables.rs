//! The two seats' [`KeyTables`] side by side, laid out for the batch kernel's lane-wise reads
//! (the same for every instruction set): indexed by seat (0 for G1) first, so a lane's index
//! is built from its seat flag and 6-bit card ids.
//!
//! Invariant: every index the kernel builds is inside its table: `seat << 6 | card` below 128
//! for `watch`, `(seat << 6 | led) << 6 | card` at most 8191 for `follow`, which carries three
//! spare entries so that a read of up to 8 bytes from its last entry stays inside it.

use crate::game::key_tables::KeyTables;

/// The two seats' tables, indexed by seat (0 for G1) first.
pub(in crate::game) struct PairTables {
    /// `[seat][card]`: the cards that switch the card's leader key.
    pub(super) watch: [u64; 2 * 64],
    /// `[seat][card]`: the leader key, and the key once watched.
    pub(super) lead: [[u16; 64]; 2],
    pub(super) lead_watched: [[u16; 64]; 2],
    /// `[seat][led][card]`: the follower keys, and three spare entries (see the invariant).
    pub(super) follow: Box<[u16]>,
    /// Whether any card of either seat has a watch (else the watch lookups are skipped).
    pub(super) watches: bool,
}

impl PairTables {
    /// `seats[0]`'s tables for G1, `seats[1]`'s for G2.
    pub(in crate::game) fn new(seats: [&KeyTables; 2]) -> PairTables {
        let mut t = PairTables {
            watch: [0; 128],
            lead: [seats[0].lead, seats[1].lead],
            lead_watched: [seats[0].lead_watched, seats[1].lead_watched],
            follow: vec![0u16; 2 * 64 * 64 + 3].into_boxed_slice(),
            watches: seats.iter().any(|k| k.watch.iter().any(|&w| w != 0)),
        };
        for (s, k) in seats.iter().enumerate() {
            t.watch[s * 64..][..64].copy_from_slice(&k.watch);
            for (led, row) in k.follow.iter().enumerate() {
                t.follow[(s * 64 + led) * 64..][..64].copy_from_slice(row);
            }
        }
        t
    }
}
