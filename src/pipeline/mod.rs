//! The stage pipeline, in four parts: [`config`] (the study file read and validated once),
//! [`store`] (the content store, run records, the lock, publishing and checking outputs),
//! [`execution`] (the plan of jobs, their cache keys and decisions, the runner and its
//! executors: local threads or Slurm), and [`stages`] (each stage's jobs and bodies); beside
//! them the few rules all of them share ([`line_col`], [`round_sig`], [`stage_sources`]).
//!
//! Invariant: a job's recorded outputs are only ever trusted after their bytes hash to the
//! recorded sha256.
//!
//! Files under `outputs/` (see [`layout::Layout`]):
//! - `pipeline.lock` (committed): per job its cache key and output hashes ([`lock_file`]).
//! - `<publish>/<name>`: published outputs, hard links into the store ([`publisher`]).
//! - `.cache/objects/<sha256>`: the content store ([`content_store`]).
//! - `.cache/runs/<key>.json`: key -> output hashes, for every key ever completed ([`run_cache`]).
//! - `.cache/jobs/<id, / as __>.json`: each job's last key components, for rerun reasons.
//! - `.cache/stat-cache.json`: stat -> sha256 hints for fast no-op runs ([`stat_cache`]).
//! - `.cache/run.lock`: the run mutex, holding the pid and command of the run ([`run_mutex`]).
//! - `run-provenance.json`: the git commit and dirty flag of the last run (never hashed,
//!   see [`git_provenance`]).
//! - `.cache/tmp/`: scratch directories of running jobs; `.cache/last-run.json`: timings.

pub mod config;
pub mod execution;
pub mod git_provenance;
pub mod line_col;
pub mod round_sig;
pub mod stage_sources;
pub mod stages;
pub mod store;
pub mod stored_games;

// Each part's modules under the pipeline's own path too (`pipeline::runner`), as the CLI, the
// tests and the Python binding name them.
pub use config::{
    config_error, config_input, executor_config, league_config, study_names, study_rules,
    sweep_config,
};
pub use execution::{
    cache_key, dag, decision, executor, job, job_command, local_executor, parallel_executor,
    params_diff, plan, run_error, run_mutex, runner, slurm_executor, slurm_wave,
};
pub use store::{
    atomic_file, content_store, gc, layout, lock_file, lock_holders, publisher, run_cache,
    stat_cache, verify,
};
