//! Snapshots (insta) of what the CLI prints: `briscola --help`, `briscola run --help`,
//! `briscola dag` on the common BASE_CONFIG study, and `briscola status` on that study before
//! and after a run. Reviewed snapshots live in tests/snapshots/.
//!
//! Deterministic by construction: commands run with the study's directory as the working
//! directory and a relative `--config`, so no temp path is printed; the one timing printed (the
//! summary line's elapsed seconds, e.g. `0.00s`) is redacted to `[elapsed]`.

use crate::common::*;

/// Replace a line-final elapsed time (`<digits>.<digits>s`) with `[elapsed]`.
fn redact_timings(text: &str) -> String {
    text.lines()
        .map(|l| {
            let cut = l.rfind([' ', ';']).map_or(0, |i| i + 1);
            let (head, last) = l.split_at(cut);
            let is_time = last
                .strip_suffix('s')
                .is_some_and(|n| n.contains('.') && n.parse::<f64>().is_ok());
            if is_time {
                format!("{head}[elapsed]\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

/// stdout of a successful `briscola args...` in `dir`, timings redacted, with no temp path.
fn printed(args: &[&str], dir: &std::path::Path) -> String {
    let o = briscola(args, dir);
    assert_exit(&o, 0);
    let text = stdout(&o);
    let tmp = dir.to_string_lossy();
    assert!(!text.contains(tmp.as_ref()), "prints a temp path:\n{text}");
    redact_timings(&text)
}

#[test]
fn redaction_touches_only_line_final_times() {
    assert_eq!(
        redact_timings(
            "22 jobs: 22 cached; dry run: nothing written; 0.00s\nran  x  (new job)  12.5s\n"
        ),
        "22 jobs: 22 cached; dry run: nothing written; [elapsed]\nran  x  (new job)  [elapsed]\n"
    );
    assert_eq!(
        redact_timings("plot (1 job)\n  render\n"),
        "plot (1 job)\n  render\n"
    );
}

#[test]
fn help() {
    let dir = tempfile::tempdir().unwrap();
    insta::assert_snapshot!("help", printed(&["--help"], dir.path()));
}

#[test]
fn run_help() {
    let dir = tempfile::tempdir().unwrap();
    insta::assert_snapshot!("run_help", printed(&["run", "--help"], dir.path()));
}

#[test]
fn dag_of_the_base_study() {
    let dir = study(BASE_CONFIG);
    insta::assert_snapshot!("dag", printed(&["dag"], dir.path()));
}

#[test]
fn status_before_and_after_a_run() {
    let dir = study(BASE_CONFIG);
    insta::assert_snapshot!("status_fresh", printed(&["status"], dir.path()));
    assert!(
        !dir.path().join("outputs/pipeline.lock").exists(),
        "status wrote the lock"
    );
    assert_exit(&briscola(&["run"], dir.path()), 0);
    insta::assert_snapshot!("status_after_run", printed(&["status"], dir.path()));
}
