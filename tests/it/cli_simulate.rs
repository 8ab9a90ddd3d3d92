//! `briscola simulate` through the real binary.
//!
//! Bad input: every invalid argument exits 2 with one message on stderr naming the argument and
//! what would be valid, never a panic, and writes nothing (the command's invariant: arguments
//! are validated before any file is written). Good input: the directory layout and manifest of
//! a small run, and byte-identical output files under 1 and 2 rayon threads for both deal
//! sources at a size spanning more than one engine chunk per shard.

use crate::common::*;
use briscola::tournament::{CHUNK_GAMES, MANIFEST_FILE, read_manifest};

/// One invalid invocation: extra arguments (before `--out`) and substrings stderr must contain.
struct Bad {
    what: &'static str,
    args: &'static [&'static str],
    must_say: &'static [&'static str],
}

fn bad_cases() -> Vec<Bad> {
    vec![
        Bad {
            what: "unknown policy",
            args: &["--policies", "greedy,bogus"],
            must_say: &["--policies", "bogus", "greedy", "hoarder", "counter"],
        },
        Bad {
            what: "duplicate policy",
            args: &["--policies", "greedy,hoarder,greedy"],
            must_say: &["--policies", "greedy", "twice", "once"],
        },
        Bad {
            what: "zero games",
            args: &["--games", "0"],
            must_say: &["--games 0", "at least 9"],
        },
        Bad {
            what: "fewer games than the 9 ordered matchups of 3 policies",
            args: &["--games", "8"],
            must_say: &["--games 8", "at least 9"],
        },
        Bad {
            what: "fewer games than the 4 ordered matchups of 2 policies",
            args: &["--policies", "greedy,counter", "--games", "3"],
            must_say: &["--games 3", "at least 4"],
        },
        Bad {
            // The limit is briscola::pipeline::config::MAX_GAMES = 1_000_000_000.
            what: "more games than the limit",
            args: &["--games", "1000000001"],
            must_say: &["--games 1000000001", "1000000000"],
        },
        Bad {
            what: "games beyond u64",
            args: &["--games", "99999999999999999999999"],
            must_say: &["--games", "too large"],
        },
        Bad {
            what: "dotnet-replay seed above int.MaxValue",
            args: &["--seed", "2147483648"],
            must_say: &["--seed 2147483648", "-2147483648 to 2147483647"],
        },
        Bad {
            what: "dotnet-replay seed below int.MinValue",
            args: &["--deal-source", "dotnet-replay", "--seed", "-2147483649"],
            must_say: &["--seed -2147483649", "-2147483648 to 2147483647"],
        },
        Bad {
            what: "negative chacha seed",
            args: &["--deal-source", "chacha", "--seed", "-1"],
            must_say: &["--seed -1", "0 to 9223372036854775807"],
        },
        Bad {
            what: "unknown deal source",
            args: &["--deal-source", "mersenne"],
            must_say: &["--deal-source", "mersenne", "dotnet-replay", "chacha"],
        },
        Bad {
            what: "unknown tie-break",
            args: &["--tie-break", "random"],
            must_say: &["--tie-break", "as-released", "as-written"],
        },
        Bad {
            what: "five players",
            args: &["--players", "5"],
            must_say: &["--players 5", "a simulate table takes 2, 4 or 6"],
        },
        Bad {
            what: "three players each on their own (a league's game, not a study table's)",
            args: &["--players", "3"],
            must_say: &["--players 3", "use players = 2, 4 or 6"],
        },
        Bad {
            what: "a two-player agent at a four-player table",
            args: &["--players", "4", "--policies", "greedy,search"],
            must_say: &["--players 4", "search", "two-player rules only"],
        },
        Bad {
            // The documented range of --threshold (SimulateArgs in src/cli_tournament.rs).
            what: "threshold above 22",
            args: &["--threshold", "23"],
            must_say: &["--threshold", "23", "0..=22"],
        },
    ]
}

