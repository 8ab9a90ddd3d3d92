//! `mixture`: a behavioural mixture of policies. At each decision one of `policies` is drawn
//! with probability proportional to its entry in `weights` (equal weights when none are
//! given), from the seat's own stream, and that policy plays. A mixed strategy over the
//! paper's pure policies (greedy 70 %, counter 30 %), e.g. as a target for exploitability.
//!
//! The first kind written against the kind seam alone: this file and one line in
//! [`super::kinds`] are all of it (its parameters are [`KindParams`], it plays through
//! [`AnyPolicy::Dyn`]).
//!
//! Invariant: a mixture of two or more draws once per decision from the seat stream, before
//! the drawn policy's own draws; a mixture of one never draws (it is that policy). So its games
//! are the same on any thread count, and it deals exactly the games of its deterministic twin.

use std::sync::Arc;

use super::{
    AnyPolicy, Describer, Explanation, Field, KindContext, KindParams, KindPolicy, KindSeam, Param,
    PolicyBuildError, PolicyDef, PolicyDefError, PolicySpec, Prob, VariantFitError,
};
use crate::game::{Policy, Rules, SeatRng, SeatView};

/// The most policies a mixture may hold.
pub const MAX_PARTS: usize = 16;

/// At each decision, one of its policies, drawn by weight.
#[derive(Debug)]
pub struct Mixture {
    parts: Vec<(String, AnyPolicy)>,
    /// Cumulative normalised weights; the last is 1.
    cumulative: Vec<f64>,
}

impl Mixture {
    /// `parts` (name, policy) with positive `weights` of the same length.
    pub fn new(parts: Vec<(String, AnyPolicy)>, weights: &[f64]) -> Mixture {
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        let mut cumulative: Vec<f64> = weights
            .iter()
            .map(|w| {
                acc += w;
                acc / total
            })
            .collect();
        if let Some(last) = cumulative.last_mut() {
            *last = 1.0;
        }
        Mixture { parts, cumulative }
    }

    /// The part that plays this decision (one draw when there are two or more).
    fn pick(&self, rng: &mut SeatRng) -> usize {
        if self.parts.len() == 1 {
            return 0;
        }
        let u = rng.unit();
        self.cumulative
            .iter()
            .position(|&c| u < c)
            .unwrap_or(self.parts.len() - 1)
    }
}

impl Policy for Mixture {
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        let i = self.pick(rng);
        self.parts[i].1.choose(v, rng)
    }
}

impl KindPolicy for Mixture {
    fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let i = self.pick(rng);
        let (name, part) = &self.parts[i];
        let p = self.cumulative[i] - if i == 0 { 0.0 } else { self.cumulative[i - 1] };
        let inner = part.explain(v, rng);
        Explanation {
            because: format!(
                "mixture: drew `{name}` (probability {p:.3}); {}",
                inner.line()
            ),
            rule: None,
            ..inner
        }
    }
}

/// The `mixture` kind's seam.
pub(super) struct MixtureKind;

const FIELDS: [Field; 2] = [
    Field {
        name: "policies",
        required: true,
        valid: "a list of 1 to 16 policy names, e.g. [\"greedy\", \"counter\"]",
    },
    Field {
        name: "weights",
        required: false,
        valid: "one number above 0 per policy, e.g. [0.7, 0.3] (default: equal)",
    },
];

/// A mixture spec's policies and weights.
fn parts(spec: &PolicySpec) -> Option<(&[PolicySpec], Vec<f64>)> {
    let Some(PolicyDef::Params(params)) = &spec.def else {
        return None;
    };
    let (Some(Param::Policies(specs)), Some(Param::Numbers(weights))) =
        (params.get("policies"), params.get("weights"))
    else {
        return None;
    };
    Some((specs, weights.iter().map(|w| w.0).collect()))
}

impl KindSeam for MixtureKind {
    fn summary(&self, spec: &PolicySpec) -> String {
        let n = parts(spec).map_or(0, |(p, _)| p.len());
        format!("mixture: at each decision one of {n} policies, drawn by weight (seat stream)")
    }

