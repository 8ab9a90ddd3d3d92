//! Shared helpers for the integration tests: run the real `briscola` binary in a directory,
//! write config files, and read its per-job report lines.
//!
//! Invariant: every helper works in a directory the caller owns (a fresh temporary directory
//! from [`study`]), never in the checkout.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A small valid study: a `chacha` main study with three policies and no variants, so every
/// matchup is its own shard (9 simulate + 9 aggregate + test + regress + plot + render jobs).
pub const BASE_CONFIG: &str = r#"[study]
title = "integration test study"
name = "paper"
published = "templates/published.toml"

[simulate]
deal_source = "chacha"
seed = 7
games = 900
policies = ["greedy", "hoarder", "counter"]

[policies.greedy]
kind = "greedy"

[policies.hoarder]
kind = "hoarder"
threshold = 10

[policies.counter]
kind = "counter"
threshold = 10

[test]
confidence = 0.95
family_alpha = 0.05
baseline = ["greedy", "greedy"]
power_delta = 0.01
power_n = 110000

[regress]
reference_policy = "greedy"
confidence = 0.95

[plot]
min_games_per_bin = 5

[render]
formats = ["html", "md"]
"#;

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_briscola")
}

/// A command for `briscola args...` run in `dir` with the test hooks cleared.
pub fn command(args: &[&str], dir: &Path) -> Command {
    let mut c = Command::new(bin());
    c.args(args)
        .current_dir(dir)
        .env_remove("BRISCOLA_TEST_SLEEP_MS")
        .env_remove("BRISCOLA_TEST_SLEEP_STAGE")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null());
    c
}

/// Run `briscola args...` in `dir` and wait for it.
pub fn briscola(args: &[&str], dir: &Path) -> Output {
    briscola_env(args, dir, &[])
}

/// Like [`briscola`] with extra environment variables.
pub fn briscola_env(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    let mut c = command(args, dir);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("cannot start the briscola binary")
}

/// Write `text` as `dir/pipeline.toml`; returns its path.
pub fn write_config(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("pipeline.toml");
    fs::write(&p, text).expect("cannot write config");
    p
}

/// A fresh temp dir holding `text` as pipeline.toml, with the project's `templates/` beside it
/// (the report templates and the paper's published figures).
pub fn study(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write_config(dir.path(), text);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&root.join("templates"), &dir.path().join("templates"));
    // A study that plays a shipped network (the committed file's `briscolabot`) finds it, as
    // beside the committed file, under `models/`.
    if text.contains("models/") {
        for e in fs::read_dir(root.join("models")).expect("models/") {
            let e = e.expect("entry");
            if e.path().is_dir() {
                copy_dir(&e.path(), &dir.path().join("models").join(e.file_name()));
            }
        }
    }
    dir
}

/// Copy the files of `from` (not recursive) into a new directory `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("create dir");
    for e in fs::read_dir(from).expect("read dir") {
        let e = e.expect("entry");
        if e.path().is_file() {
            fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code (None if killed by a signal).
pub fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

/// Assert exit code `want`, showing the output otherwise.
pub fn assert_exit(o: &Output, want: i32) {
    assert_eq!(
        code(o),
        Some(want),
        "exit code\n--- stdout\n{}\n--- stderr\n{}",
        stdout(o),
        stderr(o)
    );
}

/// One per-job report line: outcome, job id, reasons text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobLine {
    pub outcome: String,
    pub id: String,
    pub reasons: String,
}

/// The per-job lines of a `run` / `status` report.
pub fn job_lines(out: &str) -> Vec<JobLine> {
    out.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let outcome = it.next()?;
            if !["cached", "ran", "would-run", "FAILED", "skipped"].contains(&outcome) {
                return None;
            }
            let id = it.next()?.to_string();
            let reasons = match (l.find("  ("), l.rfind(')')) {
                (Some(a), Some(b)) if b > a => l[a + 3..b].to_string(),
                _ => String::new(),
            };
            Some(JobLine {
                outcome: outcome.to_string(),
                id,
                reasons,
            })
        })
        .collect()
}

