//! The Slurm executor: [`SlurmExecutor`] gathers the jobs the run hands it into waves and
//! submits each wave as one job array (`sbatch --parsable --array=0-N`), its tasks running
//! `briscola job run --wave FILE` (a task runs one job, or several one after another when the
//! wave has more jobs than `max_jobs` leaves free tasks); it polls `squeue --array` for all its
//! tasks at once (rate-limited; `sacct` for tasks squeue has forgotten), accepts each job as
//! soon as its run record is complete (the record is written last), maps the tasks' ends to
//! failures for the jobs that left no record, and cancels what it submitted (`scancel`) on
//! Ctrl-C or when the run stops early. Dependencies are respected by submitting a job only
//! once its inputs are complete (its cache key depends on their bytes).
//!
//! Invariant: a job counts as done only when its run record (written last by `job run`) names
//! objects that are intact; a job whose task ended without one is a failure that names the
//! job, its Slurm task id (`ARRAY_TASK`) and the task's log.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::decision::{DecideEnv, completed_outputs};
use super::executor::{Completion, ExecEnv, Executor, RemoteJob};
use super::job::{Job, JobInputs};
use super::run_error::RunError;
use super::slurm_wave::Wave;
use crate::pipeline::config::executor_config::ExecutorSection;
use crate::pipeline::store::atomic_file::write_atomic;

/// A job handed to the executor, not yet in a submitted array.
#[derive(Debug, Clone)]
struct Queued {
    index: usize,
    job: String,
    key: String,
}

/// A job whose array is submitted, not yet finished.
#[derive(Debug, Clone)]
struct InFlight {
    index: usize,
    job: String,
    key: String,
    /// Its Slurm task, `ARRAY_TASK` (e.g. `1234_5`).
    task: String,
    log: PathBuf,
}

/// How Slurm says a job ended.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SlurmEnd {
    /// Still queued or running.
    Active,
    /// COMPLETED (exit code 0).
    Completed,
    /// Any other terminal state, e.g. FAILED, TIMEOUT, CANCELLED, OUT_OF_MEMORY.
    Failed(String),
}

/// Map a Slurm job state (squeue `%T`, sacct `State`) to how it ended.
fn classify(state: &str) -> SlurmEnd {
    // sacct writes e.g. "CANCELLED by 0"; the first word is the state.
    let word = state
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches('+');
    match word {
        "COMPLETED" => SlurmEnd::Completed,
        "FAILED" | "TIMEOUT" | "CANCELLED" | "NODE_FAIL" | "BOOT_FAIL" | "DEADLINE"
        | "OUT_OF_MEMORY" | "PREEMPTED" | "REVOKED" | "SPECIAL_EXIT" => {
            SlurmEnd::Failed(word.to_string())
        }
        _ => SlurmEnd::Active,
    }
}

/// Quote `s` for `sh` (sbatch --wrap runs its command through `sh -c`).
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Submits jobs to Slurm, a wave of ready jobs at a time, and waits for them.
pub struct SlurmExecutor {
    opts: ExecutorSection,
    binary: PathBuf,
    config: PathBuf,
    log_dir: PathBuf,
    /// Handed over, waiting for the next wave.
    queued: Vec<Queued>,
    /// Submitted, by plan index.
    in_flight: BTreeMap<usize, InFlight>,
    /// Tasks submitted and not known to have ended (what `max_jobs` bounds).
    active_tasks: BTreeSet<String>,
    /// Submitted arrays and their wave files (removed once none of their jobs is in flight).
    arrays: BTreeMap<String, PathBuf>,
    /// Waves submitted by this process (names its wave files).
    waves: usize,
    not_started: VecDeque<Completion>,
    last_poll: Option<Instant>,
    interrupted: Arc<AtomicBool>,
}

