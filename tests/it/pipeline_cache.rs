//! The runner through the real binary: caching, invalidation with reasons, early cutoff, the
//! lock's reproducibility check, corruption, interrupted runs and concurrent runs.
//!
//! Uses a small `chacha` study (see `crate::common::BASE_CONFIG`): 9 simulate shards, 9 aggregates,
//! test, regress, plot and render. No assertion depends on timing.

use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

use crate::common::*;

const POLICIES: [&str; 3] = ["greedy", "hoarder", "counter"];

fn run(dir: &Path) -> std::process::Output {
    briscola(&["run"], dir)
}

fn ids(stage: &str, policies: &[&str]) -> BTreeSet<String> {
    matchups(policies)
        .into_iter()
        .map(|m| format!("{stage}/paper/{m}"))
        .collect()
}

fn all_jobs(out: &str) -> BTreeSet<String> {
    job_lines(out).into_iter().map(|j| j.id).collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn second_run_runs_nothing_and_says_why() {
    let dir = study(BASE_CONFIG);
    let first = run(dir.path());
    assert_exit(&first, 0);
    let jobs = all_jobs(&stdout(&first));
    assert_eq!(jobs.len(), 22, "{}", stdout(&first));
    assert_eq!(with_outcome(&stdout(&first), "ran"), jobs);
    assert!(reasons(&stdout(&first)).values().all(|r| r == "new job"));
    let lock1 = lock_text(dir.path());

    let second = run(dir.path());
    assert_exit(&second, 0);
    let out = stdout(&second);
    assert!(with_outcome(&out, "ran").is_empty(), "{out}");
    assert_eq!(with_outcome(&out, "cached"), jobs);
    assert!(reasons(&out).values().all(|r| r == "unchanged"), "{out}");
    assert_eq!(lock_text(dir.path()), lock1, "a no-op run rewrote the lock");
    assert!(
        !lock1.contains(".cache") && !lock1.contains("/tmp"),
        "lock mentions paths: {lock1}"
    );

    assert_exit(&briscola(&["verify"], dir.path()), 0);
}

#[test]
fn forcing_simulate_reruns_it_and_identical_bytes_stop_there() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    let out = briscola(&["run", "--force", "simulate"], dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert_eq!(
        with_outcome(&out, "ran"),
        ids("simulate", &POLICIES),
        "{out}"
    );
    let r = reasons(&out);
    for id in ids("simulate", &POLICIES) {
        assert_eq!(r[&id], "forced");
    }
    // Early cutoff: same bytes, so every downstream job is cached and unchanged.
    assert_eq!(with_outcome(&out, "cached").len(), 13, "{out}");
}

#[test]
fn changing_one_policy_reruns_its_matchups_only_and_revert_is_all_cached() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    let lock0 = lock_text(dir.path());

    let changed = BASE_CONFIG.replacen("threshold = 10", "threshold = 8", 1); // hoarder's
    write_config(dir.path(), &changed);

    // status first: says what would run, writes nothing.
    let st = briscola(&["status"], dir.path());
    assert_exit(&st, 0);
    let st = stdout(&st);
    let hoarder: BTreeSet<String> = ids("simulate", &POLICIES)
        .into_iter()
        .filter(|id| id.contains("hoarder"))
        .collect();
    assert_eq!(hoarder.len(), 5);
    assert_eq!(
        with_outcome(&st, "would-run")
            .intersection(&ids("simulate", &POLICIES))
            .cloned()
            .collect::<BTreeSet<_>>(),
        hoarder,
        "{st}"
    );
    let r = reasons(&st);
    // status names what changed, old -> new (issue 11)
    assert_eq!(
        r["simulate/paper/greedy-vs-hoarder"],
        "config changed: policies.hoarder.threshold 10 -> 8"
    );
    assert!(
        r["aggregate/paper/greedy-vs-hoarder"].contains("would re-run if upstream changes its bytes (upstream simulate/paper/greedy-vs-hoarder re-runs)"),
        "{st}"
    );
    assert_eq!(r["aggregate/paper/greedy-vs-greedy"], "unchanged");
    assert_eq!(lock_text(dir.path()), lock0, "status wrote the lock");

    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    let ran_sim: BTreeSet<String> = with_outcome(&out, "ran")
        .intersection(&ids("simulate", &POLICIES))
        .cloned()
        .collect();
    assert_eq!(ran_sim, hoarder, "{out}");
    let r = reasons(&out);
    for id in &hoarder {
        assert_eq!(
            r[id], "config changed: policies.hoarder.threshold 10 -> 8",
            "{out}"
        );
    }
    for id in ids("simulate", &POLICIES).difference(&hoarder) {
        assert_eq!(r[id], "unchanged", "{out}");
        let agg = id.replacen("simulate/", "aggregate/", 1);
        assert_eq!(r[&agg], "unchanged", "{out}");
    }
    assert_ne!(lock_text(dir.path()), lock0);

    // Revert: every key was seen before, so nothing runs and the lock returns byte for byte.
    write_config(dir.path(), BASE_CONFIG);
    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert!(with_outcome(&out, "ran").is_empty(), "{out}");
    assert!(
        reasons(&out)["simulate/paper/greedy-vs-hoarder"]
            .starts_with("config changed: policies.hoarder.threshold 8 -> 10; restored from an earlier run with the same key"),
        "{out}"
    );
    assert_eq!(lock_text(dir.path()), lock0);
}

