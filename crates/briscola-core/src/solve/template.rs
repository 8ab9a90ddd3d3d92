//! A line of play generalised into a [`Template`]: who leads and who wins each trick, and for
//! each card played only a condition (the cards that would leave the trick to the same seat:
//! a threshold on the strength in the led suit, the led suit for a lead that loses to it, and
//! in a trick the goal's player takes no fewer points). Since the winners are the same, so is
//! who draws which stock place; a completion *realises* the template when each player can give
//! each of its tricks a different card of its own, in hand by then, meeting the condition (a
//! matching per player). Every completion that realises it has a line reaching the goal.
//!
//! [`Template::shortfalls`] says the same the other way round, in the form a SAT solver takes
//! ([`super::cover`]): a completion fails to realise the template exactly when one of the
//! shortfalls holds, each "at most k of these slots hold a card of their set" (Hall's
//! condition, over each set of a player's tricks), none implying another. A player in more
//! than [`HALL_TRICKS`] tricks keeps the line's own cards instead, one shortfall per slot
//! card it played.
//!
//! Invariant: a completion meeting none of [`Template::shortfalls`] realises the template,
//! so it has a line reaching the goal.

use super::cards::CardSet;
use super::open::{LineTrick, Play};
use super::position::Target;
use super::slots::{Layout, Place};
use crate::game::{Card, DrawOrder, Suit};

/// A card a player may play: known, or a slot's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Card(Card),
    Slot(u8),
}

/// The generalised line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Template {
    /// Per player, its tricks in order: (trick index, the condition on its card, the slot
    /// whose card the line played there, if unknown).
    events: Vec<Vec<(u8, u64, Option<u8>)>>,
    /// Per player, its cards: (the first trick it is in hand for, the card).
    sources: Vec<Vec<(u8, Source)>>,
}

/// One way a completion can fail to realise a template: at most `at_most` of `slots` hold a
/// card of their set (each a slot and a set of cards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Shortfall {
    /// The most of `slots` that may meet their set.
    pub at_most: usize,
    /// (slot, the cards meeting it).
    pub slots: Vec<(u8, u64)>,
}

/// The most tricks of one player whose every subset [`Template::shortfalls`] lists (2^n of
/// them); a player in more keeps the line's own cards.
const HALL_TRICKS: usize = 8;

impl Template {
    /// The template of `line`.
    pub fn of(lay: &Layout, line: &[LineTrick]) -> Template {
        let mut events = vec![Vec::new(); lay.n];
        for (i, t) in line.iter().enumerate() {
            for ((p, cond), play) in trick_conds(lay, t).into_iter().zip(&t.plays) {
                events[p].push((i as u8, cond, play.slot));
            }
        }
        Template {
            events,
            sources: sources(lay, line),
        }
    }

    /// The ways a completion whose slots hold cards of `pool` can fail to realise the
    /// template: it fails exactly when one holds (`None`: no completion realises it).
    pub fn shortfalls(&self, pool: u64) -> Option<Vec<Shortfall>> {
        self.shortfalls_within(pool, HALL_TRICKS)
    }

    /// [`Template::shortfalls`], a player in more than `hall_tricks` tricks keeping the
    /// line's own cards.
    fn shortfalls_within(&self, pool: u64, hall_tricks: usize) -> Option<Vec<Shortfall>> {
        let mut out = Vec::new();
        for p in 0..self.events.len() {
            if self.events[p].len() > hall_tricks {
                out.extend(self.own_cards(p, pool));
                continue;
            }
            for set in 1u32..1 << self.events[p].len() {
                match self.hall(p, set, pool) {
                    Hall::Met => {}
                    Hall::Never => return None,
                    Hall::Maybe(s) => out.push(s),
                }
            }
        }
        Some(undominated(out))
    }

