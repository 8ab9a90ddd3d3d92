//! Fuzzing the record and position parsers (issue 26), as the config is fuzzed: a valid
//! two-player record, a four-player table record and a position file are mutated (fields
//! removed, values changed in type or range, bytes garbled, truncated) and each mutant is parsed,
//! validated and replayed (or solved, on a small node budget) in process: never a panic, every
//! refusal a sentence naming the file. `BRISCOLA_FUZZ_CASES` sets the cases (default 3000 per
//! parser; `make fuzz` runs many more).

use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use briscola::solve::{Feasibility, PositionSpec};
use briscola::table::{AnyRecord, GameRecord, TableRecord, load_record};

use crate::common::*;

fn cases() -> usize {
    std::env::var("BRISCOLA_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000)
}

/// A JSON value changed at one random place: removed, retyped, out of range, or a card id or
/// seat number pushed past its end.
fn mutate_json(v: &mut Value, rng: &mut ChaCha8Rng) {
    let odd: [Value; 12] = [
        Value::Null,
        Value::from(-1),
        Value::from(0),
        Value::from(255),
        Value::from(u64::MAX),
        Value::from(1e300),
        Value::from("x"),
        Value::from(""),
        Value::from(vec![1, 2, 3]),
        Value::from(true),
        serde_json::json!({"a": 1}),
        Value::from(200),
    ];
    match v {
        Value::Object(m) if !m.is_empty() => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = &keys[rng.random_range(0..keys.len())];
            match rng.random_range(0..4) {
                0 => {
                    m.remove(k);
                }
                1 => {
                    m.insert(k.clone(), odd[rng.random_range(0..odd.len())].clone());
                }
                _ => mutate_json(m.get_mut(k).unwrap(), rng),
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = rng.random_range(0..a.len());
            match rng.random_range(0..5) {
                0 => {
                    a.remove(i);
                }
                1 => {
                    let x = a[i].clone();
                    a.insert(i, x);
                }
                2 => a[i] = odd[rng.random_range(0..odd.len())].clone(),
                _ => mutate_json(&mut a[i], rng),
            }
        }
        Value::Number(_) => *v = odd[rng.random_range(0..odd.len())].clone(),
        Value::String(s) => {
            if rng.random_range(0..2) == 0 {
                s.push_str(" di Oro");
            } else {
                *v = odd[rng.random_range(0..odd.len())].clone();
            }
        }
        _ => {}
    }
}

fn garble(mut bytes: Vec<u8>, rng: &mut ChaCha8Rng) -> Vec<u8> {
    if bytes.is_empty() {
        return bytes;
    }
    match rng.random_range(0..6) {
        0 => {
            for _ in 0..rng.random_range(1..6) {
                let i = rng.random_range(0..bytes.len());
                bytes[i] = rng.random();
            }
        }
        1 => bytes.truncate(rng.random_range(0..bytes.len())),
        _ => {}
    }
    bytes
}

/// A saved two-player record and a four-player table record, played from moves.
fn records(dir: &Path) -> (String, String) {
    std::fs::write(dir.join("moves.txt"), "1\n".repeat(20)).unwrap();
    for (players, file) in [("2", "two.json"), ("4", "four.json")] {
        let o = briscola(
            &[
                "play",
                "--players",
                players,
                "--seed",
                "5",
                "--opponent",
                "hoarder",
                "--moves",
                "moves.txt",
                "--record",
                file,
            ],
            dir,
        );
        assert_exit(&o, 0);
    }
    (
        std::fs::read_to_string(dir.join("two.json")).unwrap(),
        std::fs::read_to_string(dir.join("four.json")).unwrap(),
    )
}

#[test]
fn record_fuzz_in_process_never_panics_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (two, four) = records(dir.path());
    let path = Path::new("/fuzz/game.json");
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let (mut ok, mut refused) = (0, 0);
    for case in 0..cases() {
        let base = if case % 2 == 0 { &two } else { &four };
        let mut v: Value = serde_json::from_str(base).unwrap();
        for _ in 0..rng.random_range(1..4) {
            mutate_json(&mut v, &mut rng);
        }
        let bytes = garble(serde_json::to_vec_pretty(&v).unwrap(), &mut rng);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let result = std::panic::catch_unwind(|| {
            if case % 2 == 0 {
                GameRecord::parse(&text, path)
                    .and_then(|r| r.replay(path))
                    .map(|_| ())
            } else {
                TableRecord::parse(&text, path)
                    .and_then(|r| r.replay(path))
                    .map(|_| ())
            }
        });
        match result {
            Err(_) => panic!("case {case} panicked on:\n{text}"),
            Ok(Ok(())) => ok += 1,
            Ok(Err(e)) => {
                let m = e.to_string();
                assert!(m.contains("/fuzz/game.json"), "case {case}: {m}");
                refused += 1;
            }
        }
    }
    eprintln!("record fuzz: {ok} replayed, {refused} refused");
    assert!(refused > cases() / 2);
    // And through the file reader, which tells the two kinds apart.
    std::fs::write(dir.path().join("x.json"), &four).unwrap();
    assert!(matches!(
        load_record(&dir.path().join("x.json")),
        Ok(AnyRecord::Table(_))
    ));
}