#[test]
fn adding_a_policy_runs_exactly_the_new_shards() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    // The same study stated per matchup: 900 games over 9 matchups is 100 per matchup, so the
    // shards' keys do not change and nothing re-runs.
    let per = BASE_CONFIG.replace("games = 900", "games_per_matchup = 100");
    write_config(dir.path(), &per);
    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert!(
        with_outcome(&out, "ran")
            .iter()
            .all(|id| !id.starts_with("simulate/")),
        "{out}"
    );
    // Four policies, still 100 games per matchup.
    let four = per.replace(
        "[\"greedy\", \"hoarder\", \"counter\"]",
        "[\"greedy\", \"hoarder\", \"counter\", \"cautious\"]",
    ) + "\n[policies.cautious]\nkind = \"hoarder\"\nthreshold = 4\n";
    write_config(dir.path(), &four);
    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    let all4 = ids("simulate", &["greedy", "hoarder", "counter", "cautious"]);
    let ran_sim: BTreeSet<String> = with_outcome(&out, "ran")
        .intersection(&all4)
        .cloned()
        .collect();
    assert_eq!(ran_sim.len(), 7, "{out}");
    assert!(ran_sim.iter().all(|id| id.contains("cautious")));
    assert!(ran_sim.iter().all(|id| reasons(&out)[id] == "new job"));
    let cached_sim: BTreeSet<String> = with_outcome(&out, "cached")
        .intersection(&all4)
        .cloned()
        .collect();
    assert_eq!(cached_sim, ids("simulate", &POLICIES), "{out}");
    assert_eq!(
        lock_entries(dir.path())
            .keys()
            .filter(|k| k.starts_with("simulate/"))
            .count(),
        16
    );
}

#[test]
fn template_change_reruns_only_render() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    let before = fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    let tpl = dir.path().join("templates/report.md.j2");
    let mut text = fs::read_to_string(&tpl).unwrap();
    text.push_str("\nA line added to the template.\n");
    fs::write(&tpl, text).unwrap();
    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert_eq!(with_outcome(&out, "ran"), set(&["render"]), "{out}");
    // The templates' bytes are part of render's params.
    assert_eq!(
        reasons(&out)["render"],
        "config changed: template report.md.j2"
    );
    let after = fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    assert_ne!(before, after);
    assert!(after.contains("A line added to the template."));
    assert_exit(&briscola(&["verify"], dir.path()), 0);
}

