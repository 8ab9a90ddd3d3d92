//! Card-playing policies: implementations of the engine's [`Policy`] interface (which lives in
//! `crate::game`, re-exported here for convenience), and their serialisable specifications.
//!
//! Invariant: a policy decides from a [`SeatView`] only, which holds exactly what its seat may
//! see; it returns an index into its own hand, so it can never play a card it does not hold.
//!
//! To add a policy: write `src/policy/<name>.rs` with a type implementing [`Policy`], add a
//! [`PolicyKind`] variant and an arm in [`AnyPolicy`]. Its matchups' cache keys change; no others do.

mod counter;
mod greedy;
mod hoarder;
mod order;
#[cfg(test)]
mod props;
mod table_policy;
#[cfg(test)]
mod table_props;

pub use crate::game::{Policy, SeatRng, SeatView};
pub use counter::Counter;
pub use greedy::Greedy;
pub use hoarder::Hoarder;
pub use order::TieBreak;
pub use table_policy::{FollowReading, TablePolicy, VariantFitError};

use serde::{Deserialize, Serialize};

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
}

impl PolicyKind {
    /// The name used in `pipeline.toml` (`greedy`, `hoarder`, `counter`).
    pub const fn as_str(self) -> &'static str {
        match self {
            PolicyKind::Greedy => "greedy",
            PolicyKind::Hoarder => "hoarder",
            PolicyKind::Counter => "counter",
        }
    }

    /// The released simulator's name (used in its CSV).
    pub const fn dotnet_name(self) -> &'static str {
        match self {
            PolicyKind::Greedy => "Greedy",
            PolicyKind::Hoarder => "Hoarder",
            PolicyKind::Counter => "Counter",
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
}

impl PolicySpec {
    /// The paper's policy of `kind` with default parameters, named after its kind.
    pub fn paper(kind: PolicyKind, tie_break: TieBreak) -> PolicySpec {
        let name = match kind {
            PolicyKind::Greedy => "greedy",
            PolicyKind::Hoarder => "hoarder",
            PolicyKind::Counter => "counter",
        };
        PolicySpec {
            name: name.into(),
            kind,
            threshold: if kind == PolicyKind::Greedy { 0 } else { 10 },
            tie_break,
        }
    }

    /// The behaviour only (kind, parameters), without the name: what an engine fingerprint needs.
    pub fn build(&self) -> AnyPolicy {
        match self.kind {
            PolicyKind::Greedy => AnyPolicy::Greedy(Greedy::new(self.tie_break)),
            PolicyKind::Hoarder => AnyPolicy::Hoarder(Hoarder::new(self.threshold, self.tie_break)),
            PolicyKind::Counter => AnyPolicy::Counter(Counter::new(self.threshold, self.tie_break)),
        }
    }
}

/// A built policy of any known kind; dispatch by `match` keeps the engine loop monomorphic.
#[derive(Clone, Copy, Debug)]
pub enum AnyPolicy {
    /// [`Greedy`]
    Greedy(Greedy),
    /// [`Hoarder`]
    Hoarder(Hoarder),
    /// [`Counter`]
    Counter(Counter),
}

impl Policy for AnyPolicy {
    #[inline(always)]
    fn choose(&self, view: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        match self {
            AnyPolicy::Greedy(p) => p.choose(view, rng),
            AnyPolicy::Hoarder(p) => p.choose(view, rng),
            AnyPolicy::Counter(p) => p.choose(view, rng),
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
    /// Run `work` with both policies as their concrete types, so the engine's loop is compiled
    /// once per pair of kinds with the policies inlined (no per-decision dispatch).
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
        }
    }
}
