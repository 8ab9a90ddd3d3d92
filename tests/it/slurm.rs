//! The Slurm executor end to end, on a one-node Slurm cluster started on this machine from
//! Debian's slurm-wlm 22.05 and munge (`tests/it/slurm/cluster.sh`): a small ChaCha study run
//! through Slurm gives the same lock, byte for byte, as a local run; a second run submits
//! nothing; a job cancelled with `scancel` mid-run fails the run naming the job and its log,
//! and the next run resubmits only what is missing and ends with the same lock.
//!
//! Invariant: every test that starts the cluster stops it (a guard's `Drop`), and the tests
//! print a line starting `SKIPPED:` (stdout and stderr) when the cluster cannot start here.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::common::{
    BASE_CONFIG, assert_exit, briscola_env, code, command, lock_text, stderr, stdout, study,
    with_outcome,
};

/// The tests share the cluster's ports: one at a time.
static ONE_CLUSTER: Mutex<()> = Mutex::new(());

/// A running one-node cluster; stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
}

impl Cluster {
    fn script() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/slurm/cluster.sh")
    }

    /// Start it, or say loudly why not and return `None`.
    fn start(test: &str) -> Option<Cluster> {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = Command::new(Self::script())
            .arg("start")
            .arg(dir.path())
            .stdin(Stdio::null())
            .output();
        let cluster = Cluster { dir };
        match out {
            Ok(o) if o.status.success() => Some(cluster),
            Ok(o) => {
                let why = String::from_utf8_lossy(&o.stderr).trim().to_string();
                println!("SKIPPED: {test}: the Slurm test cluster cannot start here: {why}");
                eprintln!("SKIPPED: {test}: the Slurm test cluster cannot start here: {why}");
                None
            }
            Err(e) => {
                println!(
                    "SKIPPED: {test}: cannot run {}: {e}",
                    Self::script().display()
                );
                eprintln!(
                    "SKIPPED: {test}: cannot run {}: {e}",
                    Self::script().display()
                );
                None
            }
        }
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// Every job id the controller knows (finished ones included).
    fn job_ids(&self) -> Vec<String> {
        let o = Command::new("squeue")
            .args(["--noheader", "--states=all", "--format=%i"])
            .env("SLURM_CONF", self.conf())
            .output()
            .expect("squeue");
        stdout(&o).lines().map(|l| l.trim().to_string()).collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(Self::script())
            .arg("stop")
            .arg(self.dir.path())
            .stdin(Stdio::null())
            .status();
    }
}

/// The test study: two policies, so 4 simulate + 4 aggregate + test, regress, plot, render.
fn config(executor: &str) -> String {
    let base = BASE_CONFIG.replace(
        r#"policies = ["greedy", "hoarder", "counter"]"#,
        r#"policies = ["greedy", "hoarder"]"#,
    );
    format!("{base}\n{executor}")
}

/// The lock of the same study run locally.
fn local_lock() -> String {
    let dir = study(&config(""));
    let o = briscola_env(&["run"], dir.path(), &[]);
    assert_exit(&o, 0);
    lock_text(dir.path())
}

#[test]
fn a_study_run_on_slurm_gives_the_local_lock_and_a_second_run_submits_nothing() {
    let _one = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(cluster) = Cluster::start("slurm lock test") else {
        return;
    };
    let want = local_lock();
    // The executor section differs from the local study's: it must not move any key.
    let dir = study(&config(
        "[executor]\nkind = \"slurm\"\npoll_seconds = 0.3\nmax_jobs = 4\ntime = \"10:00\"\n",
    ));
    let conf = cluster.conf();
    let env = [("SLURM_CONF", conf.to_str().unwrap())];
    let o = briscola_env(&["run"], dir.path(), &env);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert_eq!(with_outcome(&out, "ran").len(), 12, "{out}");
    assert_eq!(out.matches("[slurm job ").count(), 12, "{out}");
    // Each wave of ready jobs is one job array (`[slurm job ARRAY_TASK]`): fewer arrays than
    // jobs (the four simulate jobs are one wave).
    let arrays: std::collections::BTreeSet<&str> = out
        .split("[slurm job ")
        .skip(1)
        .filter_map(|rest| rest.split('_').next())
        .collect();
    assert!(
        arrays.len() < 12,
        "{} arrays for 12 jobs\n{out}",
        arrays.len()
    );
    assert_eq!(lock_text(dir.path()), want, "Slurm and local locks differ");
    // Slurm's ids and logs are recorded outside the hashed outputs.
    let last = fs::read_to_string(dir.path().join("outputs/.cache/last-run.json")).unwrap();
    assert!(last.contains("\"executor\": \"slurm\""), "{last}");
    let lock = lock_text(dir.path());
    assert!(!lock.contains("slurm"), "{lock}");
    let st = briscola_env(&["status"], dir.path(), &env);
    assert_exit(&st, 0);
    assert_eq!(
        stdout(&st).matches("last run: ").count(),
        12,
        "{}",
        stdout(&st)
    );
    assert!(stdout(&st).contains("COMPLETED"), "{}", stdout(&st));

    let before = cluster.job_ids();
    let o = briscola_env(&["run"], dir.path(), &env);
    assert_exit(&o, 0);
    assert_eq!(
        with_outcome(&stdout(&o), "cached").len(),
        12,
        "{}",
        stdout(&o)
    );
    assert_eq!(cluster.job_ids(), before, "the second run submitted jobs");
    assert_eq!(lock_text(dir.path()), want);
}

