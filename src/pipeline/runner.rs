//! Executing a plan: [`Runner`] walks the jobs in order, computes each cache key from params,
//! code and the bytes of its inputs, reuses a verified cached result or runs the body in a
//! scratch directory, stores and publishes the outputs, and checks them against the lock.
//!
//! Invariant: a job is reported cached only if the run-cache has its exact key and every
//! object it names hashes to its name; its record is written only after its objects are
//! stored, and the lock only at the end of a run with no reproducibility failure.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::atomic_file::write_atomic;
use super::cache_key::{CacheKey, InputHashes, Reason};
use super::content_store::{ContentStore, StoreError, sha256_file};
use super::job::{AncestorInfo, Job, JobInputs, StageName};
use super::layout::{Layout, check_rel_path, job_file_stem};
use super::lock_file::{LockEntry, LockError, LockFile};
use super::publisher::{PublishError, Publisher, check_publish_rel};
use super::run_cache::{JobRecord, RunCache, RunCacheError, RunRecord};
use super::run_mutex::{RunMutex, RunMutexError, WaitPolicy};
use super::stat_cache::StatCache;

/// Test hook: when set to a number of milliseconds, every job (or only those of the stage
/// named by [`TEST_SLEEP_STAGE_ENV`]) sleeps after its objects are stored and before its
/// records are written, announcing it on stderr, so tests can kill a run at the most delicate
/// moment. Has no effect on any output.
pub const TEST_SLEEP_ENV: &str = "BRISCOLA_TEST_SLEEP_MS";
/// Test hook: restrict [`TEST_SLEEP_ENV`] to the jobs of this stage.
pub const TEST_SLEEP_STAGE_ENV: &str = "BRISCOLA_TEST_SLEEP_STAGE";

/// Errors that stop a run (a failing job body is not one: it is reported in [`RunReport`]).
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

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> RunError {
    let path = path.to_path_buf();
    move |source| RunError::Io {
        action,
        path,
        source,
    }
}

/// How to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Re-run every job of these stages even if cached.
    pub force: BTreeSet<StageName>,
    /// Compute what would run and why; run and write nothing (no mutex taken).
    pub dry_run: bool,
    /// What to do if another run holds the outputs.
    pub wait: WaitPolicy,
    /// How this run describes itself to a concurrent one (e.g. `briscola run`).
    pub command: String,
}

/// What happened to a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Its cached result was reused.
    Cached,
    /// It ran.
    Ran,
    /// Dry run: it would run.
    WouldRun,
    /// Its body failed (or its outputs were unusable).
    Failed,
    /// Not attempted because an earlier job failed.
    Skipped,
}

impl Outcome {
    /// The word printed in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Cached => "cached",
            Outcome::Ran => "ran",
            Outcome::WouldRun => "would-run",
            Outcome::Failed => "FAILED",
            Outcome::Skipped => "skipped",
        }
    }
}

/// One job's line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct JobReport {
    /// Job id.
    pub id: String,
    /// Its stage.
    pub stage: StageName,
    /// What happened.
    pub outcome: Outcome,
    /// Why (never empty for cached, ran and would-run jobs).
    pub reasons: Vec<Reason>,
    /// Wall-clock seconds spent on it (never hashed, never in the lock).
    pub seconds: f64,
    /// The job's note, if any.
    pub note: Option<String>,
    /// Its cache key, when known.
    pub key: Option<String>,
    /// Its outputs (name -> sha256), when known.
    pub outputs: BTreeMap<String, String>,
    /// The error, for failed jobs.
    pub error: Option<String>,
}

impl JobReport {
    /// The reasons joined for printing.
    pub fn reasons_text(&self) -> String {
        self.reasons
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The stable one-line form, e.g. `ran     test/paper  (input changed: ...)  0.42s`.
    pub fn line(&self) -> String {
        let mut s = format!("{:<7} {}", self.outcome.as_str(), self.id);
        if !self.reasons.is_empty() {
            s.push_str(&format!("  ({})", self.reasons_text()));
        }
        if self.outcome == Outcome::Ran || self.outcome == Outcome::Failed {
            s.push_str(&format!("  {:.2}s", self.seconds));
        }
        if let Some(e) = &self.error {
            s.push_str(&format!("\n        error: {e}"));
        }
        s
    }
}

/// A job whose key matches the lock but whose bytes do not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReproFailure {
    /// The job.
    pub job: String,
    /// The key (same in the lock and now).
    pub key: String,
    /// The output that differs.
    pub output: String,
    /// Its hash in the lock (`None`: not in the lock).
    pub locked: Option<String>,
    /// Its hash now (`None`: not produced).
    pub produced: Option<String>,
    /// Whether the bytes were produced now (`true`) or taken from the run-cache.
    pub fresh: bool,
}

