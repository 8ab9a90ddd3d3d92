//! A rule list fused into key tables: for each combination of its conditional rules' truth
//! values, one table giving every (view-dependent feature bits, card) its key under the whole
//! list, so a decision is one table lookup per card and one stable minimum.
//!
//! Why this is the same choice as evaluating the rules in order: the first rule whose condition
//! holds and whose filter admits a card of the hand decides, playing its smallest key among the
//! cards it admits. Give every card the key `(position of the first active rule admitting it,
//! that rule's key)`: the cards of the deciding rule have the smallest position (no earlier rule
//! admits any card), and among them the rule's own key orders them. Ties go to the earliest card
//! in hand, as in the interpreter.
//!
//! Invariant: a [`FusedList`] exists only for a list without `random` rules and with at most
//! [`MAX_CONDITIONAL`] conditional rules; its tables are built from the same [`Rule`]s, filters
//! and key tables the interpreter reads (one definition of what a rule means).

use super::card_filter::{
    DYNAMIC, F_MASTER, F_SIB_SEEN, Memory, features, follow_bits, lead_bits, suit_strength,
};
use super::condition::Condition;
use super::rule::{Order, Rule};
use crate::game::{Card, SeatView, Suit};

/// The most conditional rules a list may have to be fused (2^3 tables of 4 KiB).
pub(crate) const MAX_CONDITIONAL: usize = 3;

/// Entries per table: 32 combinations of the view-dependent feature bits times 64 card ids.
const ENTRIES: usize = 32 * 64;

/// A rule list as key tables (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FusedList {
    /// The conditional rules' conditions, in list order: bit `j` of the table index is
    /// `conditions[j]`'s truth value.
    conditions: Vec<Condition>,
    /// Whether a condition counts cards of the hand (needs every card's feature bits).
    counts: bool,
    /// Per combination of truth values, per `dynamic bits << 6 | card id`: the card's key
    /// (the tables one after another, [`ENTRIES`] each).
    tables: Box<[u16]>,
}

impl FusedList {
    /// Fuse `rules` (each with its per-card key table), or `None` when the list has a `random`
    /// rule or more than [`MAX_CONDITIONAL`] conditional rules (the interpreter plays those).
    pub(crate) fn new<'a>(
        rules: impl Iterator<Item = (&'a Rule, &'a [u8; 64])> + Clone,
    ) -> Option<FusedList> {
        if rules.clone().any(|(r, _)| r.order == Order::Random) {
            return None;
        }
        let conditions: Vec<Condition> = rules
            .clone()
            .filter(|(r, _)| !r.when.atoms.is_empty())
            .map(|(r, _)| r.when.clone())
            .collect();
        if conditions.len() > MAX_CONDITIONAL {
            return None;
        }
        let tables = (0..1usize << conditions.len())
            .flat_map(|mask| table(rules.clone(), mask).into_iter())
            .collect();
        let counts = conditions.iter().any(Condition::counts_cards);
        Some(FusedList {
            conditions,
            counts,
            tables,
        })
    }

    /// The index of the card to play from `v.hand` (at most 5 cards), with `memory` saying
    /// whether the features include the public-memory bits.
    #[inline(always)]
    pub(crate) fn choose(&self, v: &SeatView<'_>, memory: bool) -> usize {
        let mut mask = 0;
        if self.counts {
            let mut feats = [0u32; 5];
            let n = v.hand.len().min(5);
            for (f, &c) in feats.iter_mut().zip(v.hand) {
                *f = features(c, v, memory);
            }
            for (j, c) in self.conditions.iter().enumerate() {
                mask |= (c.holds(v, &feats[..n]) as usize) << j;
            }
        } else {
            for (j, c) in self.conditions.iter().enumerate() {
                mask |= (c.holds(v, &[]) as usize) << j;
            }
        }
        let t = self.table(mask);
        if memory {
            pick::<true>(t, v)
        } else {
            pick::<false>(t, v)
        }
    }
}

