//! Tournaments: matchups, deal sources and parallel play, and the shard tables they write.
//!
//! Invariant: a matchup's games depend only on its deal source, seed, the two policies and the
//! game count; never on thread count or on which other matchups run.

mod deal_source;
mod dotnet_random;

pub use deal_source::{DealSourceKind, DealStream};
pub use dotnet_random::DotNetRandom;
