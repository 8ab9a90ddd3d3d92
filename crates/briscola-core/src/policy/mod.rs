//! Card-playing policies: implementations of the engine's [`Policy`] interface (which lives in
//! `crate::game`, re-exported here for convenience), and their serialisable specifications.
//!
//! Invariant: a policy decides from a [`SeatView`] only, which holds exactly what its seat may
//! see; it returns an index into its own hand, so it can never play a card it does not hold.
//!
//! Policies can also be written as data (the policy language, [`lang`]): rules ([`RuleProgram`]),
//! a [`Switch`] between two policies, or a policy with an exploration probability
//! ([`Epsilon`]); the paper's three are shipped as definitions ([`builtin_defs`]).
//!
//! To add a policy kind: write `src/policy/<name>.rs` with a type implementing [`Policy`] and
//! [`KindPolicy`] (its decision and explanation), and a value implementing [`KindSeam`] (its
//! study-file fields and checks, its parameters as [`KindParams`], its description), then
//! register it with `mod <name>;` and one line in the registry below (`kinds::policy_kinds!`,
//! at the end: the order is `PolicyKind`'s). It plays through
//! [`AnyPolicy::Dyn`]; `mixture.rs` is such a kind. Only the built-ins and rule programs are
//! monomorphised per pair in the engine's loop. No existing cache key changes.

pub mod builtin_defs;
mod counter;
mod epsilon;
mod explain;
mod exploit;
mod field_value;
mod greedy;
mod hoarder;
mod kind_params;
mod kind_seam;
mod kinds;
pub mod lang;
mod mixture;
pub mod onnx;
mod order;
mod paper_kind;
mod past_play_cache;
mod policy_def;
mod policy_def_error;
mod policy_description;
mod policy_resolver;
mod policy_section;
#[cfg(test)]
mod props;
mod random;
mod search;
#[cfg(test)]
pub(crate) mod strategies;
mod switch;
mod table_policy;
#[cfg(test)]
mod table_props;
mod target_memo;

// The registry of policy kinds: one line each (see `kinds.rs`). A new kind goes at the end.
kinds::policy_kinds! {
    /// Definition 1: take every trick it can.
    Greedy = "greedy" => paper_kind::PaperKind::GREEDY,
    /// Definition 2: spend a trump only on a valuable trick.
    Hoarder = "hoarder" => paper_kind::PaperKind::HOARDER,
    /// Definition 3: hoarder plus the carico trap from public memory.
    Counter = "counter" => paper_kind::PaperKind::COUNTER,
    /// Rules written in the policy language.
    Rules = "rules" => lang::RulesKind,
    /// One policy while a condition holds, another otherwise.
    Switch = "switch" => switch::SwitchKind,
    /// A policy that plays a uniformly random card with probability eps.
    Epsilon = "epsilon" => epsilon::EpsilonKind,
    /// Determinized search (PIMC) solving sampled worlds with alpha-beta.
    Search = "search" => search::SearchKind,
    /// A uniformly random card of the hand, from the seat's own stream.
    Random = "random" => random::RandomKind,
    /// A policy network in an ONNX file (e.g. BriscolaBot-v3).
    Onnx = "onnx" => onnx::OnnxKind,
    /// A best response to a known deterministic policy: worlds consistent with the target's
    /// plays, searched with the target's moves from its policy.
    Exploit = "exploit" => exploit::ExploitKind,
    /// A behavioural mixture: at each decision one of several policies, drawn by weight.
    Mixture = "mixture" => mixture::MixtureKind,
}

pub use crate::game::{Policy, SeatRng, SeatView};
pub use counter::Counter;
pub use epsilon::{EpsMoves, Epsilon};
pub use explain::{Explanation, Rule};
pub use exploit::{DEFAULT_EXPLOIT_HORIZON, DEFAULT_EXPLOIT_WORLDS, Exploit, World, Worlds};
pub use field_value::{FieldValue, plain_message, shown_text, with_valid};
pub use greedy::Greedy;
pub use hoarder::Hoarder;
pub use kind_params::{KindParams, Param};
pub use kind_seam::{Field, KindContext, KindPolicy, KindSeam};
pub use kinds::BUILTIN_KINDS;
pub use lang::RuleProgram;
pub use mixture::Mixture;
pub use onnx::{CARDS, Encoding, OnnxError, OnnxModel, OnnxPolicy, Sampling};
pub use order::TieBreak;
pub use policy_def::{PolicyDef, Prob};
pub use policy_def_error::PolicyDefError;
pub use policy_description::{Describer, PolicyDescription};
pub use policy_resolver::PolicyResolver;
pub use policy_section::PolicySection;
pub use random::Random;
pub use search::{DEFAULT_HORIZON, DEFAULT_WORLDS, MAX_HORIZON, MAX_WORLDS, Search};
pub use switch::Switch;
pub use table_policy::{FollowReading, TablePolicy, VariantFitError};

use std::sync::Arc;

use crate::game::KeyTables;

use serde::{Deserialize, Serialize};

