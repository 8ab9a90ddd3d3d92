//! The stage pipeline: configuration, jobs, cache keys, the content store, the lock, the runner.
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

pub mod atomic_file;
pub mod cache_key;
pub mod config;
pub mod config_input;
pub mod content_store;
pub mod dag;
pub mod decision;
pub mod executor;
pub mod executor_config;
pub mod gc;
pub mod git_provenance;
pub mod job;
pub mod job_command;
pub mod layout;
pub mod league_config;
pub mod local_executor;
pub mod lock_file;
pub mod lock_holders;
pub mod parallel_executor;
pub mod params_diff;
pub mod plan;
pub mod publisher;
pub mod run_cache;
pub mod run_mutex;
pub mod runner;
pub mod slurm_executor;
pub mod slurm_wave;
pub mod stage_sources;
pub mod stages;
pub mod stat_cache;
pub mod stored_games;
pub mod study_rules;
pub mod sweep_config;
pub mod verify;
