//! [`RunError`]: every error that stops a pipeline run (the mutex, the content store, the run
//! cache, the lock, publishing, other I/O), shared by the runner, the decisions and the
//! executors.
//!
//! Invariant: a failing job body is never a `RunError` (it is reported in the run's report);
//! each variant names the thing that failed.

use std::io;
use std::path::PathBuf;

use super::run_mutex::RunMutexError;
use crate::pipeline::store::content_store::StoreError;
use crate::pipeline::store::lock_file::LockError;
use crate::pipeline::store::publisher::PublishError;
use crate::pipeline::store::run_cache::RunCacheError;

/// Errors that stop a run (a failing job body is not one: it is reported in the run's report (`RunReport`)).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The plan itself is inconsistent.
    #[error("invalid plan: job `{job}`: {message}")]
    InvalidPlan {
        /// the job
        job: String,
        /// what is wrong
        message: String,
    },
    /// The run mutex could not be taken.
    #[error(transparent)]
    Mutex(#[from] RunMutexError),
    /// The content store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The run-cache failed.
    #[error(transparent)]
    RunCache(#[from] RunCacheError),
    /// The lock file could not be read or written.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// Publishing failed.
    #[error(transparent)]
    Publish(#[from] PublishError),
    /// Other I/O.
    #[error("{action} {path}: {source}")]
    Io {
        /// what was being done
        action: &'static str,
        /// the path
        path: PathBuf,
        /// the I/O error
        source: io::Error,
    },
}
