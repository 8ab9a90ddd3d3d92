//! The unknown places of a position as numbered *slots* ([`Layout`]: each unknown hand card,
//! then each unknown stock card from the top) and a set of completions as a domain per slot
//! ([`Region`]: the cards that slot may hold), with the matching that turns a region into one
//! concrete [`Completion`].
//!
//! Invariant: a completion is a bijection between the slots and the position's pool (the
//! cards placed nowhere); a [`Region`] stands for the completions whose every slot holds a
//! card of its domain, and [`Region::settle`] never removes one of them.

use super::answer::Completion;
use super::cards::CardSet;
use super::position::{Position, Target};
use crate::game::{Card, DrawOrder, MAX_PLAYERS, Suit};

/// What lies at a stock place: a known card or the slot of an unknown one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// A known card.
    Card(Card),
    /// An unknown card: the slot's number.
    Slot(u8),
}

/// A position with its unknown places numbered: hand slots first (player by player), then
/// stock slots from the top.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// Players.
    pub n: usize,
    /// The trump suit.
    pub trump: Option<Suit>,
    /// The player asked about.
    pub player: usize,
    /// What they must reach.
    pub target: Target,
    /// Who draws first after a trick.
    pub draw: DrawOrder,
    /// The seat leading the next trick.
    pub leader: usize,
    /// Known cards of each hand.
    pub hands: [u64; MAX_PLAYERS],
    /// The slots of each hand (bit `s` for slot `s`).
    pub hand_slots: [u64; MAX_PLAYERS],
    /// The stock from its top.
    pub stock: Vec<Place>,
    /// Number of slots.
    pub slots: usize,
    /// The cards the slots hold between them.
    pub pool: u64,
}

impl Layout {
    /// Number the unknown places of `pos`.
    pub fn of(pos: &Position) -> Layout {
        let mut lay = Layout {
            n: pos.players(),
            trump: pos.trump,
            player: pos.player,
            target: pos.target,
            draw: pos.draw_order(),
            leader: pos.leader,
            hands: [0; MAX_PLAYERS],
            hand_slots: [0; MAX_PLAYERS],
            stock: Vec::with_capacity(pos.stock.len()),
            slots: 0,
            pool: pos.pool().0,
        };
        for p in 0..lay.n {
            lay.hands[p] = pos.hands[p].0;
            for _ in 0..pos.unknown[p] {
                lay.hand_slots[p] |= 1u64 << lay.slots;
                lay.slots += 1;
            }
        }
        for place in &pos.stock {
            lay.stock.push(match place {
                Some(c) => Place::Card(*c),
                None => {
                    lay.slots += 1;
                    Place::Slot(lay.slots as u8 - 1)
                }
            });
        }
        lay
    }

    /// The goal as a number: tricks or points.
    pub fn need(&self) -> i32 {
        match self.target {
            Target::Tricks(k) => k as i32,
            Target::Points(p) => p as i32,
        }
    }

    /// The completion that puts `cards[s]` in slot `s`.
    pub fn completion(&self, cards: &[Card]) -> Completion {
        let mut hands = vec![Vec::new(); self.n];
        let mut slot = 0;
        for (p, hand) in hands.iter_mut().enumerate() {
            for _ in 0..self.hand_slots[p].count_ones() {
                hand.push(cards[slot]);
                slot += 1;
            }
        }
        Completion {
            hands,
            stock: cards[slot..].to_vec(),
        }
    }
}

/// A set of completions: the cards each slot may hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Region {
    /// The domain of each slot (cards of the pool).
    pub dom: Vec<u64>,
}

impl Region {
    /// Every completion of `lay`.
    pub fn all(lay: &Layout) -> Region {
        Region {
            dom: vec![lay.pool; lay.slots],
        }
    }

    /// Narrow the domains without losing a completion: a card stays in a slot's domain only
    /// if some completion of the region puts it there (Régin's all-different filtering: one
    /// perfect matching, then the strongly connected components of its residual graph).
    /// `false` when the region is empty. `pool` is the cards the slots hold between them.
    pub fn settle(&mut self, pool: u64) -> bool {
        let k = self.dom.len();
        if self.dom.iter().fold(0, |m, d| m | d) != pool {
            return false; // a card no slot can hold
        }
        let Some(owner) = self.owners() else {
            return false;
        };
        let comp = components(&self.dom, &owner);
        for s in 0..k {
            let mut keep = 0u64;
            for c in CardSet(self.dom[s]).iter() {
                let id = c.id() as usize;
                if owner[id] == s || comp[s] == comp[SLOT_NODES + id] {
                    keep |= 1u64 << id;
                }
            }
            self.dom[s] = keep;
        }
        true
    }