impl SlurmExecutor {
    /// An executor that submits `briscola job run --wave FILE --config <config>` (`config` made
    /// absolute) with `opts`, logging to `log_dir`, and cancels its jobs when `interrupted`
    /// becomes true (see [`SlurmExecutor::cancel_on_signals`]).
    pub fn new(
        opts: &ExecutorSection,
        config: &Path,
        log_dir: &Path,
        interrupted: Arc<AtomicBool>,
    ) -> Result<SlurmExecutor, RunError> {
        let abs = |p: &Path| {
            std::path::absolute(p).map_err(|source| RunError::Io {
                action: "resolve",
                path: p.to_path_buf(),
                source,
            })
        };
        let binary = match &opts.binary {
            Some(b) => abs(b)?,
            None => std::env::current_exe().map_err(|source| RunError::Io {
                action: "find this program's path",
                path: PathBuf::from("briscola"),
                source,
            })?,
        };
        Ok(SlurmExecutor {
            opts: opts.clone(),
            binary,
            config: abs(config)?,
            log_dir: abs(log_dir)?,
            queued: Vec::new(),
            in_flight: BTreeMap::new(),
            active_tasks: BTreeSet::new(),
            arrays: BTreeMap::new(),
            waves: 0,
            not_started: VecDeque::new(),
            last_poll: None,
            interrupted,
        })
    }

