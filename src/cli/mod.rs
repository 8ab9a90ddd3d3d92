//! The command line: [`Cli`] (clap derive) and [`execute`], which runs a parsed command and
//! returns the process exit code.
//!
//! Invariant: every failure maps to exactly one documented [`Exit`] code and one message on
//! stderr naming what failed (through [`error::report`], the binary's one error path); stdout
//! carries only the command's report.

#[macro_use]
pub mod error;
pub mod play;
pub mod play_table;
pub mod policies;
pub mod serve;
pub mod solve;
pub mod solve_game;
pub mod tournament;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use briscola::pipeline::config::Config;
use briscola::pipeline::dag::Dag;
use briscola::pipeline::executor_config::ExecutorKind;
use briscola::pipeline::gc::collect_garbage;
use briscola::pipeline::job::{Job, StageName};
use briscola::pipeline::job_command::{JobRunOutcome, run_one_job, run_wave_task};
use briscola::pipeline::layout::Layout;
use briscola::pipeline::plan::plan;
use briscola::pipeline::run_mutex::{RunMutex, WaitPolicy};
use briscola::pipeline::runner::{
    JobReport, Outcome, RunObserver, RunOptions, RunReport, RunStatus, Runner, last_run_remote_jobs,
};
use briscola::pipeline::slurm_executor::SlurmExecutor;
use briscola::pipeline::verify::verify;

use error::{CliError, report};
pub use error::{EXIT_CODES, Exit};

/// briscola: the Giacomelli (2026) Briscola study as a reproducible, cached stage pipeline.
#[derive(Debug, Parser)]
#[command(name = "briscola", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the pipeline: reuse what is cached, run what changed, check against the lock.
    #[command(after_help = EXIT_CODES)]
    Run(RunArgs),
    /// Say what `run` would do, and why, without running anything.
    #[command(after_help = EXIT_CODES)]
    Status(StatusArgs),
    /// Show the jobs stage by stage with their dependencies.
    #[command(after_help = EXIT_CODES)]
    Dag(DagArgs),
    /// Re-hash every published output against outputs/pipeline.lock, and every cached object.
    #[command(after_help = EXIT_CODES)]
    Verify(ConfigArgs),
    /// Delete cached objects and run records that neither the lock nor any job refers to.
    #[command(after_help = EXIT_CODES)]
    Gc(GcArgs),
    /// Play an ad-hoc tournament outside the pipeline into a directory of Parquet tables.
    #[command(after_help = EXIT_CODES)]
    Simulate(tournament::SimulateArgs),
    /// Export a tournament's trick log or game table as CSV or Parquet.
    #[command(after_help = EXIT_CODES)]
    Export(tournament::ExportArgs),
    /// Play a game against a policy in the terminal (or from --moves); saves a game record.
    #[command(after_help = EXIT_CODES)]
    Play(play::PlayArgs),
    /// Show a study's game or a saved record trick by trick, with the rule behind each play.
    #[command(after_help = EXIT_CODES)]
    Replay(play::ReplayArgs),
    /// The web table: play 2, 3, 4 or 6 players against any policy in a browser.
    #[command(after_help = EXIT_CODES)]
    Serve(serve::ServeArgs),
    /// One job of the plan (what the Slurm executor runs on a node).
    #[command(subcommand)]
    Job(JobCommand),
    /// List the built-in policy definitions, or print a policy as the engine understands it.
    #[command(after_help = EXIT_CODES)]
    Policies(policies::PoliciesArgs),
    /// Can a player win k tricks (or p points) from a position? A witness line; for two
    /// players with open hands, the minimax value.
    #[command(after_help = EXIT_CODES)]
    Solve(solve::SolveArgs),
    /// Solve a reduced two-player Briscola exactly (CFR+): its value, an equilibrium's
    /// exploitability, and how exploitable greedy, hoarder and counter are in it.
    #[command(after_help = EXIT_CODES)]
    SolveGame(solve_game::SolveGameArgs),
}

/// `job ...`
#[derive(Debug, Subcommand)]
pub enum JobCommand {
    /// Run one job into the content store and record it (its dependencies must be complete);
    /// `briscola run` then publishes it and updates the lock.
    #[command(after_help = EXIT_CODES)]
    Run(JobRunArgs),
}

