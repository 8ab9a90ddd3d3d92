//! The trick-feasibility question of the four-player logic model: can a player win at least k
//! tricks (or take p points) over some line of all players' plays? Every player cooperates: it
//! is a search for one line, not a game. Unknown cards (unknown hand cards, an unknown stock)
//! are revealed lazily, when the player holding one plays it:
//! - [`Mode::Some`]: the searcher also picks what each unknown card is, so "yes" means some
//!   completion of the unknown cards and some line of play reach the goal (exact);
//! - [`Mode::Every`] (the lazy reading, [`Feasibility::reachable`] only): an adversary picks each
//!   unknown card as it is played, knowing the line so far; "yes" then holds for every
//!   completion, while "no" is only the adversary's win. [`Feasibility::every`] answers "for
//!   every completion" exactly instead, by the search of [`super::every`].
//!
//! Unknown cards that are adjacent in their suit's order with no live known card between them
//! (and, for a points goal, of equal points) are interchangeable, so the last reveal of a trick
//! branches once per such class: the answer is the same, the search much smaller. A tricks
//! goal is bounded by the tricks left less those another player's trumps stronger than any the
//! player can still get must take from it (refutations of a fully known position need it).
//!
//! Invariant: answers are memoised per state and need; a memo entry is a proven bound, so the
//! answer never depends on the order the search visited states in.

use std::collections::HashMap;

use super::cards::CardSet;
use super::every::EveryReport;
use super::position::{Position, Target};
use crate::game::{Card, DrawOrder, MAX_PLAYERS, Suit, beats};

/// Whether the unknown cards are ours to choose or the adversary's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// For some completion of the unknown cards.
    Some,
    /// For every completion of the unknown cards.
    Every,
}

/// What the player must reach (see [`Target`]).
pub type Goal = Target;

pub use super::answer::{Answer, Completion, Witness, WitnessTrick};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    hands: [u64; MAX_PLAYERS],
    unknown: [u8; MAX_PLAYERS],
    pool: u64,
    next: u8,
    leader: u8,
}

/// The search over one position and goal.
pub struct Feasibility<'p> {
    pos: &'p Position,
    mode: Mode,
    n: usize,
    trump: Option<Suit>,
    memo: HashMap<State, (i16, i16)>,
    /// Search nodes visited (trick boundaries and card choices).
    pub nodes: u64,
    /// The most nodes the search may visit; past it every open question answers "not
    /// reachable" and nothing more is memoised (see [`Feasibility::exhausted`]).
    budget: u64,
    /// Whether the search hit its budget: its "no" answers are then not proofs.
    pub exhausted: bool,
    found: Option<WitnessTrick>,
    /// For a tricks goal: the tricks left at the root minus the trick by which the goal must be
    /// met (0: by the end).
    spare: usize,
    /// The trumps as bits, strongest first (empty without a trump suit, or when a claim may end
    /// the game before every card is played: see [`Feasibility::forced_losses`]).
    trumps_desc: Vec<u64>,
}

/// The default node budget of [`Feasibility::some`] and [`Feasibility::every`]: a few seconds
/// and well under a gigabyte of memo on this machine's positions.
pub const DEFAULT_MAX_NODES: u64 = 20_000_000;