/// Ids of the jobs with `outcome`.
pub fn with_outcome(out: &str, outcome: &str) -> BTreeSet<String> {
    job_lines(out)
        .into_iter()
        .filter(|j| j.outcome == outcome)
        .map(|j| j.id)
        .collect()
}

/// job id -> reasons text.
pub fn reasons(out: &str) -> BTreeMap<String, String> {
    job_lines(out)
        .into_iter()
        .map(|j| (j.id, j.reasons))
        .collect()
}

/// `dir/outputs/pipeline.lock` as text.
pub fn lock_text(dir: &Path) -> String {
    fs::read_to_string(dir.join("outputs/pipeline.lock")).expect("pipeline.lock missing")
}

/// The lock parsed: job id -> (key, output name -> sha256).
pub fn lock_entries(dir: &Path) -> BTreeMap<String, (String, BTreeMap<String, String>)> {
    let v: toml::Value = toml::from_str(&lock_text(dir)).expect("lock is not TOML");
    let mut out = BTreeMap::new();
    if let Some(jobs) = v.get("jobs").and_then(|j| j.as_table()) {
        for (id, e) in jobs {
            let key = e
                .get("key")
                .and_then(|k| k.as_str())
                .unwrap_or("")
                .to_string();
            let outputs = e
                .get("outputs")
                .and_then(|o| o.as_table())
                .map(|t| {
                    t.iter()
                        .map(|(n, h)| (n.clone(), h.as_str().unwrap_or("").to_string()))
                        .collect()
                })
                .unwrap_or_default();
            out.insert(id.clone(), (key, outputs));
        }
    }
    out
}

/// The ordered matchup names of `policies` (row-major).
pub fn matchups(policies: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    for a in policies {
        for b in policies {
            v.push(format!("{a}-vs-{b}"));
        }
    }
    v
}

/// Every file under `dir/outputs/` except the cache and the lock, relative, sorted.
pub fn published_files(dir: &Path) -> Vec<String> {
    let root = dir.join("outputs");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == ".cache" || rel == "pipeline.lock" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// `briscola simulate args... --out out` run in `dir`, asserting success.
pub fn simulate_into(dir: &Path, out: &Path, args: &[&str], env: &[(&str, &str)]) {
    let out_s = out.to_str().expect("utf-8 path");
    let mut all: Vec<&str> = vec!["simulate"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out_s]);
    assert_exit(&briscola_env(&all, dir, env), 0);
}

/// sha256 (hex) of every file under `root`, keyed by its path relative to `root`.
pub fn file_hashes(root: &Path) -> BTreeMap<String, String> {
    use sha2::{Digest, Sha256};
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).expect("read dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                let bytes = fs::read(&p).expect("read file");
                out.insert(rel, hex::encode(Sha256::digest(&bytes)));
            }
        }
    }
    out
}

/// Debian's headless browser, for the report and web-table tests (they skip without it).
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Headless Chromium on `url` with a fresh profile in `profile`, no network beyond the URL,
/// and `extra` flags (e.g. `--dump-dom`).
pub fn chromium(profile: &Path, extra: &[&str], url: &str) -> Output {
    let profile_arg = format!("--user-data-dir={}", profile.display());
    let mut args = vec![
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        profile_arg.as_str(),
    ];
    args.extend_from_slice(extra);
    args.push(url);
    Command::new(CHROMIUM)
        .args(&args)
        .output()
        .expect("run chromium")
}

/// One tmux command; its standard output.
pub fn tmux(args: &[&str]) -> String {
    let o = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The person's moves in the terminal-game tests: always the first card of the hand.
pub struct FirstCard;
impl briscola::game::Policy for FirstCard {
    fn choose(&self, _: &briscola::game::SeatView<'_>, _: &mut briscola::game::SeatRng) -> usize {
        0
    }
}
