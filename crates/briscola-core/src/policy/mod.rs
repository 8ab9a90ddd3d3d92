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
//! To add a policy kind: write `src/policy/<name>.rs` with a type implementing [`Policy`], add a
//! [`PolicyKind`] variant, an arm in [`PolicySpec::try_build`] and an [`AnyPolicy`] variant
//! (pairs of new kinds are dispatched through [`AnyPolicy`]'s own `match`; only the built-ins
//! and rule programs are monomorphised per pair). Its matchups' cache keys change; no others do.

pub mod builtin_defs;
mod counter;
mod epsilon;
mod explain;
mod exploit;
mod greedy;
mod hoarder;
pub mod lang;
pub mod onnx;
mod order;
mod policy_def;
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

pub use crate::game::{Policy, SeatRng, SeatView};
pub use counter::Counter;
pub use epsilon::{EpsMoves, Epsilon};
pub use explain::{Explanation, Rule};
pub use exploit::{DEFAULT_EXPLOIT_HORIZON, DEFAULT_EXPLOIT_WORLDS, Exploit, World, Worlds};
pub use greedy::Greedy;
pub use hoarder::Hoarder;
pub use lang::RuleProgram;
pub use onnx::{CARDS, Encoding, OnnxError, OnnxModel, OnnxPolicy, Sampling};
pub use order::TieBreak;
pub use policy_def::{PolicyDef, Prob};
pub use policy_description::PolicyDescription;
pub use policy_resolver::{PolicyDefError, PolicyResolver};
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

/// Which rule a policy follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicyKind {
    /// Definition 1: take every trick it can.
    Greedy,
    /// Definition 2: spend a trump only on a valuable trick.
    Hoarder,
    /// Definition 3: hoarder plus the carico trap from public memory.
    Counter,
    /// Rules written in the policy language.
    Rules,
    /// One policy while a condition holds, another otherwise.
    Switch,
    /// A policy that plays a uniformly random card with probability eps.
    Epsilon,
    /// Determinized search (PIMC) solving sampled worlds with alpha-beta.
    Search,
    /// A uniformly random card of the hand, from the seat's own stream.
    Random,
    /// A policy network in an ONNX file (e.g. BriscolaBot-v3).
    Onnx,
    /// A best response to a known deterministic policy: worlds consistent with the target's
    /// plays, searched with the target's moves from its policy.
    Exploit,
}

/// The kinds a study or a command may name without defining them (`greedy`, `hoarder`,
/// `counter`, `random`): one list, used by every place that resolves a bare name.
pub const BUILTIN_KINDS: [PolicyKind; 4] = [
    PolicyKind::Greedy,
    PolicyKind::Hoarder,
    PolicyKind::Counter,
    PolicyKind::Random,
];