impl std::fmt::Display for ReproFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} output `{}`: lock says {}, {} {}",
            self.job,
            self.output,
            self.locked.as_deref().unwrap_or("(absent)"),
            if self.fresh {
                "this run produced"
            } else {
                "the run-cache holds"
            },
            self.produced.as_deref().unwrap_or("(absent)")
        )
    }
}

/// Overall result of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    /// Every job cached or ran (or would, for a dry run) and matched the lock.
    Ok,
    /// A job failed.
    StageFailed,
    /// A job's key matched the lock but its bytes did not.
    Reproducibility,
}

/// What a run did (or, dry, would do).
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// Per job, in plan order.
    pub jobs: Vec<JobReport>,
    /// Reproducibility failures (lock not updated if any).
    pub repro_failures: Vec<ReproFailure>,
    /// Whether this was a dry run.
    pub dry_run: bool,
    /// Whether `pipeline.lock` was rewritten.
    pub lock_updated: bool,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
}

impl RunReport {
    /// The overall status.
    pub fn status(&self) -> RunStatus {
        if self.jobs.iter().any(|j| j.outcome == Outcome::Failed) {
            RunStatus::StageFailed
        } else if !self.repro_failures.is_empty() {
            RunStatus::Reproducibility
        } else {
            RunStatus::Ok
        }
    }

    /// How many jobs had `outcome`.
    pub fn count(&self, outcome: Outcome) -> usize {
        self.jobs.iter().filter(|j| j.outcome == outcome).count()
    }

    /// The stable summary line.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        for o in [
            Outcome::Ran,
            Outcome::Cached,
            Outcome::WouldRun,
            Outcome::Failed,
            Outcome::Skipped,
        ] {
            let n = self.count(o);
            if n > 0 {
                parts.push(format!("{n} {}", o.as_str()));
            }
        }
        let lock = if self.dry_run {
            "dry run: nothing written".to_string()
        } else if !self.repro_failures.is_empty() {
            "lock NOT updated (reproducibility failure)".to_string()
        } else if self.lock_updated {
            "lock updated".to_string()
        } else {
            "lock unchanged".to_string()
        };
        format!(
            "{} jobs: {}; {lock}; {:.2}s",
            self.jobs.len(),
            parts.join(", "),
            self.seconds
        )
    }
}

/// Hooks for progress output; every method defaults to doing nothing.
pub trait RunObserver {
    /// Another run holds the outputs; this one waits.
    fn waiting_for_lock(&mut self, _holder: &str) {}
    /// A job's report is final.
    fn job_finished(&mut self, _report: &JobReport) {}
}

/// An observer that does nothing.
#[derive(Debug, Default)]
pub struct Silent;
impl RunObserver for Silent {}

/// Executes plans against one outputs directory.
#[derive(Debug, Clone)]
pub struct Runner {
    layout: Layout,
}

/// The state of a job's cached result.
enum CacheCheck {
    /// Record present and every object intact.
    Hit(BTreeMap<String, String>),
    /// No record for the key.
    NoRecord,
    /// Record present but objects missing or corrupt.
    Damaged {
        missing: Vec<String>,
        corrupt: Vec<String>,
    },
}

/// What downstream jobs know of an upstream one.
struct Done {
    stage: StageName,
    deps: Vec<String>,
    key: Option<String>,
    /// Its outputs; in a dry run, for a job that would re-run, its last outputs (a guess).
    outputs: Option<BTreeMap<String, String>>,
    /// Dry run: it would re-run.
    reruns: bool,
}

/// Check the plan's ids, deps and publish directories.
pub fn validate_plan(plan: &[Job]) -> Result<(), RunError> {
    let bad = |job: &str, message: String| RunError::InvalidPlan {
        job: job.to_string(),
        message,
    };
    let mut seen = BTreeSet::new();
    let mut stems = BTreeSet::new();
    for job in plan {
        check_rel_path(&job.id).map_err(|m| bad(&job.id, format!("id {m}")))?;
        if !stems.insert(job_file_stem(&job.id)) {
            return Err(bad(
                &job.id,
                "id collides with another job's file name".into(),
            ));
        }
        for dep in &job.deps {
            if !seen.contains(dep.as_str()) {
                return Err(bad(
                    &job.id,
                    format!("dependency `{dep}` is not an earlier job of the plan"),
                ));
            }
        }
        if let Some(p) = &job.publish
            && !p.is_empty()
        {
            check_publish_rel(p).map_err(|m| bad(&job.id, format!("publish directory {m}")))?;
        }
        if !seen.insert(job.id.as_str()) {
            return Err(bad(&job.id, "duplicate job id".into()));
        }
    }
    Ok(())
}