/// A published directory made a file: verify counts its outputs missing (exit 4, it said
/// "Not a directory" and exit 1), run names the file in the way (it said "File exists (os
/// error 17)"), and once it is moved away run restores the outputs.
#[test]
fn a_file_in_place_of_a_published_directory_is_named() {
    let dir = study(BASE_CONFIG);
    let p = dir.path();
    assert_exit(&run(p), 0);
    let shard = p.join("outputs/paper/aggregate/greedy-vs-hoarder");
    fs::remove_dir_all(&shard).unwrap();
    fs::write(&shard, b"x").unwrap();
    let v = briscola(&["verify"], p);
    assert_exit(&v, 4);
    assert!(stdout(&v).contains("is missing"), "{}", stdout(&v));
    let r = run(p);
    assert_exit(&r, 1);
    assert!(
        stderr(&r).contains("is a regular file where its directory belongs"),
        "{}",
        stderr(&r)
    );
    fs::remove_file(&shard).unwrap();
    assert_exit(&run(p), 0);
    assert_exit(&briscola(&["verify"], p), 0);
}

#[test]
fn render_section_change_reruns_only_render_and_removes_its_stale_output() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    assert!(dir.path().join("outputs/report.html").is_file());
    write_config(
        dir.path(),
        &BASE_CONFIG.replace("formats = [\"html\", \"md\"]", "formats = [\"md\"]"),
    );
    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert_eq!(with_outcome(&out, "ran"), set(&["render"]), "{out}");
    assert_eq!(
        reasons(&out)["render"],
        "config changed: config.text changed, formats [\"html\",\"md\"] -> [\"md\"]"
    );
    assert!(
        !dir.path().join("outputs/report.html").exists(),
        "stale report.html left behind"
    );
    assert!(dir.path().join("outputs/report.md").is_file());
    assert_exit(&briscola(&["verify"], dir.path()), 0);
}

#[test]
fn plot_section_change_reruns_plot_and_render() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    write_config(
        dir.path(),
        &BASE_CONFIG.replace("min_games_per_bin = 5", "min_games_per_bin = 7"),
    );
    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert_eq!(with_outcome(&out, "ran"), set(&["plot", "render"]), "{out}");
    let r = reasons(&out);
    assert_eq!(r["plot"], "config changed: min_games_per_bin 5 -> 7");
    // render also reads the threshold (the report states it) and the config text, and its key
    // covers every ancestor's key (the provenance appendix prints them).
    assert_eq!(
        r["render"],
        "config changed: config.text changed, min_games_per_bin 5 -> 7; input changed: key of plot, plot"
    );
}

#[test]
fn corrupt_object_is_detected_reported_and_rebuilt() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    let lock = lock_entries(dir.path());
    let job = "simulate/paper/greedy-vs-counter";
    let (name, hash) = lock[job]
        .1
        .iter()
        .next()
        .map(|(n, h)| (n.clone(), h.clone()))
        .unwrap();
    let obj = dir.path().join("outputs/.cache/objects").join(&hash);
    let mut bytes = fs::read(&obj).unwrap();
    bytes[0] ^= 0x01;
    fs::set_permissions(&obj, fs::Permissions::from_mode(0o644)).unwrap();
    fs::write(&obj, &bytes).unwrap();

    let v = briscola(&["verify"], dir.path());
    assert_exit(&v, 4);
    assert!(
        stdout(&v).contains(&format!("object {hash} is corrupt")),
        "{}",
        stdout(&v)
    );

    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert!(with_outcome(&out, "ran").contains(job), "{out}");
    assert_eq!(reasons(&out)[job], format!("output corrupt: {name}"));
    // Same bytes again: nothing downstream re-runs, and everything verifies.
    assert_eq!(with_outcome(&out, "ran"), set(&[job]), "{out}");
    assert_eq!(lock_entries(dir.path()), lock);
    assert_exit(&briscola(&["verify"], dir.path()), 0);
}

#[test]
fn deleted_published_file_is_restored_without_rerunning() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    let report = dir.path().join("outputs/report.md");
    let before = fs::read(&report).unwrap();
    fs::remove_file(&report).unwrap();
    assert_exit(&briscola(&["verify"], dir.path()), 4);
    let st = briscola(&["status"], dir.path());
    assert_eq!(
        reasons(&stdout(&st))["render"],
        "unchanged; would republish: report.md"
    );
    let out = run(dir.path());
    assert_exit(&out, 0);
    let out = stdout(&out);
    assert!(with_outcome(&out, "ran").is_empty(), "{out}");
    assert_eq!(reasons(&out)["render"], "unchanged; republished: report.md");
    assert_eq!(fs::read(&report).unwrap(), before);
    assert_exit(&briscola(&["verify"], dir.path()), 0);
}

