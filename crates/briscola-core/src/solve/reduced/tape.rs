//! The average strategy's lookups of a checkpoint's walk, recorded by each walk and read in
//! sequence by the next walk of its kind ([`Tape`], [`TapedAverage`]). A checkpoint's tree
//! walks asked the hash index for every decision's block, a cache miss each and most of their
//! time, though each asks for nearly the same keys in the same order as the walk of the
//! checkpoint before: the index does not change after the first iteration, and a walk skips
//! only the cards the average strategy never plays, which change little between checkpoints.
//!
//! Invariant: a tape answers a lookup only when its next key (within the current deal's
//! segment) is the key asked for, so every answer is the index's own; a deal whose lookups
//! leave the tape asks the index for the rest of that deal, and the next deal reads the tape
//! again from that deal's segment. So the numbers never depend on whether, or which, tape was
//! read.

use std::sync::{Arc, Mutex};

use super::key_map::KeyMap;
use super::spec::MAX_HAND;
use super::state::{State, Strategy};

/// An offset on a tape for a key the index does not hold (the strategy is uniform there).
const ABSENT: u32 = u32::MAX;

/// One walk's lookups of one seat's average strategy, in the order asked, with where each
/// deal's lookups start.
#[derive(Default)]
pub(crate) struct Tape {
    /// The iteration of the numbers the walk read.
    iteration: u64,
    keys: Vec<u128>,
    offs: Vec<u32>,
    /// `starts[d]`: the index of deal `d`'s first lookup.
    starts: Vec<u32>,
}

impl Tape {
    /// Deal `deal`'s lookups: `starts[deal]..starts[deal + 1]` (the last runs to the end).
    fn segment(&self, deal: usize) -> (usize, usize) {
        let at = |d: usize| self.starts.get(d).map_or(self.keys.len(), |&s| s as usize);
        (at(deal), at(deal + 1))
    }
}

/// The newest tape of one kind of walk (a checkpoint part's strategy of one seat), and tapes
/// no walk reads any more, kept to record on (fresh memory costs a page fault per 4 KiB).
pub(crate) struct TapeSlot {
    tapes: Mutex<Tapes>,
    /// Whether walks record (games up to [`TAPES_UP_TO`] histories).
    on: bool,
}

/// Histories up to which walks keep tapes (20 bytes a lookup, about 1.4 lookups a history, a
/// newest and a recording tape for each of the four slots: ~225 MB at the limit; the committed
/// study's game has 362,880 histories).
pub(crate) const TAPES_UP_TO: u128 = 1_000_000;

#[derive(Default)]
struct Tapes {
    newest: Option<Arc<Tape>>,
    spare: Vec<Tape>,
}

impl Tapes {
    /// Keeps `tape` for recording on if nothing else holds it.
    fn recycle(&mut self, tape: Arc<Tape>) {
        if let Ok(tape) = Arc::try_unwrap(tape) {
            self.spare.push(tape);
        }
    }
}