    /// A flag that SIGINT (Ctrl-C) and SIGTERM set, instead of killing this process, so the
    /// executor can `scancel` what it submitted before the run stops.
    pub fn cancel_on_signals() -> Result<Arc<AtomicBool>, RunError> {
        let flag = Arc::new(AtomicBool::new(false));
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(sig, flag.clone()).map_err(|source| RunError::Io {
                action: "install a signal handler",
                path: PathBuf::from("SIGINT"),
                source,
            })?;
        }
        Ok(flag)
    }

    /// The `sbatch` arguments for a wave of `tasks` tasks reading `wave_file` (without the
    /// program name).
    fn sbatch_args(&self, tasks: usize, wave_file: &Path) -> Vec<String> {
        let mut args = vec![
            "--parsable".to_string(),
            format!("--array=0-{}", tasks - 1),
            "--job-name=briscola:wave".to_string(),
            format!("--output={}", self.log_dir.join("wave.%A_%a.log").display()),
        ];
        let o = &self.opts;
        let mut opt = |flag: &str, v: &Option<String>| {
            if let Some(v) = v {
                args.push(format!("--{flag}={v}"));
            }
        };
        opt("partition", &o.partition);
        opt("account", &o.account);
        opt("time", &o.time);
        opt("mem", &o.memory);
        if let Some(c) = o.cpus {
            args.push(format!("--cpus-per-task={c}"));
        }
        args.extend(o.sbatch_args.iter().cloned());
        let command = [
            sh_quote(&self.binary.to_string_lossy()),
            "job".into(),
            "run".into(),
            "--wave".into(),
            sh_quote(&wave_file.to_string_lossy()),
            "--config".into(),
            sh_quote(&self.config.to_string_lossy()),
        ]
        .join(" ");
        args.push(format!("--wrap={command}"));
        args
    }

    /// Submit the queued jobs as one array over the tasks `max_jobs` leaves free (none free:
    /// they wait for the next call). A refusal turns every queued job into a failure.
    fn flush(&mut self) -> Result<(), RunError> {
        let free = self.opts.max_jobs.saturating_sub(self.active_tasks.len());
        if self.queued.is_empty() || free == 0 {
            return Ok(());
        }
        std::fs::create_dir_all(&self.log_dir).map_err(|source| RunError::Io {
            action: "create",
            path: self.log_dir.clone(),
            source,
        })?;
        let queued = std::mem::take(&mut self.queued);
        let wave = Wave::split(
            queued
                .iter()
                .map(|q| (q.job.clone(), q.key.clone()))
                .collect(),
            free,
        );
        self.waves += 1;
        let wave_file =
            self.log_dir
                .join(format!("wave.{}.{}.jobs", std::process::id(), self.waves));
        write_atomic(&wave_file, wave.to_text().as_bytes()).map_err(|e| RunError::Io {
            action: "write",
            path: wave_file.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        let refused = |message: String, queued: &[Queued]| -> Vec<Completion> {
            queued
                .iter()
                .map(|q| Completion {
                    index: q.index,
                    result: Err(message.clone()),
                    remote: None,
                })
                .collect()
        };
        let out = Command::new("sbatch")
            .args(self.sbatch_args(wave.tasks(), &wave_file))
            .output();
        let array = match out {
            Ok(out) if out.status.success() => {
                let text = String::from_utf8_lossy(&out.stdout);
                let id = text.trim().split(';').next().unwrap_or("").to_string();
                if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
                    Err(format!("sbatch printed no job id (got `{}`)", text.trim()))
                } else {
                    Ok(id)
                }
            }
            Ok(out) => Err(format!(
                "sbatch refused the job array ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            )),
            Err(e) => Err(format!(
                "cannot run sbatch ({e}); is this a Slurm submit host with sbatch on PATH?"
            )),
        };
        let array = match array {
            Ok(a) => a,
            Err(message) => {
                let _ = std::fs::remove_file(&wave_file);
                self.not_started.extend(refused(message, &queued));
                return Ok(());
            }
        };
        for (q, e) in queued.iter().zip(wave.entries()) {
            let task = format!("{array}_{}", e.task);
            let log = self.log_dir.join(format!("wave.{task}.log"));
            self.active_tasks.insert(task.clone());
            self.in_flight.insert(
                q.index,
                InFlight {
                    index: q.index,
                    job: q.job.clone(),
                    key: q.key.clone(),
                    task,
                    log,
                },
            );
        }
        self.arrays.insert(array, wave_file);
        Ok(())
    }

    /// Ask Slurm for the state of every task in flight: squeue first (it keeps finished jobs
    /// for a few minutes; `--array` lists each task on its own line), sacct for the ones it no
    /// longer knows. `None`: squeue could not be asked at all (nothing is concluded from this
    /// poll).
    fn query_states(&self) -> Option<BTreeMap<String, String>> {
        let arrays: Vec<&str> = self.arrays.keys().map(String::as_str).collect();
        let squeue = |filter: String| {
            Command::new("squeue")
                .args([
                    "--noheader",
                    "--array",
                    "--states=all",
                    "--format=%i|%T",
                    &filter,
                ])
                .output()
                .ok()
                .filter(|o| o.status.success())
        };
        // squeue refuses the whole list if one id is no longer known; then list all of ours.
        let out =
            squeue(format!("--jobs={}", arrays.join(","))).or_else(|| squeue("--me".into()))?;
        let mut states = BTreeMap::new();
        parse_states(&String::from_utf8_lossy(&out.stdout), &mut states);
        states.retain(|id, _| self.active_tasks.contains(id));
        let missing: Vec<&str> = self
            .active_tasks
            .iter()
            .map(String::as_str)
            .filter(|id| !states.contains_key(*id))
            .collect();
        if !missing.is_empty()
            && let Ok(out) = Command::new("sacct")
                .args(["--noheader", "--parsable2", "-X", "--format=JobID,State"])
                .arg(format!("--jobs={}", missing.join(",")))
                .output()
        {
            parse_states(&String::from_utf8_lossy(&out.stdout), &mut states);
        }
        Some(states)
    }

    /// Cancel every array in flight; the completions of their unfinished jobs (and of the
    /// jobs never submitted) say why.
    fn cancel_all(&mut self, why: &str) -> Vec<Completion> {
        let ids: Vec<String> = self.arrays.keys().cloned().collect();
        if !ids.is_empty() {
            let _ = Command::new("scancel").args(&ids).status();
        }
        let mut out: Vec<Completion> = std::mem::take(&mut self.in_flight)
            .into_values()
            .map(|f| Completion {
                index: f.index,
                result: Err(format!(
                    "{why}: Slurm job {} cancelled with scancel (log: {})",
                    f.task,
                    f.log.display()
                )),
                remote: Some(remote(&f.task, &f.log, Some("CANCELLED".into()))),
            })
            .collect();
        out.extend(
            std::mem::take(&mut self.queued)
                .into_iter()
                .map(|q| Completion {
                    index: q.index,
                    result: Err(format!("{why}: not submitted")),
                    remote: None,
                }),
        );
        self.active_tasks.clear();
        for (_, wave_file) in std::mem::take(&mut self.arrays) {
            let _ = std::fs::remove_file(wave_file);
        }
        out
    }

    /// The completion of a job whose task Slurm reports ended (`end`; `None`: neither squeue
    /// nor sacct knows it), or whose record is complete while its task goes on (`Active`).
    fn ended(
        &self,
        env: &mut ExecEnv<'_>,
        f: &InFlight,
        end: Option<SlurmEnd>,
    ) -> Result<Option<Completion>, RunError> {
        let mut denv = DecideEnv {
            runs: env.runs,
            store: env.store,
            stat: env.stat,
            dry_run: false,
        };
        let recorded = completed_outputs(&mut denv, &f.key)?;
        let id = &f.task;
        let (result, state) = match (end, recorded) {
            (_, Some(outputs)) => (Ok(outputs), "COMPLETED".to_string()),
            (Some(SlurmEnd::Active), None) => return Ok(None),
            (Some(SlurmEnd::Completed), None) => (
                Err(format!(
                    "Slurm job {id} COMPLETED but left no complete result (run record missing or objects damaged); see its log {}",
                    f.log.display()
                )),
                "COMPLETED".to_string(),
            ),
            (Some(SlurmEnd::Failed(state)), None) => (
                Err(format!(
                    "Slurm job {id} ended {state}; see its log {}{}",
                    f.log.display(),
                    log_tail(&f.log)
                )),
                state,
            ),
            (None, None) => (
                Err(format!(
                    "Slurm job {id} is gone (neither squeue nor sacct knows it) and left no complete result; see its log {}{}",
                    f.log.display(),
                    log_tail(&f.log)
                )),
                "UNKNOWN".to_string(),
            ),
        };
        Ok(Some(Completion {
            index: f.index,
            result,
            remote: Some(remote(id, &f.log, Some(state))),
        }))
    }

    /// Forget the tasks Slurm says ended, and the wave files of arrays with no job left.
    fn settle_tasks(&mut self, states: &BTreeMap<String, String>) {
        self.active_tasks.retain(|t| {
            states
                .get(t)
                .is_some_and(|s| classify(s) == SlurmEnd::Active)
        });
        let live: BTreeSet<&str> = self
            .in_flight
            .values()
            .filter_map(|f| f.task.split_once('_').map(|(a, _)| a))
            .collect();
        let done: Vec<String> = self
            .arrays
            .keys()
            .filter(|a| !live.contains(a.as_str()))
            .cloned()
            .collect();
        for a in done {
            if let Some(wave_file) = self.arrays.remove(&a) {
                let _ = std::fs::remove_file(wave_file);
            }
        }
    }

    /// Sleep until the next poll is allowed; `false` if interrupted meanwhile.
    fn pause(&self) -> bool {
        let every = Duration::from_secs_f64(self.opts.poll_seconds);
        let due = self.last_poll.map_or_else(Instant::now, |t| t + every);
        while Instant::now() < due {
            if self.interrupted.load(Ordering::SeqCst) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50).min(every));
        }
        !self.interrupted.load(Ordering::SeqCst)
    }
}

