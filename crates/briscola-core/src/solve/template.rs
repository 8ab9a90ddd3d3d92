//! A line of play generalised into a [`Template`]: who leads and who wins each trick, and for
//! each card played only a condition (the cards that would leave the trick to the same seat:
//! a threshold on the strength in the led suit, the led suit for a lead that loses to it, and
//! in a trick the goal's player takes no fewer points). Since the winners are the same, so is
//! who draws which stock place; a completion *realises* the template when each player can give
//! each of its tricks a different card of its own, in hand by then, meeting the condition (a
//! matching per player). Every completion that realises it has a line reaching the goal.
//!
//! Over a [`Region`] the question is asked of all its completions at once: a place whose
//! domain lies inside a condition surely meets it, one whose domain meets it maybe does.
//!
//! Invariant: [`Template::check`] answers [`Cover::All`] only if every completion of the
//! region realises the template, and [`Cover::Rest`] only with parts that hold every
//! completion of the region that does not, each part narrowing some domain.

use super::cards::CardSet;
use super::open::{LineTrick, Play};
use super::position::Target;
use super::slots::{Layout, Place, Region};
use crate::game::{Card, DrawOrder, Suit};

/// What a template says about a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Cover {
    /// Every completion of the region realises it.
    All,
    /// It does not help here (no completion realises it, or it cannot tell): search anew.
    None,
    /// Every completion of the region realises it or lies in one of these parts (each a list
    /// of (slot, cards it may keep) narrowing the region).
    Rest(Vec<Vec<(u8, u64)>>),
}

/// A card a player may play: known, or a slot's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Card(Card),
    Slot(u8),
}

/// The generalised line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Template {
    /// Per player, its tricks in order: (trick index, the condition on its card).
    events: Vec<Vec<(u8, u64)>>,
    /// Per player, its cards: (the first trick it is in hand for, the card).
    sources: Vec<Vec<(u8, Source)>>,
}

impl Template {
    /// The template of `line` (found in the region whose domains are `dom`).
    pub fn of(lay: &Layout, line: &[LineTrick], dom: &[u64]) -> Template {
        let mut events = vec![Vec::new(); lay.n];
        for (i, t) in line.iter().enumerate() {
            for (p, cond) in trick_conds(lay, t, dom) {
                events[p].push((i as u8, cond));
            }
        }
        Template {
            events,
            sources: sources(lay, line),
        }
    }

    /// Whether every completion of `r` realises the template, and if not, two parts of `r`
    /// to check again (see [`Template::halve`]).
    pub fn check(&self, r: &Region) -> Cover {
        let mut edges = Vec::with_capacity(self.events.len());
        for p in 0..self.events.len() {
            let (sure, maybe) = self.edges(p, r);
            let k = self.events[p].len();
            if !saturates(&maybe[..k], &sure[..k]).0 {
                return Cover::None;
            }
            edges.push((sure, maybe));
        }
        for (p, (sure, maybe)) in edges.iter().enumerate() {
            let k = self.events[p].len();
            if !saturates(&sure[..k], &sure[..k]).0 {
                return self.halve(p, r, &sure[..k], &maybe[..k]);
            }
        }
        Cover::All
    }

    /// The region cut in two on one slot: the cards meeting one of `p`'s conditions, and the
    /// rest. The slot is one a maybe-matching (sure edges tried first) needs beyond the sure
    /// edges; there is one whenever the sure edges alone leave a trick without a card, since a
    /// known card's edge is sure or absent.
    fn halve(&self, p: usize, r: &Region, sure: &[u64], maybe: &[u64]) -> Cover {
        let (_, owner) = saturates(maybe, sure);
        let mut best: Option<(u8, u64, u32)> = None;
        for (i, &e) in owner.iter().enumerate() {
            let e = e as usize;
            if e == NONE as usize {
                continue;
            }
            if let (_, Source::Slot(x)) = self.sources[p][i]
                && sure[e] & (1u64 << i) == 0
            {
                let cond = self.events[p][e].1;
                let d = r.dom[x as usize];
                // The share of the slot's domain that fits, in 1/1024ths.
                let share = (d & cond).count_ones() * 1024 / d.count_ones().max(1);
                if best.is_none_or(|b| share > b.2) {
                    best = Some((x, cond, share));
                }
            }
        }
        match best {
            Some((x, cond, _)) => Cover::Rest(vec![vec![(x, !cond)], vec![(x, cond)]]),
            None => Cover::None,
        }
    }

    /// For each of `p`'s tricks, the sources that surely and that maybe meet its condition
    /// (bit `i` for `sources[p][i]`).
    fn edges(&self, p: usize, r: &Region) -> ([u64; MAX_TRICKS], [u64; MAX_TRICKS]) {
        let mut cards = [0u64; 64];
        for (i, &(_, src)) in self.sources[p].iter().enumerate() {
            cards[i] = match src {
                Source::Card(c) => 1u64 << c.id(),
                Source::Slot(x) => r.dom[x as usize],
            };
        }
        let (mut sure, mut maybe) = ([0u64; MAX_TRICKS], [0u64; MAX_TRICKS]);
        for (e, &(trick, cond)) in self.events[p].iter().enumerate() {
            for (i, &(from, _)) in self.sources[p].iter().enumerate() {
                if from <= trick {
                    sure[e] |= ((cards[i] & !cond == 0) as u64) << i;
                    maybe[e] |= ((cards[i] & cond != 0) as u64) << i;
                }
            }
        }
        (sure, maybe)
    }
}

