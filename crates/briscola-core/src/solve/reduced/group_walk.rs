//! CFR+'s walks after the first iteration, split by the updating seat's deals ([`Plan`],
//! [`GroupWalk`]): the deals that give the updating seat the same face-up card and dealt hand
//! form a group, and a group's walk reads and writes only its own information sets of that
//! seat (their blocks laid out together), reading the other seat's, which no walk of this
//! seat changes. So the groups' walks run on rayon's threads at once, each visiting its deals
//! in the serial walk's order, and give the serial walk's numbers bit for bit.
//!
//! A walk prunes the subtrees that cannot change a number (see [`traverse`]): both seats'
//! reaches zero and its value unused; a walk reading the recorded order moves past a pruned
//! subtree's blocks by its count of decisions ([`Subtrees`]).
//!
//! Invariant: a seat's information-set key starts with its seat, face-up card and dealt hand
//! ([`super::state::prefix_of`]), so groups own disjoint blocks; the arithmetic of one visit is
//! [`traverse`], shared with the first (serial) walk through [`Blocks`].

use rayon::prelude::*;

use super::game::ReducedGame;
use super::key_map::KeyMap;
use super::sim::Sim;
use super::spec::MAX_HAND;
use super::state::{State, canonical, prefix_of};
use super::subtrees::Subtrees;

/// The current strategy of a block's regrets `r` (regret matching; uniform when all are 0).
#[inline]
fn regret_matching(r: &[f64], sigma: &mut [f64; MAX_HAND]) {
    let len = r.len();
    let total: f64 = r.iter().sum();
    for i in 0..len {
        sigma[i] = if total > 0.0 {
            r[i] / total
        } else {
            1.0 / len as f64
        };
    }
}

/// The updating seat's visit of a block (`2 * len` numbers): regrets+ from the actions'
/// values `v` and the node's value, strategy sums weighted by `w` and the seat's reach `rp`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn update(
    block: &mut [f64],
    len: usize,
    v: &[f64; MAX_HAND],
    node: f64,
    ro: f64,
    w: f64,
    rp: f64,
    sigma: &[f64; MAX_HAND],
) {
    for i in 0..len {
        let r = &mut block[i];
        *r = (*r + ro * (v[i] - node)).max(0.0);
        block[len + i] += w * rp * sigma[i];
    }
}

/// A deal of the recorded walk: its probability, position and first decision's place in the
/// walk's order.
#[derive(Clone, Copy)]
pub(crate) struct Deal {
    pub pr: f64,
    pub st: State,
    pub start: usize,
}

/// One seat's group: its blocks `lo..hi` and its deals, in walk order.
struct Group {
    lo: usize,
    hi: usize,
    deals: Vec<usize>,
}

/// The blocks laid out seat by seat and group by group, and each seat's groups.
pub(crate) struct Plan {
    deals: Vec<Deal>,
    /// Where seat 1's blocks start (seat 0's are below).
    split: usize,
    groups: [Vec<Group>; 2],
}

impl Plan {
    /// Lay out `data`'s blocks (found through `index`) by seat and group, moving them and
    /// rewriting the offsets in `index` and `order`; `data` keeps its length and capacity.
    pub(crate) fn lay_out(
        game: &ReducedGame,
        deals: Vec<Deal>,
        index: &mut KeyMap<u32>,
        data: &mut Vec<f64>,
        order: &mut [u32],
    ) -> Plan {
        let radix = game.deck_size() as u128;
        // (seat, prefix, old offset) of every block; a block runs to the next one's offset.
        let mut blocks: Vec<(u8, u128, u32)> = index
            .iter()
            .map(|(&k, &off)| {
                let prefix = prefix_of(k, radix);
                ((prefix & 1) as u8, prefix, off)
            })
            .collect();
        let mut by_off: Vec<u32> = blocks.iter().map(|b| b.2).collect();
        by_off.sort_unstable();
        let size = |off: u32| -> usize {
            let i = by_off.binary_search(&off).expect("a block's offset");
            by_off.get(i + 1).map_or(data.len(), |&n| n as usize) - off as usize
        };
        blocks.sort_unstable();
        let mut moved = vec![0u32; data.len()];
        let mut next = Vec::with_capacity(data.capacity());
        let mut groups: [Vec<Group>; 2] = [Vec::new(), Vec::new()];
        let mut prefixes: [Vec<u128>; 2] = [Vec::new(), Vec::new()];
        let mut split = 0;
        for &(seat, prefix, off) in &blocks {
            let at = next.len();
            if seat == 1 && split == 0 {
                split = at;
            }
            let seat = seat as usize;
            if prefixes[seat].last() != Some(&prefix) {
                prefixes[seat].push(prefix);
                groups[seat].push(Group {
                    lo: at,
                    hi: at,
                    deals: Vec::new(),
                });
            }
            let n = size(off);
            next.extend_from_slice(&data[off as usize..off as usize + n]);
            groups[seat].last_mut().expect("a group").hi = next.len();
            moved[off as usize] = at as u32;
        }
        if groups[1].is_empty() {
            split = next.len();
        }
        *data = next;
        for off in index.values_mut() {
            *off = moved[*off as usize];
        }
        for off in order.iter_mut() {
            *off = moved[*off as usize];
        }
        for (d, deal) in deals.iter().enumerate() {
            for seat in 0..2 {
                let g = prefixes[seat]
                    .binary_search(&deal.st.key(seat))
                    .expect("every deal has a decision of each seat");
                groups[seat][g].deals.push(d);
            }
        }
        Plan {
            deals,
            split,
            groups,
        }
    }

