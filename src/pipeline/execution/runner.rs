//! Executing a plan: [`Runner`] runs it as decide -> execute -> finish. Each job whose
//! dependencies are settled is decided once ([`super::decision::decide`]: cached, run or, dry,
//! would-run, with reasons); the jobs that must run go to an [`Executor`] (in this process by
//! default, or a Slurm cluster); each cached or completed job is finished: checked against the
//! lock, published, recorded. The lock is written at the end.
//!
//! Invariant: a job is reported cached only if the run-cache has its exact key and every
//! object it names hashes to its name; its record is written only after its objects are
//! stored, and the lock only at the end of a run with no reproducibility failure.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{self, Write};
use std::time::Instant;

use serde::Serialize;

use super::cache_key::Reason;
use super::decision::{DecideEnv, Decision, Settled, Verdict, decide, job_inputs};
use super::executor::{Completion, ExecEnv, Executor, RemoteJob};
use super::job::{Job, StageName};
use super::local_executor::LocalExecutor;
pub use super::local_executor::{TEST_SLEEP_ENV, TEST_SLEEP_STAGE_ENV};
use super::run_mutex::{RunMutex, WaitPolicy};
use crate::pipeline::store::atomic_file::write_atomic;
use crate::pipeline::store::content_store::ContentStore;
use crate::pipeline::store::layout::{Layout, check_rel_path, job_file_stem};
use crate::pipeline::store::lock_file::{LockEntry, LockFile};
use crate::pipeline::store::publisher::{Publisher, check_publish_rel};
use crate::pipeline::store::run_cache::{JobRecord, RunCache};
use crate::pipeline::store::stat_cache::StatCache;

pub use super::run_error::RunError;

/// How to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Re-run every job of these stages even if cached.
    pub force: BTreeSet<StageName>,
    /// Re-run these jobs, and every job whose id starts with one of them and `/`, even if
    /// cached.
    pub force_jobs: BTreeSet<String>,
    /// Compute what would run and why; run and write nothing (no mutex taken).
    pub dry_run: bool,
    /// What to do if another run holds the outputs.
    pub wait: WaitPolicy,
    /// How this run describes itself to a concurrent one (e.g. `briscola run`).
    pub command: String,
}