/// `job run`
#[derive(Debug, Args)]
pub struct JobRunArgs {
    /// The job's id, as `briscola dag` lists it (e.g. `simulate/paper/greedy-vs-hoarder`).
    #[arg(required_unless_present = "wave", conflicts_with = "wave")]
    pub job_id: Option<String>,
    #[command(flatten)]
    config: ConfigArgs,
    /// Fail unless the job's cache key is this (the submitting run passes the key it computed).
    #[arg(long, value_name = "KEY", conflicts_with = "wave")]
    pub expect_key: Option<String>,
    /// Run the jobs of one task of a Slurm wave file (what the Slurm executor submits as a job
    /// array): the task is `SLURM_ARRAY_TASK_ID`, each job checked against the key in the file.
    #[arg(long, value_name = "FILE")]
    pub wave: Option<PathBuf>,
}

/// Where `run` executes jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExecutorArg {
    /// in this process (the default)
    Local,
    /// as Slurm jobs submitted with sbatch (see the README)
    Slurm,
}

/// `--config`
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// The study file; outputs go to `outputs/` beside it.
    #[arg(long, value_name = "FILE", default_value = "pipeline.toml")]
    pub config: PathBuf,
}

/// `gc`
#[derive(Debug, Args)]
pub struct GcArgs {
    #[command(flatten)]
    config: ConfigArgs,
    /// List every record and object removed (by default only the summary is printed).
    #[arg(long, short)]
    pub verbose: bool,
}

/// `run`
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    config: ConfigArgs,
    /// Re-run even if cached: every job of a stage (simulate, aggregate, test, regress, league,
    /// plot, render), one job (`league/agents`, `sweep/eps-greedy`) or every job under an id
    /// prefix (`simulate/four-player`); repeatable.
    #[arg(long, value_name = "STAGE|JOB")]
    pub force: Vec<String>,
    /// Say what would run and why; run and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// If another run holds the outputs, fail (exit 5) instead of waiting.
    #[arg(long)]
    pub no_wait: bool,
    /// Where jobs execute; overrides `[executor] kind` of the config.
    #[arg(long, value_enum, value_name = "KIND")]
    pub executor: Option<ExecutorArg>,
    /// Local jobs run at once (default: the machine's cores); the outputs and the lock are the
    /// same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
}

/// `status`
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    config: ConfigArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `dag`
#[derive(Debug, Args)]
pub struct DagArgs {
    #[command(flatten)]
    config: ConfigArgs,
    /// Print a Mermaid flowchart instead of text.
    #[arg(long)]
    pub mermaid: bool,
}

/// The environment variable that picks the engine's SIMD path for the whole process:
/// `scalar`, `avx2` or `avx512` (default: the best this CPU runs). Every path plays the same
/// games; the variable exists so tests and benchmarks can run each path a machine has.
pub const ENGINE_VAR: &str = "BRISCOLA_ENGINE";

/// Apply [`ENGINE_VAR`] when set (empty: unset); a name that is no path's, or a path this CPU
/// cannot run, is a usage error naming the variable and what would be valid.
fn select_engine_from_env() -> Result<(), CliError> {
    let Some(value) = std::env::var_os(ENGINE_VAR) else {
        return Ok(());
    };
    let value = value.to_string_lossy();
    if value.is_empty() {
        return Ok(());
    }
    let bad =
        |e: briscola::game::EnginePathError| CliError::Usage(format!("{ENGINE_VAR}={value}: {e}"));
    let path: briscola::game::EnginePath = value.parse().map_err(bad)?;
    briscola::game::select_engine_path(path).map_err(bad)
}

/// Run a parsed command; returns the exit code.
pub fn execute(cli: Cli) -> Exit {
    let code = run_command(cli);
    match error::stdout_failure() {
        Some(e) if code == Exit::Ok => {
            errln!("error: cannot write to standard output: {e}");
            Exit::StageFailed
        }
        _ => code,
    }
}