impl FusedList {
    /// Whether the list's choice is a function of the card, the led card (following) and,
    /// leading, whether the card's carico sibling is public, and of nothing else: every
    /// condition reads only the led card, and no key depends on the `master` class (nor,
    /// following, on `sibling-seen`), nor on a card's suit other than through those bits. Such
    /// a list has per-card keys ([`FusedList::card_key`]).
    pub(crate) fn keyed(&self, following: bool) -> bool {
        let ignored = if following {
            F_MASTER | F_SIB_SEEN
        } else {
            F_MASTER
        };
        // The engine renames suits so that the trump is Oro: a card's key may depend on its
        // rank and the dynamic bits (trump, led suit...), never on which suit it is.
        let suit_blind = self.tables.chunks_exact(ENTRIES).all(|t| {
            (0..32usize).all(|d| (0..40).all(|id| t[d << 6 | id] == t[(d << 6) | (id % 10)]))
        });
        suit_blind
            && self.conditions.iter().all(Condition::reads_only_led)
            && self.tables.chunks_exact(ENTRIES).all(|t| {
                (0..32usize).filter(|d| d & ignored as usize == 0).all(|d| {
                    (0..64).all(|id| {
                        let base = t[d << 6 | id];
                        (0..32usize)
                            .filter(|x| x & !(ignored as usize) == 0)
                            .all(|x| t[(d | x) << 6 | id] == base)
                    })
                })
            })
    }

    /// The key of card `c` with trump Oro, leading (`led = None`) or against `led`, with its
    /// carico sibling public or not: what [`FusedList::choose`] compares, for a list that is
    /// [`FusedList::keyed`].
    pub(crate) fn card_key(&self, led: Option<Card>, c: Card, sibling_seen: bool) -> u32 {
        let trump = Suit::Oro;
        let face_up = Card::new(trump, 2).expect("the Two of Oro");
        let view = SeatView {
            table: led,
            ..SeatView::opening(&[], face_up)
        };
        let mask = self
            .conditions
            .iter()
            .enumerate()
            .fold(0, |m, (j, cond)| m | (cond.holds(&view, &[]) as usize) << j);
        let a = suit_strength(c);
        let mut bits = match led {
            None => lead_bits(a, trump as u32),
            Some(l) => follow_bits(a, suit_strength(l), trump as u32),
        };
        if sibling_seen {
            bits |= F_SIB_SEEN;
        }
        self.table(mask)[((bits & DYNAMIC) as usize) << 6 | (c.id() & 63) as usize] as u32
    }

    /// The table of truth-value combination `mask`.
    #[inline(always)]
    fn table(&self, mask: usize) -> &[u16; ENTRIES] {
        self.tables[mask * ENTRIES..][..ENTRIES]
            .try_into()
            .expect("one table per combination")
    }
}

/// The stable minimum over the hand of each card's key in table `t`, with the public-memory
/// bits when `MEMORY`.
#[inline(always)]
fn pick<const MEMORY: bool>(t: &[u16; ENTRIES], v: &SeatView<'_>) -> usize {
    let trump = v.trump as u32;
    match v.table {
        None => min_key::<MEMORY>(t, v, |a| lead_bits(a, trump)),
        Some(led) => {
            let l = suit_strength(led);
            min_key::<MEMORY>(t, v, |a| follow_bits(a, l, trump))
        }
    }
}

/// The stable minimum over the hand of each card's key in `t`, with `bits` giving a card's
/// dynamic bits from its [`suit_strength`].
#[inline(always)]
fn min_key<const MEMORY: bool>(
    t: &[u16; ENTRIES],
    v: &SeatView<'_>,
    bits: impl Fn(u32) -> u32,
) -> usize {
    let memo = if MEMORY { Some(Memory::of(v)) } else { None };
    let mut best = u32::MAX;
    for (i, &c) in v.hand.iter().enumerate() {
        let mut f = bits(suit_strength(c));
        if let Some(m) = memo {
            f |= m.bits(c);
        }
        let at = ((f & DYNAMIC) as usize) << 6 | (c.id() & 63) as usize;
        best = best.min((t[at] as u32) << 3 | i as u32);
    }
    (best & 7) as usize
}

/// The key table for one combination `mask` of the conditional rules' truth values.
fn table<'a>(rules: impl Iterator<Item = (&'a Rule, &'a [u8; 64])>, mask: usize) -> Vec<u16> {
    let mut t = vec![u16::MAX; ENTRIES];
    let mut conditional = 0;
    let active: Vec<(usize, &Rule, &[u8; 64])> = rules
        .enumerate()
        .filter(|(_, (r, _))| {
            if r.when.atoms.is_empty() {
                return true;
            }
            conditional += 1;
            mask >> (conditional - 1) & 1 == 1
        })
        .map(|(pos, (r, k))| (pos, r, k))
        .collect();
    for dynamic in 0..32u32 {
        for id in 0..64usize {
            let f = dynamic | super::card_filter::static_features(id);
            if let Some((pos, _, keys)) = active.iter().find(|(_, r, _)| r.filter.admits(f)) {
                t[(dynamic as usize) << 6 | id] = (*pos as u16) << 8 | keys[id] as u16;
            }
        }
    }
    t
}
