//! A node of the reduced game's tree ([`State`]): the table ([`Sim`]) plus the stock's unseen
//! cards as a set and each seat's information-set key; its moves enumerate chance (the draws)
//! exactly. Also the interface a strategy answers through ([`Strategy`]).
//!
//! Invariant: a seat's key is a function of exactly what that seat has seen (its seat, the
//! face-up card, its dealt hand as a set, every play in order and its own draws in order), and
//! two different such observations never share a key (a base-`deck` numeral after a fixed
//! prefix, with the number of digits in the top 8 bits).

use super::game::{ReducedGame, binomial, permute};
use super::sim::Sim;
use super::spec::MAX_HAND;

/// A history of the reduced game, up to hand order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    /// The table.
    pub sim: Sim,
    /// The unseen cards in the stock, as a set of local numbers (their order is chance).
    pub unknown: u64,
    acc: [u128; 2],
    count: [u8; 2],
}

/// The key prefix of `seat` with face-up card `face` and dealt hand `mask`.
#[inline]
pub(crate) fn key_prefix(seat: usize, face: u8, mask: u64) -> u128 {
    (mask as u128) << 7 | (face as u128) << 1 | seat as u128
}

/// The key of `count` digits `acc` (prefix times radix^count plus the digits).
#[inline]
pub(crate) fn key_of(acc: u128, count: u8) -> u128 {
    acc | (count as u128) << 120
}

/// The prefix of an information-set key (its seat, face-up card and dealt hand, see
/// [`key_prefix`]): the key of that seat's first decision of the deal. Keys of different
/// prefixes belong to different deals as that seat sees them.
pub(crate) fn prefix_of(key: u128, radix: u128) -> u128 {
    let count = (key >> 120) as u32;
    let acc = key & ((1u128 << 120) - 1);
    acc / radix.pow(count)
}

impl State {
    /// The position after a deal (hands as given, in order), `unknown` left in the stock.
    pub fn deal(game: &ReducedGame, face: u8, hands: [&[u8]; 2], unknown: u64) -> State {
        let _ = game;
        let mask = |h: &[u8]| h.iter().fold(0u64, |m, &c| m | 1 << c);
        State {
            sim: Sim::deal(face, hands, unknown.count_ones() as u8),
            unknown,
            acc: [
                key_prefix(0, face, mask(hands[0])),
                key_prefix(1, face, mask(hands[1])),
            ],
            count: [0, 0],
        }
    }

    /// The information-set key of `seat`.
    #[inline]
    pub fn key(&self, seat: usize) -> u128 {
        key_of(self.acc[seat], self.count[seat])
    }

    #[inline]
    fn see(&mut self, seat: usize, card: u8, radix: u128) {
        self.acc[seat] = self.acc[seat] * radix + card as u128;
        self.count[seat] += 1;
    }

    /// The mover plays its card at `pos`; `f` gets each resulting state with its chance
    /// probability (one state with probability 1 unless draws follow).
    #[inline]
    pub fn play<F: FnMut(f64, &State)>(&self, game: &ReducedGame, pos: usize, mut f: F) {
        let radix = game.deck_size() as u128;
        let mut s = *self;
        let (card, done) = s.sim.play(game, pos);
        s.see(0, card, radix);
        s.see(1, card, radix);
        let Some(w) = done else {
            return f(1.0, &s);
        };
        match s.sim.draws() {
            None => f(1.0, &s),
            Some(false) => {
                let a = s.unknown.trailing_zeros() as u8;
                let face = s.sim.face_up;
                s.unknown = 0;
                s.sim.give(w, a);
                s.see(w, a, radix);
                s.sim.give(1 - w, face);
                s.see(1 - w, face, radix);
                f(1.0, &s)
            }
            Some(true) => {
                let k = s.unknown.count_ones() as f64;
                let p = 1.0 / (k * (k - 1.0));
                let mut ma = s.unknown;
                while ma != 0 {
                    let a = ma.trailing_zeros() as u8;
                    ma &= ma - 1;
                    let mut mb = s.unknown & !(1u64 << a);
                    while mb != 0 {
                        let b = mb.trailing_zeros() as u8;
                        mb &= mb - 1;
                        let mut c = s;
                        c.unknown &= !(1u64 << a | 1u64 << b);
                        c.sim.give(w, a);
                        c.see(w, a, radix);
                        c.sim.give(1 - w, b);
                        c.see(1 - w, b, radix);
                        f(p, &c);
                    }
                }
            }
        }
    }
}

