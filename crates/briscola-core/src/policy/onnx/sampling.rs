//! How a network's card scores (logits) become one card: the card of the hand with the highest
//! score, or a card drawn from the softmax of the hand's scores with the seat's own stream.
//!
//! The softmax is computed here, in f64 after subtracting the hand's largest score, rather than
//! taken from the graph: BriscolaBot-v3's in-graph `ReduceLogSumExp` overflows to NaN in tract
//! once a logit passes ~88 (confident positions), which would silently turn a sure move into the
//! first card of the hand.
//!
//! Invariant: only cards in hand can be chosen, whatever the network says of other cards (a NaN
//! score counts as the lowest); `argmax` never draws, `sample` draws exactly one number per
//! decision from [`SeatRng`].

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

    /// Pick an index into `hand` given each hand card's score (logit) `score(card)`; returns the
    /// index and the chosen card's probability under the softmax over the hand.
    pub fn pick(
        self,
        hand: &[Card],
        score: impl Fn(Card) -> f32,
        rng: &mut SeatRng,
    ) -> (usize, f64) {
        let scores: Vec<f64> = hand
            .iter()
            .map(|&c| {
                let s = f64::from(score(c));
                if s.is_nan() { f64::NEG_INFINITY } else { s }
            })
            .collect();
        // The first card with the highest score (hand order breaks ties).
        let mut best = 0;
        for (i, &q) in scores.iter().enumerate() {
            if q > scores[best] {
                best = i;
            }
        }
        let top = scores[best];
        let weights: Vec<f64> = if top.is_finite() {
            scores.iter().map(|&q| (q - top).exp()).collect()
        } else {
            // No finite score (all -inf, or +inf): the best ones share evenly.
            scores
                .iter()
                .map(|&q| f64::from(u8::from(q == top)))
                .collect()
        };
        let total: f64 = weights.iter().sum();
        let share = |i: usize| weights[i] / total;
        let i = match self {
            Sampling::Argmax => best,
            Sampling::Sample => {
                let u = rng.unit();
                let mut acc = 0.0;
                let mut pick = hand.len() - 1;
                for (i, w) in weights.iter().enumerate() {
                    acc += w / total;
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

    /// Logits whose softmax over the hand is 1/9, 6/9, 2/9.
    fn p(c: Card) -> f32 {
        match c.suit() {
            Suit::Oro => 0.1f32.ln(),
            Suit::Spade => 0.6f32.ln(),
            _ => 0.2f32.ln(),
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
    fn equal_scores_are_uniform() {
        let mut rng = SeatRng::new([3; 32], 0);
        let (i, q) = Sampling::Sample.pick(&hand(), |_| 0.0, &mut rng);
        assert!(i < 3);
        assert!((q - 1.0 / 3.0).abs() < 1e-12);
    }

    /// Logits far beyond f32's exp range (what overflowed the graph's own softmax) still give a
    /// proper choice; a NaN score is never preferred.
    #[test]
    fn huge_logits_and_nan_scores_are_handled() {
        let mut rng = SeatRng::new([4; 32], 0);
        let huge = |c: Card| match c.suit() {
            Suit::Oro => 300.0,
            Suit::Spade => 320.0,
            _ => f32::NAN,
        };
        let (i, q) = Sampling::Argmax.pick(&hand(), huge, &mut rng);
        assert_eq!((i, q), (1, 1.0 / (1.0 + (-20.0f64).exp())));
        for g in 0..200 {
            let mut rng = SeatRng::new([4; 32], g);
            assert_ne!(Sampling::Sample.pick(&hand(), huge, &mut rng).0, 2);
        }
    }
}