#[test]
fn position_fuzz_in_process_never_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/solve");
    let texts: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "toml"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(!texts.is_empty());
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let (mut ok, mut refused) = (0, 0);
    for case in 0..cases() {
        let base = &texts[case % texts.len()];
        let mut lines: Vec<String> = base.lines().map(String::from).collect();
        let pick = rng.random_range(0..lines.len());
        let values = [
            "-1",
            "0",
            "7",
            "99",
            "\"Swords\"",
            "[]",
            "[[]]",
            "[\"Ace of Swords\"]",
            "[\"Ace of Swords\", \"Ace of Swords\"]",
            "\"\"",
            "true",
            "1e9",
        ];
        match rng.random_range(0..4) {
            0 => {
                lines.remove(pick);
            }
            1 => {
                if let Some((k, _)) = lines[pick].split_once('=') {
                    lines[pick] = format!("{k}= {}", values[rng.random_range(0..values.len())]);
                }
            }
            2 => {
                let l = lines[pick].clone();
                lines.insert(pick, l);
            }
            _ => {}
        }
        let bytes = garble((lines.join("\n") + "\n").into_bytes(), &mut rng);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let result = std::panic::catch_unwind(|| {
            let spec: PositionSpec = toml::from_str(&text).map_err(|e| e.to_string())?;
            let pos = spec.validate().map_err(|e| e.to_string())?;
            let _ = Feasibility::some(&pos, 2_000);
            Ok::<(), String>(())
        });
        match result {
            Err(_) => panic!("case {case} panicked on:\n{text}"),
            Ok(Ok(())) => ok += 1,
            Ok(Err(_)) => refused += 1,
        }
    }
    eprintln!("position fuzz: {ok} solved, {refused} refused");
    assert!(refused > 0 && ok > 0);
}

/// A record whose counter has a threshold of 200 (range 0..=22) is refused with a sentence, not
/// replayed (issue 26).
#[test]
fn an_out_of_range_threshold_in_a_record_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (two, _) = records(dir.path());
    let mut v: Value = serde_json::from_str(&two).unwrap();
    let seat = v["seats"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["policy"].is_object())
        .unwrap();
    seat["policy"]["threshold"] = Value::from(200);
    std::fs::write(dir.path().join("t.json"), v.to_string()).unwrap();
    let o = briscola(&["replay", "--record", "t.json"], dir.path());
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("out of range"), "{}", stderr(&o));
}

/// A four-player record whose seat says another team than the rules give it is refused (an
/// edited `team` was ignored and the replay went on).
#[test]
fn a_seat_s_team_that_contradicts_the_rules_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, four) = records(dir.path());
    let mut v: Value = serde_json::from_str(&four).unwrap();
    assert_eq!(v["seats"][1]["team"], Value::from(2), "{}", v["seats"]);
    v["seats"][1]["team"] = Value::from(1);
    std::fs::write(dir.path().join("t.json"), v.to_string()).unwrap();
    let o = briscola(&["replay", "--record", "t.json"], dir.path());
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("seats[1].team` is 1; under these rules seat 2 plays for team 2"),
        "{}",
        stderr(&o)
    );
    // The record as saved still replays.
    assert_exit(
        &briscola(&["replay", "--record", "four.json"], dir.path()),
        0,
    );
}

/// A game against the network replays from any directory (issue 26): the record names the
/// model relative to itself; a changed model file is refused by its sha256.
#[test]
fn a_network_game_replays_from_another_directory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = study(&std::fs::read_to_string(root.join("pipeline.toml")).unwrap());
    let p = dir.path();
    std::fs::write(p.join("moves.txt"), "1\n".repeat(20)).unwrap();
    let o = briscola(
        &[
            "play",
            "--opponent",
            "briscolabot",
            "--seed",
            "3",
            "--moves",
            "moves.txt",
            "--record",
            "games/bot.json",
        ],
        p,
    );
    assert_exit(&o, 0);
    let text = std::fs::read_to_string(p.join("games/bot.json")).unwrap();
    assert!(text.contains("\"../models/"), "{text}");
    let elsewhere = tempfile::tempdir().unwrap();
    let record = p.join("games/bot.json");
    let o = briscola(
        &["replay", "--record", record.to_str().unwrap()],
        elsewhere.path(),
    );
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("softmax over the hand"),
        "{}",
        stdout(&o)
    );
}