    /// One walk updating seat `p`: its groups at once, each over its deals in walk order.
    pub(crate) fn walk(
        &self,
        game: &ReducedGame,
        (order, subtrees): (&[u32], &Subtrees),
        data: &mut [f64],
        p: usize,
        w: f64,
    ) {
        let (low, high) = data.split_at_mut(self.split);
        let (mut mine, theirs, mine_base, theirs_base): (&mut [f64], &[f64], usize, usize) =
            if p == 0 {
                (low, high, 0, self.split)
            } else {
                (high, low, self.split, 0)
            };
        let mut slices = Vec::with_capacity(self.groups[p].len());
        let mut at = mine_base;
        for g in &self.groups[p] {
            let (head, rest) = std::mem::take(&mut mine).split_at_mut(g.hi - at);
            slices.push((head, g));
            mine = rest;
            at = g.hi;
        }
        slices.into_par_iter().for_each(|(slice, g)| {
            let mut walk = GroupWalk {
                order,
                subtrees,
                cursor: 0,
                p,
                mine: slice,
                mine_base: g.lo,
                theirs,
                theirs_base,
            };
            for &d in &g.deals {
                let deal = &self.deals[d];
                walk.cursor = deal.start;
                traverse(&mut walk, game, &deal.st, p, w, Reach::deal(deal.pr));
            }
        });
    }
}

/// One group's walk: the serial walk's visits of the group's deals.
struct GroupWalk<'a> {
    order: &'a [u32],
    subtrees: &'a Subtrees,
    cursor: usize,
    p: usize,
    mine: &'a mut [f64],
    mine_base: usize,
    theirs: &'a [f64],
    theirs_base: usize,
}

impl Blocks for GroupWalk<'_> {
    #[inline]
    fn next_block(&mut self, _st: &State, _seat: usize, _len: usize) -> usize {
        let off = self.order[self.cursor] as usize;
        self.cursor += 1;
        off
    }

    #[inline]
    fn regrets(&self, seat: usize, off: usize, len: usize) -> &[f64] {
        if seat == self.p {
            &self.mine[off - self.mine_base..][..len]
        } else {
            &self.theirs[off - self.theirs_base..][..len]
        }
    }

    #[inline]
    fn block_mut(&mut self, off: usize, len: usize) -> &mut [f64] {
        &mut self.mine[off - self.mine_base..][..2 * len]
    }

    #[inline]
    fn skip(&mut self, sim: &Sim) -> bool {
        self.cursor += self.subtrees.below(sim);
        true
    }

    #[inline]
    fn may_prune(&self) -> bool {
        true
    }
}

/// Where a walk finds each decision's block of numbers: the solver's whole table (the first,
/// serial walk) or one group's part of it ([`GroupWalk`]).
pub(crate) trait Blocks {
    /// The offset of the block of `seat`'s decision at `st` (`len` actions), the walk's next.
    fn next_block(&mut self, st: &State, seat: usize, len: usize) -> usize;
    /// The regrets of the block at `off`, a decision of `seat`.
    fn regrets(&self, seat: usize, off: usize, len: usize) -> &[f64];
    /// The whole block at `off` (`2 * len` numbers), a decision of the updating seat.
    fn block_mut(&mut self, off: usize, len: usize) -> &mut [f64];
    /// Pass over the decision at `sim` and its subtree without visiting them (moving past
    /// their blocks in the order read); false if this walk must visit them (it records the
    /// order, or finds blocks by key).
    fn skip(&mut self, sim: &Sim) -> bool;
    /// Whether this walk may leave out work that moves no number (pruning, and the walks
    /// that update strategy sums only): false for the walk tests take as the reference.
    fn may_prune(&self) -> bool;
}

/// What a visit is reached with: the updating seat's reach `rp`, the opponent's times
/// chance's `ro`, and whether the value the visit returns is used.
#[derive(Clone, Copy)]
pub(crate) struct Reach {
    rp: f64,
    ro: f64,
    used: bool,
}

