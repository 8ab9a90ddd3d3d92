//! The Slurm executor: [`SlurmExecutor`] submits each ready job as `briscola job run <id>` with
//! `sbatch --parsable`, polls `squeue` (rate-limited; `sacct` for jobs squeue has forgotten),
//! maps Slurm's states to success or failure, and cancels what it submitted (`scancel`) on
//! Ctrl-C or when the run stops early. Dependencies are respected by submitting a job only
//! once its inputs are complete (its cache key depends on their bytes).
//!
//! Invariant: a Slurm job counts as done only when Slurm says COMPLETED *and* its run record
//! (written last by `job run`) names objects that are intact; every other end is a failure that
//! names the job, its Slurm id and its log.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::decision::{DecideEnv, completed_outputs};
use super::executor::{Completion, ExecEnv, Executor, RemoteJob};
use super::executor_config::ExecutorSection;
use super::job::{Job, JobInputs};
use super::layout::job_file_stem;
use super::runner::RunError;

/// A submitted Slurm job not yet finished.
#[derive(Debug, Clone)]
struct InFlight {
    index: usize,
    job: String,
    key: String,
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

/// Submits jobs to Slurm and waits for them.
pub struct SlurmExecutor {
    opts: ExecutorSection,
    binary: PathBuf,
    config: PathBuf,
    log_dir: PathBuf,
    in_flight: BTreeMap<String, InFlight>,
    not_started: VecDeque<Completion>,
    last_poll: Option<Instant>,
    interrupted: Arc<AtomicBool>,
}

impl SlurmExecutor {
    /// An executor that submits `briscola job run <id> --config <config>` (`config` made
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
            in_flight: BTreeMap::new(),
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

    /// The `sbatch` arguments for one job (without the program name).
    fn sbatch_args(&self, job: &Job, key: &str, log: &Path) -> Vec<String> {
        let mut args = vec![
            "--parsable".to_string(),
            format!("--job-name=briscola:{}", job.id),
            format!("--output={}", log.display()),
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
            sh_quote(&job.id),
            "--config".into(),
            sh_quote(&self.config.to_string_lossy()),
            "--expect-key".into(),
            key.to_string(),
        ]
        .join(" ");
        args.push(format!("--wrap={command}"));
        args
    }

    /// Ask Slurm for the state of every job in flight: squeue first (it keeps finished jobs
    /// for a few minutes), sacct for the ones it no longer knows. `None`: squeue could not be
    /// asked at all (nothing is concluded from this poll).
    fn query_states(&self) -> Option<BTreeMap<String, String>> {
        let ids: Vec<&str> = self.in_flight.keys().map(String::as_str).collect();
        let squeue = |filter: String| {
            Command::new("squeue")
                .args(["--noheader", "--states=all", "--format=%i|%T", &filter])
                .output()
                .ok()
                .filter(|o| o.status.success())
        };
        // squeue refuses the whole list if one id is no longer known; then list all of ours.
        let out = squeue(format!("--jobs={}", ids.join(","))).or_else(|| squeue("--me".into()))?;
        let mut states = BTreeMap::new();
        parse_states(&String::from_utf8_lossy(&out.stdout), &mut states);
        states.retain(|id, _| self.in_flight.contains_key(id));
        let missing: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| !states.contains_key(*id))
            .collect();
        if !missing.is_empty()
            && let Ok(out) = Command::new("sacct")
                .args(["--noheader", "--parsable2", "-X", "--format=JobIDRaw,State"])
                .arg(format!("--jobs={}", missing.join(",")))
                .output()
        {
            parse_states(&String::from_utf8_lossy(&out.stdout), &mut states);
        }
        Some(states)
    }

    /// Cancel every job in flight; their completions say why.
    fn cancel_all(&mut self, why: &str) -> Vec<Completion> {
        let ids: Vec<String> = self.in_flight.keys().cloned().collect();
        if !ids.is_empty() {
            let _ = Command::new("scancel").args(&ids).status();
        }
        std::mem::take(&mut self.in_flight)
            .into_iter()
            .map(|(id, f)| Completion {
                index: f.index,
                result: Err(format!(
                    "{why}: Slurm job {id} cancelled with scancel (log: {})",
                    f.log.display()
                )),
                remote: Some(remote(&id, &f.log, Some("CANCELLED".into()))),
            })
            .collect()
    }