/// Remove every entry of `dir` that is an interrupted atomic write (`.NAME.tmp-PID-N`).
fn remove_atomic_temps(dir: &Path) -> Result<(), RunError> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_err("list", dir)(e)),
    };
    for entry in rd {
        let entry = entry.map_err(io_err("list", dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.contains(".tmp-") {
            let p = entry.path();
            fs::remove_file(&p).map_err(io_err("remove", &p))?;
        }
    }
    Ok(())
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

/// The lock's verdict on a job: if the lock holds the same key, every output whose bytes differ
/// from the locked ones is a reproducibility failure (none when the key changed or is new).
fn repro_diff(
    lock: &LockFile,
    job: &str,
    key: &str,
    now: &BTreeMap<String, String>,
    fresh: bool,
) -> Vec<ReproFailure> {
    let Some(entry) = lock.jobs.get(job) else {
        return Vec::new();
    };
    if entry.key != key {
        return Vec::new();
    }
    let locked = &entry.outputs;
    let names: BTreeSet<&String> = locked.keys().chain(now.keys()).collect();
    names
        .into_iter()
        .filter(|n| locked.get(*n) != now.get(*n))
        .map(|n| ReproFailure {
            job: job.to_string(),
            key: key.to_string(),
            output: n.clone(),
            locked: locked.get(n).cloned(),
            produced: now.get(n).cloned(),
            fresh,
        })
        .collect()
}

impl Runner {
    /// A runner for the outputs directory of `layout`.
    pub fn new(layout: Layout) -> Runner {
        Runner { layout }
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// What would run and why, without running or writing anything.
    pub fn status(&self, plan: &[Job], force: &BTreeSet<StageName>) -> Result<RunReport, RunError> {
        let opts = RunOptions {
            force: force.clone(),
            dry_run: true,
            ..RunOptions::default()
        };
        self.run(plan, &opts, &mut Silent)
    }

    /// Run `plan` (jobs in dependency order).
    pub fn run(
        &self,
        plan: &[Job],
        opts: &RunOptions,
        observer: &mut dyn RunObserver,
    ) -> Result<RunReport, RunError> {
        let started = Instant::now();
        validate_plan(plan)?;
        let layout = &self.layout;
        let _mutex = if opts.dry_run {
            None
        } else {
            let command = if opts.command.is_empty() {
                "briscola run"
            } else {
                opts.command.as_str()
            };
            let m = RunMutex::acquire(&layout.run_mutex(), command, opts.wait, &mut |h| {
                observer.waiting_for_lock(h)
            })?;
            self.clean_leftovers()?;
            Some(m)
        };
        let store = ContentStore::new(layout.objects());
        let runs = RunCache::new(layout);
        let publisher = Publisher::new(layout, &store);
        let lock = LockFile::load(&layout.lock_file())?;
        let mut stat = StatCache::load(&layout.stat_cache(), layout.root());

        let mut done: BTreeMap<String, Done> = BTreeMap::new();
        let mut reports: Vec<JobReport> = Vec::new();
        let mut repro: Vec<ReproFailure> = Vec::new();
        let mut new_lock: BTreeMap<String, LockEntry> = BTreeMap::new();
        let mut published_by: BTreeMap<String, String> = BTreeMap::new();
        let mut failed = false;
        let sleep_hook = test_sleep_hook();

        for job in plan {
            let t0 = Instant::now();
            let mut report = JobReport {
                id: job.id.clone(),
                stage: job.stage,
                outcome: Outcome::Skipped,
                reasons: Vec::new(),
                seconds: 0.0,
                note: job.note.clone(),
                key: None,
                outputs: BTreeMap::new(),
                error: None,
            };
            if failed {
                observer.job_finished(&report);
                reports.push(report);
                continue;
            }
            let prev = runs.get_job(&job.id)?;

            // Inputs: what the dependencies produced (or, dry, are guessed to produce).
            let mut inputs = InputHashes::new();
            let mut upstream_reruns = Vec::new();
            let mut unknown = Vec::new();
            for dep in &job.deps {
                let Some(d) = done.get(dep) else { continue };
                if d.reruns {
                    upstream_reruns.push(dep.clone());
                }
                match &d.outputs {
                    Some(o) => {
                        inputs.insert(dep.clone(), o.clone());
                    }
                    None => unknown.push(dep.clone()),
                }
            }
            if !unknown.is_empty() {
                // Dry run only: an upstream job that never completed would run first.
                report.outcome = Outcome::WouldRun;
                report.reasons = if prev.is_none() {
                    vec![Reason::NewJob]
                } else {
                    vec![Reason::InputChanged(unknown)]
                };
                done.insert(
                    job.id.clone(),
                    Done {
                        stage: job.stage,
                        deps: job.deps.clone(),
                        key: None,
                        outputs: prev.map(|p| p.outputs),
                        reruns: true,
                    },
                );
                observer.job_finished(&report);
                reports.push(report);
                continue;
            }

            if job.stage == StageName::Render {
                // The report's provenance prints every ancestor's cache key, so render's key must
                // cover those keys, not only its inputs' bytes: an upstream code change that
                // re-runs a job with identical bytes still changes what render writes.
                for (id, a) in self.ancestors(job, &done) {
                    inputs.insert(
                        format!("key of {id}"),
                        BTreeMap::from([("key".to_string(), a.key)]),
                    );
                }
            }
            let key = CacheKey::new(job.stage, &job.id, &job.params, &job.code, inputs);
            let comps = key.components();
            report.key = Some(comps.key.clone());
            let diff = match &prev {
                None => vec![Reason::NewJob],
                Some(p) => comps.diff(&p.components),
            };
            let forced = opts.force.contains(&job.stage);
            let check = if forced {
                CacheCheck::NoRecord
            } else {
                self.check_cached(&runs, &store, &mut stat, &comps.key, opts.dry_run)?
            };

            let hit = match check {
                CacheCheck::Hit(outputs) => Some(outputs),
                CacheCheck::NoRecord => {
                    if forced {
                        report.reasons.push(Reason::Forced);
                    }
                    if diff.is_empty() && !forced {
                        report
                            .reasons
                            .push(Reason::OutputMissing(vec!["(run record)".into()]));
                    }
                    report.reasons.extend(diff.iter().cloned());
                    None
                }
                CacheCheck::Damaged { missing, corrupt } => {
                    if !corrupt.is_empty() {
                        report.reasons.push(Reason::OutputCorrupt(corrupt));
                    }
                    if !missing.is_empty() {
                        report.reasons.push(Reason::OutputMissing(missing));
                    }
                    report.reasons.extend(diff.iter().cloned());
                    None
                }
            };

            if opts.dry_run {
                match hit {
                    Some(outputs) if !upstream_reruns.is_empty() => {
                        report.outcome = Outcome::WouldRun;
                        report.reasons = vec![Reason::UpstreamReruns(upstream_reruns)];
                        report.outputs = outputs.clone();
                        done.insert(
                            job.id.clone(),
                            Done {
                                stage: job.stage,
                                deps: job.deps.clone(),
                                key: Some(comps.key.clone()),
                                outputs: Some(outputs),
                                reruns: true,
                            },
                        );
                    }
                    Some(outputs) => {
                        report.outcome = Outcome::Cached;
                        report.reasons = if diff.is_empty() {
                            vec![Reason::Unchanged]
                        } else {
                            let mut r = diff.clone();
                            r.push(Reason::SeenBefore);
                            r
                        };
                        repro.extend(repro_diff(&lock, &job.id, &comps.key, &outputs, false));
                        if let Some(dir) = &job.publish {
                            let stale = publisher.needs_publishing(dir, &outputs, &mut stat);
                            if !stale.is_empty() {
                                report.reasons.push(Reason::WouldRepublish(stale));
                            }
                        }
                        report.outputs = outputs.clone();
                        done.insert(
                            job.id.clone(),
                            Done {
                                stage: job.stage,
                                deps: job.deps.clone(),
                                key: Some(comps.key.clone()),
                                outputs: Some(outputs),
                                reruns: false,
                            },
                        );
                    }
                    None => {
                        report.outcome = Outcome::WouldRun;
                        if !upstream_reruns.is_empty()
                            && !report
                                .reasons
                                .iter()
                                .any(|r| matches!(r, Reason::InputChanged(_)))
                        {
                            report.reasons.push(Reason::UpstreamReruns(upstream_reruns));
                        }
                        done.insert(
                            job.id.clone(),
                            Done {
                                stage: job.stage,
                                deps: job.deps.clone(),
                                key: Some(comps.key.clone()),
                                outputs: prev.map(|p| p.outputs),
                                reruns: true,
                            },
                        );
                    }
                }
                observer.job_finished(&report);
                reports.push(report);
                continue;
            }

            // A real run.
            let outputs = match hit {
                Some(outputs) => {
                    report.outcome = Outcome::Cached;
                    report.reasons = if diff.is_empty() {
                        vec![Reason::Unchanged]
                    } else {
                        let mut r = diff.clone();
                        r.push(Reason::SeenBefore);
                        r
                    };
                    outputs
                }
                None => {
                    let files = self.job_inputs(job, &done, &store)?;
                    match self.execute(job, &files, &store, &mut stat, sleep_hook.as_ref()) {
                        Ok(outputs) => {
                            runs.put_run(&RunRecord {
                                key: comps.key.clone(),
                                job: job.id.clone(),
                                outputs: outputs.clone(),
                            })?;
                            report.outcome = Outcome::Ran;
                            outputs
                        }
                        Err(message) => {
                            report.outcome = Outcome::Failed;
                            report.error = Some(message);
                            report.seconds = t0.elapsed().as_secs_f64();
                            failed = true;
                            observer.job_finished(&report);
                            reports.push(report);
                            continue;
                        }
                    }
                }
            };

            // The lock's verdict.
            repro.extend(repro_diff(
                &lock,
                &job.id,
                &comps.key,
                &outputs,
                report.outcome == Outcome::Ran,
            ));

            // Publish, then record the job's state.
            let previous: Vec<String> = prev
                .as_ref()
                .map(|p| p.published.clone())
                .unwrap_or_default();
            if let Some(dir) = &job.publish {
                for name in outputs.keys() {
                    let rel = Layout::published_rel(dir, name);
                    if let Some(other) = published_by.insert(rel.clone(), job.id.clone()) {
                        return Err(RunError::InvalidPlan {
                            job: job.id.clone(),
                            message: format!(
                                "publishes `{rel}`, which job `{other}` also publishes"
                            ),
                        });
                    }
                }
            }
            let published = match &job.publish {
                Some(dir) => publisher.publish(&job.id, dir, &outputs, &previous, &mut stat)?,
                None => publisher.publish(&job.id, "", &BTreeMap::new(), &previous, &mut stat)?,
            };
            if report.outcome == Outcome::Cached && !published.written.is_empty() {
                report
                    .reasons
                    .push(Reason::Republished(published.written.clone()));
            }
            let record = JobRecord {
                job: job.id.clone(),
                stage: job.stage.as_str().to_string(),
                components: comps.clone(),
                outputs: outputs.clone(),
                published: published.files.clone(),
            };
            if prev.as_ref() != Some(&record) {
                runs.put_job(&record)?;
            }
            new_lock.insert(
                job.id.clone(),
                LockEntry {
                    stage: job.stage.as_str().to_string(),
                    key: comps.key.clone(),
                    outputs: outputs.clone(),
                },
            );
            report.outputs = outputs.clone();
            report.seconds = t0.elapsed().as_secs_f64();
            done.insert(
                job.id.clone(),
                Done {
                    stage: job.stage,
                    deps: job.deps.clone(),
                    key: Some(comps.key.clone()),
                    outputs: Some(outputs),
                    reruns: false,
                },
            );
            observer.job_finished(&report);
            reports.push(report);
        }

        let mut lock_updated = false;
        if !opts.dry_run && !failed {
            // Jobs no longer in the plan: withdraw their published files (their records and
            // objects stay cached until `briscola gc`, so re-adding them is a cache hit).
            let ids: BTreeSet<&str> = plan.iter().map(|j| j.id.as_str()).collect();
            for mut rec in runs.list_jobs()? {
                if ids.contains(rec.job.as_str()) || rec.published.is_empty() {
                    continue;
                }
                publisher.publish(&rec.job, "", &BTreeMap::new(), &rec.published, &mut stat)?;
                rec.published.clear();
                runs.put_job(&rec)?;
            }
        }
        if !opts.dry_run {
            if repro.is_empty() {
                // Jobs that did not complete keep their old entries; jobs not in the plan go.
                let mut merged = BTreeMap::new();
                for job in plan {
                    if let Some(e) = new_lock
                        .remove(&job.id)
                        .or_else(|| lock.jobs.get(&job.id).cloned())
                    {
                        merged.insert(job.id.clone(), e);
                    }
                }
                lock_updated = LockFile { jobs: merged }.save(&layout.lock_file())?;
            }
            stat.save(!failed).map_err(|e| RunError::Io {
                action: "write",
                path: e.path,
                source: e.source,
            })?;
        }
        let report = RunReport {
            jobs: reports,
            repro_failures: repro,
            dry_run: opts.dry_run,
            lock_updated,
            seconds: started.elapsed().as_secs_f64(),
        };
        if !opts.dry_run {
            // Timings live here, in the unhashed cache, never in outputs or the lock.
            if let Ok(mut bytes) = serde_json::to_vec_pretty(&report) {
                bytes.push(b'\n');
                let _ = write_atomic(&layout.last_run(), &bytes);
            }
        }
        Ok(report)
    }

    /// Remove scratch directories and temp files left by killed runs (mutex held).
    fn clean_leftovers(&self) -> Result<(), RunError> {
        let tmp = self.layout.tmp();
        match fs::remove_dir_all(&tmp) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_err("remove", &tmp)(e)),
        }
        ContentStore::new(self.layout.objects()).remove_temp_files()?;
        remove_atomic_temps(&self.layout.runs())?;
        remove_atomic_temps(&self.layout.jobs())?;
        remove_atomic_temps(&self.layout.cache())?;
        remove_atomic_temps(self.layout.root())?;
        Ok(())
    }

    /// Is `key` cached with every object intact? Corrupt objects are removed (not dry).
    fn check_cached(
        &self,
        runs: &RunCache,
        store: &ContentStore,
        stat: &mut StatCache,
        key: &str,
        dry_run: bool,
    ) -> Result<CacheCheck, RunError> {
        let Some(rec) = runs.get_run(key)? else {
            return Ok(CacheCheck::NoRecord);
        };
        let mut missing = Vec::new();
        let mut corrupt = Vec::new();
        for (name, hash) in &rec.outputs {
            let path = store.path(hash)?;
            match stat.hash(&path).map_err(io_err("hash", &path))? {
                None => missing.push(name.clone()),
                Some(h) if h == *hash => {}
                Some(_) => {
                    corrupt.push(name.clone());
                    if !dry_run {
                        store.remove(hash)?;
                        stat.forget(&path);
                    }
                }
            }
        }
        if missing.is_empty() && corrupt.is_empty() {
            Ok(CacheCheck::Hit(rec.outputs))
        } else {
            Ok(CacheCheck::Damaged { missing, corrupt })
        }
    }

    /// The job's inputs: store paths of its deps' outputs and every ancestor's provenance.
    fn job_inputs(
        &self,
        job: &Job,
        done: &BTreeMap<String, Done>,
        store: &ContentStore,
    ) -> Result<JobInputs, RunError> {
        let mut inputs = JobInputs::default();
        for dep in &job.deps {
            let Some(outs) = done.get(dep).and_then(|d| d.outputs.as_ref()) else {
                continue;
            };
            let mut m = BTreeMap::new();
            for (name, hash) in outs {
                m.insert(name.clone(), store.path(hash)?);
            }
            inputs.files.insert(dep.clone(), m);
        }
        inputs.ancestors = self.ancestors(job, done);
        Ok(inputs)
    }

    fn ancestors(
        &self,
        job: &Job,
        done: &BTreeMap<String, Done>,
    ) -> BTreeMap<String, AncestorInfo> {
        let mut out = BTreeMap::new();
        let mut stack: Vec<String> = job.deps.clone();
        while let Some(id) = stack.pop() {
            if out.contains_key(&id) {
                continue;
            }
            let Some(d) = done.get(&id) else { continue };
            out.insert(
                id.clone(),
                AncestorInfo {
                    stage: d.stage,
                    key: d.key.clone().unwrap_or_default(),
                    outputs: d.outputs.clone().unwrap_or_default(),
                },
            );
            stack.extend(d.deps.iter().cloned());
        }
        out
    }

    /// Run the body in a fresh scratch directory and move its files into the store.
    fn execute(
        &self,
        job: &Job,
        inputs: &JobInputs,
        store: &ContentStore,
        stat: &mut StatCache,
        sleep_hook: Option<&(u64, Option<StageName>)>,
    ) -> Result<BTreeMap<String, String>, String> {
        let scratch =
            self.layout
                .tmp()
                .join(format!("{}.{}", job_file_stem(&job.id), std::process::id()));
        let _ = fs::remove_dir_all(&scratch);
        fs::create_dir_all(&scratch)
            .map_err(|e| format!("cannot create scratch directory {}: {e}", scratch.display()))?;
        let result = catch_unwind(AssertUnwindSafe(|| (job.body)(inputs, &scratch)));
        let outcome = match result {
            Ok(Ok(())) => self.store_outputs(job, &scratch, store, stat, sleep_hook),
            Ok(Err(e)) => Err(e.to_string()),
            Err(p) => Err(format!("panicked: {}", panic_message(p.as_ref()))),
        };
        let _ = fs::remove_dir_all(&scratch);
        outcome
    }

    fn store_outputs(
        &self,
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
}

fn test_sleep_hook() -> Option<(u64, Option<StageName>)> {
    let ms = std::env::var(TEST_SLEEP_ENV).ok()?.parse::<u64>().ok()?;
    let stage = std::env::var(TEST_SLEEP_STAGE_ENV)
        .ok()
        .and_then(|s| StageName::parse(&s));
    Some((ms, stage))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use std::sync::{Arc, Mutex};

    type Content = dyn Fn(&JobInputs) -> Result<String, String> + Send + Sync;

    fn job(id: &str, stage: StageName, deps: &[&str], params: Value, f: Arc<Content>) -> Job {
        Job {
            id: id.into(),
            stage,
            deps: deps.iter().map(|d| d.to_string()).collect(),
            params,
            code: "test-code-1".into(),
            publish: Some(id.replace('/', "-")),
            note: None,
            body: Box::new(move |inputs, out| {
                let text = f(inputs)?;
                fs::write(out.join("out.txt"), text)?;
                Ok(())
            }),
        }
    }

    fn concat() -> Arc<Content> {
        Arc::new(|inputs: &JobInputs| {
            let mut s = String::from("got:");
            for files in inputs.files.values() {
                for p in files.values() {
                    s.push_str(&fs::read_to_string(p).map_err(|e| e.to_string())?);
                }
            }
            Ok(s)
        })
    }

    fn constant(text: &'static str) -> Arc<Content> {
        Arc::new(move |_: &JobInputs| Ok(text.to_string()))
    }

    fn run(dir: &Path, plan: &[Job]) -> RunReport {
        Runner::new(Layout::new(dir))
            .run(plan, &RunOptions::default(), &mut Silent)
            .unwrap()
    }

    fn outcomes(r: &RunReport) -> Vec<(String, Outcome)> {
        r.jobs.iter().map(|j| (j.id.clone(), j.outcome)).collect()
    }

    #[test]
    fn early_cutoff_when_params_change_but_bytes_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let plan = |x: u32| {
            vec![
                job(
                    "a",
                    StageName::Simulate,
                    &[],
                    json!({ "x": x }),
                    constant("same"),
                ),
                job("b", StageName::Aggregate, &["a"], json!({}), concat()),
            ]
        };
        let r = run(dir.path(), &plan(1));
        assert_eq!(r.count(Outcome::Ran), 2);
        let r = run(dir.path(), &plan(2));
        assert_eq!(
            outcomes(&r),
            vec![("a".into(), Outcome::Ran), ("b".into(), Outcome::Cached)]
        );
        assert_eq!(
            r.jobs[0].reasons,
            vec![Reason::ConfigChanged(vec!["x 1 -> 2".into()])]
        );
        assert_eq!(r.jobs[1].reasons, vec![Reason::Unchanged]);
        let published = fs::read_to_string(dir.path().join("b/out.txt")).unwrap();
        assert_eq!(published, "got:same");
    }

    #[test]
    fn inputs_hold_direct_deps_and_ancestors_hold_all_upstream() {
        let dir = tempfile::tempdir().unwrap();
        let seen: Arc<Mutex<Option<JobInputs>>> = Arc::new(Mutex::new(None));
        let keep = seen.clone();
        let spy: Arc<Content> = Arc::new(move |inputs: &JobInputs| {
            *keep.lock().map_err(|e| e.to_string())? = Some(inputs.clone());
            Ok("c".into())
        });
        let plan = vec![
            job("a", StageName::Simulate, &[], json!({}), constant("A")),
            job("b", StageName::Aggregate, &["a"], json!({}), concat()),
            job("c", StageName::Test, &["b"], json!({}), spy),
        ];
        let r = run(dir.path(), &plan);
        let inputs = seen.lock().unwrap().clone().unwrap();
        assert_eq!(inputs.files.keys().collect::<Vec<_>>(), vec!["b"]);
        let b_path = inputs.get("b", "out.txt").unwrap();
        assert_eq!(fs::read_to_string(b_path).unwrap(), "got:A");
        assert_eq!(inputs.ancestors.keys().collect::<Vec<_>>(), vec!["a", "b"]);
        assert_eq!(inputs.ancestors["a"].stage, StageName::Simulate);
        assert_eq!(Some(&inputs.ancestors["a"].key), r.jobs[0].key.as_ref());
        assert_eq!(inputs.ancestors["b"].outputs, r.jobs[1].outputs);
    }

    #[test]
    fn failing_and_panicking_bodies_are_reported_and_never_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let layout = Layout::new(dir.path());
        let fail: Arc<Content> = Arc::new(|_: &JobInputs| Err("boom".to_string()));
        let plan = vec![
            job("a", StageName::Simulate, &[], json!({}), constant("A")),
            job("b", StageName::Aggregate, &["a"], json!({}), fail),
            job("c", StageName::Test, &["b"], json!({}), concat()),
        ];
        let r = run(dir.path(), &plan);
        assert_eq!(
            outcomes(&r),
            vec![
                ("a".into(), Outcome::Ran),
                ("b".into(), Outcome::Failed),
                ("c".into(), Outcome::Skipped)
            ]
        );
        assert_eq!(r.status(), RunStatus::StageFailed);
        assert!(r.jobs[1].error.as_deref().unwrap().contains("boom"));
        let runs = RunCache::new(&layout);
        assert!(runs.get_job("b").unwrap().is_none());
        assert_eq!(runs.list_runs().unwrap().len(), 1);
        let lock = LockFile::load(&layout.lock_file()).unwrap();
        assert_eq!(lock.jobs.keys().collect::<Vec<_>>(), vec!["a"]);
        assert!(!layout.tmp().exists() || fs::read_dir(layout.tmp()).unwrap().next().is_none());

        let panics: Arc<Content> = Arc::new(|_: &JobInputs| panic!("stage bug"));
        let plan = vec![job("p", StageName::Plot, &[], json!({}), panics)];
        let r = run(dir.path(), &plan);
        assert_eq!(r.jobs[0].outcome, Outcome::Failed);
        assert!(r.jobs[0].error.as_deref().unwrap().contains("stage bug"));
    }

    #[test]
    fn invalid_plans_are_rejected_before_anything_runs() {
        let dir = tempfile::tempdir().unwrap();
        let runner = Runner::new(Layout::new(dir.path()));
        let bad_plans: Vec<Vec<Job>> = vec![
            vec![job("b", StageName::Aggregate, &["a"], json!({}), concat())],
            vec![
                job("a", StageName::Simulate, &[], json!({}), constant("1")),
                job("a", StageName::Simulate, &[], json!({}), constant("2")),
            ],
            vec![job(
                "x/../y",
                StageName::Simulate,
                &[],
                json!({}),
                constant("1"),
            )],
            vec![{
                let mut j = job("a", StageName::Simulate, &[], json!({}), constant("1"));
                j.publish = Some(".cache/objects".into());
                j
            }],
        ];
        for plan in bad_plans {
            let e = runner.run(&plan, &RunOptions::default(), &mut Silent);
            assert!(matches!(e, Err(RunError::InvalidPlan { .. })), "{e:?}");
        }
        assert!(!dir.path().join(".cache").exists());
    }

    #[test]
    fn two_jobs_publishing_the_same_path_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = job("a", StageName::Simulate, &[], json!({}), constant("1"));
        let mut b = job("b", StageName::Simulate, &[], json!({}), constant("2"));
        a.publish = Some("same".into());
        b.publish = Some("same".into());
        let e =
            Runner::new(Layout::new(dir.path())).run(&[a, b], &RunOptions::default(), &mut Silent);
        assert!(
            matches!(e, Err(RunError::InvalidPlan { ref job, .. }) if job == "b"),
            "{e:?}"
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("same/out.txt")).unwrap(),
            "1"
        );
    }

    #[test]
    fn symlinked_output_fails_the_job() {
        let dir = tempfile::tempdir().unwrap();
        let j = Job {
            body: Box::new(|_, out| {
                std::os::unix::fs::symlink("/etc/hostname", out.join("link"))?;
                Ok(())
            }),
            ..job("a", StageName::Simulate, &[], json!({}), constant(""))
        };
        let r = run(dir.path(), &[j]);
        assert_eq!(r.jobs[0].outcome, Outcome::Failed);
        assert!(
            r.jobs[0]
                .error
                .as_deref()
                .unwrap()
                .contains("not a regular file")
        );
    }

    #[test]
    fn code_change_is_named() {
        let dir = tempfile::tempdir().unwrap();
        run(
            dir.path(),
            &[job("a", StageName::Render, &[], json!({}), constant("1"))],
        );
        let mut j = job("a", StageName::Render, &[], json!({}), constant("1"));
        j.code = "test-code-2".into();
        let r = run(dir.path(), &[j]);
        assert_eq!(r.jobs[0].outcome, Outcome::Ran);
        assert_eq!(r.jobs[0].reasons, vec![Reason::CodeChanged]);
    }
}