/// The command's own exit code (before standard output's last flush).
fn run_command(cli: Cli) -> Exit {
    if let Err(e) = select_engine_from_env() {
        return report(&e);
    }
    let result = match cli.command {
        Command::Run(a) => cmd_run(a),
        Command::Status(a) => cmd_status(a),
        Command::Dag(a) => cmd_dag(a),
        Command::Verify(a) => cmd_verify(a),
        Command::Gc(a) => cmd_gc(a),
        Command::Simulate(a) => tournament::simulate(a),
        Command::Export(a) => tournament::export(a),
        Command::Serve(a) => serve::serve(a),
        Command::Job(JobCommand::Run(a)) => cmd_job_run(a),
        Command::Play(a) if play::wants_table(&a) => return play_table::play_table(a),
        Command::Play(a) => return play::play(a),
        Command::Replay(a) => return play::replay(a),
        Command::Policies(a) => return policies::policies(a),
        Command::Solve(a) => return solve::solve(a),
        Command::SolveGame(a) => return solve_game::solve_game(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => report(&e),
    }
}

/// The `--force` values that are not stage names: each a job id of the plan or a prefix of
/// some (`simulate/four-player`), else a usage error saying what is valid.
fn force_jobs(values: &[String], plan: &[Job]) -> Result<BTreeSet<String>, CliError> {
    let mut out = BTreeSet::new();
    for v in values {
        if StageName::parse(v).is_some() {
            continue;
        }
        let v = v.trim_end_matches('/');
        let prefix = format!("{v}/");
        if !plan.iter().any(|j| j.id == v || j.id.starts_with(&prefix)) {
            let stages: Vec<&str> = StageName::ALL.iter().map(|s| s.as_str()).collect();
            return Err(CliError::Usage(format!(
                "--force {v}: no stage and no job of that name; give a stage ({}), a job id as `briscola dag` lists it (e.g. league/agents) or an id prefix (e.g. simulate/paper)",
                stages.join(", ")
            )));
        }
        out.insert(v.to_string());
    }
    Ok(out)
}

fn load(config: &Path) -> Result<(Config, Vec<Job>, Layout), CliError> {
    let cfg = Config::load(config)?;
    let jobs = plan(&cfg)?;
    let layout = Layout::for_config(config);
    if let Some(problem) = layout.shape_problem() {
        return Err(CliError::Runtime(problem));
    }
    Ok((cfg, jobs, layout))
}

/// Prints each job's line as it finishes.
struct Printer;

impl RunObserver for Printer {
    fn waiting_for_lock(&mut self, holder: &str) {
        errln!(
            "waiting: another run holds the outputs ({holder}); it will start when that run ends"
        );
    }
    fn job_finished(&mut self, report: &JobReport) {
        let mut out = std::io::stdout().lock();
        error::note_stdout(writeln!(out, "{}", report.line()).and_then(|()| out.flush()));
    }
}

fn print_notes(report: &RunReport) {
    let mut notes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for j in &report.jobs {
        if let Some(n) = &j.note {
            notes.entry(n.as_str()).or_default().push(&j.id);
        }
    }
    for (note, ids) in notes {
        let who = match ids.as_slice() {
            [one] => one.to_string(),
            [first, rest @ ..] => format!("{first} and {} more", rest.len()),
            [] => continue,
        };
        outln!("note ({who}): {note}");
    }
}

fn print_repro(report: &RunReport, lock: &Path) {
    if report.repro_failures.is_empty() {
        return;
    }
    errln!(
        "error: reproducibility failure: {} output(s) differ from {} although their cache keys are unchanged:",
        report.repro_failures.len(),
        lock.display()
    );
    for f in &report.repro_failures {
        errln!("  {f}");
    }
    if report.dry_run {
        errln!("(dry run: nothing was written)");
    } else {
        errln!(
            "The lock was not updated. If the change is intended (e.g. a fix that did not change the code fingerprint), delete those jobs' entries from {} and run again.",
            lock.display()
        );
    }
}

fn status_exit(report: &RunReport) -> Exit {
    match report.status() {
        RunStatus::Ok => Exit::Ok,
        RunStatus::StageFailed => Exit::StageFailed,
        RunStatus::Reproducibility => Exit::Reproducibility,
    }
}

fn cmd_run(a: RunArgs) -> Result<Exit, CliError> {
    let (cfg, jobs, layout) = load(&a.config.config)?;
    let opts = RunOptions {
        force: a.force.iter().filter_map(|s| StageName::parse(s)).collect(),
        force_jobs: force_jobs(&a.force, &jobs)?,
        dry_run: a.dry_run,
        wait: if a.no_wait {
            WaitPolicy::NoWait
        } else {
            WaitPolicy::Wait
        },
        command: format!("briscola run --config {}", a.config.config.display()),
    };
    let runner = Runner::new(layout.clone());
    let kind = match a.executor {
        Some(ExecutorArg::Slurm) => ExecutorKind::Slurm,
        Some(ExecutorArg::Local) => ExecutorKind::Local,
        None => cfg.executor.kind,
    };
    let report = if kind == ExecutorKind::Slurm && !a.dry_run {
        let interrupted = SlurmExecutor::cancel_on_signals()?;
        let mut slurm = SlurmExecutor::new(
            &cfg.executor,
            &a.config.config,
            &layout.slurm_logs(),
            interrupted,
        )?;
        runner.run_on(&jobs, &opts, &mut slurm, &mut Printer)?
    } else {
        let n = a.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        );
        runner.run_jobs(&jobs, &opts, n, &mut Printer)?
    };
    if a.dry_run {
        print_notes(&report);
    } else if report.status() == RunStatus::Ok {
        let dir = a.config.config.parent().unwrap_or(Path::new("."));
        let git = briscola::pipeline::git_provenance::GitProvenance::of(dir, &opts.command);
        if let Err(e) = git.write(&layout.run_provenance()) {
            errln!("warning: could not record the git state: {e}");
        }
    }
    outln!("{}", report.summary());
    if let Some(f) = report.jobs.iter().find(|j| j.outcome == Outcome::Failed) {
        errln!(
            "error: job {} failed: {}",
            f.id,
            f.error.as_deref().unwrap_or("unknown error")
        );
    }
    print_repro(&report, &layout.lock_file());
    Ok(status_exit(&report))
}