    /// Hall's condition for player `p`'s tricks in `set` (bit `e` for its `e`-th trick): the
    /// cards that can serve one of them must be at least as many as the tricks.
    fn hall(&self, p: usize, set: u32, pool: u64) -> Hall {
        let ev = &self.events[p];
        let size = set.count_ones() as usize;
        let mut sure = 0;
        let mut slots = Vec::new();
        for &(from, src) in &self.sources[p] {
            let serves = ev
                .iter()
                .enumerate()
                .filter(|&(e, &(trick, _, _))| set >> e & 1 == 1 && from <= trick)
                .fold(0u64, |m, (_, &(_, cond, _))| m | cond);
            match src {
                Source::Card(c) => sure += (serves >> c.id() & 1) as usize,
                Source::Slot(x) => match serves & pool {
                    0 => {}
                    m if m == pool => sure += 1,
                    m => slots.push((x, m)),
                },
            }
        }
        if sure >= size {
            Hall::Met
        } else if slots.len() < size - sure {
            Hall::Never
        } else {
            Hall::Maybe(Shortfall {
                at_most: size - 1 - sure,
                slots,
            })
        }
    }

    /// Player `p`'s shortfalls with the line's own cards: one slot card it played missing its
    /// trick's condition.
    fn own_cards(&self, p: usize, pool: u64) -> impl Iterator<Item = Shortfall> + '_ {
        self.events[p].iter().filter_map(move |&(_, cond, slot)| {
            let x = slot?;
            Some(Shortfall {
                at_most: 0,
                slots: vec![(x, cond & pool)],
            })
        })
    }
}

/// `fs` without each shortfall that implies another (the one implied already holds whenever
/// it does, so their disjunction is the same), the first of equal ones kept.
fn undominated(fs: Vec<Shortfall>) -> Vec<Shortfall> {
    let mask = |f: &Shortfall| f.slots.iter().fold(0u64, |m, &(x, _)| m | 1 << x);
    let masks: Vec<u64> = fs.iter().map(mask).collect();
    // `a` holding makes `b` hold: `b` counts no more cards than `a` and allows no fewer.
    let implies = |i: usize, j: usize| {
        let (a, b) = (&fs[i], &fs[j]);
        masks[j] & !masks[i] == 0
            && a.at_most <= b.at_most
            && b.slots
                .iter()
                .all(|&(x, m)| a.slots.iter().any(|&(y, n)| y == x && m & !n == 0))
    };
    let keep: Vec<bool> = (0..fs.len())
        .map(|i| !(0..fs.len()).any(|j| j != i && implies(i, j) && (j < i || !implies(j, i))))
        .collect();
    fs.into_iter()
        .zip(keep)
        .filter_map(|(f, k)| k.then_some(f))
        .collect()
}

