//! The existential line search over a region of completions (a domain of cards per slot): is
//! there a completion in the region and a line of everybody's play on it that reaches the
//! goal? The searcher picks each slot's card when its holder plays it, from the slot's domain
//! and the cards not yet placed;
//! it does not check that the slots left can still be filled, so it is a relaxation: its "no"
//! holds for every completion of the region, its "yes" comes with a line ([`LineTrick`]s, each
//! card with the slot it filled) that [`super::every`] generalises.
//!
//! Lines are sought by increasing length (iterative deepening), and three cuts keep the
//! search small, all exact: cards of one hand with no live card between them (and, for a
//! points goal, equal points) are one move; the last unknown card of a trick is chosen once
//! per class of pool cards that no live known card separates and that the slots left cannot
//! tell apart; and when a tricks goal needs every trick left, a trick is dropped as soon as
//! the player has lost it.
//!
//! Invariant: a memo entry is a proven bound for its state under this search's domains and
//! length limit (the memo is cleared when the limit changes), so the answer never depends on
//! the order the search visited states in.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::cards::CardSet;
use super::position::Target;
use super::slots::{Layout, Place};
use crate::game::{Card, DrawOrder, MAX_PLAYERS, Suit, beats};

/// One card of a line: the seat, the card and the slot it filled (`None`: a known card).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Play {
    /// The seat (0-based).
    pub seat: u8,
    /// The card.
    pub card: Card,
    /// The slot whose card it is, if it was unknown.
    pub slot: Option<u8>,
}

/// One trick of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct LineTrick {
    /// The cards in playing order.
    pub plays: Vec<Play>,
    /// Index in `plays` of the winning card.
    pub best: usize,
    /// Whether the goal's player won it.
    pub won: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// A completion of the region and a line on it reaching the goal.
    Line(Vec<LineTrick>),
    /// No completion of the region has such a line.
    Not,
    /// The node budget ran out first.
    Budget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct St {
    hands: [u64; MAX_PLAYERS],
    slots: [u64; MAX_PLAYERS],
    pool: u64,
    next: u8,
    leader: u8,
}

/// A word-at-a-time multiply-rotate hasher for [`St`].
#[derive(Default, Clone, Copy)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    #[inline]
    fn write_u8(&mut self, w: u8) {
        self.write_u64(w as u64);
    }

    #[inline]
    fn write_usize(&mut self, w: usize) {
        self.write_u64(w as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let x = self.0 ^ (self.0 >> 29);
        x.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (x >> 32)
    }
}

/// Candidate plays of one seat, best first.
struct Moves {
    plays: [Play; 80],
    score: [i16; 80],
    len: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            plays: [NO_PLAY; 80],
            score: [0; 80],
            len: 0,
        }
    }

    fn push(&mut self, play: Play, score: i16) {
        let mut i = self.len;
        while i > 0 && self.score[i - 1] < score {
            self.plays[i] = self.plays[i - 1];
            self.score[i] = self.score[i - 1];
            i -= 1;
        }
        self.plays[i] = play;
        self.score[i] = score;
        self.len += 1;
    }
}

/// Ranks from the strongest to the weakest (Table 1).
const STRENGTH_ORDER: [u8; 10] = [1, 3, 10, 9, 8, 7, 6, 5, 4, 2];

/// A placeholder play for empty table places.
const NO_PLAY: Play = Play {
    seat: 0,
    card: match Card::from_id(0) {
        Some(c) => c,
        None => unreachable!(),
    },
    slot: None,
};

/// Whether `player` has played to the trick on `table` (best card at `best`) and lost it.
fn lost(table: &[Play], best: usize, player: usize) -> bool {
    table.iter().any(|p| p.seat as usize == player) && table[best].seat as usize != player
}

/// The set bits of `m`, lowest first.
pub(super) fn bits(mut m: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let b = m.trailing_zeros() as u8;
        m &= m - 1;
        Some(b)
    })
}

/// The search over one layout and region.
pub(super) struct OpenSearch<'a> {
    lay: &'a Layout,
    dom: &'a [u64],
    /// For each card, the slots whose domain holds it.
    member: [u64; 64],
    /// Known stock cards from each stock index on.
    known_from: Vec<u64>,
    /// Stock slots from each stock index on.
    slots_from: Vec<u64>,
    memo: HashMap<St, (i16, i16), BuildHasherDefault<WordHasher>>,
    /// Nodes visited (trick boundaries and card choices).
    pub nodes: u64,
    budget: u64,
    exhausted: bool,
    found: Option<LineTrick>,
    /// Tricks that must be left when the line ends (the deepening's current limit).
    floor: usize,
    /// Whether the trick being chosen must go to the goal's player.
    must_win: bool,
}