fn assert_bad_input(o: &std::process::Output, what: &str, must_say: &[&str]) {
    assert_exit(o, 2);
    let err = stderr(o);
    assert!(!err.contains("panicked"), "{what}: panicked\n{err}");
    for s in must_say {
        assert!(err.contains(s), "{what}: stderr lacks {s:?}\n{err}");
    }
    assert!(
        stdout(o).is_empty(),
        "{what}: stdout is not empty\n{}",
        stdout(o)
    );
}

#[test]
fn every_bad_argument_exits_2_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for case in bad_cases() {
        let out = dir.path().join("out");
        let mut args = vec!["simulate"];
        args.extend_from_slice(case.args);
        args.extend_from_slice(&["--out", "out"]);
        let o = briscola(&args, dir.path());
        assert_bad_input(&o, case.what, case.must_say);
        assert!(!out.exists(), "{}: wrote {}", case.what, out.display());
    }
}

/// `--study` names a study of the study file (pipeline.toml without --config): another name
/// is exit 2 listing the file's studies; a study's policies come with it, so --tie-break and
/// --threshold are refused beside it.
#[test]
fn study_names_a_study_of_the_file() {
    let dir = study(&format!(
        "{BASE_CONFIG}\n[variants.four]\nlabel = \"four\"\nrules = {{ players = 4 }}\n\
         [variants.aware]\nlabel = \"aware\"\nrules = {{ players = 4 }}\n\
         reading = \"partner-aware\"\n"
    ));
    let o = briscola(&["simulate", "--study", "fuor", "--out", "out"], dir.path());
    assert_bad_input(
        &o,
        "unknown study",
        &["--study fuor", "pipeline.toml", "paper, aware, four"],
    );
    // A partner-aware study at a two-player table: the advice is in flags, not in the study
    // file's fields (it said "drop `reading`").
    let o = briscola(
        &[
            "simulate",
            "--study",
            "aware",
            "--players",
            "2",
            "--out",
            "out",
        ],
        dir.path(),
    );
    assert_bad_input(
        &o,
        "partner-aware study with --players 2",
        &["--players 2", "study aware", "--players 4 or 6"],
    );
    assert!(!stderr(&o).contains("drop `reading`"), "{}", stderr(&o));
    let o = briscola(
        &[
            "simulate",
            "--study",
            "four",
            "--tie-break",
            "as-written",
            "--out",
            "out",
        ],
        dir.path(),
    );
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--tie-break"), "{}", stderr(&o));
    assert!(!dir.path().join("out").exists());
    // A team study's pair lines speak of sides and teams.
    let o = briscola(
        &[
            "simulate", "--study", "four", "--games", "36", "--out", "out",
        ],
        dir.path(),
    );
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("greedy vs hoarder (both sides, 8 games): greedy's team wins"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn out_under_a_regular_file_exits_2_naming_out() {
    // Tests run as root, so a read-only directory would still be writable: use a path whose
    // parent is a regular file instead.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a-file"), b"not a directory").unwrap();
    let o = briscola(
        &["simulate", "--games", "9", "--out", "a-file/tournament"],
        dir.path(),
    );
    assert_bad_input(&o, "out under a file", &["--out", "a-file/tournament"]);

    // A directory no one may write (even root): refused before any game is played, naming
    // --out and the system's reason, not the temporary's name.
    let o = briscola(
        &["simulate", "--games", "9", "--out", "/sys/tournament"],
        dir.path(),
    );
    assert_bad_input(
        &o,
        "out in /sys",
        &["--out /sys/tournament: cannot write in /sys: "],
    );
    assert!(!stderr(&o).contains("at path"), "{}", stderr(&o));

    // The output path is itself a regular file.
    let o = briscola(&["simulate", "--games", "9", "--out", "a-file"], dir.path());
    assert_bad_input(&o, "out is a file", &["--out", "a-file"]);
    assert_eq!(
        std::fs::read(dir.path().join("a-file")).unwrap(),
        b"not a directory"
    );
}

/// Every command resolves a policy name one way (`Config::named_policy`): with --config, a
/// name the file does not define is still a built-in kind or the default search agent, as the
/// file's own studies resolve it (simulate used to refuse them); a name that is neither is
/// exit 2 naming the config's policies and the built-ins.
#[test]
fn with_a_config_simulate_takes_built_ins_and_names_what_exists() {
    let dir = study(BASE_CONFIG);
    let o = briscola(
        &[
            "simulate",
            "--config",
            "pipeline.toml",
            "--policies",
            "greedy,random,search",
            "--games",
            "9",
            "--out",
            "out",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let shard = |m: &str| {
        dir.path()
            .join("out")
            .join(m)
            .join(briscola::tournament::SHARD_FILE)
    };
    let json = std::fs::read_to_string(shard("random-vs-search")).unwrap();
    assert!(
        json.contains("\"worlds\""),
        "the default search agent: {json}"
    );

    let o = briscola(
        &[
            "simulate",
            "--config",
            "pipeline.toml",
            "--policies",
            "greedy,nobody",
            "--out",
            "out2",
        ],
        dir.path(),
    );
    assert_bad_input(
        &o,
        "undefined with a config",
        &[
            "--policies",
            "nobody",
            "counter, greedy, hoarder",
            "random",
            "search",
        ],
    );
}

#[test]
fn threshold_beyond_u8_names_the_real_range() {
    let dir = tempfile::tempdir().unwrap();
    let o = briscola(
        &["simulate", "--threshold", "300", "--out", "out"],
        dir.path(),
    );
    assert_bad_input(&o, "threshold 300", &["--threshold", "22"]);
    assert!(!stderr(&o).contains("255"), "{}", stderr(&o));
}

#[test]
fn negative_counts_name_the_argument() {
    let dir = tempfile::tempdir().unwrap();
    for (arg, value) in [("--games", "-5"), ("--threshold", "-1")] {
        let o = briscola(&["simulate", arg, value, "--out", "out"], dir.path());
        assert_bad_input(&o, arg, &[arg]);
    }
}

#[test]
fn boundary_values_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    // int.MinValue is a valid .NET seed (released-simulator.md: mapped to int.MaxValue).
    for (i, args) in [
        &["--games", "9", "--seed", "-2147483648"][..],
        &["--games", "9", "--seed", "2147483647", "--threshold", "22"][..],
        &["--games", "9", "--deal-source", "chacha", "--seed", "0"][..],
        &[
            "--games",
            "9",
            "--deal-source",
            "chacha",
            "--seed",
            "9223372036854775807",
        ][..],
        &["--games", "1", "--policies", "counter"][..],
    ]
    .into_iter()
    .enumerate()
    {
        let out = dir.path().join(format!("run{i}"));
        simulate_into(dir.path(), &out, args, &[]);
        assert!(out.join(MANIFEST_FILE).is_file(), "{args:?}");
    }
}

#[test]
fn small_run_writes_nine_shards_and_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    // 100 games over 3 policies: floor(100 / 9) = 11 per ordered matchup, 99 in all.
    let o = briscola(
        &["simulate", "--games", "100", "--seed", "42", "--out", "t"],
        dir.path(),
    );
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("simulated 99 games (11 per ordered matchup, 9 matchups)"),
        "{}",
        stdout(&o)
    );

    let slugs = matchups(&["greedy", "hoarder", "counter"]);
    let mut entries: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    let mut want: Vec<String> = slugs.clone();
    want.push(MANIFEST_FILE.to_string());
    want.sort();
    assert_eq!(entries, want, "no stray files (temporaries, probes) left");
    for s in &slugs {
        for f in ["games.parquet", "shard.json"] {
            assert!(out.join(s).join(f).is_file(), "{s}/{f} missing");
        }
        // The trick table is written only on request (--trick-log).
        assert!(!out.join(s).join("tricks.parquet").exists(), "{s}");
    }

    let m = read_manifest(&out).expect("manifest readable");
    assert_eq!(m.seed, 42);
    assert_eq!(m.games_per_matchup, 11);
    let ids: Vec<u32> = m.shards.iter().map(|s| s.match_id).collect();
    assert_eq!(ids, (1..=9).collect::<Vec<u32>>());
    let dirs: Vec<&str> = m.shards.iter().map(|s| s.dir.as_str()).collect();
    assert_eq!(dirs, slugs.iter().map(String::as_str).collect::<Vec<_>>());
    for s in &m.shards {
        assert_eq!(s.summary.spec.games, 11);
        assert_eq!(s.summary.non_tied + s.summary.ties, 11, "{}", s.dir);
        assert!(s.summary.g1_wins <= s.summary.non_tied);
    }
}

/// Simulate `games` with `deal_source` under 1, 2 and 3 rayon threads (the table writers encode
/// a window of as many chunks as there are threads at once); every file's bytes agree.
fn same_bytes_under_one_and_two_threads(deal_source: &str, games: u64) {
    // More than one engine chunk (CHUNK_GAMES = 65,536 games) per shard, so chunking and the
    // parallel split inside a chunk both matter.
    assert!(games / 9 > CHUNK_GAMES as u64);
    let dir = tempfile::tempdir().unwrap();
    let g = games.to_string();
    let args = [
        "--games",
        g.as_str(),
        "--deal-source",
        deal_source,
        "--seed",
        "42",
        "--trick-log",
    ];
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    simulate_into(dir.path(), &one, &args, &[("RAYON_NUM_THREADS", "1")]);
    simulate_into(dir.path(), &two, &args, &[("RAYON_NUM_THREADS", "2")]);
    let three = dir.path().join("three");
    simulate_into(dir.path(), &three, &args, &[("RAYON_NUM_THREADS", "3")]);
    let (h1, h2) = (file_hashes(&one), file_hashes(&two));
    assert_eq!(
        h1,
        file_hashes(&three),
        "{deal_source}: outputs differ between 1 and 3 threads"
    );
    // 9 shards x (games, tricks, shard.json) + the manifest.
    assert_eq!(h1.len(), 28, "{:?}", h1.keys());
    assert_eq!(
        h1, h2,
        "{deal_source}: outputs differ between 1 and 2 threads"
    );
}

/// A team tournament's seat tables (written by two pipelined writer threads, each encoding a
/// window of chunks at once) under 1, 2 and 3 rayon threads: the same bytes. One shard (so its
/// trick window is every thread: 1, 2, 3) of two chunks and a part.
#[test]
fn team_output_bytes_do_not_depend_on_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let g = (2 * CHUNK_GAMES as u64 + 1000).to_string();
    let args = [
        "--players",
        "4",
        "--policies",
        "counter",
        "--deal-source",
        "chacha",
        "--games",
        g.as_str(),
    ];
    let mut hashes = Vec::new();
    for threads in ["1", "2", "3"] {
        let out = dir.path().join(threads);
        simulate_into(dir.path(), &out, &args, &[("RAYON_NUM_THREADS", threads)]);
        hashes.push(file_hashes(&out));
    }
    // One shard's games, tricks and shard.json, and the manifest.
    assert_eq!(hashes[0].len(), 4, "{:?}", hashes[0].keys());
    assert_eq!(hashes[0], hashes[1], "1 and 2 threads differ");
    assert_eq!(hashes[0], hashes[2], "1 and 3 threads differ");
}

#[test]
fn chacha_output_bytes_do_not_depend_on_thread_count() {
    // 600,000 / 9 = 66,666 games per shard: two chunks each.
    same_bytes_under_one_and_two_threads("chacha", 600_000);
}

#[test]
fn dotnet_replay_output_bytes_do_not_depend_on_thread_count() {
    same_bytes_under_one_and_two_threads("dotnet-replay", 600_000);
}