impl RunOptions {
    /// Whether `--force` names `job`: its stage, its id, or a prefix of its id.
    pub fn forces(&self, job: &Job) -> bool {
        self.force.contains(&job.stage)
            || self.force_jobs.iter().any(|f| {
                job.id == *f
                    || job
                        .id
                        .strip_prefix(f.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
    }
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
    /// Where it ran, if an executor ran it outside this process (e.g. its Slurm job id and log).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote: Option<RemoteJob>,
}

impl JobReport {
    /// A report of `job` with `outcome` and nothing else known yet.
    pub fn new(job: &Job, outcome: Outcome) -> JobReport {
        JobReport {
            id: job.id.clone(),
            stage: job.stage,
            outcome,
            reasons: Vec::new(),
            seconds: 0.0,
            note: job.note.clone(),
            key: None,
            outputs: BTreeMap::new(),
            error: None,
            remote: None,
        }
    }

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
        if let Some(r) = &self.remote {
            s.push_str(&format!("  [{} job {}]", r.executor, r.id));
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

/// The jobs of the last real run that ran outside this process (e.g. on Slurm), with where,
/// read from `outputs/.cache/last-run.json` (empty if there is none).
pub fn last_run_remote_jobs(layout: &Layout) -> Vec<(String, RemoteJob)> {
    let Ok(bytes) = fs::read(layout.last_run()) else {
        return Vec::new();
    };
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Vec::new();
    };
    let jobs = doc
        .get("jobs")
        .and_then(|j| j.as_array())
        .cloned()
        .unwrap_or_default();
    jobs.iter()
        .filter_map(|j| {
            let id = j.get("id")?.as_str()?.to_string();
            let remote = serde_json::from_value(j.get("remote")?.clone()).ok()?;
            Some((id, remote))
        })
        .collect()
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

    /// Run `plan` (jobs in dependency order) with the local executor.
    pub fn run(
        &self,
        plan: &[Job],
        opts: &RunOptions,
        observer: &mut dyn RunObserver,
    ) -> Result<RunReport, RunError> {
        self.run_on(plan, opts, &mut LocalExecutor::new(), observer)
    }

    /// Run `plan` with the local executor, up to `jobs` jobs at once (1: one at a time, in plan
    /// order). The outputs and the lock are the same for any `jobs`.
    pub fn run_jobs(
        &self,
        plan: &[Job],
        opts: &RunOptions,
        jobs: usize,
        observer: &mut dyn RunObserver,
    ) -> Result<RunReport, RunError> {
        if jobs <= 1 || opts.dry_run {
            return self.run(plan, opts, observer);
        }
        std::thread::scope(|s| {
            let mut ex =
                super::parallel_executor::ParallelExecutor::new(s, plan, self.layout.clone(), jobs);
            self.run_on(plan, opts, &mut ex, observer)
        })
    }

    /// Run `plan`: decide each job whose deps are settled, hand the ones that must run to
    /// `executor`, and finish each (publish, record, lock entry) as it completes.
    pub fn run_on(
        &self,
        plan: &[Job],
        opts: &RunOptions,
        executor: &mut dyn Executor,
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
            crate::pipeline::store::gc::remove_leftovers(layout, &m)?;
            Some(m)
        };
        let store = ContentStore::new(layout.objects());
        let runs = RunCache::new(layout);
        let lock = LockFile::load(&layout.lock_file())?;
        let mut st = RunState {
            layout,
            store: &store,
            runs: &runs,
            publisher: Publisher::new(layout, &store),
            lock: &lock,
            stat: StatCache::load(&layout.stat_cache(), layout.root()),
            settled: BTreeMap::new(),
            reports: vec![None; plan.len()],
            pending: BTreeMap::new(),
            repro: Vec::new(),
            new_lock: BTreeMap::new(),
            published_by: BTreeMap::new(),
            failed: false,
        };
        let order = decide_order(plan);
        let looped = (|| -> Result<(), RunError> {
            loop {
                if !st.failed {
                    st.decide_ready(plan, &order, opts, executor, observer)?;
                }
                if executor.in_flight() == 0 {
                    return Ok(());
                }
                let completions = executor.wait(&mut st.exec_env())?;
                for c in completions {
                    st.complete(plan, c, observer)?;
                }
            }
        })();
        if let Err(e) = looped {
            // Jobs still running (several at once) finish before the run mutex is released, so
            // a next run never sweeps the scratch directories of jobs still writing.
            while executor.in_flight() > 0 {
                if executor.wait(&mut st.exec_env()).is_err() {
                    break;
                }
            }
            return Err(e);
        }
        for (i, job) in plan.iter().enumerate() {
            if st.reports[i].is_none() {
                let report = JobReport::new(job, Outcome::Skipped);
                observer.job_finished(&report);
                st.reports[i] = Some(report);
            }
        }
        let lock_updated = if opts.dry_run {
            false
        } else {
            st.finish_run(plan)?
        };
        let report = RunReport {
            jobs: st.reports.into_iter().flatten().collect(),
            repro_failures: st.repro,
            dry_run: opts.dry_run,
            lock_updated,
            seconds: started.elapsed().as_secs_f64(),
        };
        if !opts.dry_run {
            // Timings and remote job ids live here, in the unhashed cache, never in outputs or
            // the lock.
            if let Ok(mut bytes) = serde_json::to_vec_pretty(&report) {
                bytes.push(b'\n');
                let _ = write_atomic(&layout.last_run(), &bytes);
            }
        }
        Ok(report)
    }
}

/// The order in which ready jobs are decided: later stages first, plan order within a stage.
/// A job closer to the end of the plan unblocks the rest sooner, and a root job of a late stage
/// (a league's reduced game, seconds of CFR+) starts beside the simulations instead of after
/// them. The order changes when jobs run, never what they write.
fn decide_order(plan: &[Job]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..plan.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(plan[i].stage), i));
    order
}

/// The state of one run between its decide, execute and finish steps.
struct RunState<'a> {
    layout: &'a Layout,
    store: &'a ContentStore,
    runs: &'a RunCache,
    publisher: Publisher<'a>,
    lock: &'a LockFile,
    stat: StatCache,
    /// Jobs whose outputs downstream jobs may use.
    settled: BTreeMap<String, Settled>,
    /// Per plan index, the final report.
    reports: Vec<Option<JobReport>>,
    /// Jobs handed to the executor: plan index -> (when decided, decision).
    pending: BTreeMap<usize, (Instant, Decision)>,
    repro: Vec<ReproFailure>,
    new_lock: BTreeMap<String, LockEntry>,
    published_by: BTreeMap<String, String>,
    failed: bool,
}