    /// The completion of a job Slurm reports ended.
    fn ended(
        &self,
        env: &mut ExecEnv<'_>,
        id: &str,
        f: &InFlight,
        end: Option<SlurmEnd>,
    ) -> Result<Completion, RunError> {
        let mut denv = DecideEnv {
            runs: env.runs,
            store: env.store,
            stat: env.stat,
            dry_run: false,
        };
        let recorded = completed_outputs(&mut denv, &f.key)?;
        let (result, state) = match (end, recorded) {
            (Some(SlurmEnd::Completed) | None, Some(outputs)) => {
                (Ok(outputs), "COMPLETED".to_string())
            }
            (Some(SlurmEnd::Completed), None) => (
                Err(format!(
                    "Slurm job {id} COMPLETED but left no complete result (run record missing or objects damaged); see its log {}",
                    f.log.display()
                )),
                "COMPLETED".to_string(),
            ),
            (Some(SlurmEnd::Failed(state)), _) => (
                Err(format!(
                    "Slurm job {id} ended {state}; see its log {}{}",
                    f.log.display(),
                    log_tail(&f.log)
                )),
                state,
            ),
            (Some(SlurmEnd::Active), _) | (None, None) => (
                Err(format!(
                    "Slurm job {id} is gone (neither squeue nor sacct knows it) and left no complete result; see its log {}{}",
                    f.log.display(),
                    log_tail(&f.log)
                )),
                "UNKNOWN".to_string(),
            ),
        };
        Ok(Completion {
            index: f.index,
            result,
            remote: Some(remote(id, &f.log, Some(state))),
        })
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

/// Parse `id|STATE` lines (squeue `%i|%T`, sacct `JobIDRaw,State` with `--parsable2`).
fn parse_states(text: &str, into: &mut BTreeMap<String, String>) {
    for line in text.lines() {
        if let Some((id, state)) = line.trim().split_once('|')
            && !id.is_empty()
            && id.chars().all(|c| c.is_ascii_digit())
        {
            into.insert(id.to_string(), state.to_string());
        }
    }
}

impl Executor for SlurmExecutor {
    fn capacity(&self) -> usize {
        // Once sbatch has refused a job, submit no more (the run stops at the failure; the
        // jobs not yet submitted are reported skipped, not 56 more refusals).
        if self.not_started.is_empty() {
            self.opts.max_jobs
        } else {
            0
        }
    }

    fn in_flight(&self) -> usize {
        self.in_flight.len() + self.not_started.len()
    }

    fn submit(
        &mut self,
        index: usize,
        job: &Job,
        key: &str,
        _inputs: &JobInputs,
        _env: &mut ExecEnv<'_>,
    ) -> Result<(), RunError> {
        std::fs::create_dir_all(&self.log_dir).map_err(|source| RunError::Io {
            action: "create",
            path: self.log_dir.clone(),
            source,
        })?;
        let log_pattern = self
            .log_dir
            .join(format!("{}.%j.log", job_file_stem(&job.id)));
        let args = self.sbatch_args(job, key, &log_pattern);
        let failed = |message: String| Completion {
            index,
            result: Err(message),
            remote: None,
        };
        match Command::new("sbatch").args(&args).output() {
            Ok(out) if out.status.success() => {
                let text = String::from_utf8_lossy(&out.stdout);
                let id = text.trim().split(';').next().unwrap_or("").to_string();
                if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
                    self.not_started.push_back(failed(format!(
                        "sbatch printed no job id (got `{}`)",
                        text.trim()
                    )));
                } else {
                    let log = self
                        .log_dir
                        .join(format!("{}.{id}.log", job_file_stem(&job.id)));
                    self.in_flight.insert(
                        id,
                        InFlight {
                            index,
                            job: job.id.clone(),
                            key: key.to_string(),
                            log,
                        },
                    );
                }
            }
            Ok(out) => self.not_started.push_back(failed(format!(
                "sbatch refused the job ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ))),
            Err(e) => self.not_started.push_back(failed(format!(
                "cannot run sbatch ({e}); is this a Slurm submit host with sbatch on PATH?"
            ))),
        }
        Ok(())
    }

    fn wait(&mut self, env: &mut ExecEnv<'_>) -> Result<Vec<Completion>, RunError> {
        if !self.not_started.is_empty() {
            return Ok(self.not_started.drain(..).collect());
        }
        while !self.in_flight.is_empty() {
            if !self.pause() {
                return Ok(self.cancel_all("interrupted (Ctrl-C)"));
            }
            let states = self.query_states();
            self.last_poll = Some(Instant::now());
            let Some(states) = states else { continue };
            let mut done = Vec::new();
            let ids: Vec<String> = self.in_flight.keys().cloned().collect();
            for id in ids {
                let end = states.get(&id).map(|s| classify(s));
                if end == Some(SlurmEnd::Active) {
                    continue;
                }
                let Some(f) = self.in_flight.get(&id).cloned() else {
                    continue;
                };
                done.push(self.ended(env, &id, &f, end)?);
                self.in_flight.remove(&id);
            }
            if !done.is_empty() {
                return Ok(done);
            }
        }
        Ok(Vec::new())
    }
}

impl SlurmExecutor {
    /// The job ids in flight with the job each runs (for messages).
    pub fn in_flight_jobs(&self) -> Vec<(String, String)> {
        self.in_flight
            .iter()
            .map(|(id, f)| (id.clone(), f.job.clone()))
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
            "12|RUNNING\n13|COMPLETED\n13.batch|COMPLETED\ngarbage\n",
            &mut m,
        );
        assert_eq!(m.len(), 2);
        assert_eq!(m["12"], "RUNNING");
        assert_eq!(sh_quote("a'b c"), r"'a'\''b c'");
    }
}