impl<'a> OpenSearch<'a> {
    /// A search of `lay` over the completions whose slot `s` holds a card of `dom[s]`, visiting
    /// at most `budget` nodes.
    pub fn new(lay: &'a Layout, dom: &'a [u64], budget: u64) -> OpenSearch<'a> {
        let mut member = [0u64; 64];
        for (s, &d) in dom.iter().enumerate() {
            for c in CardSet(d).iter() {
                member[c.id() as usize] |= 1u64 << s;
            }
        }
        let k = lay.stock.len();
        let (mut known_from, mut slots_from) = (vec![0u64; k + 1], vec![0u64; k + 1]);
        for i in (0..k).rev() {
            known_from[i] = known_from[i + 1];
            slots_from[i] = slots_from[i + 1];
            match lay.stock[i] {
                Place::Card(c) => known_from[i] |= 1u64 << c.id(),
                Place::Slot(s) => slots_from[i] |= 1u64 << s,
            }
        }
        OpenSearch {
            lay,
            dom,
            member,
            known_from,
            slots_from,
            memo: HashMap::default(),
            nodes: 0,
            budget,
            exhausted: false,
            found: None,
            floor: 0,
            must_win: false,
        }
    }

    fn root(&self) -> St {
        let pool = self.dom.iter().fold(0, |m, d| m | d);
        St {
            hands: self.lay.hands,
            slots: self.lay.hand_slots,
            pool: pool & self.lay.pool,
            next: 0,
            leader: self.lay.leader as u8,
        }
    }

    /// Search: a line (with the completion's cards it uses), no, or out of budget. Lines
    /// are sought by increasing length (iterative deepening on the trick by which the goal is
    /// met), so a line found is a shortest one and a short line is found without first
    /// proving long ones fail.
    pub fn run(&mut self) -> Found {
        let root = self.root();
        let need = self.lay.need();
        let total = self.remaining(&root);
        let shortest = match self.lay.target {
            Target::Tricks(k) => k as usize,
            Target::Points(_) => 1,
        };
        for len in shortest.min(total)..=total {
            self.floor = total - len;
            self.memo.clear();
            if self.can(root, need) {
                // The memo proves the line: replaying it needs no budget (a cut replay
                // would return a line short of the goal).
                self.budget = u64::MAX;
                self.exhausted = false;
                return match self.line(root, need) {
                    Some(line) => Found::Line(line),
                    None => Found::Budget,
                };
            }
            if self.exhausted {
                return Found::Budget;
            }
        }
        Found::Not
    }

    /// Tricks left to play from `st`.
    fn remaining(&self, st: &St) -> usize {
        let n = self.lay.n;
        let held: u32 = (0..n)
            .map(|p| st.hands[p].count_ones() + st.slots[p].count_ones())
            .sum();
        (held as usize + self.lay.stock.len() - st.next as usize) / n
    }

    /// The most the goal's player can still gain from `st` before the line's last trick.
    fn upper_bound(&self, st: &St) -> i32 {
        let open = self.remaining(st).saturating_sub(self.floor) as i32;
        match self.lay.target {
            Target::Tricks(_) => open,
            Target::Points(_) if open == 0 => 0,
            Target::Points(_) => {
                let n = self.lay.n;
                let live = st.hands[..n].iter().fold(st.pool, |m, h| m | h)
                    | self.known_from[st.next as usize];
                CardSet(live).points() as i32
            }
        }
    }

    fn can(&mut self, st: St, need: i32) -> bool {
        self.nodes += 1;
        if need <= 0 {
            return true;
        }
        if self.nodes > self.budget {
            self.exhausted = true;
        }
        if self.exhausted || need > self.upper_bound(&st) {
            return false;
        }
        let (lo, hi) = self.memo.get(&st).copied().unwrap_or((0, i16::MAX));
        if need <= lo as i32 {
            return true;
        }
        if need > hi as i32 {
            return false;
        }
        let mut table = [NO_PLAY; MAX_PLAYERS];
        let outer = self.must_win;
        // A tricks goal that needs every trick left: a trick the player loses is cut at once.
        self.must_win =
            matches!(self.lay.target, Target::Tricks(_)) && need >= self.upper_bound(&st);
        let ok = self.trick(st, 0, &mut table, 0, need, false);
        self.must_win = outer;
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

    /// Choose the `k`-th card of the trick (earlier ones in `table`, the best so far at
    /// `best`); at the end, settle the trick and ask for the rest of the goal. With `record`,
    /// the first successful trick is kept in `self.found`.
    fn trick(
        &mut self,
        st: St,
        k: usize,
        table: &mut [Play; MAX_PLAYERS],
        best: usize,
        need: i32,
        record: bool,
    ) -> bool {
        if self.exhausted {
            return false;
        }
        if k == self.lay.n {
            let (child, gain) = self.settle(st, table, best);
            let ok = self.can(child, need - gain);
            if ok && record {
                self.found = Some(LineTrick {
                    plays: table[..k].to_vec(),
                    best,
                    won: table[best].seat as usize == self.lay.player,
                });
            }
            return ok;
        }
        self.nodes += 1;
        let seat = (st.leader as usize + k) % self.lay.n;
        let mut moves = Moves::new();
        self.moves(&st, seat, k, &table[..k], best, &mut moves);
        for &m in &moves.plays[..moves.len] {
            let mut s = st;
            let bit = 1u64 << m.card.id();
            match m.slot {
                None => s.hands[seat] &= !bit,
                Some(x) => {
                    s.slots[seat] &= !(1u64 << x);
                    s.pool &= !bit;
                }
            }
            table[k] = m;
            let b = if k > 0 && beats(table[best].card, m.card, self.lay.trump) {
                k
            } else {
                best
            };
            if self.must_win && lost(&table[..=k], b, self.lay.player) {
                continue;
            }
            if self.trick(s, k + 1, table, b, need, record) {
                return true;
            }
        }
        false
    }

    /// The state after the trick on `table` (best card at `best`) and what it gives the
    /// goal's player.
    fn settle(&self, st: St, table: &[Play], best: usize) -> (St, i32) {
        let n = self.lay.n;
        let winner = table[best].seat as usize;
        let gain = if winner == self.lay.player {
            match self.lay.target {
                Target::Tricks(_) => 1,
                Target::Points(_) => table[..n].iter().map(|p| p.card.points() as i32).sum(),
            }
        } else {
            0
        };
        let mut s = st;
        if (s.next as usize) < self.lay.stock.len() {
            let first = match self.lay.draw {
                DrawOrder::WinnerFirst => winner,
                DrawOrder::LoserFirst => winner + 1,
            };
            for i in 0..n {
                let p = (first + i) % n;
                match self.lay.stock[s.next as usize] {
                    Place::Card(c) => s.hands[p] |= 1u64 << c.id(),
                    Place::Slot(x) => s.slots[p] |= 1u64 << x,
                }
                s.next += 1;
            }
        }
        s.leader = winner as u8;
        (s, gain)
    }

    /// The candidate plays of `seat` as the `k`-th card of the trick, best first.
    fn moves(&self, st: &St, seat: usize, k: usize, table: &[Play], best: usize, out: &mut Moves) {
        let on_table = table.iter().fold(0u64, |m, p| m | 1u64 << p.card.id());
        let known = st.hands[..self.lay.n].iter().fold(on_table, |m, h| m | h)
            | self.known_from[st.next as usize];
        for c in self.distinct_in_hand(st.hands[seat], known | st.pool) {
            let play = Play {
                seat: seat as u8,
                card: c,
                slot: None,
            };
            out.push(play, self.score(seat, k, table, best, c) + 1000);
        }
        let later =
            (k + 1..self.lay.n).any(|j| st.slots[(st.leader as usize + j) % self.lay.n] != 0);
        let mut done = 0u64;
        for s in bits(st.slots[seat]) {
            let values = self.dom[s as usize] & st.pool;
            // Two slots of one hand with the same domain are the same choice.
            if bits(done).any(|t| self.dom[t as usize] & st.pool == values) {
                continue;
            }
            done |= 1u64 << s;
            let cards = if later {
                values
            } else {
                self.representatives(st, s, values, known)
            };
            for c in CardSet(cards).iter() {
                let play = Play {
                    seat: seat as u8,
                    card: c,
                    slot: Some(s),
                };
                out.push(play, self.score(seat, k, table, best, c));
            }
        }
    }

    /// The cards of `hand`, one per run of cards with no other `live` card between them (and
    /// equal points for a points goal).
    fn distinct_in_hand(&self, hand: u64, live: u64) -> impl Iterator<Item = Card> {
        let by_points = matches!(self.lay.target, Target::Points(_));
        let mut keep = 0u64;
        for suit in Suit::ALL {
            let mut prev: Option<Card> = None;
            for rank in STRENGTH_ORDER {
                let c = Card::new(suit, rank).expect("a rank");
                let bit = 1u64 << c.id();
                if hand & bit != 0 {
                    let same = prev.is_some_and(|p| !by_points || p.points() == c.points());
                    if !same {
                        keep |= bit;
                    }
                    prev = Some(c);
                } else if live & bit != 0 {
                    prev = None;
                }
            }
        }
        CardSet(keep).iter()
    }

    /// One card of `values` (the cards slot `s` may reveal) per class: pool cards of a suit
    /// with no `known` live card between them, holding the same place in every other live
    /// slot's domain (and equal points for a points goal).
    fn representatives(&self, st: &St, s: u8, values: u64, known: u64) -> u64 {
        let by_points = matches!(self.lay.target, Target::Points(_));
        let live_slots = (st.slots[..self.lay.n].iter().fold(0, |m, x| m | x)
            | self.slots_from[st.next as usize])
            & !(1u64 << s);
        let mut out = 0u64;
        for suit in Suit::ALL {
            let mut run: Option<(u64, u8, bool)> = None; // (signature, points, taken)
            for rank in STRENGTH_ORDER {
                let c = Card::new(suit, rank).expect("a rank");
                let bit = 1u64 << c.id();
                if st.pool & bit != 0 {
                    let sig = self.member[c.id() as usize] & live_slots;
                    let pts = if by_points { c.points() } else { 0 };
                    let same = run.is_some_and(|(g, p, _)| g == sig && p == pts);
                    let taken = same && run.is_some_and(|r| r.2);
                    let take = values & bit != 0 && !taken;
                    if take {
                        out |= bit;
                    }
                    run = Some((sig, pts, taken || take));
                } else if known & bit != 0 {
                    run = None;
                }
            }
        }
        out
    }

    /// How promising `c` is as `seat`'s `k`-th card (higher first): the goal's player takes
    /// the trick with its weakest winning card; the others play under it, shedding their
    /// strongest harmless cards, or, once the trick is lost to it, their strongest cards.
    fn score(&self, seat: usize, k: usize, table: &[Play], best: usize, c: Card) -> i16 {
        let trump = self.lay.trump;
        let threat = |c: Card| -> i16 {
            let t = trump.is_some_and(|t| c.suit() == t) as i16;
            t * 16 + 9 - c.strength() as i16
        };
        let points = |c: Card| -> i16 {
            match self.lay.target {
                Target::Points(_) => c.points() as i16,
                Target::Tricks(_) => 0,
            }
        };
        let player = self.lay.player;
        let n = self.lay.n;
        let leader = table.first().map_or(seat, |p| p.seat as usize);
        let p1_played = (player + n - leader) % n < k;
        let wins = k == 0 || beats(table[best].card, c, trump);
        if seat == player {
            if wins && k > 0 {
                300 + threat(c)
            } else {
                100 - threat(c) - points(c)
            }
        } else if !p1_played {
            100 - threat(c) - points(c)
        } else if table[best].seat as usize == player {
            if wins {
                50 - threat(c)
            } else {
                200 + threat(c) + 2 * points(c)
            }
        } else {
            100 + threat(c) - points(c)
        }
    }

    /// The line the memo proves, trick by trick (`None` if it falls short of the goal, which
    /// a sound memo never lets happen).
    fn line(&mut self, root: St, need: i32) -> Option<Vec<LineTrick>> {
        let mut st = root;
        let mut need = need;
        let mut out = Vec::new();
        while need > 0 {
            self.found = None;
            self.must_win = false;
            let mut table = [NO_PLAY; MAX_PLAYERS];
            if !self.trick(st, 0, &mut table, 0, need, true) {
                break;
            }
            let Some(t) = self.found.take() else { break };
            for p in &t.plays {
                let bit = 1u64 << p.card.id();
                match p.slot {
                    None => st.hands[p.seat as usize] &= !bit,
                    Some(x) => {
                        st.slots[p.seat as usize] &= !(1u64 << x);
                        st.pool &= !bit;
                    }
                }
            }
            let (child, gain) = self.settle(st, &t.plays, t.best);
            st = child;
            need -= gain;
            out.push(t);
        }
        (need <= 0).then_some(out)
    }
}
