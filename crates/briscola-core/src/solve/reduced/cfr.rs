//! CFR+ over the reduced game's full tree ([`Cfr`]): regret matching+ with alternating
//! updates and linearly weighted averaging, chance enumerated exactly; its average strategy
//! ([`AverageStrategy`]) and progress reports ([`Checkpoint`], [`TableStats`]).
//!
//! Invariant: each information set owns one contiguous block of `2 * actions` numbers (the
//! regrets, never negative, then the strategy sums) whose slot `i` is the `i`-th smallest card
//! in hand, so the hand's order never changes what a slot means; every walk visits the
//! decisions in the same order, so a recorded order of blocks stays valid (a subtree a walk
//! prunes, which changes no number, is passed over by its count of decisions, and the walk
//! that records the order prunes nothing). A
//! checkpoint is measured on a copy of the numbers taken after its iteration (on other threads
//! while the iterations go on), so its value does not depend on the thread count.

use std::collections::VecDeque;
use std::sync::{Arc, mpsc};

use super::best_response::{Exploitability, best_response, exploitability_of, profile_value};
use super::game::ReducedGame;
use super::group_walk::{Blocks, Deal, Plan, Reach, traverse};
use super::key_map::KeyMap;
use super::observation::Observation;
use super::sim::Sim;
use super::spec::MAX_HAND;
use super::state::{State, Strategy, canonical};
use super::subtrees::Subtrees;
use super::tape::{TapeSlot, TapedLookups};
use crate::game::Card;
use serde::Serialize;

/// The CFR+ solver of one reduced game.
pub struct Cfr<'g> {
    game: &'g ReducedGame,
    /// Shared with the checkpoints' copies; complete after the first iteration (every walk
    /// visits every decision), so it is cloned only if a copy is taken before that.
    index: Arc<KeyMap<u32>>,
    data: Vec<f64>,
    iterations: u64,
    /// Every decision's block offset in the walk's order, once a walk has recorded it (the
    /// walk visits every decision in the same order each time), so later walks read it in
    /// sequence instead of hashing keys; `None` for games too large to keep it.
    order: Option<Vec<u32>>,
    recorded: bool,
    cursor: usize,
    /// Once the order is recorded: the blocks laid out by seat and deal group, so later walks
    /// run a seat's groups at once ([`Plan`]).
    plan: Option<Plan>,
    /// Whether to lay out a plan once the order is recorded (tests compare without).
    groups: bool,
    /// Decisions below each position's shape, to move past a pruned subtree in the order.
    subtrees: Subtrees,
    /// Decisions the serial walks passed over by pruning (the walks by group do not count).
    skipped: u64,
}

/// Histories up to which the walk's order of blocks is kept (4 bytes per decision).
const RECORD_ORDER_UP_TO: u128 = 50_000_000;

/// The average strategy after some iterations, with its value and exploitability.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Checkpoint {
    /// Iterations done.
    pub iteration: u64,
    /// The average profile's expected margin (seat 0's points minus seat 1's).
    pub value: f64,
    /// Its exploitability, in the same points ((BR0 + BR1) / 2).
    pub exploitability: f64,
}

/// The size of the solver's information-set table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TableStats {
    /// Information sets of both seats.
    pub info_sets: usize,
    /// Bytes held: the hash index (allocated slots), the regret and strategy numbers (f64) and
    /// the recorded walk order (4 bytes per decision node, for games small enough).
    pub bytes: usize,
}

impl<'g> Cfr<'g> {
    /// A solver with every regret at zero (the first iteration plays uniformly).
    pub fn new(game: &'g ReducedGame) -> Cfr<'g> {
        Cfr {
            game,
            index: Arc::default(),
            data: Vec::new(),
            iterations: 0,
            order: (game.histories() <= RECORD_ORDER_UP_TO).then(Vec::new),
            recorded: false,
            cursor: 0,
            plan: None,
            groups: true,
            subtrees: Subtrees::new(game),
            skipped: 0,
        }
    }

    /// The game it solves.
    pub fn game(&self) -> &'g ReducedGame {
        self.game
    }