/// Wait until an aggregate job is running on the node and asleep between storing its objects
/// and writing its record; returns its Slurm task id (`ARRAY_TASK`), read off the name of the
/// log whose task names the job (`job run --wave` prints each job as it starts).
fn sleeping_aggregate_job(cluster: &Cluster, logs: &Path, deadline: Instant) -> Option<String> {
    while Instant::now() < deadline {
        let o = Command::new("squeue")
            .args(["--noheader", "--array", "--states=RUNNING", "--format=%i"])
            .env("SLURM_CONF", cluster.conf())
            .output()
            .expect("squeue");
        for id in stdout(&o).lines().map(str::trim) {
            let log = logs.join(format!("wave.{id}.log"));
            let text = fs::read_to_string(&log).unwrap_or_default();
            if text.contains("job aggregate/") && text.contains("BRISCOLA_TEST_SLEEP_MS: sleeping")
            {
                return Some(id.to_string());
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    None
}

#[test]
fn a_job_cancelled_mid_run_fails_the_run_clearly_and_the_next_run_completes_it() {
    let _one = ONE_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(cluster) = Cluster::start("slurm scancel test") else {
        return;
    };
    let want = local_lock();
    // Local by default; `--executor slurm` overrides. One job in flight at a time.
    let dir = study(&config(
        "[executor]\nkind = \"local\"\npoll_seconds = 0.3\nmax_jobs = 1\n",
    ));
    let conf = cluster.conf();
    let mut child = command(&["run", "--executor", "slurm"], dir.path())
        .env("SLURM_CONF", &conf)
        .env("BRISCOLA_TEST_SLEEP_MS", "60000")
        .env("BRISCOLA_TEST_SLEEP_STAGE", "aggregate")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn briscola");
    let logs = dir.path().join("outputs/.cache/slurm");
    let victim = sleeping_aggregate_job(&cluster, &logs, Instant::now() + Duration::from_secs(300));
    let Some(victim) = victim else {
        let _ = child.kill();
        let o = child.wait_with_output().unwrap();
        panic!(
            "no aggregate job reached its sleep\n--- stdout\n{}\n--- stderr\n{}",
            stdout(&o),
            stderr(&o)
        );
    };
    let s = Command::new("scancel")
        .arg(&victim)
        .env("SLURM_CONF", &conf)
        .status()
        .expect("scancel");
    assert!(s.success());
    let o = child.wait_with_output().unwrap();
    assert_exit(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("error: job aggregate/paper/"), "{err}");
    assert!(
        err.contains(&format!("Slurm job {victim} ended CANCELLED")),
        "{err}"
    );
    assert!(err.contains(&format!(".{victim}.log")), "{err}");
    // One task a wave (max_jobs = 1): the cancelled task held every aggregate job, none of
    // which had written its record.
    let failed = with_outcome(&stdout(&o), "FAILED");
    assert!(!failed.is_empty(), "{}", stdout(&o));
    assert!(
        failed.iter().all(|j| j.starts_with("aggregate/")),
        "{}",
        stdout(&o)
    );
    let completed = with_outcome(&stdout(&o), "ran");
    assert!(!completed.is_empty(), "{}", stdout(&o));

    // The next run (no sleep) resubmits only what is missing: the cancelled job was never
    // recorded, so it runs again; nothing that completed runs twice.
    let o = briscola_env(
        &["run", "--executor", "slurm"],
        dir.path(),
        &[("SLURM_CONF", conf.to_str().unwrap())],
    );
    assert_exit(&o, 0);
    let out = stdout(&o);
    let ran = with_outcome(&out, "ran");
    assert!(failed.iter().all(|j| ran.contains(j)), "{out}");
    assert_eq!(
        with_outcome(&out, "cached").len() + with_outcome(&out, "ran").len(),
        12,
        "{out}"
    );
    assert_eq!(with_outcome(&out, "cached"), completed, "{out}");
    assert_eq!(
        lock_text(dir.path()),
        want,
        "the lock after the cancelled run differs from a local run's"
    );
}

/// When sbatch refuses a job, the run submits no more (issue 26: it went on submitting all 56
/// jobs): one refusal, the other jobs skipped, the failure named. Needs no cluster: a fake
/// `sbatch` on PATH that always refuses and counts its calls.
#[test]
fn a_refused_submission_stops_the_submitting() {
    let dir = study(BASE_CONFIG);
    let p = dir.path();
    let bin = p.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let calls = p.join("sbatch-calls");
    let script = format!(
        "#!/bin/sh\necho call >> {}\necho 'sbatch: error: invalid partition specified: nope' >&2\nexit 1\n",
        calls.display()
    );
    std::fs::write(bin.join("sbatch"), script).unwrap();
    std::fs::set_permissions(
        bin.join("sbatch"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = briscola_env(
        &["run", "--executor", "slurm"],
        p,
        &[("PATH", path.as_str())],
    );
    assert_ne!(code(&o), Some(0), "{}", stdout(&o));
    let n = std::fs::read_to_string(&calls)
        .unwrap_or_default()
        .lines()
        .count();
    assert_eq!(n, 1, "sbatch called {n} times");
    let out = stdout(&o) + &stderr(&o);
    assert!(out.contains("invalid partition"), "{out}");
}

/// The job-id and cache-key of every job of a run's lock (`[jobs."ID"]` then `key = "..."`).
fn lock_keys(lock: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut id = None;
    for line in lock.lines() {
        if let Some(rest) = line.strip_prefix("[jobs.\"")
            && let Some(j) = rest.strip_suffix("\"]")
        {
            id = Some(j.to_string());
        } else if let (Some(j), Some(k)) = (&id, line.strip_prefix("key = \""))
            && let Some(k) = k.strip_suffix('"')
        {
            out.push((j.clone(), k.to_string()));
            id = None;
        }
    }
    out
}

/// `job run --wave` (what each array task runs) without a cluster: a task runs its own jobs
/// only, in order; a job whose key differs fails alone (the other still runs) and the task
/// exits 1 naming how many failed; a damaged wave file, a task past its last, and a missing
/// SLURM_ARRAY_TASK_ID are exit 2 with a sentence.
#[test]
fn a_wave_task_runs_its_jobs_and_reports_each_failure() {
    let dir = study(&config(""));
    let p = dir.path();
    assert_exit(&briscola_env(&["run"], p, &[]), 0);
    let keys = lock_keys(&lock_text(p));
    let sims: Vec<&(String, String)> = keys
        .iter()
        .filter(|(j, _)| j.starts_with("simulate/"))
        .collect();
    assert_eq!(sims.len(), 4, "{keys:?}");
    let wave = p.join("wave.jobs");
    let header = "# briscola slurm wave v1: task<TAB>job<TAB>key\n";
    let text = format!(
        "{header}0\t{}\t{}\n1\t{}\t{}\n0\t{}\t{}\n",
        sims[0].0,
        "0".repeat(64),
        sims[1].0,
        sims[1].1,
        sims[2].0,
        sims[2].1
    );
    fs::write(&wave, text).unwrap();
    let w = wave.to_str().unwrap();
    let o = briscola_env(
        &["job", "run", "--wave", w],
        p,
        &[("SLURM_ARRAY_TASK_ID", "0")],
    );
    assert_exit(&o, 1);
    let out = stdout(&o);
    assert!(out.contains(&format!("FAILED  {}: ", sims[0].0)), "{out}");
    assert!(out.contains("cache key"), "{out}");
    assert!(out.contains(&format!("cached  {}", sims[2].0)), "{out}");
    assert!(!out.contains(&sims[1].0), "task 0 ran task 1's job\n{out}");
    assert!(
        stderr(&o).contains("1 of the 2 jobs of task 0"),
        "{}",
        stderr(&o)
    );
    let o = briscola_env(
        &["job", "run", "--wave", w],
        p,
        &[("SLURM_ARRAY_TASK_ID", "1")],
    );
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains(&format!("cached  {}", sims[1].0)),
        "{}",
        stdout(&o)
    );

    for (env, text, says) in [
        (Some("2"), None, "has tasks 0 to 1, not task 2"),
        (None, None, "SLURM_ARRAY_TASK_ID is not set"),
        (Some("x"), None, "SLURM_ARRAY_TASK_ID is `x`"),
        (Some("0"), Some("garbage\n"), "not a wave file"),
    ] {
        if let Some(t) = text {
            fs::write(&wave, t).unwrap();
        }
        let mut c = command(&["job", "run", "--wave", w], p);
        c.env_remove("SLURM_ARRAY_TASK_ID");
        if let Some(e) = env {
            c.env("SLURM_ARRAY_TASK_ID", e);
        }
        let o = c.output().unwrap();
        assert_exit(&o, 2);
        assert!(stderr(&o).contains(says), "{says}: {}", stderr(&o));
    }
}
