//! The table-driven engine (`play_keyed`) against the policies themselves (`play_game`): the
//! same outcome, the same tricks and the same Table 5 tallies, game for game.
//!
//! Expected values come from `play_game` with the built-in policies, which replay the released
//! simulator's published tables (see `paper_study.rs`); here every ordered pair of the paper's
//! policies, both tie-break readings and every overtrump threshold that changes a decision
//! (0..=11) is compared on .NET-shuffled deals (the paper's stream) and on uniformly random ones.
//! The batch path (`play_keyed_batch`, games in SIMD lanes on the best path the CPU has:
//! eight with AVX-512, four with AVX2) is compared with `play_keyed` game for game the same
//! way (every path the machine has: `crates/briscola-core/tests/engine_paths.rs`).

use briscola::game::{
    Deck, GameOutcome, KeyTables, NoTricks, SeatRng, TrickRecord, TrumpUse, play_game, play_keyed,
    play_keyed_batch,
};
use briscola::policy::{AnyPolicy, PolicyKind, PolicySpec, TieBreak};
use briscola::tournament::DotNetRandom;
use rand::SeedableRng;
use rand::seq::SliceRandom;

/// The policy-played game: outcome, tricks and the tallies `add_trick` makes of them.
fn by_policies(
    d: &Deck,
    a: &AnyPolicy,
    b: &AnyPolicy,
) -> (GameOutcome, Vec<TrickRecord>, [TrumpUse; 2]) {
    let mut tricks = Vec::new();
    let mut rngs = [SeatRng::new([1; 32], 0), SeatRng::new([2; 32], 0)];
    let o = play_game(d, a, b, &mut rngs, &mut |t: &TrickRecord| tricks.push(*t));
    let mut uses = [TrumpUse::default(); 2];
    for t in &tricks {
        TrumpUse::add_trick(&mut uses, t, o.trump);
    }
    (o, tricks, uses)
}

fn policies() -> Vec<PolicySpec> {
    let mut out = Vec::new();
    for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
        out.push(PolicySpec::paper(PolicyKind::Greedy, tie));
        for kind in [PolicyKind::Hoarder, PolicyKind::Counter] {
            for threshold in [0, 2, 3, 4, 10, 11] {
                out.push(PolicySpec {
                    threshold,
                    ..PolicySpec::paper(kind, tie)
                });
            }
        }
    }
    out
}

fn decks() -> Vec<Deck> {
    let mut net = DotNetRandom::new(2026);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    (0..600)
        .map(|i| {
            let mut d = Deck::ordered();
            if i % 2 == 0 {
                d.shuffle_with(|m| net.next_below(m));
            } else {
                let mut ids: Vec<u8> = (0..40).collect();
                ids.shuffle(&mut rng);
                d = Deck::from_ids(&ids).expect("a permutation");
            }
            d
        })
        .collect()
}

#[test]
fn keyed_games_are_the_policies_games() {
    let specs = policies();
    let built: Vec<(AnyPolicy, briscola::game::KeyTables)> = specs
        .iter()
        .map(|s| {
            let p = s.build();
            let t = p.key_tables().expect("the paper's policies have tables");
            (p, t)
        })
        .collect();
    let decks = decks();
    let mut games = 0;
    for (i, (pa, ta)) in built.iter().enumerate() {
        for (j, (pb, tb)) in built.iter().enumerate() {
            // Every pair within a reading; across readings, a sample.
            if specs[i].tie_break != specs[j].tie_break && (i + j) % 5 != 0 {
                continue;
            }
            for d in decks.iter().skip((i * 7 + j) % 3).step_by(3) {
                let (o, tricks, uses) = by_policies(d, pa, pb);
                let mut kt = Vec::new();
                let (ko, kuses) = play_keyed(d, [ta, tb], &mut |t: &TrickRecord| kt.push(*t));
                assert_eq!(ko, o, "{:?} vs {:?} on {:?}", specs[i], specs[j], d);
                assert_eq!(kt, tricks, "{:?} vs {:?}", specs[i], specs[j]);
                assert_eq!(kuses, uses, "{:?} vs {:?}", specs[i], specs[j]);
                games += 1;
            }
        }
    }
    assert!(games > 50_000, "{games}");
}

