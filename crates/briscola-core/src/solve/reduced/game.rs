//! A validated reduced Briscola ([`ReducedGame`]): its deck as a list of the core's cards, and
//! the exact enumeration of its deals (the face-up card, then each hand) with their
//! probabilities.
//!
//! Invariant: cards are numbered locally `0..deck` in the order of [`ReducedGame::cards`]; the
//! probabilities of the deals [`ReducedGame::for_each_deal`] yields sum to 1; every trick's
//! winner is the engine's [`leader_wins`] (read from a table built with it).

use super::spec::{ReducedSpec, ReducedSpecError};
use crate::game::{Card, Suit, leader_wins};

/// A reduced two-player Briscola whose spec has been checked.
#[derive(Clone, Debug)]
pub struct ReducedGame {
    spec: ReducedSpec,
    cards: Vec<Card>,
    /// Every trick by face-up card, led card and answer (local numbers, `deck^3` entries):
    /// [`FOLLOWER_WINS`] when the answer takes it, or'd with the trick's points. The walks
    /// resolve millions of tricks; a lookup replaces two card decodings and a comparison.
    tricks: Vec<u8>,
}

/// The bit of a [`ReducedGame::trick`] entry set when the follower takes the trick.
pub(crate) const FOLLOWER_WINS: u8 = 0x80;

impl ReducedGame {
    /// Validates `spec` into a game.
    pub fn new(spec: ReducedSpec) -> Result<ReducedGame, ReducedSpecError> {
        spec.check()?;
        let mut ranks = spec.ranks.clone();
        ranks.sort_unstable();
        let cards = Suit::ALL[..spec.suits as usize]
            .iter()
            .flat_map(|&s| {
                ranks
                    .iter()
                    .map(move |&r| Card::new(s, r).expect("rank checked"))
            })
            .collect::<Vec<Card>>();
        let mut tricks = Vec::with_capacity(cards.len().pow(3));
        for face in &cards {
            for &lead in &cards {
                for &follow in &cards {
                    let taken = !leader_wins(lead, follow, face.suit());
                    // At most 22 points (two Aces): below the flag's bit.
                    tricks.push(u8::from(taken) << 7 | (lead.points() + follow.points()));
                }
            }
        }
        Ok(ReducedGame {
            spec,
            cards,
            tricks,
        })
    }

    /// The trick of `lead` and `follow` with `face` face up (local numbers): its points, or'd
    /// with [`FOLLOWER_WINS`] when the answer takes it.
    #[inline]
    pub(crate) fn trick(&self, face: u8, lead: u8, follow: u8) -> u8 {
        let n = self.cards.len();
        self.tricks[(face as usize * n + lead as usize) * n + follow as usize]
    }

    /// The spec it was built from.
    pub fn spec(&self) -> &ReducedSpec {
        &self.spec
    }

    /// The deck, in local card order (suit by suit, ranks ascending).
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Cards in the deck.
    pub fn deck_size(&self) -> usize {
        self.cards.len()
    }

    /// Cards in each hand.
    pub fn hand_size(&self) -> usize {
        self.spec.hand as usize
    }

    /// Points in the deck (the two seats' points sum to it).
    pub fn total_points(&self) -> u32 {
        self.cards.iter().map(|c| c.points() as u32).sum()
    }

    /// The local number of `card`, if it is in this deck.
    pub fn local(&self, card: Card) -> Option<u8> {
        self.cards.iter().position(|&c| c == card).map(|i| i as u8)
    }

    /// Deals as sets: face-up card times seat 0's hand times seat 1's hand.
    pub fn deals(&self) -> u128 {
        let (n, h) = (self.deck_size() as u128, self.hand_size() as u128);
        n * binomial(n - 1, h) * binomial(n - 1 - h, h)
    }

    /// Terminal histories of the game tree with deals as sets (every play and every draw
    /// enumerated): the size of one full tree walk.
    pub fn histories(&self) -> u128 {
        let h = self.hand_size() as u128;
        let mut hand = h;
        let mut unknown = self.deck_size() as u128 - 1 - 2 * h;
        let mut per_deal: u128 = 1;
        for _ in 0..self.deck_size() / 2 {
            per_deal *= hand * hand;
            if unknown >= 2 {
                per_deal *= unknown * (unknown - 1);
                unknown -= 2;
            } else if unknown == 1 {
                unknown = 0;
            } else {
                hand -= 1;
            }
        }
        self.deals() * per_deal
    }
}

/// n choose k.
pub(super) fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Heap-free recursive permutation of `v[i..]` (every order exactly once).
pub(crate) fn permute(v: &mut [u8], i: usize, f: &mut dyn FnMut(&[u8])) {
    if i + 1 >= v.len() {
        f(v);
        return;
    }
    for j in i..v.len() {
        v.swap(i, j);
        permute(v, i + 1, f);
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::reduced::observation::Observation;
    use crate::solve::reduced::state::State;

    /// A full walk of two small games: the terminal histories number `histories()`, their
    /// probabilities (uniform play) sum to 1, every game's points sum to the deck's, and every decision's
    /// key reads back to an observation whose key it is, with the mover's hand equal to its
    /// dealt cards plus draws minus its plays.
    #[test]
    fn walk_counts_probabilities_and_keys_agree() {
        for spec in [
            ReducedSpec::default(),
            ReducedSpec {
                suits: 3,
                ranks: vec![1, 3],
                hand: 1,
            },
        ] {
            let game = ReducedGame::new(spec).unwrap();
            let (mut leaves, mut mass, mut keys) = (0u128, 0.0, 0u64);
            fn walk(g: &ReducedGame, st: &State, p: f64, acc: &mut (u128, f64, u64)) {
                let Some(seat) = st.sim.mover() else {
                    assert_eq!(
                        st.sim.points[0] as u32 + st.sim.points[1] as u32,
                        g.total_points()
                    );
                    acc.0 += 1;
                    acc.1 += p;
                    return;
                };
                let key = st.key(seat);
                let obs = Observation::from_key(g, key);
                assert_eq!(obs.key(g), Some(key));
                assert_eq!(obs.seat as usize, seat);
                let mut held: Vec<_> = obs.hand.iter().chain(&obs.draws).copied().collect();
                held.retain(|c| !obs.plays.contains(c));
                held.sort();
                let mut hand: Vec<_> = st
                    .sim
                    .hand(seat)
                    .iter()
                    .map(|&c| g.cards()[c as usize])
                    .collect();
                hand.sort();
                assert_eq!(held, hand);
                acc.2 += 1;
                let len = st.sim.hand(seat).len() as f64;
                for i in 0..st.sim.hand(seat).len() {
                    st.play(g, i, |q: f64, c: &State| walk(g, c, p * q / len, acc));
                }
            }
            let mut acc = (0u128, 0.0, 0u64);
            game.for_each_deal([false, true], &mut |p, st| walk(&game, st, p, &mut acc));
            (leaves, mass, keys) = (leaves + acc.0, mass + acc.1, keys + acc.2);
            let orders = (1..=game.hand_size() as u128).product::<u128>();
            assert_eq!(leaves, game.histories() * orders);
            assert!((mass - 1.0).abs() < 1e-9, "{mass}");
            assert!(keys > 0);
        }
    }
}
