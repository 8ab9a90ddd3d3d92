//! Exact best responses in the reduced game: the value a seat's best response achieves
//! against a fixed strategy of the other seat, a profile's expected value, and the
//! exploitability ([`Exploitability`]) that follows from them.
//!
//! Invariant: one tree walk per best response, chance enumerated exactly; each information set
//! of the responding seat sums, per action, the opponent-and-chance-reach-weighted payoffs of
//! the histories it holds, and its value (the best action's) is added to its parent's action
//! bottom-up, which perfect recall makes exact.

use super::game::ReducedGame;
use super::key_map::KeyMap;
use super::spec::MAX_HAND;
use super::state::{State, Strategy, canonical};
use serde::Serialize;

/// A strategy profile's value and exploitability, in points: seat 0's points minus seat 1's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Exploitability {
    /// The profile's expected margin (seat 0's points minus seat 1's).
    pub value: f64,
    /// `best_response[s]`: the expected margin, from seat `s`'s side, of seat `s`'s best
    /// response to the other seat's strategy.
    pub best_response: [f64; 2],
    /// `(best_response[0] + best_response[1]) / 2`: 0 exactly at an equilibrium (NashConv / 2).
    pub exploitability: f64,
}

/// The responding seat's information set in the walk.
struct Node {
    parent: u32,
    action: u8,
    len: u8,
    vals: [f64; MAX_HAND],
}

const ROOT: u32 = u32::MAX;

/// The expected margin (from `p`'s side) of `p`'s best response to `opp` in the other seat.
pub(crate) fn best_response(game: &ReducedGame, p: usize, opp: &mut dyn Strategy) -> f64 {
    let mut ordered = [false; 2];
    ordered[1 - p] = opp.ordered();
    let mut w = Walk {
        game,
        p,
        opp,
        index: KeyMap::default(),
        nodes: Vec::new(),
        root: 0.0,
    };
    let mut deal = 0;
    game.for_each_deal(ordered, &mut |pr, st| {
        w.opp.begin_deal(deal);
        deal += 1;
        w.walk(st, pr, ROOT, 0)
    });
    let Walk {
        mut nodes,
        mut root,
        ..
    } = w;
    for i in (0..nodes.len()).rev() {
        let n = &nodes[i];
        let best = n.vals[..n.len as usize]
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let (parent, action) = (n.parent, n.action as usize);
        if parent == ROOT {
            root += best;
        } else {
            nodes[parent as usize].vals[action] += best;
        }
    }
    root
}

struct Walk<'a, 'g> {
    game: &'g ReducedGame,
    p: usize,
    opp: &'a mut dyn Strategy,
    index: KeyMap<u32>,
    nodes: Vec<Node>,
    root: f64,
}

impl Walk<'_, '_> {
    fn walk(&mut self, st: &State, reach: f64, cur: u32, act: u8) {
        let game = self.game;
        let Some(seat) = st.sim.mover() else {
            let m = st.sim.margin0() as f64;
            let u = if self.p == 0 { m } else { -m };
            if cur == ROOT {
                self.root += reach * u;
            } else {
                self.nodes[cur as usize].vals[act as usize] += reach * u;
            }
            return;
        };
        let hand = st.sim.hand(seat);
        let len = hand.len();
        if seat == self.p {
            let key = st.key(seat);
            let id = match self.index.get(&key) {
                Some(&id) => id,
                None => {
                    let id = self.nodes.len() as u32;
                    self.nodes.push(Node {
                        parent: cur,
                        action: act,
                        len: len as u8,
                        vals: [0.0; MAX_HAND],
                    });
                    self.index.insert(key, id);
                    id
                }
            };
            debug_assert!(self.nodes[id as usize].parent == cur, "perfect recall");
            let pos = canonical(hand);
            for (i, &p) in pos[..len].iter().enumerate() {
                st.play(game, p as usize, &mut |pr: f64, c: &State| {
                    self.walk(c, reach * pr, id, i as u8)
                });
            }
        } else {
            let mut probs = [0.0; MAX_HAND];
            self.opp.probs(st, &mut probs);
            for (i, &q) in probs[..len].iter().enumerate() {
                if q > 0.0 {
                    st.play(game, i, &mut |pr: f64, c: &State| {
                        self.walk(c, reach * q * pr, cur, act)
                    });
                }
            }
        }
    }
}

/// The expected margin (seat 0's points minus seat 1's) when `s0` plays seat 0 and `s1` seat 1.
pub(crate) fn profile_value(
    game: &ReducedGame,
    s0: &mut dyn Strategy,
    s1: &mut dyn Strategy,
) -> f64 {
    fn walk(game: &ReducedGame, st: &State, s: &mut [&mut dyn Strategy; 2]) -> f64 {
        let Some(seat) = st.sim.mover() else {
            return st.sim.margin0() as f64;
        };
        let mut probs = [0.0; MAX_HAND];
        s[seat].probs(st, &mut probs);
        let mut v = 0.0;
        for (i, &q) in probs[..st.sim.hand(seat).len()].iter().enumerate() {
            if q > 0.0 {
                st.play(game, i, &mut |pr: f64, c: &State| {
                    v += q * pr * walk(game, c, s)
                });
            }
        }
        v
    }
    let ordered = [s0.ordered(), s1.ordered()];
    let mut s: [&mut dyn Strategy; 2] = [s0, s1];
    let mut total = 0.0;
    let mut deal = 0;
    game.for_each_deal(ordered, &mut |pr, st| {
        for strategy in s.iter_mut() {
            strategy.begin_deal(deal);
        }
        deal += 1;
        total += pr * walk(game, st, &mut s)
    });
    total
}

/// The profile (`s0` in seat 0, `s1` in seat 1): its value and both best responses.
pub(crate) fn exploitability_of(
    game: &ReducedGame,
    s0: &mut dyn Strategy,
    s1: &mut dyn Strategy,
) -> Exploitability {
    let value = profile_value(game, s0, s1);
    let br0 = best_response(game, 0, s1);
    let br1 = best_response(game, 1, s0);
    Exploitability {
        value,
        best_response: [br0, br1],
        exploitability: (br0 + br1) / 2.0,
    }
}
