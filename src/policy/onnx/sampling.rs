//! How a network's card probabilities become one card: the most probable card of the hand, or a
//! card drawn in proportion to its probability from the seat's own stream.
//!
//! Invariant: only cards in hand can be chosen, whatever the network says of other cards;
//! `argmax` never draws, `sample` draws exactly one number per decision from [`SeatRng`].

use serde::{Deserialize, Serialize};

use crate::game::{Card, SeatRng};

/// How a policy network's output picks a card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sampling {
    /// The card of the hand with the highest probability (the first in hand order on a tie).
    #[default]
    Argmax,
    /// A card of the hand drawn with probability proportional to the network's.
    Sample,
}

impl Sampling {
    /// The name in `pipeline.toml`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Sampling::Argmax => "argmax",
            Sampling::Sample => "sample",
        }
    }

    /// Pick an index into `hand` given each hand card's probability `p(card)`; returns the
    /// index and the chosen card's probability renormalised over the hand.
    pub fn pick(
        self,
        hand: &[Card],
        p: impl Fn(Card) -> f32,
        rng: &mut SeatRng,
    ) -> (usize, f64) {
        let probs: Vec<f64> = hand.iter().map(|&c| f64::from(p(c)).max(0.0)).collect();
        let total: f64 = probs.iter().sum();
        let share = |i: usize| {
            if total > 0.0 {
                probs[i] / total
            } else {
                1.0 / hand.len() as f64
            }
        };
        let i = match self {
            Sampling::Argmax => {
                let mut best = 0;
                for (i, &q) in probs.iter().enumerate() {
                    if q > probs[best] {
                        best = i;
                    }
                }
                best
            }
            Sampling::Sample => {
                let u = rng.unit();
                let mut acc = 0.0;
                let mut pick = hand.len() - 1;
                for i in 0..hand.len() {
                    acc += share(i);
                    if u < acc {
                        pick = i;
                        break;
                    }
                }
                pick
            }
        };
        (i, share(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Suit;

    fn hand() -> [Card; 3] {
        [
            Card::new(Suit::Oro, 1).unwrap(),
            Card::new(Suit::Spade, 2).unwrap(),
            Card::new(Suit::Coppe, 3).unwrap(),
        ]
    }

    fn p(c: Card) -> f32 {
        match c.suit() {
            Suit::Oro => 0.1,
            Suit::Spade => 0.6,
            _ => 0.2, // and 0.1 left on cards not in hand
        }
    }

    #[test]
    fn argmax_takes_the_most_probable_card_of_the_hand_and_never_draws() {
        let mut rng = SeatRng::new([1; 32], 0);
        let (i, q) = Sampling::Argmax.pick(&hand(), p, &mut rng);
        assert_eq!(i, 1);
        assert!((q - 0.6 / 0.9).abs() < 1e-6);
        // The stream was not touched: its first draw is still the first.
        assert_eq!(rng.unit(), SeatRng::new([1; 32], 0).unit());
    }

    #[test]
    fn a_tie_goes_to_the_first_card_in_hand_order() {
        let mut rng = SeatRng::new([1; 32], 0);
        assert_eq!(Sampling::Argmax.pick(&hand(), |_| 0.3, &mut rng).0, 0);
    }

    /// 30,000 draws: each card's frequency is within 4 standard errors of its renormalised
    /// probability (1/9, 6/9, 2/9).
    #[test]
    fn sample_follows_the_renormalised_probabilities() {
        let n = 30_000;
        let mut counts = [0u32; 3];
        for g in 0..n {
            let mut rng = SeatRng::new([2; 32], g);
            counts[Sampling::Sample.pick(&hand(), p, &mut rng).0] += 1;
        }
        for (i, want) in [1.0 / 9.0, 6.0 / 9.0, 2.0 / 9.0].into_iter().enumerate() {
            let got = counts[i] as f64 / n as f64;
            let se = (want * (1.0 - want) / n as f64).sqrt();
            assert!((got - want).abs() < 4.0 * se, "card {i}: {got} vs {want}");
        }
    }

    #[test]
    fn zero_probabilities_fall_back_to_uniform() {
        let mut rng = SeatRng::new([3; 32], 0);
        let (i, q) = Sampling::Sample.pick(&hand(), |_| 0.0, &mut rng);
        assert!(i < 3);
        assert!((q - 1.0 / 3.0).abs() < 1e-12);
    }
}
