//! The exploit agent's memo of its target's choices. The agent asks its (deterministic) target
//! the same question many times: every decision re-checks the target's past plays in each
//! sampled world, and its forward search meets the same positions again. A network target
//! (BriscolaBot-v3, ~17 µs a call) makes those calls the whole cost, so answers are kept per
//! thread, keyed by everything a two-player view of the standard game holds but its history
//! (which no deterministic target reads: greedy, hoarder, counter, rules, switch, an argmax
//! network).
//!
//! The paper's policies and rule programs answer in tens of nanoseconds, less than a lookup in a
//! table of half a million entries costs (a cache miss or two): they are asked directly, never
//! kept ([`TargetMemo::worth_keeping`]).
//!
//! The forward search can also ask for many positions at once ([`TargetMemo::fill`]): a network
//! target then evaluates them as one batch (its rows are independent bit for bit, so a batch
//! gives each position the choice it would get alone).
//!
//! Invariant: an entry is the target's own choice on a view with the same key, so a lookup never
//! changes a decision: games are byte-identical with and without the memo, on any thread count
//! (each thread keeps its own entries; a full memo is emptied, never consulted stale).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use super::AnyPolicy;
use crate::game::{Card, Policy, SeatRng, SeatView, Suit};

/// Entries one thread keeps before it empties its memo (~100 bytes each with the table's own
/// overhead: at most ~50 MiB a thread). Answers are reused across games too (the world search
/// re-checks early decisions with the same hands): against BriscolaBot-v3, 100 games on one
/// thread took 37 s with 2^17 entries, 28 s with 2^19 and 26 s with 2^20 (~125 MiB).
const MAX_ENTRIES: usize = 1 << 19;

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static MEMO: RefCell<HashMap<(u64, u128), u8, MixState>> =
        const { RefCell::new(HashMap::with_hasher(MixState)) };
}

/// The memo's hasher: its keys are already well-spread bit fields, so a multiply-and-fold per
/// word serves (std's SipHash, made to resist chosen keys, took about a tenth of the exploit
/// agent's time). It only places entries: answers do not depend on it.
#[derive(Clone, Copy, Default)]
struct MixState;

impl std::hash::BuildHasher for MixState {
    type Hasher = Mix;
    fn build_hasher(&self) -> Mix {
        Mix(0)
    }
}

/// See [`MixState`].
struct Mix(u64);

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        let x = self.0 ^ (self.0 >> 29);
        x.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (x >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u128(&mut self, w: u128) {
        self.write_u64(w as u64);
        self.write_u64((w >> 64) as u64);
    }
}

/// A handle on one target's entries (clones share them: they ask the same target).
#[derive(Clone, Debug)]
pub(super) struct TargetMemo {
    id: u64,
}

impl TargetMemo {
    /// A memo for a new target (its entries apart from every other's).
    pub(super) fn new() -> TargetMemo {
        TargetMemo {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Whether `target`'s answers are worth keeping: not for the paper's policies and rule
    /// programs, which answer faster than the memo's table can be read (an exploit shard
    /// against greedy spent a quarter of its time in the table). Answers are the same either way.
    fn worth_keeping(target: &AnyPolicy) -> bool {
        !matches!(
            target,
            AnyPolicy::Greedy(_)
                | AnyPolicy::Hoarder(_)
                | AnyPolicy::Counter(_)
                | AnyPolicy::Rules(_)
        )
    }

    /// `target`'s choice on `v`, from the memo when this thread has asked it before.
    pub(super) fn choose(&self, target: &AnyPolicy, v: &SeatView<'_>) -> usize {
        let ask = || target.choose(v, &mut SeatRng::new([0; 32], 0));
        let Some(key) = Self::worth_keeping(target).then(|| key(v)).flatten() else {
            return ask();
        };
        if let Some(i) = self.get(key) {
            return i;
        }
        let i = ask();
        self.put(key, i);
        i
    }

    /// The memo's answer for `v`, or `Err` with the position to ask (see [`TargetMemo::fill`]);
    /// a view the key cannot hold is asked at once.
    pub(super) fn lookup(&self, target: &AnyPolicy, v: &SeatView<'_>) -> Result<usize, Pending> {
        match Self::worth_keeping(target).then(|| key(v)).flatten() {
            None => Ok(target.choose(v, &mut SeatRng::new([0; 32], 0))),
            Some(key) => self.get(key).ok_or_else(|| Pending::of(v)),
        }
    }

    /// Ask `target` every pending position (a network: as one batch) and keep the answers.
    pub(super) fn fill(&self, target: &AnyPolicy, pending: &[Pending]) {
        let views: Vec<SeatView<'_>> = pending.iter().map(Pending::view).collect();
        let choices: Vec<usize> = match target {
            AnyPolicy::Onnx(net) if views.len() > 1 => {
                let mut input = Vec::with_capacity(views.len() * net.encoding().input_len());
                for v in &views {
                    net.encode(v, &mut input);
                }
                let out = net.model().run(&input, views.len());
                let mut rng = SeatRng::new([0; 32], 0);
                views
                    .iter()
                    .zip(out.chunks(super::CARDS))
                    .map(|(v, row)| net.decide(v, row, &mut rng).0)
                    .collect()
            }
            _ => views
                .iter()
                .map(|v| target.choose(v, &mut SeatRng::new([0; 32], 0)))
                .collect(),
        };
        for (v, i) in views.iter().zip(choices) {
            if let Some(key) = key(v) {
                self.put(key, i);
            }
        }
    }

    fn get(&self, key: u128) -> Option<usize> {
        MEMO.with(|m| m.borrow().get(&(self.id, key)).map(|&i| usize::from(i)))
    }

    fn put(&self, key: u128, i: usize) {
        MEMO.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= MAX_ENTRIES {
                m.clear();
            }
            m.insert((self.id, key), i as u8);
        });
    }
}