    /// Iterations done.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// One CFR+ iteration: a walk updating seat 0, then one updating seat 1. Once the walk's
    /// order is recorded (after the first walk, for games small enough), each walk runs the
    /// updating seat's deal groups on rayon's threads at once ([`Plan`]): the same numbers.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        let w = self.iterations as f64;
        let game = self.game;
        if let (Some(plan), Some(order)) = (&self.plan, &self.order) {
            for p in 0..2 {
                plan.walk(game, (order, &self.subtrees), &mut self.data, p, w);
            }
            return;
        }
        let mut deals = Vec::new();
        for p in 0..2 {
            self.cursor = 0;
            let recording = !self.recorded;
            game.for_each_deal([false; 2], &mut |pr, st| {
                if recording && let Some(order) = &self.order {
                    deals.push(Deal {
                        pr,
                        st: *st,
                        start: order.len(),
                    });
                }
                traverse(self, game, st, p, w, Reach::deal(pr));
            });
            self.recorded = self.order.is_some();
        }
        if let Some(order) = self.order.as_mut().filter(|_| self.groups) {
            self.plan = Some(Plan::lay_out(
                game,
                deals,
                Arc::make_mut(&mut self.index),
                &mut self.data,
                order,
            ));
        }
    }

    /// Runs `iterations` more iterations; after each calls `progress` with the iteration done
    /// and, at the iterations listed in `checkpoints` (and after the last), the checkpoint,
    /// which is also returned in order. Each checkpoint's three tree walks run on rayon's pool
    /// while the iterations go on, reading the average strategy's blocks in the order the
    /// checkpoint before looked them up ([`super::tape`]: the same numbers, fewer cache
    /// misses); `progress` is still called in iteration order, on this thread (a call waits
    /// for its checkpoint's walks and every earlier one's).
    pub fn run(
        &mut self,
        iterations: u64,
        checkpoints: &[u64],
        mut progress: impl FnMut(u64, Option<&Checkpoint>),
    ) -> Vec<Checkpoint> {
        let end = self.iterations + iterations;
        let (tx, rx) = mpsc::channel::<(usize, Walked)>();
        let mut measured = Measured::default();
        let mut pending: VecDeque<(u64, Option<usize>)> = VecDeque::new();
        let game = self.game;
        // The newest tape of each kind of lookup the checkpoints' walks make ([`Part::walk`]).
        let tapes: [TapeSlot; 4] = std::array::from_fn(|_| TapeSlot::new(game.histories()));
        let tapes = &tapes;
        rayon::in_place_scope(|scope| {
            while self.iterations < end {
                self.iterate();
                let t = self.iterations;
                let slot = (checkpoints.contains(&t) || t == end).then(|| {
                    let slot = measured.open(t);
                    let snap = Arc::new(self.snapshot());
                    for part in Part::ALL {
                        let (snap, tx) = (Arc::clone(&snap), tx.clone());
                        scope.spawn(move |_| {
                            // The receiver outlives the scope, so the send cannot fail.
                            let _ = tx.send((slot, part.walk(game, &snap, tapes)));
                        });
                    }
                    slot
                });
                pending.push_back((t, slot));
                measured.receive(&rx);
                measured.report(&mut pending, &mut progress);
            }
        });
        drop(tx);
        measured.receive(&rx);
        measured.report(&mut pending, &mut progress);
        measured.into_checkpoints()
    }

    /// A copy of the average strategy as it is now.
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            iteration: self.iterations,
            index: Arc::clone(&self.index),
            data: self.data.clone(),
        }
    }

    /// The average strategy's value and exploitability (three exact tree walks).
    pub fn exploitability(&self) -> Exploitability {
        exploitability_of(self.game, &mut self.average(), &mut self.average())
    }

    /// The average strategy (uniform where an information set was never reached).
    pub(crate) fn average(&self) -> AverageStrategy<'_> {
        AverageStrategy {
            index: &self.index,
            data: &self.data,
        }
    }

    /// Information sets and bytes.
    pub fn stats(&self) -> TableStats {
        let slot = std::mem::size_of::<(u128, u32)>() + 1;
        let order = self.order.as_ref().map_or(0, |o| o.capacity() * 4);
        TableStats {
            info_sets: self.index.len(),
            bytes: self.index.capacity() * slot + self.data.capacity() * 8 + order,
        }
    }

    /// The average strategy at an observation: each card in hand (its dealt cards and draws
    /// less the cards it has played), ascending, with its probability; `None` when the
    /// observation is not an information set the solver has met (a card not in the deck,
    /// draws not matching the plays, a position never reached).
    pub fn average_at(&self, obs: &Observation) -> Option<Vec<(Card, f64)>> {
        let key = obs.key(self.game)?;
        let &off = self.index.get(&key)?;
        let mut local: Vec<u8> = obs
            .hand
            .iter()
            .chain(&obs.draws)
            .filter(|c| !obs.plays.contains(c))
            .map(|&c| self.game.local(c))
            .collect::<Option<_>>()?;
        local.sort_unstable();
        let mut probs = [0.0; MAX_HAND];
        average_probs(&self.data, off as usize, local.len(), &mut probs);
        let cards = self.game.cards();
        Some(
            local
                .iter()
                .zip(probs)
                .map(|(&c, q)| (cards[c as usize], q))
                .collect(),
        )
    }

    fn block(&mut self, key: u128, len: usize) -> usize {
        if let Some(&off) = self.index.get(&key) {
            return off as usize;
        }
        let off = self.data.len();
        self.data.resize(off + 2 * len, 0.0);
        Arc::make_mut(&mut self.index).insert(key, off as u32);
        off
    }
}