    fn fields(&self) -> &'static [Field] {
        &FIELDS
    }

    fn resolve(
        &self,
        cx: &mut KindContext<'_>,
        spec: &mut PolicySpec,
    ) -> Result<(), PolicyDefError> {
        let names: Vec<String> = cx.get("policies")?.unwrap_or_default();
        if names.is_empty() || names.len() > MAX_PARTS {
            return Err(cx.error(
                "policies",
                format!(
                    "{} policies; a mixture takes 1 to {MAX_PARTS}, e.g. policies = [\"greedy\", \"counter\"]",
                    names.len()
                ),
            ));
        }
        let weights: Vec<f64> = cx.get("weights")?.unwrap_or_else(|| vec![1.0; names.len()]);
        if weights.len() != names.len() {
            return Err(cx.error(
                "weights",
                format!(
                    "{} weights for {} policies; give one weight per policy, in the same order",
                    weights.len(),
                    names.len()
                ),
            ));
        }
        if let Some((i, w)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !(w.is_finite() && **w > 0.0))
        {
            return Err(cx.error(
                &format!("weights[{i}]"),
                format!("{w} is not a weight; use a number above 0 (they need not sum to 1)"),
            ));
        }
        let specs = cx.policies("policies")?;
        spec.def = Some(PolicyDef::Params(
            KindParams::default()
                .with("policies", Param::Policies(specs))
                .with(
                    "weights",
                    Param::Numbers(weights.into_iter().map(Prob).collect()),
                ),
        ));
        Ok(())
    }

    fn build(&self, spec: &PolicySpec) -> Result<AnyPolicy, PolicyBuildError> {
        let (specs, weights) = parts(spec).ok_or_else(|| PolicyBuildError::missing_def(spec))?;
        let bad_weight = weights.iter().any(|w| !(w.is_finite() && *w > 0.0));
        if specs.is_empty() || specs.len() > MAX_PARTS || weights.len() != specs.len() || bad_weight
        {
            return Err(PolicyBuildError::new(
                spec,
                format!(
                    "{} policies and weights {weights:?}: use 1 to {MAX_PARTS} policies, one positive weight each",
                    specs.len()
                ),
            ));
        }
        let mut built = Vec::with_capacity(specs.len());
        for s in specs {
            built.push((s.name.clone(), s.try_build()?));
        }
        Ok(AnyPolicy::Dyn(Arc::new(Mixture::new(built, &weights))))
    }

    fn describe(&self, spec: &PolicySpec, d: &mut Describer<'_>) {
        if let Some((specs, weights)) = parts(spec) {
            let total: f64 = weights.iter().sum();
            for (s, w) in specs.iter().zip(&weights) {
                d.line(&format!("with probability {:.4}:", w / total));
                d.policy(s);
            }
        }
    }

    fn is_deterministic(&self, spec: &PolicySpec) -> bool {
        parts(spec).is_some_and(|(specs, _)| specs.len() == 1 && specs[0].is_deterministic())
    }

    /// Every policy it mixes must fit the table.
    fn fits(&self, spec: &PolicySpec, rules: &Rules) -> Result<(), VariantFitError> {
        for s in parts(spec).map_or(&[][..], |(specs, _)| specs) {
            s.kind.seam().fits(s, rules)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use super::*;
    use crate::game::{Card, Deck, Suit};
    use crate::policy::{PolicyResolver, PolicySection};
    use statrs::distribution::{ChiSquared, ContinuousCDF};

    fn resolve(section: &str) -> Result<PolicySpec, PolicyDefError> {
        let section: PolicySection = toml::from_str(section).unwrap();
        let sections = BTreeMap::from([("mix".to_string(), section)]);
        PolicyResolver::new(&sections, Path::new(".")).resolve("mix", None)
    }

    fn view(hand: &[Card]) -> SeatView<'_> {
        SeatView {
            trump: Suit::Coppe,
            stock_left: 30,
            trick: 3,
            ..SeatView::opening(hand, Card::new(Suit::Coppe, 7).unwrap())
        }
    }

    /// Greedy leads its cheapest non-trump; a mixture of greedy (weight 3) and random over a
    /// hand where random differs: over 40,000 decisions, greedy's card comes 3/4 + 1/4 x 1/3 of
    /// the time (Pearson chi-square, 1 degree of freedom, p > 0.001), and the same stream gives
    /// the same card.
    #[test]
    fn parts_are_drawn_by_weight_from_the_seat_stream() {
        let spec =
            resolve("kind = \"mixture\"\npolicies = [\"greedy\", \"random\"]\nweights = [3, 1]\n")
                .unwrap();
        let mix = spec.build();
        let greedy =
            PolicySpec::paper(crate::policy::PolicyKind::Greedy, Default::default()).build();
        let deck = Deck::ordered();
        let hand = &deck.cards()[..3];
        let greedy_card = greedy.choose(&view(hand), &mut SeatRng::new([0; 32], 0));
        let n = 40_000u64;
        let mut hits = 0u64;
        for g in 0..n {
            let pick = mix.choose(&view(hand), &mut SeatRng::new([7; 32], g));
            let again = mix.choose(&view(hand), &mut SeatRng::new([7; 32], g));
            assert_eq!(pick, again, "game {g}: same stream, same card");
            hits += (pick == greedy_card) as u64;
        }
        let p = 0.75 + 0.25 / 3.0;
        let e = [n as f64 * p, n as f64 * (1.0 - p)];
        let o = [hits as f64, (n - hits) as f64];
        let x2: f64 = o.iter().zip(e).map(|(o, e)| (o - e).powi(2) / e).sum();
        let sf = ChiSquared::new(1.0).unwrap().sf(x2);
        assert!(sf > 1e-3, "greedy's card {hits} of {n}, X2 {x2}, p {sf}");
    }

    /// Its spec holds the policies fully specified and the weights as given (the cache key);
    /// the description shows both; a mixture of one deterministic policy is deterministic (a
    /// valid exploit target), of two is not.
    #[test]
    fn the_spec_describes_and_keys_its_parts() {
        let spec = resolve("kind = \"mixture\"\npolicies = [\"greedy\", \"counter\"]\n").unwrap();
        let text = toml::to_string(&spec).unwrap();
        assert!(text.contains("weights = [1.0, 1.0]"), "{text}");
        assert!(text.contains("name = \"counter\""), "{text}");
        let d = spec.describe().to_string();
        assert!(
            d.starts_with("mix: mixture: at each decision one of 2 policies"),
            "{d}"
        );
        assert!(
            d.contains("with probability 0.5000:\n    greedy: built-in greedy"),
            "{d}"
        );
        assert!(!spec.is_deterministic());
        let one = resolve("kind = \"mixture\"\npolicies = [\"counter\"]\n").unwrap();
        assert!(one.is_deterministic());
    }

    /// Bad sections are errors naming the field and what is valid.
    #[test]
    fn bad_sections_name_the_field() {
        for (section, field, says) in [
            ("policies = []", "policies.mix.policies", "1 to 16"),
            (
                "policies = [\"greedy\"]\nweights = [1, 2]",
                "policies.mix.weights",
                "one weight per policy",
            ),
            (
                "policies = [\"greedy\", \"counter\"]\nweights = [1, -2]",
                "policies.mix.weights[1]",
                "above 0",
            ),
            (
                "policies = [\"nobody\"]",
                "policies.mix.policies[0]",
                "unknown policy",
            ),
            (
                "policies = \"greedy\"",
                "policies.mix.policies",
                "invalid type",
            ),
            (
                "policies = [\"greedy\"]\nworlds = 4",
                "policies.mix.worlds",
                "\"search\"",
            ),
            ("weights = [1]", "policies.mix", "needs `policies`"),
        ] {
            let e = resolve(&format!("kind = \"mixture\"\n{section}\n")).unwrap_err();
            assert_eq!(e.field, field, "{section}: {e:?}");
            assert!(e.message.contains(says), "{section}: {}", e.message);
        }
    }
}