fn cmd_status(a: StatusArgs) -> Result<Exit, CliError> {
    let (_cfg, jobs, layout) = load(&a.config.config)?;
    let runner = Runner::new(layout.clone());
    let report = runner.status(&jobs, &BTreeSet::new())?;
    if a.json {
        let jobs_json: Vec<serde_json::Value> = report
            .jobs
            .iter()
            .map(|j| {
                serde_json::json!({
                    "id": j.id,
                    "stage": j.stage,
                    "outcome": j.outcome,
                    "reasons": j.reasons.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "reason_details": j.reasons,
                    "note": j.note,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "jobs": jobs_json,
            "cached": report.count(Outcome::Cached),
            "would_run": report.count(Outcome::WouldRun),
            "reproducibility_failures": report.repro_failures.iter().map(ToString::to_string).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        for j in &report.jobs {
            outln!("{}", j.line());
        }
        print_notes(&report);
        outln!("{}", report.summary());
        for (job, r) in last_run_remote_jobs(&layout) {
            outln!(
                "last run: {job} ran as {} job {} ({}), log {}",
                r.executor,
                r.id,
                r.state.as_deref().unwrap_or("state unknown"),
                r.log.display()
            );
        }
    }
    print_repro(&report, &layout.lock_file());
    Ok(status_exit(&report))
}

fn cmd_job_run(a: JobRunArgs) -> Result<Exit, CliError> {
    let (_cfg, jobs, layout) = load(&a.config.config)?;
    if let Some(wave) = &a.wave {
        let task = std::env::var("SLURM_ARRAY_TASK_ID").ok();
        let task = task.as_deref().and_then(|t| t.parse::<usize>().ok()).ok_or_else(|| {
            CliError::Usage(format!(
                "job run --wave {}: SLURM_ARRAY_TASK_ID is {}; it must be the array task's index (0, 1, ...), as Slurm sets it",
                wave.display(),
                task.as_deref().map_or("not set".to_string(), |t| format!("`{t}`"))
            ))
        })?;
        run_wave_task(&jobs, &layout, wave, task, |id, result| match result {
            None => outln!("job {id}: starting (wave {}, task {task})", wave.display()),
            Some(Ok(done)) => print_job_run(id, done),
            Some(Err(e)) => outln!("FAILED  {id}: {e}"),
        })?;
        return Ok(Exit::Ok);
    }
    let id = a.job_id.as_deref().unwrap_or_default();
    let done = run_one_job(&jobs, &layout, id, a.expect_key.as_deref())?;
    print_job_run(id, &done);
    Ok(Exit::Ok)
}

/// The line `job run` prints for a job that ran or was already done.
fn print_job_run(id: &str, done: &JobRunOutcome) {
    outln!(
        "{} {}  key {}  ({} outputs stored and recorded)",
        if done.already_done {
            "cached "
        } else {
            "ran    "
        },
        id,
        done.key,
        done.outputs.len()
    );
}

fn cmd_dag(a: DagArgs) -> Result<Exit, CliError> {
    // The plan alone: dag reads nothing under outputs/.
    let jobs = plan(&Config::load(&a.config.config)?)?;
    let dag = Dag::new(&jobs);
    out!(
        "{}",
        if a.mermaid {
            dag.to_mermaid()
        } else {
            dag.to_text()
        }
    );
    Ok(Exit::Ok)
}

fn take_mutex(layout: &Layout, command: &str) -> Result<RunMutex, CliError> {
    Ok(RunMutex::acquire(
        &layout.run_mutex(),
        command,
        WaitPolicy::Wait,
        &mut |h| Printer.waiting_for_lock(h),
    )?)
}

fn cmd_verify(a: ConfigArgs) -> Result<Exit, CliError> {
    let (_cfg, jobs, layout) = load(&a.config)?;
    let lock = layout.lock_file();
    // Nothing run here yet: one sentence, not a line per job, and no `outputs/` made (the
    // mutex's file would be its first entry).
    if !lock.exists() {
        errln!(
            "error: verify: there is no {} to check against (nothing has been run with this config here); `briscola run` writes it",
            lock.display()
        );
        return Ok(Exit::VerifyFailed);
    }
    // Shared: verify writes nothing, so it runs on a read-only tree and beside other verifies.
    let _m = RunMutex::acquire_shared(&layout.run_mutex(), WaitPolicy::Wait, &mut |h| {
        Printer.waiting_for_lock(h)
    })?;
    let report = verify(&layout, &jobs)?;
    for p in &report.problems {
        outln!("{p}");
    }
    if report.dangling_records > 0 {
        outln!(
            "note: {} run record(s) name objects no longer in the store; those jobs will re-run if needed",
            report.dangling_records
        );
    }
    if report.ok() {
        outln!(
            "verify: ok: {} published files match {}, {} cached objects intact",
            report.files_checked,
            lock.display(),
            report.objects_checked
        );
        Ok(Exit::Ok)
    } else {
        errln!(
            "error: verify found {} problem(s) ({} published files and {} cached objects checked against {}); `briscola run` restores or rebuilds them",
            report.problems.len(),
            report.files_checked,
            report.objects_checked,
            lock.display()
        );
        Ok(Exit::VerifyFailed)
    }
}

fn cmd_gc(a: GcArgs) -> Result<Exit, CliError> {
    let config = &a.config.config;
    let (_cfg, jobs, layout) = load(config)?;
    let m = take_mutex(
        &layout,
        &format!("briscola gc --config {}", config.display()),
    )?;
    let ids: BTreeSet<String> = jobs.iter().map(|j| j.id.clone()).collect();
    let report = collect_garbage(&layout, Some(&ids), &m)?;
    if a.verbose {
        for j in &report.job_records_removed {
            outln!("removed job record {j} (no longer in the plan)");
        }
        for k in &report.runs_removed {
            outln!("removed run record {k}");
        }
        for (h, size) in &report.objects_removed {
            outln!("removed object {h} ({size} bytes)");
        }
    }
    outln!(
        "gc: removed {} object(s), {} freed ({} bytes); {} run record(s), {} job record(s); kept {} object(s){}",
        report.objects_removed.len(),
        human_bytes(report.bytes_freed()),
        report.bytes_freed(),
        report.runs_removed.len(),
        report.job_records_removed.len(),
        report.objects_kept,
        if a.verbose
            || report.objects_removed.is_empty()
                && report.runs_removed.is_empty()
                && report.job_records_removed.is_empty()
        {
            ""
        } else {
            " (--verbose lists them)"
        }
    );
    Ok(Exit::Ok)
}

/// Bytes for a reader: `512 B`, `3.4 MiB`.
fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}
