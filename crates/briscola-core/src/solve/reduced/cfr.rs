//! CFR+ over the reduced game's full tree ([`Cfr`]): regret matching+ with alternating
//! updates and linearly weighted averaging, chance enumerated exactly; its average strategy
//! ([`AverageStrategy`]) and progress reports ([`Checkpoint`], [`TableStats`]).
//!
//! Invariant: each information set owns one contiguous block of `2 * actions` numbers (the
//! regrets, never negative, then the strategy sums) whose slot `i` is the `i`-th smallest card
//! in hand, so the hand's order never changes what a slot means; every walk visits every
//! decision (no pruning), in the same order, so a recorded order of blocks stays valid.

use super::best_response::{Exploitability, exploitability_of};
use super::game::ReducedGame;
use super::key_map::KeyMap;
use super::observation::Observation;
use super::spec::MAX_HAND;
use super::state::{State, Strategy, canonical};
use crate::game::Card;
use serde::Serialize;

/// The CFR+ solver of one reduced game.
pub struct Cfr<'g> {
    game: &'g ReducedGame,
    index: KeyMap<u32>,
    data: Vec<f64>,
    iterations: u64,
    /// Every decision's block offset in the walk's order, once a walk has recorded it (the
    /// walk visits every decision in the same order each time), so later walks read it in
    /// sequence instead of hashing keys; `None` for games too large to keep it.
    order: Option<Vec<u32>>,
    recorded: bool,
    cursor: usize,
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
            index: KeyMap::default(),
            data: Vec::new(),
            iterations: 0,
            order: (game.histories() <= RECORD_ORDER_UP_TO).then(Vec::new),
            recorded: false,
            cursor: 0,
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

    /// One CFR+ iteration: a walk updating seat 0, then one updating seat 1.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        let w = self.iterations as f64;
        let game = self.game;
        for p in 0..2 {
            self.cursor = 0;
            game.for_each_deal([false; 2], &mut |pr, st| {
                self.traverse(st, p, w, 1.0, pr);
            });
            self.recorded = self.order.is_some();
        }
    }

    /// Runs `iterations` more iterations; after each calls `progress` with the iteration done
    /// and, at the iterations listed in `checkpoints` (and after the last), the checkpoint,
    /// which is also returned in order.
    pub fn run(
        &mut self,
        iterations: u64,
        checkpoints: &[u64],
        mut progress: impl FnMut(u64, Option<&Checkpoint>),
    ) -> Vec<Checkpoint> {
        let end = self.iterations + iterations;
        let mut out = Vec::new();
        while self.iterations < end {
            self.iterate();
            let t = self.iterations;
            if checkpoints.contains(&t) || t == end {
                let e = self.exploitability();
                let c = Checkpoint {
                    iteration: t,
                    value: e.value,
                    exploitability: e.exploitability,
                };
                progress(t, Some(&c));
                out.push(c);
            } else {
                progress(t, None);
            }
        }
        out
    }

    /// The average strategy's value and exploitability (three exact tree walks).
    pub fn exploitability(&self) -> Exploitability {
        exploitability_of(self.game, &mut self.average(), &mut self.average())
    }

    /// The average strategy (uniform where an information set was never reached).
    pub(crate) fn average(&self) -> AverageStrategy<'_, 'g> {
        AverageStrategy { cfr: self }
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
        self.average_probs(off as usize, local.len(), &mut probs);
        let cards = self.game.cards();
        Some(
            local
                .iter()
                .zip(probs)
                .map(|(&c, q)| (cards[c as usize], q))
                .collect(),
        )
    }

    /// Normalised strategy sums of the block at `off` into `out` by slot.
    fn average_probs(&self, off: usize, len: usize, out: &mut [f64; MAX_HAND]) {
        let sums = &self.data[off + len..off + 2 * len];
        let total: f64 = sums.iter().sum();
        for i in 0..len {
            out[i] = if total > 0.0 {
                sums[i] / total
            } else {
                1.0 / len as f64
            };
        }
    }

    fn block(&mut self, key: u128, len: usize) -> usize {
        if let Some(&off) = self.index.get(&key) {
            return off as usize;
        }
        let off = self.data.len();
        self.data.resize(off + 2 * len, 0.0);
        self.index.insert(key, off as u32);
        off
    }

    /// Returns the expected payoff of seat `p` below `st`; `rp` is `p`'s reach, `ro` the
    /// opponent's times chance's.
    fn traverse(&mut self, st: &State, p: usize, w: f64, rp: f64, ro: f64) -> f64 {
        let game = self.game;
        let Some(seat) = st.sim.mover() else {
            let m = st.sim.margin0() as f64;
            return if p == 0 { m } else { -m };
        };
        let hand = st.sim.hand(seat);
        let len = hand.len();
        let pos = canonical(hand);
        let off = match &mut self.order {
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
        };
        let mut sigma = [0.0; MAX_HAND];
        let r = &self.data[off..off + len];
        let total: f64 = r.iter().sum();
        for i in 0..len {
            sigma[i] = if total > 0.0 {
                r[i] / total
            } else {
                1.0 / len as f64
            };
        }
        if seat == p {
            let mut v = [0.0; MAX_HAND];
            let mut node = 0.0;
            for i in 0..len {
                let mut vi = 0.0;
                st.play(game, pos[i] as usize, &mut |pr: f64, c: &State| {
                    vi += pr * self.traverse(c, p, w, rp * sigma[i], ro * pr)
                });
                v[i] = vi;
                node += sigma[i] * vi;
            }
            for i in 0..len {
                let r = &mut self.data[off + i];
                *r = (*r + ro * (v[i] - node)).max(0.0);
                self.data[off + len + i] += w * rp * sigma[i];
            }
            node
        } else {
            let mut node = 0.0;
            for i in 0..len {
                let q = sigma[i];
                st.play(game, pos[i] as usize, &mut |pr: f64, c: &State| {
                    node += q * pr * self.traverse(c, p, w, rp, ro * q * pr)
                });
            }
            node
        }
    }
}

/// The average strategy of a [`Cfr`], for both seats.
pub(crate) struct AverageStrategy<'a, 'g> {
    cfr: &'a Cfr<'g>,
}

impl Strategy for AverageStrategy<'_, '_> {
    fn probs(&mut self, st: &State, out: &mut [f64; MAX_HAND]) {
        let seat = st.sim.mover().expect("a decision");
        let hand = st.sim.hand(seat);
        let len = hand.len();
        let pos = canonical(hand);
        let mut by_slot = [0.0; MAX_HAND];
        match self.cfr.index.get(&st.key(seat)) {
            Some(&off) => self.cfr.average_probs(off as usize, len, &mut by_slot),
            None => by_slot[..len].fill(1.0 / len as f64),
        }
        for i in 0..len {
            out[pos[i] as usize] = by_slot[i];
        }
    }
}