impl Reach {
    /// A deal's first decision, of probability `pr` (the walk discards the value it returns).
    pub(crate) fn deal(pr: f64) -> Reach {
        Reach {
            rp: 1.0,
            ro: pr,
            used: false,
        }
    }
}

/// One CFR+ visit and everything below it, updating seat `p` with weight `w`: `p`'s expected
/// payoff below `st` (reached with `at`).
///
/// A subtree both seats reach with probability exactly 0 and whose value nothing uses is
/// pruned, with every number as a full walk leaves it: below it each regret gains `0 * (v -
/// node)`, and a regret is never -0 (it starts at +0 and is floored at +0), so it keeps its
/// bits; each strategy sum gains `w * 0 * sigma`, +0; and its value reaches its parent
/// multiplied by an exact 0 (the opponent's or the updating seat's probability of the move) or
/// goes only into regrets that do not move. In the committed reduced game's 64 iterations,
/// 84 M of the 180 M visits had both reaches exactly 0 (BENCHMARKS.md).
pub(crate) fn traverse<B: Blocks>(
    b: &mut B,
    game: &ReducedGame,
    st: &State,
    p: usize,
    w: f64,
    at: Reach,
) -> f64 {
    let Some(seat) = st.sim.mover() else {
        let m = st.sim.margin0() as f64;
        return if p == 0 { m } else { -m };
    };
    let Reach { rp, ro, used } = at;
    if rp == 0.0 && ro == 0.0 && !used && b.skip(&st.sim) {
        return 0.0;
    }
    if ro == 0.0 && !used && b.may_prune() {
        sums_walk(b, game, st, p, w, rp);
        return 0.0;
    }
    let hand = st.sim.hand(seat);
    let len = hand.len();
    let pos = canonical(hand);
    let off = b.next_block(st, seat, len);
    let mut sigma = [0.0; MAX_HAND];
    regret_matching(b.regrets(seat, off, len), &mut sigma);
    if seat == p {
        let mut v = [0.0; MAX_HAND];
        let mut node = 0.0;
        for i in 0..len {
            let mut vi = 0.0;
            // The action's value moves the regrets unless `ro` is 0, and the node's value
            // unless its probability is.
            let child_used = ro != 0.0 || (used && sigma[i] != 0.0);
            st.play(game, pos[i] as usize, &mut |pr: f64, c: &State| {
                let at = Reach {
                    rp: rp * sigma[i],
                    ro: ro * pr,
                    used: child_used,
                };
                vi += pr * traverse(b, game, c, p, w, at)
            });
            v[i] = vi;
            node += sigma[i] * vi;
        }
        update(b.block_mut(off, len), len, &v, node, ro, w, rp, &sigma);
        node
    } else {
        let mut node = 0.0;
        for i in 0..len {
            let q = sigma[i];
            st.play(game, pos[i] as usize, &mut |pr: f64, c: &State| {
                let qp = q * pr;
                let at = Reach {
                    rp,
                    ro: ro * q * pr,
                    used: used && qp != 0.0,
                };
                node += qp * traverse(b, game, c, p, w, at)
            });
        }
        node
    }
}

/// A visit the opponent reaches with probability exactly 0 and whose value nothing uses, and
/// everything below it: there every regret gains `0 * (v - node)` and keeps its bits (see
/// [`traverse`]), so only the updating seat's strategy sums move. This walk adds them, each
/// as [`update`] would (`w * rp * sigma`; a block is never visited twice in one subtree, so
/// adding on the way down keeps the order of every block's additions), and reads no value and
/// no regret of the opponent. In the committed game's 64 iterations 38 M of the 180 M visits
/// were such visits with the updating seat's reach above 0 (BENCHMARKS.md).
fn sums_walk<B: Blocks>(b: &mut B, game: &ReducedGame, st: &State, p: usize, w: f64, rp: f64) {
    let Some(seat) = st.sim.mover() else {
        return;
    };
    if rp == 0.0 && b.skip(&st.sim) {
        return;
    }
    let hand = st.sim.hand(seat);
    let len = hand.len();
    let pos = canonical(hand);
    let off = b.next_block(st, seat, len);
    if seat == p {
        let mut sigma = [0.0; MAX_HAND];
        regret_matching(b.regrets(seat, off, len), &mut sigma);
        let block = b.block_mut(off, len);
        for i in 0..len {
            block[len + i] += w * rp * sigma[i];
        }
        for i in 0..len {
            let rp = rp * sigma[i];
            st.play(game, pos[i] as usize, &mut |_: f64, c: &State| {
                sums_walk(b, game, c, p, w, rp)
            });
        }
    } else {
        for &at in &pos[..len] {
            st.play(game, at as usize, &mut |_: f64, c: &State| {
                sums_walk(b, game, c, p, w, rp)
            });
        }
    }
}