#[test]
fn edited_published_file_is_caught_by_verify_and_restored_by_run() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    let report = dir.path().join("outputs/report.md");
    let before = fs::read(&report).unwrap();
    // Replace (not edit in place) so the store object behind the hard link stays intact.
    fs::remove_file(&report).unwrap();
    fs::write(&report, b"tampered").unwrap();
    let v = briscola(&["verify"], dir.path());
    assert_exit(&v, 4);
    assert!(
        stdout(&v).contains("outputs/report.md differs"),
        "{}",
        stdout(&v)
    );
    assert_exit(&run(dir.path()), 0);
    assert_eq!(fs::read(&report).unwrap(), before);
}

#[test]
fn key_matching_the_lock_with_other_bytes_is_a_reproducibility_failure() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    let job = "simulate/paper/hoarder-vs-greedy";
    let (_, real) = lock_entries(dir.path())[job]
        .1
        .iter()
        .next()
        .map(|(n, h)| (n.clone(), h.clone()))
        .unwrap();
    let fake = "0".repeat(64);
    let edited = lock_text(dir.path()).replace(&real, &fake);
    fs::write(dir.path().join("outputs/pipeline.lock"), &edited).unwrap();

    // Cached result disagrees with the lock.
    let out = run(dir.path());
    assert_exit(&out, 3);
    let err = stderr(&out);
    assert!(err.contains("reproducibility failure"), "{err}");
    assert!(
        err.contains(job) && err.contains(&fake) && err.contains(&real),
        "{err}"
    );
    assert_eq!(
        lock_text(dir.path()),
        edited,
        "the lock was updated despite the failure"
    );

    // Freshly produced bytes disagree with the lock (cache wiped).
    fs::remove_dir_all(dir.path().join("outputs/.cache")).unwrap();
    let out = run(dir.path());
    assert_exit(&out, 3);
    let err = stderr(&out);
    assert!(
        err.contains("this run produced") && err.contains(job),
        "{err}"
    );
    assert_eq!(lock_text(dir.path()), edited);

    // status reports it too.
    assert_exit(&briscola(&["status"], dir.path()), 3);
}

/// Spawn `briscola run` with the sleep hook; returns the child once it has announced its
/// `nth` sleep (so it holds the run mutex and has stored some objects).
fn spawn_sleeping(dir: &Path, ms: &str, stage: Option<&str>, nth: usize) -> std::process::Child {
    let mut c = command(&["run"], dir);
    c.env("BRISCOLA_TEST_SLEEP_MS", ms)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(s) = stage {
        c.env("BRISCOLA_TEST_SLEEP_STAGE", s);
    }
    let mut child = c.spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut reader = BufReader::new(stderr);
    let mut seen = 0;
    let mut line = String::new();
    while seen < nth {
        line.clear();
        let n = reader.read_line(&mut line).unwrap();
        assert!(n > 0, "the run ended before sleeping {nth} times");
        if line.contains("BRISCOLA_TEST_SLEEP_MS: sleeping") {
            seen += 1;
        }
    }
    // Keep draining stderr in the background so the child never blocks on a full pipe.
    std::thread::spawn(move || {
        let mut sink = String::new();
        while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
            sink.clear();
        }
    });
    child
}

#[test]
fn a_second_run_with_no_wait_exits_5_naming_the_holder() {
    let dir = study(BASE_CONFIG);
    let mut holder = spawn_sleeping(dir.path(), "60000", None, 1);
    let out = briscola(&["run", "--no-wait"], dir.path());
    let pid = holder.id().to_string();
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert_exit(&out, 5);
    let err = stderr(&out);
    assert!(err.contains(&format!("pid {pid}")), "{err}");
    assert!(err.contains("briscola run"), "{err}");
    // The killed holder's lock is released by the OS: the next run proceeds.
    assert_exit(&run(dir.path()), 0);
}

