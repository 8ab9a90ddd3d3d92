//! Running a study: the plan of jobs ([`plan`], [`job`], [`dag`]), each job's cache key
//! ([`cache_key`]) and decision ([`decision`]: cached, run, with reasons), the [`runner`] that
//! decides, executes and finishes them under the run mutex ([`run_mutex`]), and the executors
//! ([`executor`]: in this process, [`local_executor`] and [`parallel_executor`]; on Slurm,
//! [`slurm_executor`] with its waves, [`slurm_wave`], run on nodes by [`job_command`]).
//!
//! Invariant: a job runs only once every dependency is settled, and is reported cached only
//! when its exact key has a record whose objects all hash to their names.

pub mod cache_key;
pub mod dag;
pub mod decision;
pub mod executor;
pub mod job;
pub mod job_command;
pub mod local_executor;
pub mod parallel_executor;
pub mod params_diff;
pub mod plan;
pub mod run_error;
pub mod run_mutex;
pub mod runner;
pub mod slurm_executor;
pub mod slurm_wave;