impl Blocks for Cfr<'_> {
    /// The recorded order's next offset once it is recorded; else the key's block (allocated
    /// on first sight), appended to the order being recorded.
    fn next_block(&mut self, st: &State, seat: usize, len: usize) -> usize {
        match &mut self.order {
            Some(order) if self.recorded => {
                let off = order[self.cursor] as usize;
                self.cursor += 1;
                off
            }
            _ => {
                let off = self.block(st.key(seat), len);
                if let Some(order) = &mut self.order {
                    order.push(off as u32);
                }
                off
            }
        }
    }

    #[inline]
    fn regrets(&self, _seat: usize, off: usize, len: usize) -> &[f64] {
        &self.data[off..off + len]
    }

    #[inline]
    fn block_mut(&mut self, off: usize, len: usize) -> &mut [f64] {
        &mut self.data[off..off + 2 * len]
    }

    /// Only while reading a recorded order: a walk finding blocks by key (a game too large
    /// to keep the order) visits every decision, so tests compare with it.
    fn skip(&mut self, sim: &Sim) -> bool {
        if self.order.is_none() || !self.recorded {
            return false;
        }
        let n = self.subtrees.below(sim);
        self.cursor += n;
        self.skipped += n as u64;
        true
    }

    fn may_prune(&self) -> bool {
        self.order.is_some() && self.recorded
    }
}

/// Normalised strategy sums of the block at `off` of `data` into `out` by slot.
fn average_probs(data: &[f64], off: usize, len: usize, out: &mut [f64; MAX_HAND]) {
    let sums = &data[off + len..off + 2 * len];
    let total: f64 = sums.iter().sum();
    for i in 0..len {
        out[i] = if total > 0.0 {
            sums[i] / total
        } else {
            1.0 / len as f64
        };
    }
}

/// The average strategy of a [`Cfr`] (or of a copy of its numbers), for both seats.
pub(crate) struct AverageStrategy<'a> {
    index: &'a KeyMap<u32>,
    data: &'a [f64],
}