/// Rule programs: the shipped definitions of the paper's policies, and programs written for
/// this test whose conditions read only the led card, use `sibling-seen` when leading, or
/// order cards differently; each played as key tables and through the rule interpreter.
#[test]
fn keyed_rule_programs_play_as_the_interpreter() {
    use briscola::policy::RuleProgram;
    use briscola::policy::builtin_defs::builtin_program;
    let mut programs: Vec<RuleProgram> = Vec::new();
    for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
        for kind in [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter] {
            programs.push(builtin_program(kind, 7, tie).expect("shipped"));
        }
        programs.push(
            RuleProgram::compile(
                &[
                    "dearest of carico & !trump & sibling-seen",
                    "cheapest of figure",
                    "dearest",
                ],
                &[
                    "if led.trump then cheapest of trump & wins",
                    "if led.points >= 3 and not led.trump then dearest of wins",
                    "cheapest of liscio",
                    "cheapest",
                ],
                tie,
            )
            .expect("compiles"),
        );
    }
    let decks = decks();
    for (i, a) in programs.iter().enumerate() {
        let ta = a
            .key_tables()
            .unwrap_or_else(|| panic!("program {i} has tables"));
        for (j, b) in programs.iter().enumerate() {
            let tb = b.key_tables().expect("tables");
            let (pa, pb) = (
                AnyPolicy::Rules(std::sync::Arc::new(a.clone())),
                AnyPolicy::Rules(std::sync::Arc::new(b.clone())),
            );
            for d in decks.iter().skip((i + j) % 4).step_by(4) {
                let (o, tricks, uses) = by_policies(d, &pa, &pb);
                let mut kt = Vec::new();
                let (ko, kuses) = play_keyed(d, [&ta, &tb], &mut |t: &TrickRecord| kt.push(*t));
                assert_eq!((ko, kuses), (o, uses), "program {i} vs {j}");
                assert_eq!(kt, tricks, "program {i} vs {j}");
            }
        }
    }
}

/// Every table the two tests above play: the paper's policies at every threshold and both
/// readings, and the rule programs (shipped and written for the test).
fn all_tables() -> Vec<KeyTables> {
    use briscola::policy::builtin_defs::builtin_program;
    let mut out: Vec<KeyTables> = policies()
        .iter()
        .map(|s| s.build().key_tables().expect("tables"))
        .collect();
    for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
        for kind in [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter] {
            let p = builtin_program(kind, 7, tie).expect("shipped");
            out.push(p.key_tables().expect("tables"));
        }
    }
    out
}

/// Say so when this machine has no SIMD lanes: the batch tests then compare `play_keyed`
/// with itself.
fn lanes_note() {
    if !briscola::game::batch_lanes_available() {
        eprintln!("note: no AVX-512 or AVX2 here; play_keyed_batch plays through play_keyed");
    }
}

/// The batch path gives `play_keyed`'s outcome and tallies for every deck: every ordered pair
/// of tables on 13 decks (one group of eight and five played alone) or on 104 (thirteen
/// groups: six pairs side by side and a last group alone), and the paper's three policies
/// (greedy, hoarder, counter) on all 600 decks.
#[test]
fn batch_games_are_the_keyed_games() {
    lanes_note();
    let tables = all_tables();
    let decks = decks();
    let mut games = 0;
    for (i, a) in tables.iter().enumerate() {
        for (j, b) in tables.iter().enumerate() {
            let some = &decks[(i * 31 + j) % 480..][..if (i + j) % 2 == 0 { 13 } else { 104 }];
            let batch = play_keyed_batch(some, [a, b]);
            assert_eq!(batch.len(), some.len());
            for (d, got) in some.iter().zip(&batch) {
                let want = play_keyed(d, [a, b], &mut NoTricks);
                assert_eq!(*got, want, "tables {i} vs {j} on {d:?}");
                games += 1;
            }
        }
    }
    let paper: Vec<KeyTables> = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter]
        .map(|k| {
            PolicySpec::paper(k, TieBreak::AsReleased)
                .build()
                .key_tables()
                .expect("tables")
        })
        .into();
    for a in &paper {
        for b in &paper {
            let batch = play_keyed_batch(&decks, [a, b]);
            for (d, got) in decks.iter().zip(&batch) {
                assert_eq!(*got, play_keyed(d, [a, b], &mut NoTricks));
            }
        }
    }
    assert!(games > 50_000, "{games}");
}

