//! The completions no template covers yet, as a SAT problem ([`CoverSat`], on batsat): one
//! variable per (slot, card), at most one card per slot and one slot per card, a card in
//! each slot that some template reads (the others are filled with the cards left over), and
//! for each [`Template`] a clause that one of its [`Template::shortfalls`] holds. A model is
//! a completion realising no template so far; a proof that there is none covers every
//! completion. Templates share shortfalls, so each is encoded once.
//!
//! Invariant: a model always realises none of the templates added, and every completion that
//! realises none of them satisfies the clauses (each shortfall's "at most k" is encoded with
//! a literal that a slot's card in its set forces true, so the clauses only ever undercount a
//! completion's cards meeting it, which a shortfall allows; the slots no template reads are
//! only held to one card each). So "unsatisfiable" is a proof.

use std::cell::Cell;
use std::collections::HashMap;

use batsat::{Callbacks, ClauseKind, Lit, Solver, SolverInterface, SolverOpts, lbool};

use super::open::bits;
use super::slots::Layout;
use super::template::{Shortfall, Template};

/// The SAT problem of the uncovered completions.
pub(super) struct CoverSat {
    solver: Solver<Budget>,
    /// `x[s][j]`: slot `s` holds the `j`-th card of the pool.
    x: Vec<Vec<Lit>>,
    /// The pool's card ids, in order.
    pool: Vec<u8>,
    /// The pool as a card set.
    pool_set: u64,
    /// "Slot s holds a card of this set" literals made so far.
    member: HashMap<(u8, u64), Lit>,
    /// The literal of each shortfall encoded so far, by (at most, slots).
    shortfall: HashMap<(usize, Vec<(u8, u64)>), Lit>,
    /// Whether some template reads the slot (only then must it hold a card).
    read: Vec<bool>,
}

/// What one [`CoverSat::solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Uncovered {
    /// A completion realising no template: the card of each slot.
    Completion(Vec<u8>),
    /// Every completion realises one of them.
    None,
    /// The conflict budget ran out first.
    Budget,
}

/// Counts the solver's conflicts and stops it at a limit.
#[derive(Default)]
struct Budget {
    conflicts: Cell<u64>,
    limit: Cell<u64>,
}

impl Callbacks for Budget {
    fn on_new_clause(&mut self, _c: &[Lit], kind: ClauseKind) {
        if matches!(kind, ClauseKind::Learnt) {
            self.conflicts.set(self.conflicts.get() + 1);
        }
    }

    fn stop(&self) -> bool {
        self.conflicts.get() >= self.limit.get()
    }
}

impl CoverSat {
    /// Every completion of `lay`'s slots, none excluded yet.
    pub fn new(lay: &Layout) -> CoverSat {
        let mut solver = Solver::new(SolverOpts::default(), Budget::default());
        let pool: Vec<u8> = bits(lay.pool).collect();
        let x: Vec<Vec<Lit>> = (0..lay.slots)
            .map(|_| {
                pool.iter()
                    .map(|_| Lit::new(solver.new_var_default(), true))
                    .collect()
            })
            .collect();
        let mut sat = CoverSat {
            solver,
            x,
            pool,
            pool_set: lay.pool,
            member: HashMap::new(),
            shortfall: HashMap::new(),
            read: vec![false; lay.slots],
        };
        for s in 0..sat.x.len() {
            let row = sat.x[s].clone();
            sat.at_most_one(&row);
        }
        for j in 0..sat.pool.len() {
            let column: Vec<Lit> = sat.x.iter().map(|row| row[j]).collect();
            sat.at_most_one(&column);
        }
        sat
    }

    /// Conflicts spent so far.
    pub fn conflicts(&self) -> u64 {
        self.solver.cb().conflicts.get()
    }

    /// Exclude the completions realising `t`.
    pub fn exclude(&mut self, t: &Template) {
        let Some(shortfalls) = t.shortfalls(self.pool_set) else {
            return; // nothing realises it
        };
        let mut one_of: Vec<Lit> = shortfalls.into_iter().map(|f| self.holds(f)).collect();
        one_of.sort_unstable_by_key(|l| l.idx());
        one_of.dedup();
        self.add(one_of);
    }

    /// A literal that is true only if `f` holds: "slot s's card is outside its set" for a
    /// single slot that may meet none, else one encoded once per shortfall.
    fn holds(&mut self, f: Shortfall) -> Lit {
        if let [(s, m)] = f.slots[..]
            && f.at_most == 0
        {
            return !self.member(s, m);
        }
        let key = (f.at_most, f.slots);
        if let Some(&l) = self.shortfall.get(&key) {
            return l;
        }
        let holds = Lit::new(self.solver.new_var_default(), true);
        let meets: Vec<Lit> = key.1.iter().map(|&(s, m)| self.member(s, m)).collect();
        self.at_most(holds, &meets, key.0);
        self.shortfall.insert(key, holds);
        holds
    }

    /// `when` implies at most `k` of `lits`: a clause per `k + 1` of them when there are
    /// few such sets, else a sequential counter (Sinz 2005).
    fn at_most(&mut self, when: Lit, lits: &[Lit], k: usize) {
        let n = lits.len();
        if k >= n {
            return;
        }
        if k == 0 || choose(n, k + 1) <= DIRECT_CLAUSES {
            for pick in subsets(n, k + 1) {
                let mut clause = vec![!when];
                clause.extend(pick.iter().map(|&i| !lits[i]));
                self.add(clause);
            }
            return;
        }
        // reg[j]: at least j + 1 of the literals so far are true.
        let mut reg: Vec<Lit> = Vec::new();
        for (i, &y) in lits.iter().enumerate() {
            let next: Vec<Lit> = (0..k)
                .map(|_| Lit::new(self.solver.new_var_default(), true))
                .collect();
            self.add(vec![!y, next[0]]);
            if i > 0 {
                for j in 0..k {
                    self.add(vec![!reg[j], next[j]]);
                    if j > 0 {
                        self.add(vec![!y, !reg[j - 1], next[j]]);
                    }
                }
                self.add(vec![!when, !y, !reg[k - 1]]);
            }
            reg = next;
        }
    }

