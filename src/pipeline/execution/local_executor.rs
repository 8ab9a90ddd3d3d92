//! The local executor: [`LocalExecutor`] runs each job's body in this process, one job at a
//! time in plan order (the bodies themselves use rayon), exactly as the runner always has.
//! [`execute_job`] is the one way a job is executed and recorded; `briscola job run` calls it
//! too, so a job run by Slurm leaves the same objects and record as a local run.
//!
//! Invariant: a job's run record is written only after every output it names is in the content
//! store; a failing or panicking body leaves no record and no scratch directory.

use std::collections::{BTreeMap, VecDeque};
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::executor::{Completion, ExecEnv, Executor};
use super::job::{Job, JobInputs, StageName};
use super::run_error::RunError;
use crate::pipeline::store::content_store::{ContentStore, sha256_file};
use crate::pipeline::store::layout::{check_rel_path, job_file_stem};
use crate::pipeline::store::run_cache::RunRecord;
use crate::pipeline::store::stat_cache::StatCache;

/// Test hook: when set to a number of milliseconds, every job (or only those of the stage
/// named by [`TEST_SLEEP_STAGE_ENV`]) sleeps after its objects are stored and before its
/// records are written, announcing it on stderr, so tests can kill a run at the most delicate
/// moment. Has no effect on any output.
pub const TEST_SLEEP_ENV: &str = "BRISCOLA_TEST_SLEEP_MS";
/// Test hook: restrict [`TEST_SLEEP_ENV`] to the jobs of this stage.
pub const TEST_SLEEP_STAGE_ENV: &str = "BRISCOLA_TEST_SLEEP_STAGE";

/// Runs jobs in this process, one at a time.
#[derive(Debug, Default)]
pub struct LocalExecutor {
    done: VecDeque<Completion>,
    sleep_hook: Option<(u64, Option<StageName>)>,
}

impl LocalExecutor {
    /// A local executor (reads the test sleep hook from the environment).
    pub fn new() -> LocalExecutor {
        LocalExecutor {
            done: VecDeque::new(),
            sleep_hook: test_sleep_hook(),
        }
    }
}

impl Executor for LocalExecutor {
    fn capacity(&self) -> usize {
        1
    }

    fn in_flight(&self) -> usize {
        self.done.len()
    }

    fn submit(
        &mut self,
        index: usize,
        job: &Job,
        key: &str,
        inputs: &JobInputs,
        env: &mut ExecEnv<'_>,
    ) -> Result<(), RunError> {
        let scratch =
            env.layout
                .tmp()
                .join(format!("{}.{}", job_file_stem(&job.id), std::process::id()));
        let result = execute_job(job, key, inputs, &scratch, env, self.sleep_hook.as_ref())?;
        self.done.push_back(Completion {
            index,
            result,
            remote: None,
        });
        Ok(())
    }

    fn wait(&mut self, _env: &mut ExecEnv<'_>) -> Result<Vec<Completion>, RunError> {
        Ok(self.done.drain(..).collect())
    }
}

/// Run `job`'s body in the fresh scratch directory `scratch`, move its files into the store and
/// write the run record of `key`. `Ok(Err(message))`: the job failed (nothing recorded).
pub fn execute_job(
    job: &Job,
    key: &str,
    inputs: &JobInputs,
    scratch: &Path,
    env: &mut ExecEnv<'_>,
    sleep_hook: Option<&(u64, Option<StageName>)>,
) -> Result<Result<BTreeMap<String, String>, String>, RunError> {
    match execute_body(job, inputs, scratch, env.store, env.stat, sleep_hook) {
        Ok(outputs) => {
            env.runs.put_run(&RunRecord {
                key: key.to_string(),
                job: job.id.clone(),
                outputs: outputs.clone(),
            })?;
            Ok(Ok(outputs))
        }
        Err(message) => Ok(Err(message)),
    }
}

/// Run the body in a fresh scratch directory and move its files into the store.
fn execute_body(
    job: &Job,
    inputs: &JobInputs,
    scratch: &Path,
    store: &ContentStore,
    stat: &mut StatCache,
    sleep_hook: Option<&(u64, Option<StageName>)>,
) -> Result<BTreeMap<String, String>, String> {
    let _ = fs::remove_dir_all(scratch);
    fs::create_dir_all(scratch)
        .map_err(|e| format!("cannot create scratch directory {}: {e}", scratch.display()))?;
    let result = catch_unwind(AssertUnwindSafe(|| (job.body)(inputs, scratch)));
    let outcome = match result {
        Ok(Ok(())) => store_outputs(job, scratch, store, stat, sleep_hook),
        Ok(Err(e)) => Err(e.to_string()),
        Err(p) => Err(format!("panicked: {}", panic_message(p.as_ref()))),
    };
    let _ = fs::remove_dir_all(scratch);
    outcome
}

fn store_outputs(
    job: &Job,
    scratch: &Path,
    store: &ContentStore,
    stat: &mut StatCache,
    sleep_hook: Option<&(u64, Option<StageName>)>,
) -> Result<BTreeMap<String, String>, String> {
    let files = list_outputs(scratch)?;
    let mut outputs = BTreeMap::new();
    for (name, path) in files {
        let hash = sha256_file(&path).map_err(|e| format!("hashing output `{name}`: {e}"))?;
        store
            .put_file_hashed(&path, &hash)
            .map_err(|e| e.to_string())?;
        if let Ok(p) = store.path(&hash) {
            stat.record(&p, &hash);
        }
        outputs.insert(name, hash);
    }
    if let Some((ms, stage)) = sleep_hook
        && stage.is_none_or(|s| s == job.stage)
    {
        eprintln!(
            "{TEST_SLEEP_ENV}: sleeping {ms} ms in {} (objects stored, records not yet written)",
            job.id
        );
        std::thread::sleep(Duration::from_millis(*ms));
    }
    Ok(outputs)
}

/// Every regular file under `dir`, as (name relative with `/`, path), sorted by name.
fn list_outputs(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let mut out = Vec::new();
    let mut stack = vec![(String::new(), dir.to_path_buf())];
    while let Some((prefix, d)) = stack.pop() {
        let rd = fs::read_dir(&d).map_err(|e| format!("listing {}: {e}", d.display()))?;
        for entry in rd {
            let entry = entry.map_err(|e| format!("listing {}: {e}", d.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            let ft = entry
                .file_type()
                .map_err(|e| format!("{}: {e}", entry.path().display()))?;
            if ft.is_dir() {
                stack.push((rel, entry.path()));
            } else if ft.is_file() {
                check_rel_path(&rel).map_err(|m| format!("output name {m}"))?;
                out.push((rel, entry.path()));
            } else {
                return Err(format!(
                    "output `{rel}` is not a regular file (symlinks and special files are not allowed)"
                ));
            }
        }
    }
    out.sort();
    Ok(out)
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "the job's code panicked".to_string()
    }
}

/// The test sleep hook as set in the environment, if any.
pub fn test_sleep_hook() -> Option<(u64, Option<StageName>)> {
    let ms = std::env::var(TEST_SLEEP_ENV).ok()?.parse::<u64>().ok()?;
    let stage = std::env::var(TEST_SLEEP_STAGE_ENV)
        .ok()
        .and_then(|s| StageName::parse(&s));
    Some((ms, stage))
}