impl<'p> Feasibility<'p> {
    /// A search over `pos` in `mode`.
    pub fn new(pos: &'p Position, mode: Mode) -> Feasibility<'p> {
        Feasibility {
            pos,
            mode,
            n: pos.players(),
            trump: pos.trump,
            memo: HashMap::new(),
            nodes: 0,
            budget: u64::MAX,
            exhausted: false,
            found: None,
            spare: 0,
            trumps_desc: match pos.trump {
                Some(t) if pos.rules.spec().target.is_none() => {
                    let mut trumps: Vec<Card> = Card::all().filter(|c| c.suit() == t).collect();
                    trumps.sort_by_key(|c| c.strength());
                    trumps.iter().map(|c| 1u64 << c.id()).collect()
                }
                _ => Vec::new(),
            },
        }
    }

    /// Search `pos` in mode `Some` asking a tricks goal of k tricks by trick k, then k + 1, ...,
    /// then by the end (a points goal: by the end only), within `budget` nodes in all: a line
    /// that exists is usually found by an early deadline in far fewer nodes, and the first found
    /// meets the goal as early as any line can; only the last search can say "no". Returns
    /// the last search run (its witness is the line found), whether it reached the goal, and
    /// the nodes of all the searches.
    pub fn earliest(pos: &'p Position, budget: u64) -> (Feasibility<'p>, bool, u64) {
        Feasibility::earliest_by(pos, budget, pos.tricks_left())
    }

    /// [`Feasibility::earliest`] with no deadline past trick `last` (its "no" then says only
    /// that no line meets the goal by then).
    fn earliest_by(pos: &'p Position, budget: u64, last: usize) -> (Feasibility<'p>, bool, u64) {
        let first = match pos.target {
            Target::Tricks(k) if (k as usize) <= last => k as usize,
            _ => last,
        };
        let mut nodes = 0;
        let mut deadline = first;
        loop {
            let mut f = Feasibility::new(pos, Mode::Some)
                .with_budget(budget - nodes)
                .by_trick(deadline);
            let reached = f.reachable();
            nodes += f.nodes.min(budget - nodes);
            if reached || f.exhausted || deadline >= last {
                return (f, reached, nodes);
            }
            deadline += 1;
        }
    }

    /// `line` (a witness of a tricks goal), or a line that meets the goal sooner, the soonest
    /// [`Feasibility::earliest_by`] finds within `budget` nodes.
    fn sooner(pos: &Position, line: Witness, budget: u64) -> Witness {
        let Target::Tricks(k) = pos.target else {
            return line;
        };
        if line.len() <= (k as usize).max(1) {
            return line;
        }
        match Feasibility::earliest_by(pos, budget, line.len() - 1) {
            (mut f, true, _) => f.witness(),
            _ => line,
        }
    }

    /// The same search asking a tricks goal to be met within the first `tricks` tricks from
    /// the position (a line found so reaches the goal; "no" says only that it does not by
    /// then). No effect on a points goal.
    pub fn by_trick(mut self, tricks: usize) -> Self {
        self.spare = self.pos.tricks_left().saturating_sub(tricks);
        self
    }

    /// The same search stopping after `nodes` search nodes.
    pub fn with_budget(mut self, nodes: u64) -> Self {
        self.budget = nodes;
        self
    }

    fn root(&self) -> State {
        let mut st = State {
            hands: [0; MAX_PLAYERS],
            unknown: [0; MAX_PLAYERS],
            pool: self.pos.pool().0,
            next: 0,
            leader: self.pos.leader as u8,
        };
        for (p, (h, &u)) in self.pos.hands.iter().zip(&self.pos.unknown).enumerate() {
            st.hands[p] = h.0;
            st.unknown[p] = u;
        }
        st
    }

    fn need(&self) -> i32 {
        match self.pos.target {
            Target::Tricks(k) => k as i32,
            Target::Points(p) => p as i32,
        }
    }

    /// Whether the goal is reachable in this search's mode (the lazy reading for `Every`).
    pub fn reachable(&mut self) -> bool {
        let root = self.root();
        self.can(root, self.need())
    }

    /// The answer for some completion, with a witness line when it is yes; the search visits
    /// at most `max_nodes` nodes, and a quarter more looking for a shorter witness: for a
    /// tricks goal the witness meets it as early as any line can when those searches end within
    /// that quarter (the answer never depends on them).
    pub fn some(pos: &Position, max_nodes: u64) -> Answer {
        let mut f = Feasibility::new(pos, Mode::Some).with_budget(max_nodes);
        if f.reachable() {
            let line = f.witness();
            Answer::Yes(Some(Feasibility::sooner(pos, line, max_nodes / 4)))
        } else if f.exhausted {
            Answer::OutOfBudget { nodes: max_nodes }
        } else {
            Answer::No(None)
        }
    }

    /// The answer for every completion of the unknown cards, exact (see [`super::every`]):
    /// `Yes(None)` is a proof that every completion has a line reaching the goal; `No(Some(c))`
    /// names a completion `c` with no such line (`No(None)`: the position has no unknown card
    /// and no line); [`Answer::OutOfBudget`] when the searches together visit more than
    /// `max_nodes` nodes. Never [`Answer::Undetermined`].
    pub fn every(pos: &Position, max_nodes: u64) -> Answer {
        super::every::every(pos, max_nodes).answer
    }

    /// [`Feasibility::every`] with what it cost: search nodes, SAT conflicts and completions
    /// searched.
    pub fn every_report(pos: &Position, max_nodes: u64) -> EveryReport {
        super::every::every(pos, max_nodes)
    }

    fn upper_bound(&self, st: &State) -> i32 {
        match self.pos.target {
            Target::Tricks(_) => {
                let held: u32 = (0..self.n)
                    .map(|p| st.hands[p].count_ones() + st.unknown[p] as u32)
                    .sum();
                let left = (held as usize + self.pos.stock.len() - st.next as usize) / self.n;
                left.saturating_sub(self.spare.max(self.forced_losses(st))) as i32
            }
            Target::Points(_) => {
                let mut live = st.hands[..self.n].iter().fold(st.pool, |m, h| m | h);
                for c in self.pos.stock[st.next as usize..].iter().flatten() {
                    live |= 1u64 << c.id();
                }
                CardSet(live).points() as i32
            }
        }
    }

    /// Tricks the player cannot win whatever the line: another player's trump stronger than
    /// every trump the player holds or might still get (its hand, the stock, the unknown cards)
    /// wins the trick it is played to, and every card is played by the end, one a trick; so a
    /// player holding m such trumps takes m tricks from the player (the most over the players;
    /// with a deadline, up to `spare` of them may fall after it, hence the caller's max).
    fn forced_losses(&self, st: &State) -> usize {
        let me = self.pos.player;
        let mut reach = st.hands[me] | st.pool;
        for c in self.pos.stock[st.next as usize..].iter().flatten() {
            reach |= 1u64 << c.id();
        }
        let mut above = 0u64;
        for &t in &self.trumps_desc {
            if reach & t != 0 {
                break;
            }
            above |= t;
        }
        (0..self.n)
            .filter(|&p| p != me)
            .map(|p| (st.hands[p] & above).count_ones() as usize)
            .max()
            .unwrap_or(0)
    }

    fn can(&mut self, st: State, need: i32) -> bool {
        self.nodes += 1;
        if need <= 0 {
            return true;
        }
        if self.nodes > self.budget {
            self.exhausted = true;
        }
        if self.exhausted {
            return false;
        }
        if need > self.upper_bound(&st) {
            return false;
        }
        let (lo, hi) = self.memo.get(&st).copied().unwrap_or((0, i16::MAX));
        if need <= lo as i32 {
            return true;
        }
        if need > hi as i32 {
            return false;
        }
        let mut cards = [(0usize, Card::from_id(0).expect("card 0"), false); MAX_PLAYERS];
        let ok = self.trick(st, 0, &mut cards, 0, need, false);
        if self.exhausted && !ok {
            return false; // not a proof: remember nothing
        }
        let e = self.memo.entry(st).or_insert((0, i16::MAX));
        if ok {
            e.0 = e.0.max(need as i16);
        } else {
            e.1 = e.1.min(need as i16 - 1);
        }
        ok
    }

    /// Choose the `k`-th card of the trick (earlier ones in `cards`, the best so far at
    /// `best`); at the end, settle the trick, draw, and ask for the rest of the goal. With
    /// `record`, the first successful trick is kept in `self.found`.
    fn trick(
        &mut self,
        st: State,
        k: usize,
        cards: &mut [(usize, Card, bool); MAX_PLAYERS],
        best: usize,
        need: i32,
        record: bool,
    ) -> bool {
        if self.exhausted {
            return false;
        }
        if k == self.n {
            let (child, gain, winner) = self.settle(st, cards, best);
            let ok = self.can(child, need - gain);
            if ok && record {
                self.found = Some(WitnessTrick {
                    leader: st.leader as usize,
                    cards: cards[..self.n].to_vec(),
                    winner,
                });
            }
            return ok;
        }
        self.nodes += 1;
        let seat = (st.leader as usize + k) % self.n;
        let trump = self.trump;
        let better = |c: Card, cards: &[(usize, Card, bool)]| {
            if k > 0 && beats(cards[best].1, c, trump) {
                k
            } else {
                best
            }
        };
        for c in CardSet(st.hands[seat]).iter() {
            let mut s = st;
            s.hands[seat] &= !(1u64 << c.id());
            cards[k] = (seat, c, false);
            let b = better(c, &cards[..]);
            if self.trick(s, k + 1, cards, b, need, record) {
                return true;
            }
        }
        if st.unknown[seat] == 0 {
            return false;
        }
        // A later reveal in this trick could come from the same class, so their order would
        // matter: then every unknown card is its own choice.
        let later = (k + 1..self.n).any(|j| st.unknown[(st.leader as usize + j) % self.n] > 0);
        let table = cards[..k].iter().fold(0u64, |m, c| m | 1u64 << c.1.id());
        let classes = if later {
            CardSet(st.pool).iter().collect()
        } else {
            self.reveal_classes(&st, table)
        };
        let mut all = true;
        for c in classes {
            let mut s = st;
            s.unknown[seat] -= 1;
            s.pool &= !(1u64 << c.id());
            cards[k] = (seat, c, true);
            let b = better(c, &cards[..]);
            let ok = self.trick(s, k + 1, cards, b, need, record);
            match self.mode {
                Mode::Some if ok => return true,
                Mode::Every if !ok => {
                    all = false;
                    break;
                }
                _ => {}
            }
        }
        self.mode == Mode::Every && all
    }

    /// The state after the trick in `cards` (best card at `best`): the points or trick it
    /// gives the player, and its winner.
    fn settle(&self, st: State, cards: &[(usize, Card, bool)], best: usize) -> (State, i32, usize) {
        let winner = cards[best].0;
        let gain = if winner == self.pos.player {
            match self.pos.target {
                Target::Tricks(_) => 1,
                Target::Points(_) => cards[..self.n].iter().map(|c| c.1.points() as i32).sum(),
            }
        } else {
            0
        };
        let mut s = st;
        if (s.next as usize) < self.pos.stock.len() {
            let first = match self.pos.draw_order() {
                DrawOrder::WinnerFirst => winner,
                DrawOrder::LoserFirst => winner + 1,
            };
            for i in 0..self.n {
                let p = (first + i) % self.n;
                match self.pos.stock[s.next as usize] {
                    Some(c) => s.hands[p] |= 1u64 << c.id(),
                    None => s.unknown[p] += 1,
                }
                s.next += 1;
            }
        }
        s.leader = winner as u8;
        (s, gain, winner)
    }

    /// One representative per class of interchangeable unknown cards: per suit, from the
    /// strongest down, unknown cards with no live known card (in a hand, the stock or on the
    /// table, `table`) between them, and equal points for a points goal, form one class. Only
    /// for the last reveal of a trick: two reveals of one trick from one class are not
    /// interchangeable with each other.
    fn reveal_classes(&self, st: &State, table: u64) -> Vec<Card> {
        let mut live_known = st.hands[..self.n].iter().fold(table, |m, h| m | h);
        for c in self.pos.stock[st.next as usize..].iter().flatten() {
            live_known |= 1u64 << c.id();
        }
        let by_points = matches!(self.pos.target, Target::Points(_));
        let mut out = Vec::new();
        for suit in Suit::ALL {
            let mut open: Option<Card> = None;
            for rank in STRENGTH_ORDER {
                let c = Card::new(suit, rank).expect("a rank");
                let bit = 1u64 << c.id();
                if st.pool & bit != 0 {
                    let same = open.is_some_and(|o| !by_points || o.points() == c.points());
                    if !same {
                        out.push(c);
                        open = Some(c);
                    }
                } else if live_known & bit != 0 {
                    open = None;
                }
            }
        }
        out
    }

    /// The witness line of a reachable goal (mode `Some`), trick by trick.
    fn witness(&mut self) -> Witness {
        let mut st = self.root();
        let mut need = self.need();
        let mut line = Vec::new();
        while need > 0 {
            self.found = None;
            let mut cards = [(0usize, Card::from_id(0).expect("card 0"), false); MAX_PLAYERS];
            if !self.trick(st, 0, &mut cards, 0, need, true) {
                break;
            }
            let Some(t) = self.found.take() else { break };
            let played: Vec<(usize, Card, bool)> = t.cards.clone();
            for &(p, c, revealed) in &played {
                st.hands[p] &= !(1u64 << c.id());
                if revealed {
                    st.unknown[p] -= 1;
                    st.pool &= !(1u64 << c.id());
                }
            }
            let best = played
                .iter()
                .position(|x| x.0 == t.winner)
                .expect("winner played");
            let (child, gain, _) = self.settle(st, &played, best);
            st = child;
            need -= gain;
            line.push(t);
        }
        line
    }
}

/// Ranks from the strongest to the weakest (Table 1).
const STRENGTH_ORDER: [u8; 10] = [1, 3, 10, 9, 8, 7, 6, 5, 4, 2];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RulesSpec;
    use proptest::prelude::*;