    /// A perfect matching as the slot owning each card id, if there is one.
    fn owners(&self) -> Option<[usize; 64]> {
        let mut owner = [usize::MAX; 64];
        for s in 0..self.dom.len() {
            let mut seen = 0u64;
            if !augment(&self.dom, s, &mut owner, &mut seen) {
                return None;
            }
        }
        Some(owner)
    }

    /// One completion of the region (Kuhn's augmenting paths, slots in order and cards by
    /// increasing id, so always the same one), or `None` if it is empty.
    pub fn matching(&self) -> Option<Vec<Card>> {
        let k = self.dom.len();
        let owner = self.owners()?;
        let mut cards = vec![Card::from_id(0).expect("card 0"); k];
        for (id, &s) in owner.iter().enumerate() {
            if s != usize::MAX {
                cards[s] = Card::from_id(id as u8).expect("a card id");
            }
        }
        Some(cards)
    }
}

/// Node numbers of the residual graph: slots first, then card ids.
const SLOT_NODES: usize = 64;

/// The strongly connected component of each node of the residual graph of a perfect
/// matching (slot to each card of its domain but its own, card to its owner), by Tarjan's
/// algorithm.
fn components(dom: &[u64], owner: &[usize; 64]) -> Vec<usize> {
    let n = SLOT_NODES + 64;
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (s, &d) in dom.iter().enumerate() {
        for c in CardSet(d).iter() {
            let id = c.id() as usize;
            if owner[id] != s {
                succ[s].push(SLOT_NODES + id);
            }
        }
    }
    for (id, &s) in owner.iter().enumerate() {
        if s != usize::MAX {
            succ[SLOT_NODES + id].push(s);
        }
    }
    let mut t = Tarjan {
        succ,
        index: vec![usize::MAX; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        comp: vec![usize::MAX; n],
        next: 0,
    };
    for v in 0..n {
        if t.index[v] == usize::MAX {
            t.visit(v);
        }
    }
    t.comp
}

/// Tarjan's strongly connected components over `succ`.
struct Tarjan {
    succ: Vec<Vec<usize>>,
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    comp: Vec<usize>,
    next: usize,
}

impl Tarjan {
    fn visit(&mut self, v: usize) {
        self.index[v] = self.next;
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for i in 0..self.succ[v].len() {
            let w = self.succ[v][i];
            if self.index[w] == usize::MAX {
                self.visit(w);
                self.low[v] = self.low[v].min(self.low[w]);
            } else if self.on_stack[w] {
                self.low[v] = self.low[v].min(self.index[w]);
            }
        }
        if self.low[v] == self.index[v] {
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                self.comp[w] = v;
                if w == v {
                    break;
                }
            }
        }
    }
}

/// Kuhn's augmenting path from slot `s` (cards by increasing id).
fn augment(dom: &[u64], s: usize, owner: &mut [usize; 64], seen: &mut u64) -> bool {
    for c in CardSet(dom[s] & !*seen).iter() {
        let id = c.id() as usize;
        *seen |= 1u64 << id;
        if owner[id] == usize::MAX || augment(dom, owner[id], owner, seen) {
            owner[id] = s;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settling_keeps_every_completion_and_finds_an_empty_region() {
        let pool = 0b1111u64;
        let mut r = Region {
            dom: vec![0b0001, 0b0011, 0b1111, 0b1110],
        };
        assert!(r.settle(pool));
        assert_eq!(r.dom[0], 0b0001);
        assert_eq!(r.dom[1], 0b0010);
        let m = r.matching().unwrap();
        let ids: Vec<u8> = m.iter().map(|c| c.id()).collect();
        assert_eq!(ids[..2], [0, 1]);
        let mut empty = Region {
            dom: vec![0b0001, 0b0001, 0b1100, 0b1100],
        };
        assert!(!empty.settle(pool));
        // No slot can hold card 3: the region is empty.
        let mut none = Region {
            dom: vec![0b0111; 4],
        };
        assert!(!none.settle(pool));
    }
}