impl<'a> RunState<'a> {
    fn exec_env(&mut self) -> ExecEnv<'_> {
        ExecEnv {
            layout: self.layout,
            store: self.store,
            runs: self.runs,
            stat: &mut self.stat,
        }
    }

    /// Decide every undecided job whose deps are settled, in `order` ([`decide_order`]), while
    /// the executor has room: finish cached (and, dry, would-run) jobs at once, submit the rest.
    fn decide_ready(
        &mut self,
        plan: &[Job],
        order: &[usize],
        opts: &RunOptions,
        executor: &mut dyn Executor,
        observer: &mut dyn RunObserver,
    ) -> Result<(), RunError> {
        // A cached (or, dry, would-run) job settles at once and may make a job earlier in
        // `order` ready: pass again until a pass settles nothing.
        let mut settled_now = true;
        while settled_now {
            settled_now = false;
            for &i in order {
                let job = &plan[i];
                if executor.in_flight() >= executor.capacity() {
                    return Ok(());
                }
                if self.reports[i].is_some()
                    || self.pending.contains_key(&i)
                    || !job.deps.iter().all(|d| self.settled.contains_key(d))
                {
                    continue;
                }
                let t0 = Instant::now();
                let mut env = DecideEnv {
                    runs: self.runs,
                    store: self.store,
                    stat: &mut self.stat,
                    dry_run: opts.dry_run,
                };
                let decision = decide(&mut env, job, &self.settled, opts.forces(job))?;
                if opts.dry_run {
                    self.finish_dry(i, job, decision, observer);
                    settled_now = true;
                    continue;
                }
                let contradicted = self.contradicts_lock(job, &decision);
                let mut decision = decision;
                if !contradicted.is_empty() {
                    // A record naming other objects than the lock for the same key is not trusted:
                    // the job runs, and its fresh outputs are checked against the lock as any run's.
                    decision.verdict = Verdict::Run;
                    decision.hit = false;
                    decision.reasons = vec![Reason::RecordContradictsLock(contradicted)];
                }
                match (decision.verdict, decision.outputs.clone()) {
                    (Verdict::Cached, Some(outputs)) => {
                        self.finish_job(i, job, t0, decision, outputs, None, observer)?;
                        settled_now = true;
                    }
                    _ => {
                        let key = decision.key.as_ref().map(|k| k.key.clone());
                        let key = key.ok_or_else(|| RunError::InvalidPlan {
                            job: job.id.clone(),
                            message: "no cache key although every dependency completed".into(),
                        })?;
                        let inputs = job_inputs(job, &self.settled, self.store)?;
                        executor.submit(i, job, &key, &inputs, &mut self.exec_env())?;
                        self.pending.insert(i, (t0, decision));
                    }
                }
            }
        }
        Ok(())
    }

    /// The outputs whose object a cached decision's run record names differently from the
    /// lock's entry for the same key (empty: they agree, or the lock has no such entry).
    fn contradicts_lock(&self, job: &Job, decision: &Decision) -> Vec<String> {
        let (Verdict::Cached, Some(outputs), Some(key)) =
            (decision.verdict, &decision.outputs, &decision.key)
        else {
            return Vec::new();
        };
        match self.lock.jobs.get(&job.id) {
            // An output named on one side only, or naming another object, contradicts.
            Some(entry) if entry.key == key.key => entry
                .outputs
                .keys()
                .chain(outputs.keys())
                .filter(|name| entry.outputs.get(*name) != outputs.get(*name))
                .cloned()
                .collect::<BTreeSet<String>>()
                .into_iter()
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A dry run's report of a decided job; downstream jobs see its (guessed) outputs.
    fn finish_dry(
        &mut self,
        i: usize,
        job: &Job,
        decision: Decision,
        observer: &mut dyn RunObserver,
    ) {
        let mut report = JobReport::new(job, Outcome::WouldRun);
        let key = decision.key.as_ref().map(|k| k.key.clone());
        report.key = key.clone();
        report.reasons = decision.reasons;
        let reruns = decision.verdict != Verdict::Cached;
        if let (Verdict::Cached, Some(outputs), Some(k)) =
            (decision.verdict, decision.outputs.as_ref(), key.as_ref())
        {
            report.outcome = Outcome::Cached;
            self.repro
                .extend(repro_diff(self.lock, &job.id, k, outputs, false));
            if let Some(dir) = &job.publish {
                let stale = self
                    .publisher
                    .needs_publishing(dir, outputs, &mut self.stat);
                if !stale.is_empty() {
                    report.reasons.push(Reason::WouldRepublish(stale));
                }
            }
        }
        if decision.hit {
            report.outputs = decision.outputs.clone().unwrap_or_default();
        }
        self.settled.insert(
            job.id.clone(),
            Settled {
                stage: job.stage,
                deps: job.deps.clone(),
                key,
                outputs: decision.outputs,
                reruns,
            },
        );
        observer.job_finished(&report);
        self.reports[i] = Some(report);
    }

    /// The executor is done with a job: finish it, or record its failure.
    fn complete(
        &mut self,
        plan: &[Job],
        c: Completion,
        observer: &mut dyn RunObserver,
    ) -> Result<(), RunError> {
        let job = &plan[c.index];
        let Some((t0, decision)) = self.pending.remove(&c.index) else {
            return Err(RunError::InvalidPlan {
                job: job.id.clone(),
                message: "the executor reported a job that was not submitted".into(),
            });
        };
        match c.result {
            Ok(outputs) => self.finish_job(c.index, job, t0, decision, outputs, c.remote, observer),
            Err(message) => {
                let mut report = JobReport::new(job, Outcome::Failed);
                report.reasons = decision.reasons;
                report.key = decision.key.map(|k| k.key);
                report.error = Some(message);
                report.remote = c.remote;
                report.seconds = t0.elapsed().as_secs_f64();
                self.failed = true;
                observer.job_finished(&report);
                self.reports[c.index] = Some(report);
                Ok(())
            }
        }
    }

    /// Finish a cached or ran job: check it against the lock, publish it, record its state.
    #[allow(clippy::too_many_arguments)]
    fn finish_job(
        &mut self,
        i: usize,
        job: &Job,
        t0: Instant,
        decision: Decision,
        outputs: BTreeMap<String, String>,
        remote: Option<RemoteJob>,
        observer: &mut dyn RunObserver,
    ) -> Result<(), RunError> {
        let ran = decision.verdict != Verdict::Cached;
        let mut report = JobReport::new(job, if ran { Outcome::Ran } else { Outcome::Cached });
        report.reasons = decision.reasons;
        report.remote = remote;
        let comps = decision.key.ok_or_else(|| RunError::InvalidPlan {
            job: job.id.clone(),
            message: "finished without a cache key".into(),
        })?;
        report.key = Some(comps.key.clone());
        self.repro
            .extend(repro_diff(self.lock, &job.id, &comps.key, &outputs, ran));
        let prev = decision.prev;
        let previous: Vec<String> = prev
            .as_ref()
            .map(|p| p.published.clone())
            .unwrap_or_default();
        if let Some(dir) = &job.publish {
            for name in outputs.keys() {
                let rel = Layout::published_rel(dir, name);
                if let Some(other) = self.published_by.insert(rel.clone(), job.id.clone()) {
                    return Err(RunError::InvalidPlan {
                        job: job.id.clone(),
                        message: format!("publishes `{rel}`, which job `{other}` also publishes"),
                    });
                }
            }
        }
        let empty = BTreeMap::new();
        let (dir, shown) = match &job.publish {
            Some(dir) => (dir.as_str(), &outputs),
            None => ("", &empty),
        };
        let published = self
            .publisher
            .publish(&job.id, dir, shown, &previous, &mut self.stat)?;
        if !ran && !published.written.is_empty() {
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
            self.runs.put_job(&record)?;
        }
        self.new_lock.insert(
            job.id.clone(),
            LockEntry {
                stage: job.stage.as_str().to_string(),
                key: comps.key.clone(),
                outputs: outputs.clone(),
            },
        );
        report.outputs = outputs.clone();
        report.seconds = t0.elapsed().as_secs_f64();
        self.settled.insert(
            job.id.clone(),
            Settled {
                stage: job.stage,
                deps: job.deps.clone(),
                key: Some(comps.key),
                outputs: Some(outputs),
                reruns: false,
            },
        );
        observer.job_finished(&report);
        self.reports[i] = Some(report);
        Ok(())
    }

    /// After a real run: withdraw what jobs no longer in the plan published, write the lock
    /// (unless a reproducibility failure), save the stat hints. Returns whether the lock changed.
    fn finish_run(&mut self, plan: &[Job]) -> Result<bool, RunError> {
        if !self.failed {
            // Jobs no longer in the plan: withdraw their published files (their records and
            // objects stay cached until `briscola gc`, so re-adding them is a cache hit).
            let ids: BTreeSet<&str> = plan.iter().map(|j| j.id.as_str()).collect();
            for mut rec in self.runs.list_jobs()? {
                if ids.contains(rec.job.as_str()) || rec.published.is_empty() {
                    continue;
                }
                self.publisher.publish(
                    &rec.job,
                    "",
                    &BTreeMap::new(),
                    &rec.published,
                    &mut self.stat,
                )?;
                rec.published.clear();
                self.runs.put_job(&rec)?;
            }
        }
        let mut lock_updated = false;
        if self.repro.is_empty() {
            // Jobs that did not complete keep their old entries; jobs not in the plan go.
            let mut merged = BTreeMap::new();
            for job in plan {
                if let Some(e) = self
                    .new_lock
                    .remove(&job.id)
                    .or_else(|| self.lock.jobs.get(&job.id).cloned())
                {
                    merged.insert(job.id.clone(), e);
                }
            }
            lock_updated = LockFile { jobs: merged }.save(&self.layout.lock_file())?;
        }
        // The stat cache is only a speed-up hint: failing to save it (e.g. a full disk) must
        // not fail a run whose jobs completed; the next run just re-hashes.
        if let Err(e) = self.stat.save(!self.failed) {
            let _ = writeln!(
                io::stderr(),
                "warning: {e} (a speed-up hint only: the run's results are complete; the next run re-hashes files instead)"
            );
        }
        Ok(lock_updated)
    }
}

#[cfg(test)]
mod tests {
    use super::super::cache_key::Reason;
    use super::super::job::JobInputs;
    use super::*;
    use serde_json::{Value, json};
    use std::path::Path;
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
