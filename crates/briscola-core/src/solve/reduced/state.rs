//! A node of the reduced game's tree ([`State`]): the table ([`Sim`]) plus the stock's unseen
//! cards as a set and each seat's information-set key; its moves enumerate chance (the draws)
//! exactly. Also the interface a strategy answers through ([`Strategy`]).
//!
//! Invariant: a seat's key is a function of exactly what that seat has seen (its seat, the
//! face-up card, its dealt hand as a set, every play in order and its own draws in order), and
//! two different such observations never share a key (a base-`deck` numeral after a fixed
//! prefix, with the number of digits in the top 8 bits).

use super::game::ReducedGame;
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
    let p = &mut pos[..hand.len()];
    p.sort_unstable_by_key(|&i| hand[i as usize]);
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
}