/// Tables with arbitrary keys (many ties, watches on random cards) play alike in both paths:
/// the stable minimum's tie-break by arrival, the empty slots and the watch switch are the
/// parts the paper's tables exercise least.
#[test]
fn batch_games_are_the_keyed_games_for_arbitrary_tables() {
    use rand::RngExt;
    lanes_note();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let decks = decks();
    for round in 0..40 {
        let mut t = || {
            let lead: Vec<u32> = (0..80).map(|_| rng.random_range(0..4)).collect();
            let watch: Vec<u64> = (0..40)
                .map(|_| rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>())
                .map(|w| w & ((1 << 40) - 1))
                .collect();
            // Many ties, any key, or keys at the top next to the empty slot's.
            let max = KeyTables::MAX_KEY;
            let follow: Vec<u32> = (0..1600)
                .map(|_| match round % 3 {
                    0 => rng.random_range(0..3),
                    1 => rng.random_range(0..=max),
                    _ => rng.random_range(max - 2..=max),
                })
                .collect();
            KeyTables::build(
                |c, w| lead[c.id() as usize * 2 + w as usize],
                |c| watch[c.id() as usize],
                |l, c| follow[l.id() as usize * 40 + c.id() as usize],
            )
        };
        let (a, b) = (t(), t());
        let batch = play_keyed_batch(&decks, [&a, &b]);
        for (d, got) in decks.iter().zip(&batch) {
            assert_eq!(
                *got,
                play_keyed(d, [&a, &b], &mut NoTricks),
                "round {round}"
            );
        }
    }
}

/// Programs whose choice reads more than the cards play through the interpreter.
#[test]
fn programs_that_read_the_position_have_no_tables() {
    use briscola::policy::RuleProgram;
    let follow = ["cheapest"];
    for lead in [
        vec!["if trick >= 10 then dearest", "cheapest"],
        vec!["cheapest of master", "cheapest"],
        vec!["random of !trump", "cheapest"],
        vec!["if my-points > 40 then cheapest of trump", "cheapest"],
        vec!["if seen(oro-ace) then dearest", "cheapest"],
        vec!["if count(trump) >= 2 then cheapest of trump", "cheapest"],
        vec!["if unseen-trumps > 3 then cheapest of !trump", "cheapest"],
    ] {
        let p = RuleProgram::compile(&lead, &follow, TieBreak::AsReleased).expect("compiles");
        assert!(p.key_tables().is_none(), "{lead:?}");
    }
    let p = RuleProgram::compile(
        &["cheapest"],
        &["cheapest of sibling-seen & wins", "cheapest"],
        TieBreak::AsReleased,
    )
    .expect("compiles");
    assert!(p.key_tables().is_none(), "sibling-seen when following");
}

/// The simulate stage plays keyed policies through `play_keyed`, and keeps the tricks it
/// reports when asked for the trick log: the game tables are the same bytes and `shard.json`'s
/// counts (Table 5's included) the same with and without it, and the logged trick table
/// exports to the same CSV bytes as the one `briscola export` regenerates through `play_game`
/// (policy by policy), for both deal sources and a rule program with tables.
#[test]
fn simulate_gives_the_same_games_with_and_without_the_trick_log() {
    let base = crate::common::BASE_CONFIG;
    let at = base
        .find("[policies.greedy]")
        .expect("BASE_CONFIG defines greedy");
    let config = format!(
        "{}[policies.trapper]\nkind = \"rules\"\nlead = [\"dearest of carico & !trump & sibling-seen\", \"cheapest of figure\", \"dearest\"]\nfollow = [\"if led.points >= 3 then cheapest of wins\", \"cheapest of liscio\", \"cheapest\"]\n\n{}",
        &base[..at],
        &base[at..]
    );
    let dir = crate::common::study(&config);
    for source in ["dotnet-replay", "chacha"] {
        let base = [
            "--config",
            "pipeline.toml",
            "--policies",
            "greedy,counter,trapper",
        ];
        let mut args = base.to_vec();
        args.extend(["--deal-source", source, "--games", "90000"]);
        let (plain, logged) = (dir.path().join("plain"), dir.path().join("logged"));
        let _ = std::fs::remove_dir_all(&plain);
        let _ = std::fs::remove_dir_all(&logged);
        crate::common::simulate_into(dir.path(), &plain, &args, &[]);
        args.push("--trick-log");
        crate::common::simulate_into(dir.path(), &logged, &args, &[]);
        let (a, b) = (
            crate::common::file_hashes(&plain),
            crate::common::file_hashes(&logged),
        );
        let games: Vec<&String> = a.keys().filter(|k| k.ends_with("games.parquet")).collect();
        assert_eq!(games.len(), 9, "{source}: {a:?}");
        for k in games {
            assert_eq!(a[k], b[k], "{source}: {k}");
            let shard = |root: &std::path::Path| -> serde_json::Value {
                let p = root.join(k.replace("games.parquet", "shard.json"));
                let mut v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(p).expect("shard.json"))
                        .expect("json");
                v.as_object_mut().expect("object").remove("spec");
                v
            };
            assert_eq!(shard(&plain), shard(&logged), "{source}: {k}");
        }
        let csv = |from: &std::path::Path| -> Vec<u8> {
            let out = dir.path().join("tricks.csv");
            let from = from.to_str().expect("utf-8 path");
            let o = crate::common::briscola(
                &[
                    "export",
                    "tricks",
                    "--format",
                    "csv",
                    "--from",
                    from,
                    "--out",
                    "tricks.csv",
                ],
                dir.path(),
            );
            crate::common::assert_exit(&o, 0);
            let bytes = std::fs::read(&out).expect("export written");
            std::fs::remove_file(out).expect("removed");
            bytes
        };
        let (regenerated, written) = (csv(&plain), csv(&logged));
        assert!(regenerated.len() > 100_000_000, "{source}");
        assert!(
            regenerated == written,
            "{source}: logged tricks != play_game's"
        );
    }
}