fn remote(id: &str, log: &Path, state: Option<String>) -> RemoteJob {
    RemoteJob {
        executor: "slurm".into(),
        id: id.to_string(),
        log: log.to_path_buf(),
        state,
    }
}

/// The last lines of a log, indented, for an error message (empty if unreadable).
fn log_tail(log: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(log) else {
        return String::new();
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = &lines[lines.len().saturating_sub(3)..];
    if tail.is_empty() {
        String::new()
    } else {
        format!("; it ends:\n          {}", tail.join("\n          "))
    }
}

/// Whether `id` is a Slurm job id (`1234`) or an array task id (`1234_5`).
fn is_job_id(id: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    match id.split_once('_') {
        Some((array, task)) => digits(array) && digits(task),
        None => digits(id),
    }
}

/// Parse `id|STATE` lines (squeue `%i|%T`, sacct `JobID,State` with `--parsable2`); lines
/// of steps (`1234_5.batch`) and of pending ranges (`1234_[6-9]`) are skipped.
fn parse_states(text: &str, into: &mut BTreeMap<String, String>) {
    for line in text.lines() {
        if let Some((id, state)) = line.trim().split_once('|')
            && is_job_id(id)
        {
            into.insert(id.to_string(), state.to_string());
        }
    }
}

impl Executor for SlurmExecutor {
    fn capacity(&self) -> usize {
        // Once sbatch has refused a wave, submit no more (the run stops at the failure; the
        // jobs not yet submitted are reported skipped, not 56 more refusals). Otherwise every
        // ready job joins the next wave; `max_jobs` bounds the tasks, not the jobs.
        if self.not_started.is_empty() {
            usize::MAX
        } else {
            0
        }
    }

    fn in_flight(&self) -> usize {
        self.queued.len() + self.in_flight.len() + self.not_started.len()
    }

    fn submit(
        &mut self,
        index: usize,
        job: &Job,
        key: &str,
        _inputs: &JobInputs,
        _env: &mut ExecEnv<'_>,
    ) -> Result<(), RunError> {
        self.queued.push(Queued {
            index,
            job: job.id.clone(),
            key: key.to_string(),
        });
        Ok(())
    }

    fn wait(&mut self, env: &mut ExecEnv<'_>) -> Result<Vec<Completion>, RunError> {
        loop {
            self.flush()?;
            if !self.not_started.is_empty() {
                return Ok(self.not_started.drain(..).collect());
            }
            // Jobs waiting for a free task keep the polling going: only a poll sees tasks end.
            if self.in_flight.is_empty() && self.queued.is_empty() {
                return Ok(Vec::new());
            }
            if !self.pause() {
                return Ok(self.cancel_all("interrupted (Ctrl-C)"));
            }
            let states = self.query_states();
            self.last_poll = Some(Instant::now());
            let Some(states) = states else { continue };
            let mut done = Vec::new();
            let jobs: Vec<InFlight> = self.in_flight.values().cloned().collect();
            for f in jobs {
                let end = states.get(&f.task).map(|s| classify(s));
                if let Some(c) = self.ended(env, &f, end)? {
                    done.push(c);
                    self.in_flight.remove(&f.index);
                }
            }
            self.settle_tasks(&states);
            if !done.is_empty() {
                return Ok(done);
            }
        }
    }
}

impl SlurmExecutor {
    /// The Slurm task ids in flight with the job each runs (for messages).
    pub fn in_flight_jobs(&self) -> Vec<(String, String)> {
        self.in_flight
            .values()
            .map(|f| (f.task.clone(), f.job.clone()))
            .collect()
    }
}

impl Drop for SlurmExecutor {
    /// A run that stops early (an error, a panic) leaves no job of its own running.
    fn drop(&mut self) {
        if !self.in_flight.is_empty() {
            let _ = self.cancel_all("the run stopped");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_states_map_to_success_failure_or_pending() {
        assert_eq!(classify("COMPLETED"), SlurmEnd::Completed);
        for s in [
            "PENDING",
            "RUNNING",
            "COMPLETING",
            "CONFIGURING",
            "REQUEUED",
            "SUSPENDED",
        ] {
            assert_eq!(classify(s), SlurmEnd::Active, "{s}");
        }
        for s in [
            "FAILED",
            "TIMEOUT",
            "OUT_OF_MEMORY",
            "NODE_FAIL",
            "PREEMPTED",
        ] {
            assert_eq!(classify(s), SlurmEnd::Failed(s.into()), "{s}");
        }
        assert_eq!(
            classify("CANCELLED by 0"),
            SlurmEnd::Failed("CANCELLED".into())
        );
        assert_eq!(classify("CANCELLED+"), SlurmEnd::Failed("CANCELLED".into()));
    }

    #[test]
    fn squeue_and_sacct_lines_parse_and_quoting_survives_sh() {
        let mut m = BTreeMap::new();
        parse_states(
            "12|RUNNING\n13|COMPLETED\n13.batch|COMPLETED\ngarbage\n14_0|PENDING\n14_[1-3]|PENDING\n14_1.batch|RUNNING\n_2|X\n",
            &mut m,
        );
        assert_eq!(m.len(), 3);
        assert_eq!(m["14_0"], "PENDING");
        assert_eq!(m["12"], "RUNNING");
        assert_eq!(sh_quote("a'b c"), r"'a'\''b c'");
    }
}