impl Strategy for AverageStrategy<'_> {
    fn probs(&mut self, st: &State, out: &mut [f64; MAX_HAND]) {
        let seat = st.sim.mover().expect("a decision");
        let off = self.index.get(&st.key(seat)).copied();
        average_probs_at(self.data, off, st, seat, out);
    }
}

/// The average strategy of a checkpoint's copy of the numbers, its blocks found through a walk's
/// tape ([`TapedLookups`]).
pub(crate) struct TapedAverage<'a> {
    lookups: TapedLookups<'a>,
    data: &'a [f64],
}

impl TapedAverage<'_> {
    /// Ends the walk ([`TapedLookups::finish`]): lookups read from the tape, and in all.
    pub(crate) fn finish(self) -> (usize, usize) {
        self.lookups.finish()
    }
}

impl Strategy for TapedAverage<'_> {
    #[inline]
    fn probs(&mut self, st: &State, out: &mut [f64; MAX_HAND]) {
        let seat = st.sim.mover().expect("a decision");
        let off = self.lookups.offset(st.key(seat));
        average_probs_at(self.data, off, st, seat, out);
    }

    fn begin_deal(&mut self, deal: usize) {
        self.lookups.begin_deal(deal);
    }
}

/// The average strategy of `seat`, to move at `st`, by hand position into `out`: the block at
/// `off` of `data`, or uniform where the decision has no block (`None`).
#[inline]
fn average_probs_at(
    data: &[f64],
    off: Option<u32>,
    st: &State,
    seat: usize,
    out: &mut [f64; MAX_HAND],
) {
    let hand = st.sim.hand(seat);
    let len = hand.len();
    let pos = canonical(hand);
    let mut by_slot = [0.0; MAX_HAND];
    match off {
        Some(off) => average_probs(data, off as usize, len, &mut by_slot),
        None => by_slot[..len].fill(1.0 / len as f64),
    }
    for i in 0..len {
        out[pos[i] as usize] = by_slot[i];
    }
}

/// A copy of a solver's numbers after some iteration, measured while the iterations go on.
struct Snapshot {
    /// The iteration after which the copy was taken.
    iteration: u64,
    index: Arc<KeyMap<u32>>,
    data: Vec<f64>,
}

/// One of a checkpoint's three tree walks ([`exploitability_of`]'s, one each).
#[derive(Clone, Copy)]
enum Part {
    /// The average profile's value.
    Value = 0,
    /// Seat 0's best response to the average strategy.
    Br0 = 1,
    /// Seat 1's best response to it.
    Br1 = 2,
}

impl Part {
    const ALL: [Part; 3] = [Part::Value, Part::Br0, Part::Br1];

    /// The walk on `snap`'s numbers, the average strategy's lookups read from (and recorded
    /// to) the run's `tapes`: its value (seat 0's and seat 1's strategies on tapes 0 and 1) or
    /// a seat's best response to the other's (Br0 reads seat 1's on tape 2, Br1 seat 0's on 3).
    fn walk(self, game: &ReducedGame, snap: &Snapshot, tapes: &[TapeSlot; 4]) -> Walked {
        let avg = |t: usize| TapedAverage {
            lookups: TapedLookups::new(&snap.index, snap.iteration, &tapes[t]),
            data: &snap.data,
        };
        let v = match self {
            Part::Value => {
                let (mut s0, mut s1) = (avg(0), avg(1));
                let v = profile_value(game, &mut s0, &mut s1);
                let _ = (s0.finish(), s1.finish());
                v
            }
            Part::Br0 | Part::Br1 => {
                let (p, t) = if let Part::Br0 = self { (0, 2) } else { (1, 3) };
                let mut opp = avg(t);
                let v = best_response(game, p, &mut opp);
                let _ = opp.finish();
                v
            }
        };
        (self, v)
    }
}

/// A walk's part and its result.
type Walked = (Part, f64);

/// The checkpoints opened so far, with the results of their walks as they arrive.
#[derive(Default)]
struct Measured {
    parts: Vec<(u64, [Option<f64>; 3])>,
}