#[test]
fn a_second_run_waits_for_the_first_and_then_proceeds() {
    let dir = study(BASE_CONFIG);
    let mut holder = spawn_sleeping(dir.path(), "60000", Some("render"), 1);
    let mut second = command(&["run"], dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(second.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(
        line.starts_with("waiting:") && line.contains(&format!("pid {}", holder.id())),
        "{line}"
    );
    holder.kill().unwrap();
    holder.wait().unwrap();
    let out = second.wait_with_output().unwrap();
    assert_exit(&out, 0);
    let out = stdout(&out);
    // The holder died before render's records were written: render runs, the rest is reused.
    assert_eq!(with_outcome(&out, "ran"), set(&["render"]), "{out}");
}

fn killed_then_rerun_gives_the_same_lock(stage: &str, ms: &str, nth: usize) {
    let reference = study(BASE_CONFIG);
    assert_exit(&run(reference.path()), 0);
    let want = lock_text(reference.path());

    let dir = study(BASE_CONFIG);
    let mut child = spawn_sleeping(dir.path(), ms, Some(stage), nth);
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert!(
        status.code().is_none(),
        "the run was not killed: {status:?}"
    );
    assert!(
        !dir.path().join("outputs/pipeline.lock").exists(),
        "a killed run wrote the lock"
    );

    let out = run(dir.path());
    assert_exit(&out, 0);
    assert_eq!(lock_text(dir.path()), want);
    assert_exit(&briscola(&["verify"], dir.path()), 0);
    let out = stdout(&out);
    assert!(
        !with_outcome(&out, "cached").is_empty(),
        "nothing from the killed run was reused: {out}"
    );
}

#[test]
fn run_killed_mid_simulate_then_rerun_matches_an_uninterrupted_lock() {
    // Short sleeps so the first two shards complete; killed during the third.
    killed_then_rerun_gives_the_same_lock("simulate", "300", 3);
}

#[test]
fn run_killed_mid_render_then_rerun_matches_an_uninterrupted_lock() {
    killed_then_rerun_gives_the_same_lock("render", "60000", 1);
}

#[test]
fn rayon_thread_count_does_not_change_the_lock() {
    let one = study(BASE_CONFIG);
    let two = study(BASE_CONFIG);
    assert_exit(
        &briscola_env(&["run"], one.path(), &[("RAYON_NUM_THREADS", "1")]),
        0,
    );
    assert_exit(
        &briscola_env(&["run"], two.path(), &[("RAYON_NUM_THREADS", "2")]),
        0,
    );
    assert_eq!(lock_text(one.path()), lock_text(two.path()));
}

#[test]
fn dry_run_and_status_json_write_nothing() {
    let dir = study(BASE_CONFIG);
    let out = briscola(&["run", "--dry-run"], dir.path());
    assert_exit(&out, 0);
    assert_eq!(
        with_outcome(&stdout(&out), "would-run").len(),
        22,
        "{}",
        stdout(&out)
    );
    assert!(!dir.path().join("outputs/pipeline.lock").exists());
    assert!(!dir.path().join("outputs/.cache/objects").exists());

    assert_exit(&run(dir.path()), 0);
    write_config(
        dir.path(),
        &BASE_CONFIG.replace(
            "confidence = 0.95\nfamily_alpha",
            "confidence = 0.9\nfamily_alpha",
        ),
    );
    let st = briscola(&["status", "--json"], dir.path());
    assert_exit(&st, 0);
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&st)).expect("status --json is not JSON");
    let jobs = v["jobs"].as_array().unwrap();
    let test = jobs.iter().find(|j| j["id"] == "test/paper").unwrap();
    assert_eq!(test["outcome"], "would-run");
    assert_eq!(test["reasons"][0], "config changed: confidence 0.95 -> 0.9");
    assert_eq!(v["would_run"].as_u64(), Some(3)); // test, then plot and render downstream
}