/// The most tricks a line has (a two-player game's 20).
const MAX_TRICKS: usize = 20;

/// Whether every event can get its own source among `edges` (bit `i` of `edges[e]`: source
/// `i` meets event `e`), preferring the sources in `first`; and which event owns each source.
fn saturates(edges: &[u64], first: &[u64]) -> (bool, [u8; 64]) {
    let mut owner = [NONE; 64];
    let mut all = true;
    for e in 0..edges.len() {
        let mut seen = 0u64;
        if !augment(edges, first, e, &mut owner, &mut seen) {
            all = false;
        }
    }
    (all, owner)
}

/// No owner.
const NONE: u8 = u8::MAX;

fn augment(edges: &[u64], first: &[u64], e: usize, owner: &mut [u8; 64], seen: &mut u64) -> bool {
    let order = [edges[e] & first[e], edges[e] & !first[e]];
    for part in order {
        for i in super::open::bits(part & !*seen) {
            *seen |= 1u64 << i;
            let i = i as usize;
            if owner[i] == NONE || augment(edges, first, owner[i] as usize, owner, seen) {
                owner[i] = e as u8;
                return true;
            }
        }
    }
    false
}

/// Each player's cards and when they come into hand, given the line's winners.
fn sources(lay: &Layout, line: &[LineTrick]) -> Vec<Vec<(u8, Source)>> {
    let mut out = vec![Vec::new(); lay.n];
    for (p, v) in out.iter_mut().enumerate() {
        v.extend(CardSet(lay.hands[p]).iter().map(|c| (0, Source::Card(c))));
        v.extend(super::open::bits(lay.hand_slots[p]).map(|x| (0, Source::Slot(x))));
    }
    let mut next = 0;
    for (i, t) in line.iter().enumerate() {
        if next >= lay.stock.len() {
            break;
        }
        let winner = t.plays[t.best].seat as usize;
        let first = match lay.draw {
            DrawOrder::WinnerFirst => winner,
            DrawOrder::LoserFirst => winner + 1,
        };
        for k in 0..lay.n {
            let src = match lay.stock[next] {
                Place::Card(c) => Source::Card(c),
                Place::Slot(x) => Source::Slot(x),
            };
            out[(first + k) % lay.n].push((i as u8 + 1, src));
            next += 1;
        }
    }
    out
}

/// Each player's condition in one trick. A threshold `th` on the strength in the led suit
/// separates the winner (at least `th`) from the rest (below `th`); of the thresholds the
/// trick's cards allow, the one keeping the most of its slot cards' domains is taken. A lead
/// that loses to a card of its own suit keeps its suit; under a winning trump the threshold
/// is a trump's, so the led suit does not matter.
fn trick_conds(lay: &Layout, t: &LineTrick, dom: &[u64]) -> Vec<(usize, u64)> {
    let trump = lay.trump;
    let led = t.plays[0].card.suit();
    let w = t.plays[t.best].card;
    let trump_win = trump == Some(w.suit());
    let floor = t
        .plays
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != t.best)
        .map(|(_, p)| power(p.card, led, trump) + 1)
        .max()
        .unwrap_or(0)
        .max(if trump_win { 32 } else { 0 });
    let rule = Rule {
        led,
        trump,
        trump_win,
        best: t.best,
        points: t.won && matches!(lay.target, Target::Points(_)),
    };
    let kept = |th: u8| -> u64 {
        t.plays
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.slot.map(|x| (i, p, x)))
            .map(|(i, p, x)| (rule.cond(i, p, th) & dom[x as usize]).count_ones() as u64)
            .product()
    };
    // The highest threshold among those keeping the most.
    let top = power(w, led, trump);
    let mut th = top;
    for cand in (floor..top).rev() {
        if kept(cand) > kept(th) {
            th = cand;
        }
    }
    t.plays
        .iter()
        .enumerate()
        .map(|(i, p)| (p.seat as usize, rule.cond(i, p, th)))
        .collect()
}

/// What keeps one trick's winner.
struct Rule {
    led: Suit,
    trump: Option<Suit>,
    trump_win: bool,
    best: usize,
    points: bool,
}

impl Rule {
    /// The condition on the `i`-th card `p` of the trick under threshold `th`.
    fn cond(&self, i: usize, p: &Play, th: u8) -> u64 {
        let strong = cards_where(|c| power(c, self.led, self.trump) >= th);
        let mut m = if i == self.best { strong } else { !strong };
        let lead_keeps_suit = i == 0 && (i == self.best || !self.trump_win);
        if lead_keeps_suit {
            m &= if self.trump_win {
                cards_where(|c| self.trump == Some(c.suit()))
            } else {
                cards_where(|c| c.suit() == self.led)
            };
        }
        if self.points {
            m &= cards_where(|c| c.points() >= p.card.points());
        }
        m & CardSet::ALL.0
    }
}

/// A card's strength in a trick led in `led`: trumps, then the led suit, then the rest.
fn power(c: Card, led: Suit, trump: Option<Suit>) -> u8 {
    let class = if trump == Some(c.suit()) {
        2
    } else if c.suit() == led {
        1
    } else {
        0
    };
    class * 16 + 9 - c.strength()
}

fn cards_where(f: impl Fn(Card) -> bool) -> u64 {
    Card::all()
        .filter(|&c| f(c))
        .fold(0, |m, c| m | 1u64 << c.id())
}