/// The overtrump threshold of hoarder and counter when none is given, in points (the paper's).
pub const DEFAULT_THRESHOLD: u8 = 10;

/// Largest allowed overtrump threshold, in points (a led card is worth at most 11, so 12 and
/// above mean "never overtrump").
pub const MAX_THRESHOLD: u8 = 22;

/// Why a policy of `kind` cannot be given the overtrump threshold `threshold`, if it cannot:
/// only hoarder and counter have one, and it is at most [`MAX_THRESHOLD`]. Every config
/// section that sets a threshold (`[policies.*]`, a variant's `[variants.*.policy.*]`) checks
/// it here.
///
/// ```
/// use briscola_core::policy::{PolicyKind, threshold_problem};
/// assert_eq!(threshold_problem(PolicyKind::Hoarder, 10), None);
/// assert!(threshold_problem(PolicyKind::Counter, 23).unwrap().contains("out of range"));
/// assert!(threshold_problem(PolicyKind::Greedy, 3).unwrap().contains("no threshold"));
/// assert!(threshold_problem(PolicyKind::Random, 3).unwrap().contains("no threshold"));
/// ```
pub fn threshold_problem(kind: PolicyKind, threshold: u8) -> Option<String> {
    if !matches!(kind, PolicyKind::Hoarder | PolicyKind::Counter) {
        return Some(format!(
            "a {} policy has no threshold; remove the field (it applies to kind = \"hoarder\" and \"counter\")",
            kind.as_str()
        ));
    }
    (threshold > MAX_THRESHOLD).then(|| {
        format!(
            "{threshold} points is out of range; use 0 to {MAX_THRESHOLD} (a led card is worth at most 11 points, so 12 or more means never overtrump)"
        )
    })
}

/// Everything that determines a policy's behaviour, under the user's name for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PolicySpec {
    /// The user's name for the policy (unique in a study).
    pub name: String,
    /// Which rule.
    pub kind: PolicyKind,
    /// Overtrump threshold in points (hoarder, counter); 0 for greedy.
    pub threshold: u8,
    /// How equal-point cards are ordered.
    pub tie_break: TieBreak,
    /// The definition of a data-defined policy (rules, switch, epsilon); `None` for the
    /// built-in kinds (absent from the JSON, so their shards and keys are unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub def: Option<PolicyDef>,
    /// The name whose deal and seat streams this policy's matchups use, when not its own (a
    /// sweep's points share their template's, so every point plays the same deals: common
    /// random numbers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<String>,
}

/// A spec that cannot be built (only possible for a hand-edited spec: configs are validated).
#[derive(Debug, thiserror::Error)]
#[error("policy `{name}`: {message}")]
pub struct PolicyBuildError {
    /// The policy.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

impl PolicyBuildError {
    /// `spec` cannot be built, because `message`.
    pub fn new(spec: &PolicySpec, message: String) -> PolicyBuildError {
        PolicyBuildError {
            name: spec.name.clone(),
            message,
        }
    }

    /// `spec` lacks the definition its kind needs (a hand-edited spec).
    pub fn missing_def(spec: &PolicySpec) -> PolicyBuildError {
        PolicyBuildError::new(
            spec,
            format!("kind {} needs its definition", spec.kind.as_str()),
        )
    }
}

impl PolicySpec {
    /// The paper's policy of `kind` with default parameters, named after its kind.
    pub fn paper(kind: PolicyKind, tie_break: TieBreak) -> PolicySpec {
        PolicySpec {
            name: kind.as_str().into(),
            kind,
            threshold: kind.default_threshold(),
            tie_break,
            def: None,
            stream: None,
        }
    }

    /// The search agent with its default parameters, named `search`.
    pub fn search_default() -> PolicySpec {
        PolicySpec {
            name: "search".into(),
            kind: PolicyKind::Search,
            threshold: 0,
            tie_break: TieBreak::default(),
            def: Some(PolicyDef::Search {
                worlds: DEFAULT_WORLDS,
                horizon: DEFAULT_HORIZON,
            }),
            stream: None,
        }
    }

    /// Whether the policy's card is a function of its view alone (it never draws from its
    /// stream): the built-ins but random, rules without an `order = random` rule, a network
    /// playing its argmax card, and switches between such. An exploit agent's target must be.
    pub fn is_deterministic(&self) -> bool {
        self.kind.seam().is_deterministic(self)
    }

    /// The name whose deal and seat streams this policy's matchups use.
    pub fn stream_name(&self) -> &str {
        self.stream.as_deref().unwrap_or(&self.name)
    }

    /// The behaviour only (kind, parameters), without the name.
    ///
    /// # Panics
    /// If the spec cannot be built (see [`PolicySpec::try_build`]); specs from a validated
    /// config always can.
    pub fn build(&self) -> AnyPolicy {
        self.try_build()
            .unwrap_or_else(|e| panic!("a validated policy spec builds: {e}"))
    }

