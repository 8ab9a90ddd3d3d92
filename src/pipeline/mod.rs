//! The stage pipeline: configuration, jobs, cache keys, the content store, the lock, the runner.
//!
//! Invariant: a job's recorded outputs are only ever trusted after their bytes hash to the
//! recorded sha256.

pub mod config;
pub mod job;
pub mod plan;
pub mod stages;
