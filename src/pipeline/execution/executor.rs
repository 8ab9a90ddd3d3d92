//! The [`Executor`] trait: how a run's ready jobs get executed. The runner decides each job
//! (see [`super::decision`]), hands the ones that must run to an executor, and finishes them
//! (publish, job record, lock) when the executor reports them complete. The local executor
//! ([`super::local_executor`]) runs them in this process; the Slurm executor
//! ([`super::slurm_executor`]) submits `briscola job run` to a cluster.
//!
//! Invariant: an executor reports a job complete only when its outputs are in the content store
//! and its run record (written last) names them; anything else is a failure naming the job.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::job::{Job, JobInputs};
use super::run_error::RunError;
use crate::pipeline::store::content_store::ContentStore;
use crate::pipeline::store::layout::Layout;
use crate::pipeline::store::run_cache::RunCache;
use crate::pipeline::store::stat_cache::StatCache;

/// The stores an executor writes into and reads from.
pub struct ExecEnv<'a> {
    /// The outputs directory.
    pub layout: &'a Layout,
    /// The content store.
    pub store: &'a ContentStore,
    /// The run-cache (run records).
    pub runs: &'a RunCache,
    /// Stat hints (objects stored or checked are remembered).
    pub stat: &'a mut StatCache,
}

/// Where a job ran outside this process (never hashed; shown by `status`, kept in
/// `outputs/.cache/last-run.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RemoteJob {
    /// The executor, e.g. `slurm`.
    pub executor: String,
    /// Its id there (a Slurm job id).
    pub id: String,
    /// Its log file.
    pub log: PathBuf,
    /// Its final state there (e.g. `COMPLETED`, `CANCELLED`), once known.
    pub state: Option<String>,
}

/// A job the executor has finished with.
#[derive(Debug)]
pub struct Completion {
    /// The job's index in the plan.
    pub index: usize,
    /// Its outputs (name -> sha256), all stored and recorded; or why it failed.
    pub result: Result<BTreeMap<String, String>, String>,
    /// Where it ran, if not in this process.
    pub remote: Option<RemoteJob>,
}

/// Executes ready jobs.
pub trait Executor {
    /// How many jobs may be in flight at once.
    fn capacity(&self) -> usize;
    /// How many jobs are in flight now.
    fn in_flight(&self) -> usize;
    /// Start `job` (index `index` in the plan) whose key is `key` and whose inputs are settled.
    /// A job that cannot start is reported failed by [`Executor::wait`], not as an error here;
    /// an `Err` stops the run.
    fn submit(
        &mut self,
        index: usize,
        job: &Job,
        key: &str,
        inputs: &JobInputs,
        env: &mut ExecEnv<'_>,
    ) -> Result<(), RunError>;
    /// Block until at least one job in flight completes (or fails) and return those; empty
    /// when nothing is in flight.
    fn wait(&mut self, env: &mut ExecEnv<'_>) -> Result<Vec<Completion>, RunError>;
}