#[test]
fn other_kinds_have_no_tables() {
    let random = PolicySpec {
        name: "random".into(),
        kind: PolicyKind::Random,
        threshold: 0,
        tie_break: TieBreak::AsReleased,
        def: None,
        stream: None,
    };
    assert!(random.build().key_tables().is_none());
}

/// Through the binary: `BRISCOLA_ENGINE` picks the path for the whole process, and every path
/// this machine has gives the same study lock and the same simulate files, byte for byte (the
/// paper's policies play through the batch path in both). A name that is no path's is exit 2
/// naming the variable and the valid names; a path the CPU lacks, exit 2 naming the ones it has.
#[test]
fn every_engine_path_gives_the_same_lock_and_files() {
    use crate::common::{
        BASE_CONFIG, assert_exit, briscola_env, file_hashes, lock_text, simulate_into, stderr,
        study,
    };
    use briscola::game::EnginePath;
    let config = BASE_CONFIG.replace("games = 900", "games = 90_000");
    let paths: Vec<&str> = EnginePath::available().iter().map(|p| p.name()).collect();
    let mut locks = Vec::new();
    let mut files = Vec::new();
    for path in &paths {
        let dir = study(&config);
        let o = briscola_env(&["run"], dir.path(), &[("BRISCOLA_ENGINE", path)]);
        assert_exit(&o, 0);
        locks.push(lock_text(dir.path()));
        let out = dir.path().join("sim");
        simulate_into(
            dir.path(),
            &out,
            &["--games", "90000", "--deal-source", "chacha"],
            &[("BRISCOLA_ENGINE", path)],
        );
        files.push(file_hashes(&out));
    }
    for (i, path) in paths.iter().enumerate().skip(1) {
        assert_eq!(locks[i], locks[0], "{path} and {} locks differ", paths[0]);
        assert_eq!(files[i], files[0], "{path} and {} files differ", paths[0]);
    }
    let dir = study(&config);
    let o = briscola_env(&["status"], dir.path(), &[("BRISCOLA_ENGINE", "neon9")]);
    assert_exit(&o, 2);
    let e = stderr(&o);
    assert!(
        e.contains("BRISCOLA_ENGINE=neon9") && e.contains("scalar, avx2, avx512"),
        "{e}"
    );
    if let Some(missing) = EnginePath::ALL.iter().find(|p| !p.is_available()) {
        let o = briscola_env(
            &["status"],
            dir.path(),
            &[("BRISCOLA_ENGINE", missing.name())],
        );
        assert_exit(&o, 2);
        assert!(stderr(&o).contains("this CPU cannot run"), "{}", stderr(&o));
    } else {
        println!("note: this CPU runs every engine path; the refusal is tested in the core");
    }
}