    /// The most the player can reach from a position without unknown cards: every line of
    /// play, no memo, no pruning (the reference).
    fn brute(pos: &Position, hands: &[CardSet], next: usize, leader: usize) -> i32 {
        let n = pos.players();
        if hands.iter().all(|h| h.is_empty()) {
            return 0;
        }
        let mut best = 0;
        let mut cards = vec![];
        all_tricks(
            pos,
            hands,
            leader,
            0,
            &mut cards,
            &mut |trick: &[Card]| {
                let mut b = 0;
                for k in 1..n {
                    if beats(trick[b], trick[k], pos.trump) {
                        b = k;
                    }
                }
                let winner = (leader + b) % n;
                let gain = match (winner == pos.player, pos.target) {
                    (false, _) => 0,
                    (true, Target::Tricks(_)) => 1,
                    (true, Target::Points(_)) => trick.iter().map(|c| c.points() as i32).sum(),
                };
                let mut h: Vec<CardSet> = hands.to_vec();
                for (k, &c) in trick.iter().enumerate() {
                    let p = (leader + k) % n;
                    h[p] = h[p].without(c);
                }
                let mut nx = next;
                if nx < pos.stock.len() {
                    let first = match pos.draw_order() {
                        DrawOrder::WinnerFirst => winner,
                        DrawOrder::LoserFirst => winner + 1,
                    };
                    for i in 0..n {
                        let p = (first + i) % n;
                        h[p] = h[p].with(pos.stock[nx].unwrap());
                        nx += 1;
                    }
                }
                best = best.max(gain + brute(pos, &h, nx, winner));
            },
        );
        best
    }