impl Measured {
    /// A new checkpoint after iteration `t`; its slot.
    fn open(&mut self, t: u64) -> usize {
        self.parts.push((t, [None; 3]));
        self.parts.len() - 1
    }

    /// Take in every walk finished so far.
    fn receive(&mut self, rx: &mpsc::Receiver<(usize, Walked)>) {
        for (slot, (part, v)) in rx.try_iter() {
            self.parts[slot].1[part as usize] = Some(v);
        }
    }

    /// The checkpoint in `slot`, once its three walks are done.
    fn checkpoint(&self, slot: usize) -> Option<Checkpoint> {
        let (iteration, [Some(value), Some(br0), Some(br1)]) = self.parts[slot] else {
            return None;
        };
        let e = Exploitability {
            value,
            best_response: [br0, br1],
            exploitability: (br0 + br1) / 2.0,
        };
        Some(Checkpoint {
            iteration,
            value: e.value,
            exploitability: e.exploitability,
        })
    }

    /// Call `progress` for the pending iterations, in order, up to the first checkpoint whose
    /// walks are not all done.
    fn report(
        &self,
        pending: &mut VecDeque<(u64, Option<usize>)>,
        progress: &mut impl FnMut(u64, Option<&Checkpoint>),
    ) {
        while let Some(&(t, slot)) = pending.front() {
            match slot {
                None => progress(t, None),
                Some(k) => match self.checkpoint(k) {
                    Some(c) => progress(t, Some(&c)),
                    None => return,
                },
            }
            pending.pop_front();
        }
    }

    /// Every checkpoint, in order (each one's walks done).
    fn into_checkpoints(self) -> Vec<Checkpoint> {
        (0..self.parts.len())
            .map(|k| {
                self.checkpoint(k)
                    .expect("every checkpoint's walks are done")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec::ReducedSpec;
    use super::*;

    /// A walk reading the tape of an earlier iteration's walk (whose average strategy skips
    /// other cards, so the two walks' lookups differ in some deals) gives the hash index's
    /// numbers bit for bit, for the profile's value and both best responses; it reads most of
    /// its lookups from the tape and leaves it in some deals, so both paths are taken.
    #[test]
    fn a_walk_on_an_earlier_walks_tape_gives_the_index_numbers() {
        let spec = ReducedSpec {
            suits: 2,
            ranks: vec![1, 3, 10, 8],
            hand: 2,
        };
        let game = ReducedGame::new(spec).unwrap();
        let mut cfr = Cfr::new(&game);
        let slots: [TapeSlot; 4] = std::array::from_fn(|_| TapeSlot::new(game.histories()));
        let walks = |cfr: &Cfr<'_>| {
            let avg = |t: usize| TapedAverage {
                lookups: TapedLookups::new(&cfr.index, cfr.iterations, &slots[t]),
                data: &cfr.data,
            };
            let (mut s0, mut s1, mut o1, mut o0) = (avg(0), avg(1), avg(2), avg(3));
            let got = [
                profile_value(&game, &mut s0, &mut s1),
                best_response(&game, 0, &mut o1),
                best_response(&game, 1, &mut o0),
            ];
            let counts = [s0.finish(), s1.finish(), o1.finish(), o0.finish()];
            let want = [
                profile_value(&game, &mut cfr.average(), &mut cfr.average()),
                best_response(&game, 0, &mut cfr.average()),
                best_response(&game, 1, &mut cfr.average()),
            ];
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits));
            counts
        };
        cfr.iterate();
        let first = walks(&cfr);
        assert!(first.iter().all(|&(read, all)| read == 0 && all > 0));
        for _ in 0..3 {
            cfr.iterate();
        }
        let later = walks(&cfr);
        let (read, all) = later
            .iter()
            .fold((0, 0), |(r, a), &(read, all)| (r + read, a + all));
        assert!(read > all / 2, "{read} of {all} lookups read from the tape");
        assert!(
            read < all,
            "every lookup read from the tape: no walk left it"
        );
    }