impl PolicyKind {
    /// The name used in `pipeline.toml` (`greedy`, `hoarder`, `counter`, `random`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            PolicyKind::Greedy => "greedy",
            PolicyKind::Hoarder => "hoarder",
            PolicyKind::Counter => "counter",
            PolicyKind::Rules => "rules",
            PolicyKind::Switch => "switch",
            PolicyKind::Epsilon => "epsilon",
            PolicyKind::Search => "search",
            PolicyKind::Random => "random",
            PolicyKind::Onnx => "onnx",
            PolicyKind::Exploit => "exploit",
        }
    }

    /// Parse a built-in kind's name (one of [`BUILTIN_KINDS`]).
    pub fn parse(name: &str) -> Option<PolicyKind> {
        BUILTIN_KINDS.into_iter().find(|k| k.as_str() == name)
    }

    /// The built-in names, comma-separated, for error messages (`greedy, hoarder, counter,
    /// random`).
    pub fn builtin_names() -> String {
        BUILTIN_KINDS.map(PolicyKind::as_str).join(", ")
    }

    /// Whether the kind's rule ranks cards against a trump suit (the paper's three and rules
    /// policies do; `random` does not).
    pub const fn needs_trump(self) -> bool {
        !matches!(self, PolicyKind::Random)
    }

    /// The threshold a policy of this kind has when none is given: 0 for greedy (it has none),
    /// [`DEFAULT_THRESHOLD`] otherwise.
    pub const fn default_threshold(self) -> u8 {
        match self {
            PolicyKind::Greedy => 0,
            _ => DEFAULT_THRESHOLD,
        }
    }

    /// The released simulator's name (used in its CSV).
    pub const fn dotnet_name(self) -> &'static str {
        match self {
            PolicyKind::Greedy => "Greedy",
            PolicyKind::Hoarder => "Hoarder",
            PolicyKind::Counter => "Counter",
            PolicyKind::Rules => "Rules",
            PolicyKind::Switch => "Switch",
            PolicyKind::Epsilon => "Epsilon",
            PolicyKind::Search => "Search",
            PolicyKind::Random => "Random",
            PolicyKind::Onnx => "Onnx",
            PolicyKind::Exploit => "Exploit",
        }
    }
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
        match (self.kind, &self.def) {
            (PolicyKind::Greedy | PolicyKind::Hoarder | PolicyKind::Counter, _) => true,
            (PolicyKind::Rules, Some(PolicyDef::Rules { lead, follow })) => {
                RuleProgram::compile(lead, follow, self.tie_break).is_ok_and(|p| {
                    !p.lead_rules()
                        .chain(p.follow_rules())
                        .any(|r| r.order == lang::Order::Random)
                })
            }
            (
                PolicyKind::Switch,
                Some(PolicyDef::Switch {
                    play, otherwise, ..
                }),
            ) => play.is_deterministic() && otherwise.is_deterministic(),
            (PolicyKind::Onnx, Some(PolicyDef::Onnx { sampling, .. })) => {
                *sampling == Sampling::Argmax
            }
            _ => false,
        }
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

    /// The behaviour, or why a (hand-edited) spec cannot be built.
    pub fn try_build(&self) -> Result<AnyPolicy, PolicyBuildError> {
        let bad = |message: String| PolicyBuildError {
            name: self.name.clone(),
            message,
        };
        Ok(match (self.kind, &self.def) {
            (PolicyKind::Greedy, _) => AnyPolicy::Greedy(Greedy::new(self.tie_break)),
            // A threshold out of range (e.g. from an edited record) is refused, not played.
            (PolicyKind::Hoarder | PolicyKind::Counter, _) if self.threshold > MAX_THRESHOLD => {
                return Err(bad(format!(
                    "threshold {}",
                    threshold_problem(self.kind, self.threshold).unwrap_or_default()
                )));
            }
            (PolicyKind::Hoarder, _) => {
                AnyPolicy::Hoarder(Hoarder::new(self.threshold, self.tie_break))
            }
            (PolicyKind::Counter, _) => {
                AnyPolicy::Counter(Counter::new(self.threshold, self.tie_break))
            }
            (PolicyKind::Rules, Some(PolicyDef::Rules { lead, follow })) => {
                AnyPolicy::Rules(Arc::new(
                    RuleProgram::compile(lead, follow, self.tie_break).map_err(|e| {
                        bad(format!(
                            "{} rule {}: {}",
                            e.list.as_str(),
                            e.index.map_or(0, |i| i + 1),
                            e.error
                        ))
                    })?,
                ))
            }
            (
                PolicyKind::Switch,
                Some(PolicyDef::Switch {
                    play,
                    when,
                    otherwise,
                }),
            ) => AnyPolicy::Switch(Arc::new(Switch::new(
                lang::parse_condition(when).map_err(|e| bad(e.to_string()))?,
                play.try_build()?,
                otherwise.try_build()?,
            ))),
            (PolicyKind::Epsilon, Some(PolicyDef::Epsilon { base, eps, moves })) => {
                AnyPolicy::Epsilon(Arc::new(Epsilon::new(base.try_build()?, eps.0, *moves)))
            }
            (PolicyKind::Search, Some(PolicyDef::Search { worlds, horizon })) => {
                if *worlds == 0 || *worlds > MAX_WORLDS || *horizon == 0 || *horizon > MAX_HORIZON {
                    return Err(bad(format!(
                        "worlds {worlds} and horizon {horizon}: use 1 to {MAX_WORLDS} worlds and a horizon of 1 to {MAX_HORIZON} tricks"
                    )));
                }
                AnyPolicy::Search(Search::new(*worlds, *horizon))
            }
            (
                PolicyKind::Exploit,
                Some(PolicyDef::Exploit {
                    target,
                    worlds,
                    horizon,
                }),
            ) => {
                if *worlds == 0 || *worlds > MAX_WORLDS || *horizon == 0 || *horizon > MAX_HORIZON {
                    return Err(bad(format!(
                        "worlds {worlds} and horizon {horizon}: use 1 to {MAX_WORLDS} worlds and a horizon of 1 to {MAX_HORIZON} tricks"
                    )));
                }
                if !target.is_deterministic() {
                    return Err(bad(format!(
                        "target `{}` is a {} policy; an exploit agent needs a deterministic target: greedy, hoarder, counter, a rules policy without a random rule, or a switch between such",
                        target.name,
                        target.kind.as_str()
                    )));
                }
                AnyPolicy::Exploit(Arc::new(Exploit::new(
                    target.try_build()?,
                    *worlds,
                    *horizon,
                )))
            }
            (PolicyKind::Random, _) => AnyPolicy::Random(Random),
            (PolicyKind::Onnx, Some(def @ PolicyDef::Onnx { .. })) => {
                AnyPolicy::Onnx(def.onnx_policy().map_err(|e| bad(e.to_string()))?)
            }
            (k, _) => return Err(bad(format!("kind {} needs its definition", k.as_str()))),
        })
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
