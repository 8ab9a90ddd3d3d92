//! [`ShardError`]: what can go wrong running a shard (its files, its tables, its seed, its
//! policies and rules), each naming the file or the matchup and what would be valid.
//!
//! Invariant: every variant's message names the thing at fault; none carries a Rust type name.

use std::path::{Path, PathBuf};

use polars::prelude::PolarsError;

/// Errors of a shard run.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// Writing a file failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// the file
        path: PathBuf,
        /// the error
        source: std::io::Error,
    },
    /// Polars failed to build or write a table.
    #[error("cannot write table {path}: {source}")]
    Table {
        /// the file
        path: PathBuf,
        /// the error
        source: PolarsError,
    },
    /// A seed that the deal source cannot take.
    #[error("seed {seed} is out of range for deal source {source_kind}: {valid}")]
    Seed {
        /// the seed
        seed: i64,
        /// the deal source
        source_kind: &'static str,
        /// what would be valid
        valid: String,
    },
    /// Paired deals asked of a deal source that cannot key deals by the unordered pair.
    #[error(
        "paired deals need deal_source = \"chacha\" (the {deal_source} stream runs through the matchups in order, so a matchup and its seat-swapped twin cannot share deals)"
    )]
    Paired {
        /// the deal source
        deal_source: &'static str,
    },
    /// A policy spec that cannot be built (only a hand-edited spec: configs are validated).
    #[error("policy of shard {g1}-vs-{g2}: {message}")]
    Policy {
        /// Seat 1's policy.
        g1: String,
        /// Seat 2's policy.
        g2: String,
        /// What is wrong.
        message: String,
    },
    /// Rules the shard tables cannot hold, or a policy with no meaning under them.
    #[error("rules of shard {g1}-vs-{g2}: {message}")]
    Rules {
        /// Seat 1's policy.
        g1: String,
        /// Seat 2's policy.
        g2: String,
        /// What is wrong and what would be valid.
        message: String,
    },
}

impl ShardError {
    /// Why a policy cannot play a shard's variant (`g1` and `g2` name the shard's sides): a
    /// definition that does not build is the policy's fault ([`ShardError::Policy`]), anything
    /// else the rules' ([`ShardError::Rules`]).
    pub(super) fn unfit(e: crate::policy::VariantFitError, g1: &str, g2: &str) -> ShardError {
        let (g1, g2) = (g1.to_string(), g2.to_string());
        match e {
            crate::policy::VariantFitError::Build { message, .. } => {
                ShardError::Policy { g1, g2, message }
            }
            e => ShardError::Rules {
                g1,
                g2,
                message: e.to_string(),
            },
        }
    }

    /// The error for a table of the file at `path` that polars could not build or write, as
    /// a function of polars' error (for `map_err`).
    pub(super) fn table_at(path: &Path) -> impl Fn(PolarsError) -> ShardError + use<> {
        let path = path.to_path_buf();
        move |source| ShardError::Table {
            path: path.clone(),
            source,
        }
    }
}
