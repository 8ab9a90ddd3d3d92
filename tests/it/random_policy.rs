//! The `random` policy through the real binary: a built-in name for `simulate`, `policies` and
//! `play`, a `kind = "random"` section in a study; its shards are byte-identical on 1 and 2
//! threads (its draws come from the seat's own stream, keyed by game index), and it loses to
//! greedy as a uniformly random player must.

use briscola::tournament::read_manifest;

use crate::common::{
    BASE_CONFIG, assert_exit, briscola, briscola_env, file_hashes, simulate_into, stderr, stdout,
    study,
};

/// `simulate --policies random,greedy` on 1 and 2 threads: the same bytes in every file; and
/// greedy, the weakest paper policy, beats the random player in both seats.
#[test]
fn random_is_identical_on_one_and_two_threads_and_loses_to_greedy() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--policies",
        "random,greedy",
        "--deal-source",
        "chacha",
        "--seed",
        "5",
        "--games",
        "16000",
    ];
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    simulate_into(dir.path(), &one, &args, &[("RAYON_NUM_THREADS", "1")]);
    simulate_into(dir.path(), &two, &args, &[("RAYON_NUM_THREADS", "2")]);
    let (h1, h2) = (file_hashes(&one), file_hashes(&two));
    assert!(h1.len() >= 9, "{h1:?}"); // 4 shards x (games, shard.json) + tournament.json
    assert_eq!(h1, h2);

    let m = read_manifest(&one).unwrap();
    let names = |s: &briscola::tournament::ManifestShard| {
        (
            s.summary.spec.g1.name.clone(),
            s.summary.spec.g2.name.clone(),
        )
    };
    // Greedy's wins as G1 against random plus its wins as G2 (G1 = random's losses).
    let mut greedy_wins = 0;
    let mut decided = 0;
    for s in &m.shards {
        let (g1, g2) = names(s);
        let sum = &s.summary;
        match (g1.as_str(), g2.as_str()) {
            ("greedy", "random") => greedy_wins += sum.g1_wins,
            ("random", "greedy") => greedy_wins += sum.non_tied - sum.g1_wins,
            _ => continue,
        }
        decided += sum.non_tied;
    }
    assert!(decided > 7000, "{decided} decided games");
    let rate = greedy_wins as f64 / decided as f64;
    // A random player wins far less than half; a policy that copied greedy would sit near 0.5.
    assert!(
        rate > 0.6,
        "greedy wins {rate} of decided games against random"
    );
}

/// Random against itself: the two seats' streams differ (keyed by seat), so it is not a mirror
/// game, and G1 wins close to half of the decided games.
#[test]
fn random_self_play_is_balanced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    simulate_into(
        dir.path(),
        &out,
        &[
            "--policies",
            "random",
            "--deal-source",
            "chacha",
            "--games",
            "4000",
        ],
        &[],
    );
    let m = read_manifest(&out).unwrap();
    let s = &m.shards[0].summary;
    let rate = s.g1_wins as f64 / s.non_tied as f64;
    assert!((0.45..0.55).contains(&rate), "G1 wins {rate}");
}

#[test]
fn policies_lists_and_describes_random() {
    let dir = tempfile::tempdir().unwrap();
    let o = briscola(&["policies"], dir.path());
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("random: built-in random"),
        "{}",
        stdout(&o)
    );
    let o = briscola(&["policies", "random"], dir.path());
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("uniformly random card"),
        "{}",
        stdout(&o)
    );
    // An unknown name lists random among the built-ins.
    let o = briscola(&["policies", "nosuch"], dir.path());
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("random"), "{}", stderr(&o));
}

/// `briscola play --opponent random` with moves from a file: the game runs to its end, and the
/// same seed gives the same game.
#[test]
fn play_against_random_is_reproducible_by_seed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("moves"), "1\n".repeat(20)).unwrap();
    let run = |rec: &str| {
        let o = briscola(
            &[
                "play",
                "--opponent",
                "random",
                "--seed",
                "9",
                "--moves",
                "moves",
                "--record",
                rec,
            ],
            dir.path(),
        );
        assert_exit(&o, 0);
        std::fs::read_to_string(dir.path().join(rec)).unwrap()
    };
    let (a, b) = (run("a.json"), run("b.json"));
    assert_eq!(a, b);
    assert!(a.contains("random"), "{a}");
}

/// A study with a `kind = "random"` policy runs through the whole pipeline (simulate, analysis,
/// report) and gives the same lock on 1 and 2 threads.
#[test]
fn a_study_with_random_runs_end_to_end_on_any_thread_count() {
    let config = BASE_CONFIG
        .replace(
            "policies = [\"greedy\", \"hoarder\", \"counter\"]",
            "policies = [\"greedy\", \"hoarder\", \"random\"]",
        )
        .replace(
            "[policies.counter]\nkind = \"counter\"\nthreshold = 10",
            "[policies.random]\nkind = \"random\"",
        );
    let locks: Vec<String> = ["1", "2"]
        .iter()
        .map(|threads| {
            let dir = study(&config);
            let o = briscola_env(
                &["run", "--config", "pipeline.toml"],
                dir.path(),
                &[("RAYON_NUM_THREADS", threads)],
            );
            assert_exit(&o, 0);
            let report = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
            assert!(
                report.contains("random"),
                "the report names the random policy"
            );
            std::fs::read_to_string(dir.path().join("outputs/pipeline.lock")).unwrap()
        })
        .collect();
    assert_eq!(locks[0], locks[1]);
}