    fn all_tricks(
        pos: &Position,
        hands: &[CardSet],
        leader: usize,
        k: usize,
        cards: &mut Vec<Card>,
        f: &mut dyn FnMut(&[Card]),
    ) {
        let n = pos.players();
        if k == n {
            f(cards);
            return;
        }
        for c in hands[(leader + k) % n].iter() {
            cards.push(c);
            all_tricks(pos, hands, leader, k + 1, cards, f);
            cards.pop();
        }
    }

    /// Every completion of the unknown cards, as full positions.
    fn completions(pos: &Position) -> Vec<Position> {
        fn perms(v: &mut [Card], k: usize, out: &mut Vec<Vec<Card>>) {
            if k == v.len() {
                out.push(v.to_vec());
            }
            for i in k..v.len() {
                v.swap(k, i);
                perms(v, k + 1, out);
                v.swap(k, i);
            }
        }
        let mut orders = Vec::new();
        perms(&mut pos.pool().iter().collect::<Vec<_>>(), 0, &mut orders);
        orders
            .into_iter()
            .map(|order| {
                let mut it = order.into_iter();
                let mut full = pos.clone();
                for p in 0..pos.players() {
                    for _ in 0..pos.unknown[p] {
                        full.hands[p] = full.hands[p].with(it.next().unwrap());
                    }
                    full.unknown[p] = 0;
                }
                for slot in full.stock.iter_mut().filter(|s| s.is_none()) {
                    *slot = it.next();
                }
                full
            })
            .collect()
    }

