//! The average strategy's lookups of a checkpoint's walk, recorded by one walk and read in
//! sequence by the walks of its kind after it ([`Tape`], [`TapedLookups`]). A checkpoint's
//! tree walks asked the hash index for every decision's block, a cache miss each and most of
//! their time, though each asks for nearly the same keys in the same order as the walk of the
//! checkpoint before: the index does not change after the first iteration, and a walk skips
//! only the cards the average strategy never plays, which change little between checkpoints.
//!
//! Invariant: a tape answers a lookup only when its next key (within the current deal's
//! segment) is the key asked for, so every answer is the index's own; a deal whose lookups
//! leave the tape asks the index for the rest of that deal, and the next deal reads the tape
//! again from that deal's segment. So the numbers never depend on whether, or which, tape was
//! read.

use std::sync::{Arc, Mutex, MutexGuard};

use super::key_map::KeyMap;

/// An offset on a tape for a key the index does not hold (the strategy is uniform there).
const ABSENT: u32 = u32::MAX;

/// Histories up to which walks keep tapes (12 bytes a lookup, about 1.4 lookups a history, a
/// newest and a recording tape for each of the four slots, and for a moment an older one a walk
/// still reads: ~135-200 MB at the limit; the committed study's game has 362,880 histories,
/// 6 MB a tape).
const TAPES_UP_TO: u128 = 1_000_000;

/// A key on a tape: the information-set key's numeral (below 2^56) with its digit count in the
/// top byte, one-to-one with the keys it is made from; `None` for a wider key (never on a
/// tape: it is always looked up).
#[inline]
fn short(key: u128) -> Option<u64> {
    let count = (key >> 120) as u64;
    let numeral = key & ((1u128 << 120) - 1);
    (numeral < 1 << 56 && count < 0xff).then_some(numeral as u64 | count << 56)
}

/// A [`short`] key that no key has (recorded for a wide key).
const WIDE: u64 = u64::MAX;

/// One walk's lookups of one seat's average strategy, in the order asked, with where each
/// deal's lookups start.
#[derive(Default)]
pub(crate) struct Tape {
    /// The iteration of the numbers the walk read.
    iteration: u64,
    keys: Vec<u64>,
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

/// The tapes of one kind of walk (a checkpoint part's strategy of one seat): the newest, read
/// by every walk that starts, and at most one walk recording at a time.
pub(crate) struct TapeSlot {
    tapes: Mutex<Tapes>,
    /// Whether walks record (games up to [`TAPES_UP_TO`] histories).
    on: bool,
}

#[derive(Default)]
struct Tapes {
    newest: Option<Arc<Tape>>,
    recording: bool,
}

impl TapeSlot {
    /// A slot for the walks of a game of `histories` histories.
    pub(crate) fn new(histories: u128) -> TapeSlot {
        TapeSlot {
            tapes: Mutex::default(),
            on: histories <= TAPES_UP_TO,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Tapes> {
        self.tapes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The newest tape to read, and an empty one to record on unless another walk records
    /// (with room for as many lookups as the newest holds).
    fn take(&self, iteration: u64) -> (Option<Arc<Tape>>, Option<Tape>) {
        if !self.on {
            return (None, None);
        }
        let mut tapes = self.lock();
        let read = tapes.newest.clone();
        if tapes.recording {
            return (read, None);
        }
        tapes.recording = true;
        let (lookups, deals) = read
            .as_deref()
            .map_or((0, 0), |t| (t.keys.len(), t.starts.len()));
        let lookups = lookups + lookups / 16;
        let record = Tape {
            iteration,
            keys: Vec::with_capacity(lookups),
            offs: Vec::with_capacity(lookups),
            starts: Vec::with_capacity(deals),
        };
        (read, Some(record))
    }

    /// Keeps `record`, a walk's tape, as the newest unless the slot holds one of a later
    /// iteration.
    fn give_back(&self, record: Option<Tape>) {
        let Some(tape) = record else {
            return;
        };
        let mut tapes = self.lock();
        tapes.recording = false;
        if tapes
            .newest
            .as_ref()
            .is_none_or(|h| h.iteration < tape.iteration)
        {
            tapes.newest = Some(Arc::new(tape));
        }
    }
}

/// One walk's lookups of information-set blocks in a snapshot's `index`: read from the newest
/// tape of its slot and, if no other walk of its kind is recording, recorded for the walks
/// after it.
pub(crate) struct TapedLookups<'a> {
    index: &'a KeyMap<u32>,
    slot: &'a TapeSlot,
    read: Option<Arc<Tape>>,
    /// The next lookup on `read` and the end of the current deal's segment; `cursor == end`
    /// once the deal has left the tape.
    cursor: usize,
    end: usize,
    record: Option<Tape>,
    /// Lookups answered from `read`, and in all.
    read_hits: usize,
    lookups: usize,
}

impl<'a> TapedLookups<'a> {
    /// The lookups of a walk on the numbers of iteration `iteration` (blocks found through
    /// `index`), reading and recording through `slot`.
    pub(crate) fn new(index: &'a KeyMap<u32>, iteration: u64, slot: &'a TapeSlot) -> Self {
        let (read, record) = slot.take(iteration);
        TapedLookups {
            index,
            slot,
            read,
            cursor: 0,
            end: 0,
            record,
            read_hits: 0,
            lookups: 0,
        }
    }

    /// The block offset of `key` (`None` where the index holds no block): the tape's, when it
    /// holds that key next.
    #[inline]
    pub(crate) fn offset(&mut self, key: u128) -> Option<u32> {
        let short = short(key);
        self.lookups += 1;
        let on_tape = match (self.read.as_deref(), short) {
            (Some(tape), Some(k)) if self.cursor < self.end && tape.keys[self.cursor] == k => {
                Some(tape.offs[self.cursor])
            }
            _ => None,
        };
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
        if let Some(record) = &mut self.record {
            record.keys.push(short.unwrap_or(WIDE));
            record.offs.push(off);
        }
        (off != ABSENT).then_some(off)
    }

    /// Ends the walk: a tape it recorded goes to the slot for the walks after it. Returns how
    /// many of its lookups were read from the tape before it, and how many it made in all.
    pub(crate) fn finish(self) -> (usize, usize) {
        self.slot.give_back(self.record);
        (self.read_hits, self.lookups)
    }

    /// Deal `deal` begins (deals in the walk's order, from 0): its lookups are read from that
    /// deal's segment of the tape.
    pub(crate) fn begin_deal(&mut self, deal: usize) {
        if let Some(record) = &mut self.record {
            debug_assert_eq!(deal, record.starts.len(), "deals in order");
            record.starts.push(record.keys.len() as u32);
        }
        (self.cursor, self.end) = self.read.as_deref().map_or((0, 0), |t| t.segment(deal));
    }
}
