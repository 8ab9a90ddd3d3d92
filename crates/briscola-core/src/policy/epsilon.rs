//! `epsilon`: with probability eps play a uniformly random card of the hand instead of what the
//! base policy would (on leader moves only, as the paper's section 6 words it, or on every move).
//!
//! Invariant: eps = 0 never draws and plays exactly as the base policy; eps = 1 always plays a
//! uniformly random card; the draws come from the seat's own stream ([`SeatRng`]), never from
//! the deal stream, so an epsilon study deals exactly the games of its deterministic twin.

use serde::{Deserialize, Serialize};

use super::{AnyPolicy, Explanation};
use crate::game::{Policy, SeatRng, SeatView};

/// Which moves may explore.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EpsMoves {
    /// Only when leading (the paper's "perturbing the leader move").
    #[default]
    Lead,
    /// Every move.
    All,
}

impl EpsMoves {
    /// The name in `pipeline.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            EpsMoves::Lead => "lead",
            EpsMoves::All => "all",
        }
    }
}

/// The base policy, perturbed.
#[derive(Clone, Debug)]
pub struct Epsilon {
    base: AnyPolicy,
    eps: f64,
    moves: EpsMoves,
}

impl Epsilon {
    /// `base` exploring with probability `eps` (in [0, 1]) on `moves`.
    pub fn new(base: AnyPolicy, eps: f64, moves: EpsMoves) -> Epsilon {
        Epsilon { base, eps, moves }
    }
}

impl Epsilon {
    /// [`Policy::choose`], saying whether this move explored (a uniformly random card) or
    /// followed the base policy, and the base policy's reason.
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let eligible = self.moves == EpsMoves::All || v.table.is_none();
        if eligible && self.eps > 0.0 && rng.unit() < self.eps {
            let index = rng.below(v.hand.len() as u32) as usize;
            return Explanation {
                index,
                card: v.hand[index],
                rule: None,
                because: format!(
                    "epsilon: explored (probability {}): a uniformly random card of the {}",
                    self.eps,
                    v.hand.len()
                ),
            };
        }
        let inner = self.base.explain(v, rng);
        let why = if eligible {
            format!("did not explore (probability {})", self.eps)
        } else {
            format!("{} moves only, so no exploring here", self.moves.as_str())
        };
        Explanation {
            because: format!("epsilon: {why}; {}", inner.line()),
            rule: None,
            ..inner
        }
    }
}

impl Policy for Epsilon {
    #[inline]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        let eligible = self.moves == EpsMoves::All || v.table.is_none();
        if eligible && self.eps > 0.0 && rng.unit() < self.eps {
            return rng.below(v.hand.len() as u32) as usize;
        }
        self.base.choose(v, rng)
    }
}

/// The `epsilon` kind's seam: `base`, exploring with probability `eps` on `moves`.
pub(super) struct EpsilonKind;

const FIELDS: [super::Field; 3] = [
    super::Field {
        name: "base",
        required: true,
        valid: "the name of a policy, e.g. \"greedy\"",
    },
    super::Field {
        name: "eps",
        required: true,
        valid: "a probability from 0 to 1, e.g. 0.05",
    },
    super::Field {
        name: "moves",
        required: false,
        valid: "\"lead\" (leader moves only) or \"all\"",
    },
];

impl super::KindSeam for EpsilonKind {
    fn summary(&self, _: &super::PolicySpec) -> String {
        "epsilon".into()
    }