    /// The behaviour, or why a (hand-edited) spec cannot be built (its kind's
    /// [`KindSeam::build`]).
    pub fn try_build(&self) -> Result<AnyPolicy, PolicyBuildError> {
        self.kind.seam().build(self)
    }
}

/// A built policy of any known kind; dispatch by `match` keeps the engine loop monomorphic.
#[derive(Clone, Debug)]
pub enum AnyPolicy {
    /// [`Greedy`]
    Greedy(Greedy),
    /// [`Hoarder`]
    Hoarder(Hoarder),
    /// [`Counter`]
    Counter(Counter),
    /// [`RuleProgram`]
    Rules(Arc<RuleProgram>),
    /// [`Switch`]
    Switch(Arc<Switch>),
    /// [`Epsilon`]
    Epsilon(Arc<Epsilon>),
    /// [`Search`]
    Search(Search),
    /// [`Random`]
    Random(Random),
    /// [`OnnxPolicy`]
    Onnx(OnnxPolicy),
    /// [`Exploit`]
    Exploit(Arc<Exploit>),
    /// A registered kind without a variant of its own ([`KindPolicy`]), e.g. [`Mixture`].
    Dyn(Arc<dyn KindPolicy>),
}

impl Policy for AnyPolicy {
    #[inline(always)]
    fn choose(&self, view: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        match self {
            AnyPolicy::Greedy(p) => p.choose(view, rng),
            AnyPolicy::Hoarder(p) => p.choose(view, rng),
            AnyPolicy::Counter(p) => p.choose(view, rng),
            AnyPolicy::Rules(p) => p.choose(view, rng),
            AnyPolicy::Switch(p) => p.choose(view, rng),
            AnyPolicy::Epsilon(p) => p.choose(view, rng),
            AnyPolicy::Search(p) => p.choose(view, rng),
            AnyPolicy::Random(p) => p.choose(view, rng),
            AnyPolicy::Onnx(p) => p.choose(view, rng),
            AnyPolicy::Exploit(p) => p.choose(view, rng),
            AnyPolicy::Dyn(p) => p.choose(view, rng),
        }
    }
}

/// Work generic over a pair of concrete policies (see [`AnyPolicy::with_pair`]).
pub trait PairWork {
    /// The result.
    type Output;
    /// Do the work with `p1` in seat G1 and `p2` in seat G2.
    fn run<P1: Policy, P2: Policy>(self, p1: &P1, p2: &P2) -> Self::Output;
}

impl AnyPolicy {
    /// The network policy, if this is one (the tournament batches its decisions).
    pub fn as_onnx(&self) -> Option<&OnnxPolicy> {
        match self {
            AnyPolicy::Onnx(p) => Some(p),
            _ => None,
        }
    }

    /// The policy as key tables for the table-driven engine ([`crate::game::play_keyed`]), when
    /// it is one: the paper's three deterministic policies and rule programs whose choices are
    /// per-card keys ([`RuleProgram::key_tables`]). `None` for every other kind (they play
    /// through [`crate::game::play_game`]).
    pub fn key_tables(&self) -> Option<KeyTables> {
        match self {
            AnyPolicy::Greedy(p) => Some(p.key_tables()),
            AnyPolicy::Hoarder(p) => Some(p.key_tables()),
            AnyPolicy::Counter(p) => Some(p.key_tables()),
            AnyPolicy::Rules(p) => p.key_tables(),
            _ => None,
        }
    }

    /// Run `work` with both policies as their concrete types, so the engine's loop is compiled
    /// once per pair of kinds with the policies inlined (no per-decision dispatch). Built-ins
    /// and rule programs are monomorphised per pair; composites (switch, epsilon) dispatch
    /// through [`AnyPolicy`]'s `match` at each decision.
    pub fn with_pair<W: PairWork>(a: &AnyPolicy, b: &AnyPolicy, work: W) -> W::Output {
        use AnyPolicy as A;
        match (a, b) {
            (A::Greedy(x), A::Greedy(y)) => work.run(x, y),
            (A::Greedy(x), A::Hoarder(y)) => work.run(x, y),
            (A::Greedy(x), A::Counter(y)) => work.run(x, y),
            (A::Hoarder(x), A::Greedy(y)) => work.run(x, y),
            (A::Hoarder(x), A::Hoarder(y)) => work.run(x, y),
            (A::Hoarder(x), A::Counter(y)) => work.run(x, y),
            (A::Counter(x), A::Greedy(y)) => work.run(x, y),
            (A::Counter(x), A::Hoarder(y)) => work.run(x, y),
            (A::Counter(x), A::Counter(y)) => work.run(x, y),
            (A::Rules(x), A::Rules(y)) => work.run(&**x, &**y),
            (A::Rules(x), A::Greedy(y)) => work.run(&**x, y),
            (A::Rules(x), A::Hoarder(y)) => work.run(&**x, y),
            (A::Rules(x), A::Counter(y)) => work.run(&**x, y),
            (A::Greedy(x), A::Rules(y)) => work.run(x, &**y),
            (A::Hoarder(x), A::Rules(y)) => work.run(x, &**y),
            (A::Counter(x), A::Rules(y)) => work.run(x, &**y),
            _ => work.run(a, b),
        }
    }
}