    /// Every block of `a` and the block of the same information set in `b`, as bits.
    fn blocks(cfr: &Cfr<'_>) -> std::collections::BTreeMap<u128, Vec<u64>> {
        let mut offs: Vec<u32> = cfr.index.values().copied().collect();
        offs.sort_unstable();
        cfr.index
            .iter()
            .map(|(&k, &off)| {
                let i = offs.binary_search(&off).unwrap();
                let end = offs.get(i + 1).map_or(cfr.data.len(), |&n| n as usize);
                let bits = cfr.data[off as usize..end].iter().map(|x| x.to_bits());
                (k, bits.collect())
            })
            .collect()
    }

    /// Pruning changes no number: a walk that visits every decision (blocks found by key, as in
    /// a game too large to keep the order) and the walks that prune (serial over the recorded
    /// order, and by deal group) leave every information set's regrets and strategy sums with
    /// the same bits over 40 iterations, in which the pruned walks pass over a tenth or more of
    /// the decisions (14-17 % in these games).
    #[test]
    fn pruned_walks_give_the_full_walks_numbers_bit_for_bit() {
        let specs = [
            (2, vec![1, 3, 10], 2),
            (1, vec![1, 2, 3, 8, 9, 10], 2),
            (3, vec![1, 3], 2),
        ];
        for (suits, ranks, hand) in specs {
            let game = ReducedGame::new(ReducedSpec { suits, ranks, hand }).unwrap();
            let mut full = Cfr::new(&game);
            full.order = None;
            let mut serial = Cfr::new(&game);
            serial.groups = false;
            let mut grouped = Cfr::new(&game);
            for t in 1..=40 {
                full.iterate();
                serial.iterate();
                grouped.iterate();
                let want = blocks(&full);
                assert_eq!(
                    blocks(&serial),
                    want,
                    "{suits} suits, hand {hand}, iteration {t}"
                );
                assert_eq!(
                    blocks(&grouped),
                    want,
                    "{suits} suits, hand {hand}, iteration {t}"
                );
            }
            assert_eq!(full.skipped, 0);
            // Decisions of the 79 walks after the first (two a iteration).
            let visits = 79 * serial.order.as_ref().map_or(0, Vec::len) as u64;
            assert!(
                serial.skipped * 10 > visits,
                "{suits} suits, hand {hand}: {} of {visits} decisions passed over",
                serial.skipped
            );
        }
    }

    /// The walks by deal group (on 1 and 3 threads) leave every information set's regrets and
    /// strategy sums bit for bit where the serial walks leave them, iteration after iteration,
    /// in games of one and two suits and hands of 1 to 3; and the table's size is the same.
    #[test]
    fn group_walks_give_the_serial_walks_numbers_bit_for_bit() {
        let specs = [
            (2, vec![1, 3, 10], 2),
            (1, vec![1, 2, 3, 8, 9, 10], 2),
            (2, vec![1, 3, 10, 8], 3),
            (2, vec![1, 10], 1),
        ];
        for (suits, ranks, hand) in specs {
            let game = ReducedGame::new(ReducedSpec { suits, ranks, hand }).unwrap();
            let mut serial = Cfr::new(&game);
            serial.groups = false;
            let mut runs: Vec<(rayon::ThreadPool, Cfr<'_>)> = [1, 3]
                .map(|n| {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build();
                    (pool.unwrap(), Cfr::new(&game))
                })
                .into_iter()
                .collect();
            for t in 1..=5 {
                serial.iterate();
                let want = blocks(&serial);
                for (pool, cfr) in &mut runs {
                    pool.install(|| cfr.iterate());
                    assert!(cfr.plan.is_some());
                    assert_eq!(
                        blocks(cfr),
                        want,
                        "{suits} suits, hand {hand}, iteration {t}"
                    );
                    assert_eq!(cfr.stats(), serial.stats());
                }
            }
        }
    }
}