/// The positions of `hand` sorted by card: slot `i` of an information set's table is the
/// hand's `i`-th smallest card, whatever order the hand is in.
#[inline]
pub(crate) fn canonical(hand: &[u8]) -> [u8; MAX_HAND] {
    let mut pos = [0u8, 1, 2, 3];
    // Insertion sort of at most four distinct cards, in place (the library's sort call was a
    // few per cent of a walk).
    for i in 1..hand.len().min(MAX_HAND) {
        let mut j = i;
        while j > 0 && hand[pos[j - 1] as usize] > hand[pos[j] as usize] {
            pos.swap(j - 1, j);
            j -= 1;
        }
    }
    pos
}

/// A strategy for one seat: the probability of each position of the mover's hand.
pub(crate) trait Strategy {
    /// Writes into `out[..hand len]` the probability of playing each hand position of the
    /// seat to move at `st` (a seat this strategy plays).
    fn probs(&mut self, st: &State, out: &mut [f64; MAX_HAND]);
    /// Whether its choices depend on the order of its hand (a policy breaking ties by it): then
    /// every order of the dealt hand is enumerated for its seat.
    fn ordered(&self) -> bool {
        false
    }
    /// Told before each deal's first decision, with the deal's place in the walk's order of
    /// deals (0, 1, ...); a strategy that keeps something per deal uses it.
    fn begin_deal(&mut self, deal: usize) {
        let _ = deal;
    }
}

impl ReducedGame {
    /// Calls `f` with every deal and its probability: the face-up card, seat 0's hand, seat
    /// 1's hand, the rest left in the stock (its order is chance at each draw). A seat with
    /// `ordered[seat]` gets every order of its hand (a policy may break ties by hand order);
    /// otherwise its hand is in ascending local order.
    pub(crate) fn for_each_deal(&self, ordered: [bool; 2], f: &mut dyn FnMut(f64, &State)) {
        let n = self.deck_size();
        let h = self.hand_size();
        let all: u64 = (1u64 << n) - 1;
        let p_face = 1.0 / n as f64;
        let p0 = 1.0 / binomial(n as u128 - 1, h as u128) as f64;
        let p1 = 1.0 / binomial((n - 1 - h) as u128, h as u128) as f64;
        for face in 0..n as u8 {
            let rest = all & !(1u64 << face);
            for_each_subset(rest, h, &mut |m0| {
                for_each_order(m0, ordered[0], &mut |h0, q0| {
                    for_each_subset(rest & !m0, h, &mut |m1| {
                        for_each_order(m1, ordered[1], &mut |h1, q1| {
                            let unknown = rest & !m0 & !m1;
                            let st = State::deal(self, face, [h0, h1], unknown);
                            f(p_face * p0 * q0 * p1 * q1, &st);
                        });
                    });
                });
            });
        }
    }
}

/// Every subset of `mask` with `k` elements, as masks.
fn for_each_subset(mask: u64, k: usize, f: &mut dyn FnMut(u64)) {
    fn rec(mask: u64, k: usize, acc: u64, f: &mut dyn FnMut(u64)) {
        if k == 0 {
            f(acc);
            return;
        }
        if (mask.count_ones() as usize) < k {
            return;
        }
        let low = mask & mask.wrapping_neg();
        rec(mask & !low, k - 1, acc | low, f);
        rec(mask & !low, k, acc, f);
    }
    rec(mask, k, 0, f)
}

/// The cards of `mask` as a hand: every order (each with probability 1/k!) when `ordered`,
/// else ascending with probability 1.
fn for_each_order(mask: u64, ordered: bool, f: &mut dyn FnMut(&[u8], f64)) {
    let mut cards: Vec<u8> = (0..64u8).filter(|&i| mask >> i & 1 == 1).collect();
    if !ordered {
        f(&cards, 1.0);
        return;
    }
    let k = cards.len();
    let q = 1.0 / (1..=k as u64).product::<u64>() as f64;
    permute(&mut cards, 0, &mut |c| f(c, q));
}