    fn fields(&self) -> &'static [super::Field] {
        &FIELDS
    }

    fn resolve(
        &self,
        cx: &mut super::KindContext<'_>,
        spec: &mut super::PolicySpec,
    ) -> Result<(), super::PolicyDefError> {
        let moves = cx.get::<EpsMoves>("moves")?.unwrap_or_default();
        let eps = cx.get::<f64>("eps")?.unwrap_or(f64::NAN);
        if !(0.0..=1.0).contains(&eps) {
            return Err(cx.error(
                "eps",
                format!(
                    "{eps} is not a probability; use a number from 0 (never explore) to 1 (always play a uniformly random card), e.g. 0.05"
                ),
            ));
        }
        let base = cx.policy("base")?;
        spec.def = Some(super::PolicyDef::Epsilon {
            base: Box::new(base),
            eps: super::Prob(eps),
            moves,
        });
        Ok(())
    }

    fn build(&self, spec: &super::PolicySpec) -> Result<AnyPolicy, super::PolicyBuildError> {
        let Some(super::PolicyDef::Epsilon { base, eps, moves }) = &spec.def else {
            return Err(super::PolicyBuildError::missing_def(spec));
        };
        Ok(AnyPolicy::Epsilon(std::sync::Arc::new(Epsilon::new(
            base.try_build()?,
            eps.0,
            *moves,
        ))))
    }

    fn describe(&self, spec: &super::PolicySpec, d: &mut super::Describer<'_>) {
        if let Some(super::PolicyDef::Epsilon { base, eps, moves }) = &spec.def {
            d.line(&format!(
                "with probability {} on {} moves: a uniformly random card of the hand (seat stream); otherwise:",
                eps.0,
                match moves {
                    EpsMoves::Lead => "leader",
                    EpsMoves::All => "all",
                }
            ));
            d.policy(base);
        }
    }

    /// The base plays at the table, so it must fit it.
    fn fits(
        &self,
        spec: &super::PolicySpec,
        rules: &crate::game::Rules,
    ) -> Result<(), super::VariantFitError> {
        if let Some(super::PolicyDef::Epsilon { base, .. }) = &spec.def {
            base.kind.seam().fits(base, rules)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Card, Suit};
    use crate::policy::{PolicyKind, PolicySpec, TieBreak};

    /// eps = 1 plays a uniformly random legal card: over 30,000 decisions (one per game
    /// stream, leading and following, hands of three and of two cards) each card of the hand
    /// is chosen about equally often. Pearson's chi-square against the uniform counts stays
    /// below the 0.999 quantile of its distribution (R 4.2.2: `qchisq(0.999, 2)` = 13.8155,
    /// `qchisq(0.999, 1)` = 10.8276); the draws are fixed by the streams, so this is not flaky.
    /// A policy that ignored eps (or always took the base's card) would put every count on one
    /// card: chi-square 60,000 for three cards.
    #[test]
    fn eps_one_is_uniform_over_the_legal_cards() {
        let base = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build();
        let c = |s, r| Card::new(s, r).unwrap();
        let hands: [&[Card]; 2] = [
            &[c(Suit::Oro, 1), c(Suit::Coppe, 2), c(Suit::Spade, 7)],
            &[c(Suit::Bastoni, 3), c(Suit::Oro, 4)],
        ];
        for moves in [EpsMoves::Lead, EpsMoves::All] {
            let p = Epsilon::new(base.clone(), 1.0, moves);
            for hand in hands {
                for table in [None, Some(c(Suit::Spade, 5))] {
                    if table.is_some() && moves == EpsMoves::Lead {
                        continue; // following is never perturbed under "lead"
                    }
                    let v = SeatView {
                        table,
                        trump: Suit::Coppe,
                        played: 4,
                        stock_left: 20,
                        trick: 3,
                        ..SeatView::opening(hand, c(Suit::Coppe, 6))
                    };
                    let n = 30_000u64;
                    let mut counts = vec![0u64; hand.len()];
                    for g in 0..n {
                        counts[p.choose(&v, &mut SeatRng::new([9; 32], g))] += 1;
                    }
                    let expected = n as f64 / hand.len() as f64;
                    let chi2: f64 = counts
                        .iter()
                        .map(|&k| (k as f64 - expected).powi(2) / expected)
                        .sum();
                    let critical = if hand.len() == 3 { 13.8155 } else { 10.8276 };
                    assert!(
                        chi2 < critical,
                        "{moves:?} {table:?} hand {}: counts {counts:?}, chi-square {chi2}",
                        hand.len()
                    );
                }
            }
        }
    }

    /// Following under "lead" never explores: eps = 1 then plays the base's card every time.
    #[test]
    fn eps_one_on_lead_moves_leaves_following_to_the_base() {
        let base = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build();
        let c = |s, r| Card::new(s, r).unwrap();
        let hand = [c(Suit::Oro, 1), c(Suit::Coppe, 2), c(Suit::Spade, 7)];
        let v = SeatView {
            table: Some(c(Suit::Spade, 5)),
            trump: Suit::Coppe,
            played: 4,
            stock_left: 20,
            trick: 3,
            seat: 1,
            ..SeatView::opening(&hand, c(Suit::Coppe, 6))
        };
        let p = Epsilon::new(base.clone(), 1.0, EpsMoves::Lead);
        let want = base.choose(&v, &mut SeatRng::new([0; 32], 0));
        for g in 0..200 {
            assert_eq!(p.choose(&v, &mut SeatRng::new([9; 32], g)), want);
        }
    }
}