    fn need(pos: &Position) -> i32 {
        match pos.target {
            Target::Tricks(k) => k as i32,
            Target::Points(p) => p as i32,
        }
    }

    prop_compose! {
        fn small_position()(perm in Just((0u8..40).collect::<Vec<_>>()).prop_shuffle(),
                            n in prop::sample::select(vec![2usize, 4]), h in 1usize..=2, draws in 0usize..=1,
                            hidden in prop::collection::vec(prop::bool::weighted(0.3), 4),
                            stock_hidden in prop::collection::vec(prop::bool::weighted(0.5), 4),
                            leader in 0usize..4, player in 0usize..4, trump in 0u8..4,
                            loser_first in any::<bool>(), points in any::<bool>(),
                            goal in 1u16..200) -> Position {
            let cards: Vec<Card> = perm.iter().map(|&i| Card::from_id(i).unwrap()).collect();
            let rules = RulesSpec { players: n as u8, draw_order: if loser_first { DrawOrder::LoserFirst } else { DrawOrder::WinnerFirst }, ..RulesSpec::default() }.validate().unwrap();
            let mut it = cards.into_iter();
            let mut pos = Position {
                rules,
                trump: Some(Suit::from_index(trump)),
                leader: leader % n,
                hands: vec![],
                unknown: vec![],
                played: CardSet::EMPTY,
                stock: vec![],
                player: player % n,
                target: Target::Tricks(1),
            };
            let mut pool = 0;
            for &hide in &hidden[..n] {
                let u = (hide && pool < 4) as usize;
                pool += u;
                pos.hands.push(CardSet::of(&it.by_ref().take(h - u).collect::<Vec<_>>()));
                pos.unknown.push(u as u8);
            }
            for &hide in &stock_hidden[..n * draws] {
                if hide && pool < 4 {
                    pool += 1;
                    pos.stock.push(None);
                } else {
                    pos.stock.push(it.next());
                }
            }
            // The pool: as many cards as unknown places; everything else is out of play.
            let rest: Vec<Card> = it.collect();
            pos.played = CardSet::of(&rest[pool..]);
            let live = (pos.hands.iter().map(|h| h.len() as usize).sum::<usize>() + pool + pos.stock.iter().flatten().count()) as u16;
            pos.target = if points {
                let pts = CardSet(!pos.played.0 & CardSet::ALL.0).points() as u16;
                Target::Points(1 + goal % pts.max(1))
            } else {
                Target::Tricks(1 + goal % (live / n as u16))
            };
            pos
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn feasibility_agrees_with_brute_force_enumeration(pos in small_position()) {
            let need = need(&pos);
            let best: Vec<i32> = completions(&pos)
                .iter()
                .map(|f| brute(f, &f.hands, 0, f.leader))
                .collect();
            let some = best.iter().any(|&b| b >= need);
            let every = best.iter().all(|&b| b >= need);
            prop_assert_eq!(Feasibility::new(&pos, Mode::Some).reachable(), some);
            let lazy = Feasibility::new(&pos, Mode::Every).reachable();
            prop_assert!(!lazy || every, "the lazy proof is sound");
            if pos.pool().is_empty() {
                prop_assert_eq!(lazy, every);
            }
            match Feasibility::every(&pos, u64::MAX) {
                Answer::Yes(_) => prop_assert!(every),
                Answer::No(_) => prop_assert!(!every),
                other => prop_assert!(false, "every is exact without a budget: {:?}", other),
            }
            // A search cut short by its node budget never answers wrongly: its yes and no are
            // still proofs, and it says when it ran out.
            for budget in [5, 40, 300] {
                match Feasibility::some(&pos, budget) {
                    Answer::Yes(_) => prop_assert!(some),
                    Answer::No(_) => prop_assert!(!some),
                    Answer::Undetermined { .. } => prop_assert!(false, "some is never undetermined"),
                    Answer::OutOfBudget { nodes } => prop_assert_eq!(nodes, budget),
                }
                match Feasibility::every(&pos, budget) {
                    Answer::Yes(_) => prop_assert!(every),
                    Answer::No(_) => prop_assert!(!every),
                    Answer::Undetermined { .. } | Answer::OutOfBudget { .. } => {}
                }
            }
            if let Answer::Yes(Some(line)) = Feasibility::some(&pos, u64::MAX) {
                prop_assert!(some);
                // The witness is a legal line reaching the goal.
                let mut got = 0;
                let mut leader = pos.leader;
                for t in &line {
                    prop_assert_eq!(t.leader, leader);
                    let mut b = 0;
                    for k in 1..t.cards.len() {
                        if beats(t.cards[b].1, t.cards[k].1, pos.trump) {
                            b = k;
                        }
                    }
                    prop_assert_eq!(t.cards[b].0, t.winner);
                    if t.winner == pos.player {
                        got += match pos.target {
                            Target::Tricks(_) => 1,
                            Target::Points(_) => t.cards.iter().map(|c| c.1.points() as i32).sum(),
                        };
                    }
                    leader = t.winner;
                }
                prop_assert!(got >= need, "witness reaches {} of {}", got, need);
                // A tricks goal's witness meets it as early as any line can.
                if matches!(pos.target, Target::Tricks(_)) && line.len() > 1 {
                    let mut sooner = Feasibility::new(&pos, Mode::Some).by_trick(line.len() - 1);
                    prop_assert!(!sooner.reachable(), "a line meets the goal sooner");
                }
            } else {
                prop_assert!(!some);
            }
        }
    }

    /// The logic model's seed asking all ten tricks: Player-3 holds the Ace of Swords, the
    /// strongest trump, so whatever the line Player-1 loses the trick it is played to; the
    /// bound says "no" at the root, where the search alone runs out of a small budget.
    #[test]
    fn a_stronger_trump_in_another_hand_costs_the_player_a_trick() {
        let pos = crate::solve::test_positions::seed(10);
        let f = Feasibility::new(&pos, Mode::Some);
        assert_eq!(f.forced_losses(&f.root()), 1);
        assert_eq!(Feasibility::some(&pos, 100), Answer::No(None));
        let nine = crate::solve::test_positions::seed(9);
        assert!(matches!(
            Feasibility::some(&nine, 100),
            Answer::OutOfBudget { .. } | Answer::Yes(_)
        ));
    }

    #[test]
    fn reveal_classes_merge_unknown_cards_with_no_known_card_between_them() {
        let rules = RulesSpec {
            players: 2,
            ..RulesSpec::default()
        }
        .validate()
        .unwrap();
        let c = |s, r| Card::new(s, r).unwrap();
        // Coppe: Ace and Three unknown (adjacent), King known, Knight unknown.
        let pool = CardSet::of(&[c(Suit::Coppe, 1), c(Suit::Coppe, 3), c(Suit::Coppe, 9)]);
        let pos = Position {
            rules,
            trump: Some(Suit::Spade),
            leader: 0,
            hands: vec![CardSet::of(&[c(Suit::Coppe, 10)]), CardSet::EMPTY],
            unknown: vec![0, 1],
            played: CardSet(CardSet::ALL.0 & !pool.0 & !CardSet::of(&[c(Suit::Coppe, 10)]).0),
            stock: vec![None, None],
            player: 0,
            target: Target::Tricks(1),
        };
        let f = Feasibility::new(&pos, Mode::Some);
        let st = f.root();
        assert_eq!(
            f.reveal_classes(&st, 0),
            vec![c(Suit::Coppe, 1), c(Suit::Coppe, 9)]
        );
        let pos = Position {
            target: Target::Points(1),
            ..pos
        };
        let f = Feasibility::new(&pos, Mode::Some);
        assert_eq!(
            f.reveal_classes(&st, 0).len(),
            3,
            "Ace (11) and Three (10) differ in points"
        );
    }
}