#[test]
fn gc_drops_only_what_nothing_refers_to() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    write_config(
        dir.path(),
        &BASE_CONFIG.replacen("threshold = 10", "threshold = 8", 1),
    );
    assert_exit(&run(dir.path()), 0);
    let gc = briscola(&["gc"], dir.path());
    assert_exit(&gc, 0);
    let out = stdout(&gc);
    // A one-line summary by default; the list is behind --verbose.
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(!out.contains("removed object"), "{out}");
    assert!(!out.contains("removed 0 object(s)"), "{out}");
    assert!(out.contains("--verbose"), "{out}");
    // Another change, then gc --verbose lists what it removes.
    write_config(
        dir.path(),
        &BASE_CONFIG.replacen("threshold = 10", "threshold = 6", 1),
    );
    assert_exit(&run(dir.path()), 0);
    write_config(
        dir.path(),
        &BASE_CONFIG.replacen("threshold = 10", "threshold = 8", 1),
    );
    assert_exit(&run(dir.path()), 0);
    // A killed run's scratch directory (31 MB in a real one) goes too.
    let scratch = dir.path().join("outputs/.cache/tmp/simulate__x.99999");
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join("games.parquet"), b"partial").unwrap();
    let gc = briscola(&["gc", "--verbose"], dir.path());
    assert_exit(&gc, 0);
    assert!(stdout(&gc).contains("removed object"), "{}", stdout(&gc));
    assert!(
        !scratch.exists(),
        "gc left a killed run's scratch directory"
    );
    // The current study is intact and fully cached.
    assert_exit(&briscola(&["verify"], dir.path()), 0);
    let again = run(dir.path());
    assert_exit(&again, 0);
    assert!(
        with_outcome(&stdout(&again), "ran").is_empty(),
        "{}",
        stdout(&again)
    );
    // The old keys are gone: reverting now re-simulates the hoarder matchups.
    write_config(dir.path(), BASE_CONFIG);
    let back = run(dir.path());
    assert_exit(&back, 0);
    assert!(with_outcome(&stdout(&back), "ran").contains("simulate/paper/greedy-vs-hoarder"));
}

#[test]
fn removing_a_policy_drops_its_jobs_from_the_lock_and_outputs() {
    let dir = study(BASE_CONFIG);
    assert_exit(&run(dir.path()), 0);
    assert!(
        published_files(dir.path())
            .iter()
            .any(|p| p.contains("counter"))
    );
    let two = BASE_CONFIG
        .replace(
            "[\"greedy\", \"hoarder\", \"counter\"]",
            "[\"greedy\", \"hoarder\"]",
        )
        .replace("games = 900", "games = 400");
    write_config(dir.path(), &two);
    assert_exit(&run(dir.path()), 0);
    let lock = lock_entries(dir.path());
    assert!(lock.keys().all(|k| !k.contains("counter")), "{lock:?}");
    let left: Vec<String> = published_files(dir.path())
        .into_iter()
        .filter(|p| p.contains("counter"))
        .collect();
    assert!(
        left.is_empty(),
        "published files of removed jobs left behind: {left:?}"
    );
    assert_exit(&briscola(&["verify"], dir.path()), 0);
}

#[test]
fn dag_prints_stages_and_mermaid() {
    let dir = study(BASE_CONFIG);
    let text = briscola(&["dag"], dir.path());
    assert_exit(&text, 0);
    let t = stdout(&text);
    assert!(
        t.contains("simulate (9 jobs)") && t.contains("render (1 job)"),
        "{t}"
    );
    assert!(t.find("simulate (").unwrap() < t.find("aggregate (").unwrap());
    let m = briscola(&["dag", "--mermaid"], dir.path());
    assert_exit(&m, 0);
    let m = stdout(&m);
    assert!(m.starts_with("flowchart"), "{m}");
    assert!(m.contains("-->"));
}