/// Hall's condition for one set of a player's tricks.
enum Hall {
    /// Always met: its known cards suffice.
    Met,
    /// Never met: too few cards could serve.
    Never,
    /// Met unless this shortfall holds.
    Maybe(Shortfall),
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
/// trick's cards allow, the one keeping the most pool cards for its slot cards is taken. A lead
/// that loses to a card of its own suit keeps its suit; under a winning trump the threshold
/// is a trump's, so the led suit does not matter.
fn trick_conds(lay: &Layout, t: &LineTrick) -> Vec<(usize, u64)> {
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
            .filter(|(_, p)| p.slot.is_some())
            .map(|(i, p)| (rule.cond(i, p, th) & lay.pool).count_ones() as u64)
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

#[cfg(test)]
mod tests {
    use super::super::open::{Found, OpenSearch};
    use super::super::test_positions;
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A completion's card per slot, drawn uniformly.
    fn shuffled(lay: &Layout, rng: &mut ChaCha8Rng) -> Vec<u8> {
        let mut cards: Vec<u8> = super::super::open::bits(lay.pool).collect();
        for j in (1..cards.len()).rev() {
            cards.swap(j, rng.random_range(0..=j));
        }
        cards
    }

    /// Whether `cards` realise `t`, by trying every way each player can give each of its
    /// tricks a different card (independent of Hall's condition).
    fn realised_by_trying(t: &Template, cards: &[u8]) -> bool {
        (0..t.events.len()).all(|p| {
            let ids: Vec<(u8, u8)> = t.sources[p]
                .iter()
                .map(|&(from, s)| match s {
                    Source::Card(c) => (from, c.id()),
                    Source::Slot(x) => (from, cards[x as usize]),
                })
                .collect();
            assign(&t.events[p], &ids, 0, &mut vec![false; ids.len()])
        })
    }

    fn assign(ev: &[(u8, u64, Option<u8>)], ids: &[(u8, u8)], e: usize, used: &mut [bool]) -> bool {
        if e == ev.len() {
            return true;
        }
        let (trick, cond, _) = ev[e];
        (0..ids.len()).any(|i| {
            let (from, id) = ids[i];
            if used[i] || from > trick || cond >> id & 1 == 0 {
                return false;
            }
            used[i] = true;
            let ok = assign(ev, ids, e + 1, used);
            used[i] = false;
            ok
        })
    }

    /// Whether one of `t`'s shortfalls (Hall's for players in at most `hall` tricks) holds
    /// for `cards`.
    fn falls_short(t: &Template, pool: u64, cards: &[u8], hall: usize) -> bool {
        match t.shortfalls_within(pool, hall) {
            None => true,
            Some(fs) => fs.iter().any(|f| {
                let meet = f
                    .slots
                    .iter()
                    .filter(|&&(x, m)| m >> cards[x as usize] & 1 == 1)
                    .count();
                meet <= f.at_most
            }),
        }
    }

    /// A shortfall implying another is dropped (here: fewer allowed, over more slots with
    /// larger sets); of two equal ones the first stays; one implying nothing stays.
    #[test]
    fn undominated_drops_the_shortfalls_that_imply_another() {
        let f = |at_most, slots: &[(u8, u64)]| Shortfall {
            at_most,
            slots: slots.to_vec(),
        };
        let weak = f(1, &[(0, 0b01), (1, 0b10)]);
        let strong = f(0, &[(0, 0b11), (1, 0b10), (2, 0b1)]);
        let other = f(0, &[(3, 0b1)]);
        let kept = undominated(vec![strong, weak.clone(), other.clone(), weak.clone()]);
        assert_eq!(kept, vec![weak, other]);
    }

    /// The shortfalls are exact: on the logic model's seed (4 tricks), templates of lines
    /// found on 40 random completions, each checked on 300 other random completions, a
    /// shortfall holds exactly when trying every card assignment finds none. Both outcomes
    /// occur, and a line's own completion always realises its template. Kept to the line's
    /// own cards (as for a player in more than [`HALL_TRICKS`] tricks), the shortfalls are
    /// sound: meeting none still realises the template.
    #[test]
    fn a_shortfall_holds_exactly_when_no_assignment_realises_the_template() {
        let pos = test_positions::seed(4);
        let lay = Layout::of(&pos);
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let (mut realised, mut not, mut own_cards) = (0, 0, 0);
        for _ in 0..40 {
            let own = shuffled(&lay, &mut rng);
            let fixed: Vec<u64> = own.iter().map(|&id| 1u64 << id).collect();
            let Found::Line(line) = OpenSearch::new(&lay, &fixed, u64::MAX).run() else {
                panic!("every completion of the seed has a line to 4 tricks");
            };
            let t = Template::of(&lay, &line);
            assert!(realised_by_trying(&t, &own));
            assert!(!falls_short(&t, lay.pool, &own, HALL_TRICKS));
            assert!(!falls_short(&t, lay.pool, &own, 0));
            for _ in 0..300 {
                let other = shuffled(&lay, &mut rng);
                let by_trying = realised_by_trying(&t, &other);
                assert_eq!(by_trying, !falls_short(&t, lay.pool, &other, HALL_TRICKS));
                // With the line's own cards (players in many tricks), meeting no shortfall
                // still realises it.
                if !falls_short(&t, lay.pool, &other, 0) {
                    assert!(by_trying);
                    own_cards += 1;
                }
                match by_trying {
                    true => realised += 1,
                    false => not += 1,
                }
            }
        }
        assert!(
            realised > 100 && not > 100,
            "{realised} realised, {not} not"
        );
        assert!(
            own_cards > 10,
            "{own_cards} realised with the line's own cards"
        );
    }
}
