//! `briscola job run <job-id>`: [`run_one_job`] runs one job of the plan into the content store
//! and writes its run record, exactly as the local executor does (objects first, each by temp
//! file + rename; the record last). It is what the Slurm executor submits to a node; the
//! orchestrating `briscola run` then publishes the job and updates the lock.
//!
//! Invariant: the job's key is recomputed here from its dependencies' records and must equal
//! the key the orchestrating run expects, so a node with another binary or config can never
//! record outputs under the wrong key.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::cache_key::InputHashes;
use super::decision::{DecideEnv, completed_outputs, job_inputs, job_key, settled_from_records};
use super::executor::ExecEnv;
use super::job::Job;
use super::local_executor::{execute_job, test_sleep_hook};
use super::run_error::RunError;
use super::slurm_wave::Wave;
use crate::pipeline::store::content_store::ContentStore;
use crate::pipeline::store::layout::{Layout, job_file_stem};
use crate::pipeline::store::run_cache::RunCache;
use crate::pipeline::store::stat_cache::StatCache;

/// Why `job run` failed.
#[derive(Debug, thiserror::Error)]
pub enum JobRunError {
    /// No job of the plan has this id.
    #[error("no job `{id}` in the plan (`briscola dag` lists them; e.g. {example})")]
    UnknownJob {
        /// the id asked for
        id: String,
        /// a valid id
        example: String,
    },
    /// A dependency has not completed in this outputs directory.
    #[error(
        "job `{job}`: its dependency `{dep}` has no completed result in {outputs}; run `briscola run` (which submits jobs in dependency order)"
    )]
    DependencyMissing {
        /// the job
        job: String,
        /// the missing dependency
        dep: String,
        /// the outputs directory
        outputs: PathBuf,
    },
    /// The key computed here differs from the one the orchestrating run expects.
    #[error(
        "job `{job}`: this node computes cache key {here} but the run that submitted it expects {expected}; the node runs another briscola binary or sees another config or outputs directory"
    )]
    KeyMismatch {
        /// the job
        job: String,
        /// computed here
        here: String,
        /// expected
        expected: String,
    },
    /// A wave file (`job run --wave`) or its task index cannot be used.
    #[error("wave {path}: {message}")]
    Wave {
        /// the wave file
        path: PathBuf,
        /// what is wrong, and what would be valid
        message: String,
    },
    /// Some jobs of a wave's task failed (each printed as it failed).
    #[error("{failed} of the {jobs} jobs of task {task} of wave {path} failed: {first}")]
    WaveJobsFailed {
        /// the wave file
        path: PathBuf,
        /// the task
        task: usize,
        /// how many jobs the task ran
        jobs: usize,
        /// how many failed
        failed: usize,
        /// the first failure
        first: String,
    },
    /// The job's body failed.
    #[error("job `{job}` failed: {message}")]
    Failed {
        /// the job
        job: String,
        /// why
        message: String,
    },
    /// The stores failed.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// What `job run` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRunOutcome {
    /// The job's cache key.
    pub key: String,
    /// Its outputs (name -> sha256).
    pub outputs: BTreeMap<String, String>,
    /// `true`: a complete result for the key was already recorded, nothing ran.
    pub already_done: bool,
}