/// A forged run record (issue 26): the record of `regress/paper`'s key is edited to name
/// another intact object (render's report.md) for its results. The run must not publish it:
/// the record contradicts the lock for the same key, so the job runs again, the published file
/// holds the real bytes, the lock is unchanged and `verify` passes.
#[test]
fn a_forged_run_record_is_never_republished() {
    let dir = study(BASE_CONFIG);
    let p = dir.path();
    assert_exit(&run(p), 0);
    let entries = lock_entries(p);
    let (key, outputs) = entries
        .get("regress/paper")
        .expect("regress/paper in the lock");
    let (name, real) = outputs.iter().next().expect("an output");
    let (name, real) = (name.clone(), real.clone());
    let (_, render) = entries.get("render").expect("render");
    let other = render.get("report.md").expect("report.md").clone();
    let record = p.join(format!("outputs/.cache/runs/{key}.json"));
    let text = std::fs::read_to_string(&record).unwrap();
    std::fs::write(&record, text.replace(real.as_str(), &other)).unwrap();
    // The published copy is removed, so a cached finish would republish from the record.
    let published = p.join("outputs/tables/paper").join(&name);
    let _ = std::fs::remove_file(&published);
    let before = lock_text(p);
    let o = run(p);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("run record contradicts the lock"), "{out}");
    assert_eq!(lock_text(p), before, "the lock keeps its hashes");
    let o = briscola(&["verify"], p);
    assert_exit(&o, 0);
    let again = run(p);
    assert_exit(&again, 0);
    assert!(
        stdout(&again).contains("lock unchanged"),
        "{}",
        stdout(&again)
    );
}

/// `run --force` takes a job id or an id prefix as well as a stage (issue 26: a league or sweep
/// job could not be named): only the named jobs (and what their bytes change) re-run.
#[test]
fn force_names_a_job_or_a_prefix() {
    let cfg = format!(
        "{BASE_CONFIG}\n[leagues.l]\nlabel = \"a league\"\npolicies = [\"greedy\", \"counter\"]\n\
         games_per_pair = 30\nseed = 3\nreference = \"greedy\"\n"
    );
    let dir = study(&cfg);
    let p = dir.path();
    assert_exit(&run(p), 0);
    let o = briscola(&["run", "--force", "league/l"], p);
    assert_exit(&o, 0);
    let ran = with_outcome(&stdout(&o), "ran");
    assert!(ran.contains("league/l"), "{ran:?}");
    assert!(!ran.iter().any(|j| j.starts_with("simulate/")), "{ran:?}");
    let o = briscola(&["run", "--force", "simulate/l"], p);
    assert_exit(&o, 0);
    let ran = with_outcome(&stdout(&o), "ran");
    assert!(
        ran.contains("simulate/l/greedy-vs-counter")
            && ran.contains("simulate/l/counter-vs-greedy"),
        "{ran:?}"
    );
    assert!(
        !ran.iter().any(|j| j.starts_with("simulate/paper")),
        "{ran:?}"
    );
    let o = briscola(&["run", "--force", "league/nope"], p);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("no stage and no job of that name"),
        "{}",
        stderr(&o)
    );
}

/// A study too small for its statistics (9 games: one a matchup) fails with sentences that
/// say why and what to change, not the statistics' internals alone: the test stage's folk
/// theorem has no game to count (it read "folk theorem per matchup: wilson: no
/// observations"), and Table 4's fit has too few to estimate from (it read "fit_grouped:
/// perfect or quasi-complete separation (information matrix degenerate ...").
#[test]
fn a_study_too_small_for_its_statistics_says_to_give_more_games() {
    let dir = study(&BASE_CONFIG.replace("games = 900", "games = 9"));
    let o = briscola(&["run"], dir.path());
    assert_exit(&o, 1);
    // Each failed job's error is in the run's report (stdout); the run's own error (stderr)
    // names the first.
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(
        err.contains("job test/paper failed: folk theorem, counter vs hoarder: no games to count; the study has too few games for it: give it more (its `games` or `games_per_matchup`)"),
        "{err}"
    );
    for words in [
        "Table 4 regression: its 9 non-tied games cannot fit it",
        "if so, give it more games (its `games` or `games_per_matchup`)",
    ] {
        assert!(out.contains(words), "{words}: {out}");
    }
    assert!(
        !err.contains("panicked") && !out.contains("panicked"),
        "{err}"
    );
}
