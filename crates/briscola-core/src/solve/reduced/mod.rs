//! An exact solver for a reduced two-player Briscola: the game ([`ReducedSpec`],
//! [`ReducedGame`]: a few suits and ranks, small hands, the face-up trump drawn last, the
//! engine's trick rule), CFR+ over its whole tree with chance enumerated ([`Cfr`]), exact best
//! responses and exploitability ([`Exploitability`]), the exact exploitability of a core policy
//! ([`policy_exploitability`]), and the sampled (PIMC) best response's value against one
//! ([`pimc_bound`]), so the full game's sampled bound can be set beside the exact answer.
//!
//! Payoffs are in points: seat 0's points minus seat 1's (a best response's from its own
//! side). Exploitability is the mean of the two seats' best-response values.
//!
//! Invariant: nothing here samples without a seed or reads a clock; every number is an exact
//! expectation over all deals and draws (up to floating-point summation), a pure function of
//! the spec, the iterations run and the policies.

mod best_response;
mod cfr;
mod game;
mod group_walk;
mod key_map;
mod observation;
mod pimc;
mod policy_eval;
mod sim;
mod spec;
mod state;
mod subtrees;
mod tape;

pub use best_response::Exploitability;
pub use cfr::{Cfr, Checkpoint, TableStats};
pub use game::ReducedGame;
pub use observation::Observation;
pub use pimc::{PimcBound, pimc_bound};
pub use policy_eval::{PolicyExploitability, policy_exploitability, policy_vs_cfr};
pub use spec::{MAX_HAND, ReducedSpec, ReducedSpecError};
