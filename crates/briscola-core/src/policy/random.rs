//! `random`: a uniformly random legal card (in Briscola every card in hand is legal), drawn
//! from the seat's own stream — the floor every agent study reports against.
//!
//! Invariant: one draw per decision from [`SeatRng`] (keyed by seed, policy name and seat, with
//! the game index as stream), never from the deal stream; so its games are the same on any
//! thread count and a random seat deals exactly the games of its deterministic twin.

use super::explain::Explanation;
use crate::game::{Policy, SeatRng, SeatView};

/// Plays a card of its hand chosen uniformly at random.
///
/// ```
/// use briscola_core::game::{Card, SeatRng, SeatView, Suit};
/// use briscola_core::policy::{Policy, Random};
/// let hand = [Card::new(Suit::Oro, 1).unwrap(), Card::new(Suit::Coppe, 2).unwrap()];
/// let view = SeatView::opening(&hand, Card::new(Suit::Coppe, 7).unwrap());
/// let pick = Random.choose(&view, &mut SeatRng::new([5; 32], 0));
/// assert!(pick < hand.len());
/// assert_eq!(pick, Random.choose(&view, &mut SeatRng::new([5; 32], 0)), "same stream, same card");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Random;

impl Policy for Random {
    #[inline]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        rng.below(v.hand.len() as u32) as usize
    }
}

impl Random {
    /// [`Policy::choose`], with the reason in words.
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let index = self.choose(v, rng);
        Explanation {
            index,
            card: v.hand[index],
            rule: None,
            because: format!(
                "uniformly random among the {} cards in hand (p = 1/{})",
                v.hand.len(),
                v.hand.len()
            ),
        }
    }
}

/// The `random` kind's seam: no fields, no trump needed, draws from its stream.
pub(super) struct RandomKind;

impl super::KindSeam for RandomKind {
    fn summary(&self, _: &super::PolicySpec) -> String {
        "built-in random: a uniformly random card of the hand (seat stream)".into()
    }

    fn build(&self, _: &super::PolicySpec) -> Result<super::AnyPolicy, super::PolicyBuildError> {
        Ok(super::AnyPolicy::Random(Random))
    }

    fn needs_trump(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Card, Deck, Suit};
    use statrs::distribution::{ChiSquared, ContinuousCDF};

    fn chi_square_sf(x2: f64, df: f64) -> f64 {
        ChiSquared::new(df).unwrap().sf(x2)
    }

    fn view(hand: &[Card]) -> SeatView<'_> {
        SeatView {
            trump: Suit::Coppe,
            stock_left: 30,
            trick: 3,
            ..SeatView::opening(hand, Card::new(Suit::Coppe, 7).unwrap())
        }
    }

    /// For hands of 1, 2 and 3 cards, 30,000 decisions each (each from its own game's stream,
    /// as the engine gives them): the counts per position fit the uniform distribution
    /// (Pearson chi-square with len-1 degrees of freedom, p > 0.001), and every position is
    /// played.
    #[test]
    fn uniform_over_the_hand() {
        let deck = Deck::ordered();
        for len in 1..=3usize {
            let hand = &deck.cards()[..len];
            let mut counts = vec![0u64; len];
            let n = 30_000u64;
            for g in 0..n {
                let mut rng = SeatRng::new([len as u8; 32], g);
                counts[Random.choose(&view(hand), &mut rng)] += 1;
            }
            assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
            if len > 1 {
                let e = n as f64 / len as f64;
                let x2: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
                let p = chi_square_sf(x2, (len - 1) as f64);
                assert!(p > 1e-3, "hand of {len}: counts {counts:?}, X2 {x2}, p {p}");
            }
        }
    }

    /// A policy that always plays position 0 would fail the test above: the statistic detects it.
    #[test]
    fn the_uniformity_check_rejects_a_constant_choice() {
        let e: f64 = 10_000.0 / 3.0;
        let x2 = (10_000.0 - e).powi(2) / e + 2.0 * e;
        assert!(chi_square_sf(x2, 2.0) < 1e-100);
    }
}