/// A position whose answer the memo lacks: the fields of its view the key holds, owned.
#[derive(Clone, Debug)]
pub(super) struct Pending {
    hand: Vec<Card>,
    table: Option<Card>,
    trump: Suit,
    face_up: Card,
    played: u64,
    stock_left: u8,
    trick: u8,
    points: (u8, u8),
    seat: u8,
}

impl Pending {
    fn of(v: &SeatView<'_>) -> Pending {
        Pending {
            hand: v.hand.to_vec(),
            table: v.table,
            trump: v.trump,
            face_up: v.face_up,
            played: v.played,
            stock_left: v.stock_left,
            trick: v.trick,
            points: (v.my_points, v.opp_points),
            seat: v.seat,
        }
    }

    /// The view again (without its history, which the key leaves out and no target reads).
    fn view(&self) -> SeatView<'_> {
        SeatView {
            hand: &self.hand,
            table: self.table,
            trump: self.trump,
            face_up: self.face_up,
            played: self.played,
            stock_left: self.stock_left,
            trick: self.trick,
            my_points: self.points.0,
            opp_points: self.points.1,
            players: 2,
            seat: self.seat,
            trick_cards: self.table.as_slice(),
            partner_winning: false,
            no_trump: false,
            open_hand: &[],
            stock_top: None,
            history: &[],
        }
    }
}

/// The view packed into 98 bits, or `None` for a view the key cannot hold (more than three
/// cards in hand, another table size, a variant's extra fields): those are asked every time.
fn key(v: &SeatView<'_>) -> Option<u128> {
    if v.hand.len() > 3
        || v.players != 2
        || v.no_trump
        || v.partner_winning
        || !v.open_hand.is_empty()
        || v.stock_top.is_some()
        || v.trick_cards.len() != usize::from(v.table.is_some())
    {
        return None;
    }
    let card = |c: Option<Card>| u128::from(c.map_or(63, |c| c.id()));
    let fields = [
        (card(v.hand.first().copied()), 6),
        (card(v.hand.get(1).copied()), 6),
        (card(v.hand.get(2).copied()), 6),
        (card(v.table), 6),
        (card(Some(v.face_up)), 6),
        (v.trump as u128, 2),
        (u128::from(v.stock_left), 6),
        (u128::from(v.trick), 5),
        (u128::from(v.my_points), 7),
        (u128::from(v.opp_points), 7),
        (u128::from(v.seat), 1),
    ];
    let mut k = u128::from(v.played);
    let mut shift = 40;
    for (value, bits) in fields {
        k |= value << shift;
        shift += bits;
    }
    Some(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Deck, Rules, RulesSpec, TableState};
    use crate::policy::{Counter, TieBreak};

    /// Through a whole game, the memo's answer is the target's own on every view, asked twice.
    #[test]
    fn the_memo_answers_what_the_target_answers() {
        let rules: Rules = RulesSpec::default().validate().unwrap();
        let t = AnyPolicy::Counter(Counter::new(10, TieBreak::default()));
        let memo = TargetMemo::new();
        for g in 0..20u64 {
            let mut ids: Vec<u8> = (0..40).collect();
            let mut r = SeatRng::new([5; 32], g);
            for i in (1..40).rev() {
                ids.swap(i, r.below(i as u32 + 1) as usize);
            }
            let mut st = TableState::new(&rules, &Deck::from_ids(&ids).unwrap());
            while st.to_play().is_some() {
                let v = st.view().unwrap();
                let own = t.choose(&v, &mut SeatRng::new([0; 32], 0));
                assert!(key(&v).is_some());
                assert_eq!(memo.choose(&t, &v), own);
                assert_eq!(memo.choose(&t, &v), own);
                let card = v.hand[own];
                st.play(card, &mut crate::game::NoTricks).unwrap();
            }
        }
    }

    /// Views that differ in one field have different keys.
    #[test]
    fn keys_tell_views_apart() {
        let rules: Rules = RulesSpec::default().validate().unwrap();
        let ids: Vec<u8> = (0..40).collect();
        let st = TableState::new(&rules, &Deck::from_ids(&ids).unwrap());
        let v = st.view().unwrap();
        let base = key(&v).unwrap();
        let mut w = v;
        w.my_points = 11;
        assert_ne!(key(&w).unwrap(), base);
        let mut w = v;
        w.stock_left -= 2;
        assert_ne!(key(&w).unwrap(), base);
        let mut w = v;
        w.played |= 1 << 39;
        assert_ne!(key(&w).unwrap(), base);
        let mut w = v;
        w.seat = 1 - w.seat;
        assert_ne!(key(&w).unwrap(), base);
        let rev: Vec<_> = v.hand.iter().rev().copied().collect();
        let mut w = v;
        w.hand = &rev;
        assert_ne!(key(&w).unwrap(), base);
    }
}