    /// A completion realising none of the templates excluded so far, within `conflicts` more
    /// conflicts.
    pub fn solve(&mut self, conflicts: u64) -> Uncovered {
        let cb = self.solver.cb();
        cb.limit.set(cb.conflicts.get().saturating_add(conflicts));
        let r = self.solver.solve_limited(&[]);
        if r == lbool::FALSE {
            return Uncovered::None;
        }
        if r != lbool::TRUE {
            return Uncovered::Budget;
        }
        let mut left: Vec<bool> = vec![true; self.pool.len()];
        let mut cards: Vec<Option<u8>> = (0..self.x.len())
            .map(|s| {
                let j = self.x[s]
                    .iter()
                    .position(|&l| self.solver.value_lit(l) == lbool::TRUE)?;
                left[j] = false;
                Some(self.pool[j])
            })
            .collect();
        // The slots no template reads take the cards left, in order.
        let mut rest = (0..self.pool.len())
            .filter(|&j| left[j])
            .map(|j| self.pool[j]);
        for card in cards.iter_mut().filter(|c| c.is_none()) {
            *card = rest.next();
        }
        Uncovered::Completion(
            cards
                .into_iter()
                .map(|c| c.expect("as many cards as slots"))
                .collect(),
        )
    }

    /// A literal that is true whenever slot `s` holds a card of `m`.
    fn member(&mut self, s: u8, m: u64) -> Lit {
        if let Some(&l) = self.member.get(&(s, m)) {
            return l;
        }
        self.read(s);
        let l = Lit::new(self.solver.new_var_default(), true);
        for j in 0..self.pool.len() {
            if m >> self.pool[j] & 1 == 1 {
                let xj = self.x[s as usize][j];
                self.add(vec![!xj, l]);
            }
        }
        self.member.insert((s, m), l);
        l
    }

    /// Slot `s` is read by a template: it must hold a card.
    fn read(&mut self, s: u8) {
        if !std::mem::replace(&mut self.read[s as usize], true) {
            let row = self.x[s as usize].clone();
            self.add(row);
        }
    }

    fn at_most_one(&mut self, lits: &[Lit]) {
        for a in 0..lits.len() {
            for b in a + 1..lits.len() {
                self.add(vec![!lits[a], !lits[b]]);
            }
        }
    }

    fn add(&mut self, mut clause: Vec<Lit>) {
        self.solver.add_clause_reuse(&mut clause);
    }
}

/// The most "k + 1 of these" clauses an "at most k" gets before a counter is used instead.
const DIRECT_CLAUSES: u64 = 64;

/// n choose k, saturating.
fn choose(n: usize, k: usize) -> u64 {
    (0..k as u64).fold(1u64, |c, i| c.saturating_mul(n as u64 - i) / (i + 1))
}

/// Every `k`-element subset of `0..n`, as index lists in increasing order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(k);
    fn go(n: usize, k: usize, from: usize, pick: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if pick.len() == k {
            out.push(pick.clone());
            return;
        }
        for i in from..n {
            if n - i < k - pick.len() {
                break;
            }
            pick.push(i);
            go(n, k, i + 1, pick, out);
            pick.pop();
        }
    }
    go(n, k, 0, &mut pick, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::super::open::{Found, OpenSearch};
    use super::super::test_positions;
    use super::*;

    /// A model is a completion (each pool card in one slot) before any template reads a
    /// slot and after templates read some: the unread slots get the cards left over. Each
    /// new model realises no template excluded so far, so the models differ.
    #[test]
    fn a_model_puts_each_pool_card_in_one_slot_while_templates_read_some_slots() {
        let lay = Layout::of(&test_positions::seed(4));
        let mut sat = CoverSat::new(&lay);
        let mut seen = Vec::new();
        for _ in 0..5 {
            let Uncovered::Completion(cards) = sat.solve(u64::MAX) else {
                panic!("the seed's 4 tricks are not covered by five templates");
            };
            let set = cards.iter().fold(0u64, |m, &c| m | 1 << c);
            assert_eq!((cards.len(), set), (lay.slots, lay.pool));
            assert!(!seen.contains(&cards));
            let fixed: Vec<u64> = cards.iter().map(|&id| 1u64 << id).collect();
            let Found::Line(line) = OpenSearch::new(&lay, &fixed, u64::MAX).run() else {
                panic!("every completion of the seed has a line to 4 tricks");
            };
            sat.exclude(&Template::of(&lay, &line));
            seen.push(cards);
        }
        assert!(sat.read.iter().any(|&r| r) && !sat.read.iter().all(|&r| r));
    }

    #[test]
    fn subsets_lists_each_k_subset_once() {
        assert_eq!(subsets(4, 2).len(), 6);
        assert_eq!(subsets(3, 3), vec![vec![0, 1, 2]]);
        assert_eq!(subsets(3, 0), vec![Vec::<usize>::new()]);
        assert!(subsets(2, 3).is_empty());
    }
}
