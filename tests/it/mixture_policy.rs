//! The `mixture` kind through the real binary: a kind added through the kind seam alone (its
//! file `crates/briscola-core/src/policy/mixture.rs` and its registry line), so these tests
//! show that such a kind reaches every command: a study's simulate, analysis and report,
//! `policies`, `simulate --config`, an exploit agent's target check and the variants' checks.

use crate::common::{BASE_CONFIG, assert_exit, briscola, briscola_env, stderr, stdout, study};

/// The base study with counter replaced by a mixture of greedy (weight 7) and counter (3).
fn mixture_study() -> String {
    BASE_CONFIG
        .replace(
            "policies = [\"greedy\", \"hoarder\", \"counter\"]",
            "policies = [\"greedy\", \"hoarder\", \"mix\"]",
        )
        .replace(
            "[policies.counter]\nkind = \"counter\"\nthreshold = 10",
            "[policies.counter]\nkind = \"counter\"\nthreshold = 10\n\n[policies.mix]\nkind = \"mixture\"\npolicies = [\"greedy\", \"counter\"]\nweights = [7, 3]",
        )
}

/// A study with a mixture runs end to end (simulate, tests, regressions, report) with the same
/// lock on 1 and 2 threads; its shard's spec holds both policies and the weights.
#[test]
fn a_study_with_a_mixture_runs_end_to_end_on_any_thread_count() {
    let config = mixture_study();
    assert!(config.contains("kind = \"mixture\""), "the edit applied");
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
            assert!(report.contains("mix"), "the report names the mixture");
            let shard = std::fs::read_to_string(
                dir.path()
                    .join("outputs/paper/simulate/mix-vs-greedy/shard.json"),
            )
            .unwrap();
            let compact: String = shard.split_whitespace().collect();
            assert!(
                compact.contains("\"kind\":\"mixture\"")
                    && compact.contains("\"weights\":[7.0,3.0]"),
                "{shard}"
            );
            std::fs::read_to_string(dir.path().join("outputs/pipeline.lock")).unwrap()
        })
        .collect();
    assert_eq!(locks[0], locks[1]);
}

/// `policies NAME` describes it from its seam; `simulate --config` plays it.
#[test]
fn policies_describes_and_simulate_plays_a_mixture() {
    let dir = study(&mixture_study());
    let o = briscola(
        &["policies", "mix", "--config", "pipeline.toml"],
        dir.path(),
    );
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("mix: mixture: at each decision one of 2 policies")
            && out.contains("with probability 0.7000:")
            && out.contains("counter: built-in counter (Definition 3), threshold 10"),
        "{out}"
    );
    let o = briscola(
        &[
            "simulate",
            "--config",
            "pipeline.toml",
            "--policies",
            "mix,greedy",
            "--games",
            "400",
            "--out",
            "t",
        ],
        dir.path(),
    );
    assert_exit(&o, 0);
    let shard = std::fs::read_to_string(dir.path().join("t/mix-vs-greedy/shard.json")).unwrap();
    assert!(shard.contains("\"mixture\""), "{shard}");
}

/// A mixture of two draws from its stream, so it is no exploit target; a wrong weight is an
/// error at its line; a mixture holding the search agent cannot sit at a four-player table.
#[test]
fn a_mixture_is_checked_like_any_kind() {
    let cases = [
        (
            "\n[policies.ex]\nkind = \"exploit\"\ntarget = \"mix\"\n",
            "policies.ex.target",
            "deterministic",
        ),
        ("", "policies.mix.weights[1]", "above 0"),
        (
            "\n[variants.four]\nlabel = \"four\"\nrules = { players = 4 }\ngames_per_matchup = 50\npolicies = [\"greedy\", \"hoarder\", \"deep\"]\n\n[policies.deep]\nkind = \"mixture\"\npolicies = [\"greedy\", \"search\"]\n",
            "variants.four",
            "standard two-player rules only",
        ),
    ];
    for (extra, field, says) in cases {
        let mut config = mixture_study() + extra;
        if extra.is_empty() {
            config = config.replace("weights = [7, 3]", "weights = [7, 0]");
        }
        let dir = study(&config);
        let o = briscola(&["status"], dir.path());
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(
            err.contains("pipeline.toml:") && err.contains(field) && err.contains(says),
            "{field}: {err}"
        );
    }
}

/// A mixture sits at a team table too: a four-player variant whose seats include a mixture of
/// greedy and counter runs to its report (the verbatim reading, from each part's rules).
#[test]
fn a_mixture_plays_a_four_player_variant() {
    let config = mixture_study()
        + "\n[variants.four]\nlabel = \"four\"\nrules = { players = 4 }\ngames_per_matchup = 20\n";
    let dir = study(&config);
    let o = briscola(&["run", "--config", "pipeline.toml"], dir.path());
    assert_exit(&o, 0);
    let shards = std::fs::read_dir(dir.path().join("outputs/four/simulate"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("mix"))
        .count();
    assert!(shards > 0, "the four-player variant seats the mixture");
}