impl TapeSlot {
    /// A slot for the walks of a game of `histories` histories.
    pub(crate) fn new(histories: u128) -> TapeSlot {
        TapeSlot {
            tapes: Mutex::default(),
            on: histories <= TAPES_UP_TO,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Tapes> {
        self.tapes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The newest tape to read, and an empty one to record on (with room for as many lookups
    /// as the newest holds, where a spare one has it).
    fn take(&self, iteration: u64) -> (Option<Arc<Tape>>, Tape) {
        if !self.on {
            return (None, Tape::default());
        }
        let mut tapes = self.lock();
        let read = tapes.newest.clone();
        let mut record = tapes.spare.pop().unwrap_or_default();
        let (lookups, deals) = read
            .as_deref()
            .map_or((0, 0), |t| (t.keys.len(), t.starts.len()));
        let lookups = lookups + lookups / 16;
        record.iteration = iteration;
        clear_and_reserve(&mut record.keys, lookups);
        clear_and_reserve(&mut record.offs, lookups);
        clear_and_reserve(&mut record.starts, deals);
        (read, record)
    }

    /// Keeps `tape` as the newest unless the slot holds one of a later iteration; `read`, the
    /// tape the walk read, is recycled if no walk holds it any more.
    fn give_back(&self, tape: Tape, read: Option<Arc<Tape>>) {
        if !self.on {
            return;
        }
        let mut tapes = self.lock();
        if let Some(read) = read {
            tapes.recycle(read);
        }
        if tapes
            .newest
            .as_ref()
            .is_none_or(|h| h.iteration < tape.iteration)
        {
            if let Some(old) = tapes.newest.replace(Arc::new(tape)) {
                tapes.recycle(old);
            }
        } else {
            tapes.spare.push(tape);
        }
    }
}

/// Empties `v`, keeping room for `n` items (without copying what it held).
fn clear_and_reserve<T>(v: &mut Vec<T>, n: usize) {
    v.clear();
    v.reserve(n);
}

/// The average strategy of a snapshot's numbers (`index`, `data`), its lookups read from the
/// newest tape of its slot and recorded for the next walk.
pub(crate) struct TapedAverage<'a> {
    index: &'a KeyMap<u32>,
    data: &'a [f64],
    slot: &'a TapeSlot,
    read: Option<Arc<Tape>>,
    /// The next lookup on `read` and the end of the current deal's segment; `cursor == end`
    /// once the deal has left the tape.
    cursor: usize,
    end: usize,
    record: Tape,
    /// Lookups answered from `read`.
    read_hits: usize,
}

impl<'a> TapedAverage<'a> {
    /// The average strategy of `data` (blocks found through `index`), numbers of iteration
    /// `iteration`, reading and recording through `slot`.
    pub(crate) fn new(
        index: &'a KeyMap<u32>,
        data: &'a [f64],
        iteration: u64,
        slot: &'a TapeSlot,
    ) -> Self {
        let (read, record) = slot.take(iteration);
        TapedAverage {
            index,
            data,
            slot,
            record,
            read,
            cursor: 0,
            end: 0,
            read_hits: 0,
        }
    }

    /// The block offset of `key` (or [`ABSENT`]): the tape's, when it holds that key next.
    #[inline]
    fn offset(&mut self, key: u128) -> u32 {
        let on_tape = self.read.as_deref().and_then(|tape| {
            (self.cursor < self.end && tape.keys[self.cursor] == key)
                .then(|| tape.offs[self.cursor])
        });
        let off = match on_tape {
            Some(off) => {
                self.cursor += 1;
                self.read_hits += 1;
                off
            }
            None => {
                self.cursor = self.end;
                self.index.get(&key).copied().unwrap_or(ABSENT)
            }
        };
        if self.slot.on {
            self.record.keys.push(key);
            self.record.offs.push(off);
        }
        off
    }

    /// Ends the walk: its tape goes to the slot for the walks after it. Returns how many of
    /// its lookups were read from the tape before it, and how many it made in all.
    pub(crate) fn finish(self) -> (usize, usize) {
        let counts = (self.read_hits, self.record.keys.len());
        self.slot.give_back(self.record, self.read);
        counts
    }
}

impl Strategy for TapedAverage<'_> {
    #[inline]
    fn probs(&mut self, st: &State, out: &mut [f64; MAX_HAND]) {
        let seat = st.sim.mover().expect("a decision");
        let off = self.offset(st.key(seat));
        let data = self.data;
        super::cfr::average_probs_at(data, (off != ABSENT).then_some(off), st, seat, out);
    }

    fn begin_deal(&mut self, deal: usize) {
        if self.slot.on {
            debug_assert_eq!(deal, self.record.starts.len(), "deals in order");
            self.record.starts.push(self.record.keys.len() as u32);
        }
        (self.cursor, self.end) = self.read.as_deref().map_or((0, 0), |t| t.segment(deal));
    }
}