/// Run job `id` of `plan` into `layout`'s content store and record it.
pub fn run_one_job(
    plan: &[Job],
    layout: &Layout,
    id: &str,
    expect_key: Option<&str>,
) -> Result<JobRunOutcome, JobRunError> {
    let job = plan
        .iter()
        .find(|j| j.id == id)
        .ok_or_else(|| JobRunError::UnknownJob {
            id: id.to_string(),
            example: plan.first().map(|j| j.id.clone()).unwrap_or_default(),
        })?;
    let store = ContentStore::new(layout.objects());
    let runs = RunCache::new(layout);
    // Hints are read, never saved: the orchestrating run owns the stat cache.
    let mut stat = StatCache::load(&layout.stat_cache(), layout.root());
    let settled = settled_from_records(plan, job, &runs)?;
    let mut inputs = InputHashes::new();
    for dep in &job.deps {
        let outputs = settled
            .get(dep)
            .and_then(|s| s.outputs.clone())
            .ok_or_else(|| JobRunError::DependencyMissing {
                job: job.id.clone(),
                dep: dep.clone(),
                outputs: layout.root().to_path_buf(),
            })?;
        inputs.insert(dep.clone(), outputs);
    }
    let key = job_key(job, inputs, &settled).hash();
    if let Some(expected) = expect_key
        && expected != key
    {
        return Err(JobRunError::KeyMismatch {
            job: job.id.clone(),
            here: key,
            expected: expected.to_string(),
        });
    }
    let mut env = DecideEnv {
        runs: &runs,
        store: &store,
        stat: &mut stat,
        dry_run: false,
    };
    if let Some(outputs) = completed_outputs(&mut env, &key)? {
        return Ok(JobRunOutcome {
            key,
            outputs,
            already_done: true,
        });
    }
    let files = job_inputs(job, &settled, &store)?;
    let scratch = layout.tmp().join(format!(
        "{}.{}.{}",
        job_file_stem(&job.id),
        node_name(),
        std::process::id()
    ));
    let mut env = ExecEnv {
        layout,
        store: &store,
        runs: &runs,
        stat: &mut stat,
    };
    match execute_job(
        job,
        &key,
        &files,
        &scratch,
        &mut env,
        test_sleep_hook().as_ref(),
    )? {
        Ok(outputs) => Ok(JobRunOutcome {
            key,
            outputs,
            already_done: false,
        }),
        Err(message) => Err(JobRunError::Failed {
            job: job.id.clone(),
            message,
        }),
    }
}

/// The largest wave file `job run --wave` reads (a wave of 100,000 jobs is ~12 MB).
const WAVE_FILE_CAP: u64 = 64 << 20;

/// Read the wave file at `path`; the error names the file and what is wrong.
pub fn read_wave(path: &std::path::Path) -> Result<Wave, JobRunError> {
    let bad = |message: String| JobRunError::Wave {
        path: path.to_path_buf(),
        message,
    };
    let bytes = crate::files::read_capped(path, WAVE_FILE_CAP).map_err(|e| bad(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| bad("it is not UTF-8 text".into()))?;
    Wave::parse(&text).map_err(|m| bad(format!("not a wave file `briscola run` wrote: {m}")))
}

/// Run every job of task `task` of the wave at `path`, one after another, calling `each` with
/// each job's id as it starts (`None`) and with its result as it ends (a failed job does not stop the others: they are
/// independent, all ready when the wave was submitted). `Err` when the wave cannot be read,
/// the task has no job, or any job failed.
pub fn run_wave_task(
    plan: &[Job],
    layout: &Layout,
    path: &std::path::Path,
    task: usize,
    mut each: impl FnMut(&str, Option<&Result<JobRunOutcome, JobRunError>>),
) -> Result<usize, JobRunError> {
    let wave = read_wave(path)?;
    if task >= wave.tasks() {
        return Err(JobRunError::Wave {
            path: path.to_path_buf(),
            message: format!(
                "it has tasks 0 to {}, not task {task} (SLURM_ARRAY_TASK_ID)",
                wave.tasks() - 1
            ),
        });
    }
    let (mut jobs, mut failed, mut first) = (0, 0, None);
    for e in wave.of_task(task) {
        each(&e.job, None);
        let result = run_one_job(plan, layout, &e.job, Some(&e.key));
        each(&e.job, Some(&result));
        jobs += 1;
        if let Err(err) = result {
            failed += 1;
            first.get_or_insert_with(|| err.to_string());
        }
    }
    match first {
        None => Ok(jobs),
        Some(first) => Err(JobRunError::WaveJobsFailed {
            path: path.to_path_buf(),
            task,
            jobs,
            failed,
            first,
        }),
    }
}

/// This machine's host name (scratch directories of two nodes never collide), or `node`.
fn node_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| {
            s.trim()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect::<String>()
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "node".to_string())
}
