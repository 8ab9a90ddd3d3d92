//! The analysis between simulation and statistics: counting shards (aggregate) and assembling a
//! study's results from the counts (test, regress).
//!
//! Invariant: aggregation is per shard, so adding a policy reuses every existing shard's counts.

pub mod league_fit;
pub mod league_pair;
pub mod league_table;
pub mod reduced_game;
pub mod results_assembly;
pub mod seat_trump_use;
pub mod shard_counts;
pub mod study_regression;
pub mod study_tests;
pub mod sweep_baseline;
pub mod sweep_curve;
