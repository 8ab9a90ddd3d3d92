//! `briscola play` and `briscola replay` through the real binary: the paper's game 1 replayed
//! card for card against the released-format CSV export, a whole game played in tmux and checked
//! against the engine's own play of the same deal and moves, and bad input answered clearly.

use std::path::Path;
use std::process::Command;

use briscola::game::{Deck, NoTricks, SeatRng, play_game};
use briscola::policy::{PolicyKind, PolicySpec, TieBreak};
use briscola::tournament::DealStream;
use serde_json::Value;

use crate::common::*;

/// The committed study without variants, sweeps and leagues, 900 games requested (100 per matchup): the
/// dotnet-replay stream starts at the same position, so game 1 is the paper's game 1.
fn small_paper_config() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("pipeline.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = String::new();
    let mut in_variant = false;
    for line in text.lines() {
        if line.trim_start().starts_with('[') {
            // The further studies, sweeps and leagues are not needed to replay the paper.
            let l = line.trim_start();
            in_variant = l.starts_with("[variants.")
                || l.starts_with("[sweeps.")
                || l.starts_with("[leagues.");
        }
        if !in_variant {
            out.push_str(line);
            out.push('\n');
        }
    }
    let out = out.replace("games = 1_000_000", "games = 900");
    let out = out.replace("min_games_per_bin = 50", "min_games_per_bin = 5");
    assert!(out.contains("games = 900") && out.contains("seed = 42"));
    out
}

/// `Carta { Seme = Oro, Rango = 1, Punti = 11 }` as `1 Oro`.
fn csv_card(s: &str) -> String {
    let seme = s
        .split("Seme = ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let rango = s
        .split("Rango = ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    format!("{rango} {seme}")
}

#[test]
fn replay_of_paper_game_1_matches_the_export_card_for_card() {
    let dir = study(&small_paper_config());
    let p = dir.path();
    let replay = |extra: &[&str]| {
        let mut args = vec!["replay", "--study", "paper"];
        args.extend_from_slice(extra);
        briscola(&args, p)
    };
    // Before the run: the study has not been run.
    let o = replay(&["--matchup", "greedy-vs-greedy", "--game", "1"]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("has not been run") && stderr(&o).contains("briscola run"),
        "{}",
        stderr(&o)
    );

    assert_exit(&briscola(&["run"], p), 0);
    assert_exit(
        &briscola(
            &[
                "export", "tricks", "--format", "csv", "--study", "paper", "--out", "t.csv",
            ],
            p,
        ),
        0,
    );
    let csv = std::fs::read_to_string(p.join("t.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .take(20)
        .map(|l| l.split(';').collect())
        .collect();
    let o = replay(&["--matchup", "greedy-vs-greedy", "--game", "1", "--json"]);
    assert_exit(&o, 0);
    let j: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let tricks = j["tricks"].as_array().unwrap();
    assert_eq!(tricks.len(), 20);
    for (t, row) in tricks.iter().zip(&rows) {
        assert_eq!(row[0], "1", "PartitaId");
        assert_eq!(t["trick"].to_string(), row[4], "Mano");
        assert_eq!(
            t["card_g1"].as_str().unwrap(),
            csv_card(row[6]),
            "CartaG1 of trick {}",
            row[4]
        );
        assert_eq!(
            t["card_g2"].as_str().unwrap(),
            csv_card(row[7]),
            "CartaG2 of trick {}",
            row[4]
        );
        assert_eq!(t["winner"].as_str().unwrap(), format!("G{}", row[8]));
        assert_eq!(t["points"].to_string(), row[9]);
        for d in t["decisions"].as_array().unwrap() {
            let rule = d["rule"].as_str().unwrap();
            assert!(
                rule.starts_with("lead.") || rule.starts_with("follow."),
                "{rule}"
            );
            assert!(d["because"].as_str().unwrap().contains("because"), "{d}");
        }
    }
    assert_eq!(j["points"]["G1"].to_string(), rows[0][13]);
    // The text form names the rule behind greedy's plays.
    let o = replay(&["--matchup", "greedy-vs-counter", "--game", "7"]);
    assert_exit(&o, 0);
    let text = stdout(&o);
    assert!(
        text.contains("G1 (greedy)") && text.contains("lead: cheapest"),
        "{text}"
    );
    assert_eq!(text.matches("    plays ").count(), 40, "{text}");

    // Bad input.
    for (args, want) in [
        (
            vec!["--matchup", "greedy-vs-greedy", "--game", "0"],
            "games 1..=100",
        ),
        (
            vec!["--matchup", "greedy-vs-greedy", "--game", "101"],
            "games 1..=100",
        ),
        (
            vec!["--matchup", "greedy-vs-nobody", "--game", "1"],
            "matchups: greedy-vs-greedy",
        ),
    ] {
        let o = replay(&args);
        assert_exit(&o, 2);
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    let o = briscola(
        &[
            "replay",
            "--study",
            "nope",
            "--matchup",
            "a-vs-b",
            "--game",
            "1",
        ],
        p,
    );
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("studies: paper"), "{}", stderr(&o));
    std::fs::write(
        p.join("bad.json"),
        "{\"format\": \"briscola-game-record\", \"vers",
    )
    .unwrap();
    let o = briscola(&["replay", "--record", "bad.json"], p);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("bad.json: not a valid game record"),
        "{}",
        stderr(&o)
    );
    // A shard.json edited to claim more games than its game table holds: a game past the
    // table's end is a clear error (it panicked inside polars, exit 101).
    let shard = p.join("outputs/paper/simulate/greedy-vs-greedy/shard.json");
    let text = std::fs::read_to_string(&shard).unwrap();
    assert!(text.contains("\"games\": 100,"), "{text}");
    std::fs::write(&shard, text.replace("\"games\": 100,", "\"games\": 200,")).unwrap();
    let o = replay(&["--matchup", "greedy-vs-greedy", "--game", "150"]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("0 rows for game id") && stderr(&o).contains("briscola run"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_whole_game_in_tmux_scores_as_the_engine_plays_it() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed (`apt-get install tmux`; .ci/run installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let session = format!("briscola-play-{}", std::process::id());
    let cmd = format!(
        "cd {} && {} play --seed 11 --opponent hoarder --record g.json; sleep 60",
        dir.path().display(),
        bin()
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "160",
        "-y",
        "50",
        &cmd,
    ]);
    let mut sent = 0usize;
    let mut screen = String::new();
    for _ in 0..2000 {
        screen = tmux(&["capture-pane", "-p", "-S", "-100000", "-t", &session]);
        if screen.contains("final score:") && screen.contains("r: play this deal again") {
            break;
        }
        if screen.matches("your card [").count() > sent {
            // One bad key first: the game must answer it and go on.
            let key = if sent == 0 { "9" } else { "1" };
            tmux(&["send-keys", "-t", &session, key, "Enter"]);
            sent += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    tmux(&["send-keys", "-t", &session, "q", "Enter"]);
    tmux(&["kill-session", "-t", &session]);
    assert!(screen.contains("there is no card 9"), "{screen}");
    let line = screen
        .lines()
        .find(|l| l.starts_with("final score: you "))
        .unwrap_or_else(|| panic!("no final score:\n{screen}"));
    let you: u8 = line["final score: you ".len()..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // The engine's own play of the same deal and moves.
    let mut decks = Vec::new();
    DealStream::chacha(11, "play", "play").next_chunk(1, &mut decks);
    let deck: Deck = decks[0];
    let hoarder = PolicySpec::paper(PolicyKind::Hoarder, TieBreak::AsReleased).build();
    let rng = || SeatRng::new([0; 32], 0);
    let out = play_game(
        &deck,
        &FirstCard,
        &hoarder,
        &mut [rng(), rng()],
        &mut NoTricks,
    );
    assert_eq!(you, out.points[0], "{screen}");
    // The saved record replays.
    let o = briscola(&["replay", "--record", "g.json"], dir.path());
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains(&format!(
            "final: G1 {} - G2 {}",
            out.points[0], out.points[1]
        )),
        "{}",
        stdout(&o)
    );
}

/// The same deal played twice (`r`), then once more with the same --seed: three records
/// side by side, none replacing another (the default path used to be rewritten each time);
/// an explicit --record is the user's to replace.
#[test]
fn a_replayed_deal_keeps_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let game = "1\n".repeat(20);
    std::fs::write(p.join("twice.txt"), format!("{game}r\n{game}")).unwrap();
    std::fs::write(p.join("once.txt"), &game).unwrap();
    let args = ["play", "--seed", "5", "--opponent", "greedy", "--moves"];
    assert_exit(&briscola(&[&args[..], &["twice.txt"]].concat(), p), 0);
    assert_exit(&briscola(&[&args[..], &["once.txt"]].concat(), p), 0);
    let mut saved: Vec<String> = std::fs::read_dir(p.join("briscola-games"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    saved.sort();
    assert_eq!(
        saved,
        [
            "seed5-vs-greedy-2.json",
            "seed5-vs-greedy-3.json",
            "seed5-vs-greedy.json"
        ]
    );
    for name in &saved {
        let path = format!("briscola-games/{name}");
        assert_exit(&briscola(&["replay", "--record", &path], p), 0);
    }
    let given = [&args[..], &["once.txt", "--record", "mine.json"]].concat();
    assert_exit(&briscola(&given, p), 0);
    assert_exit(&briscola(&given, p), 0);
    assert!(!p.join("mine-2.json").exists());
}

#[test]
fn play_without_a_terminal_needs_moves() {
    let dir = tempfile::tempdir().unwrap();
    let o = briscola(&["play", "--seed", "3"], dir.path());
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--moves -"), "{}", stderr(&o));
    let o = briscola(
        &["play", "--opponent", "nobody", "--moves", "-"],
        dir.path(),
    );
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("choose one of counter, greedy, hoarder"),
        "{}",
        stderr(&o)
    );
}

/// A randomised policy replays exactly: `replay` draws the epsilon seat's moves from the same
/// stream as the shard (keyed by its `deals_as` name when it has one, as sweep points do), so
/// every replayed game passes the cross-check against the game table. Before the fix, replay
/// keyed the deal and the seat streams by the policy's own name and the cross-check failed.
#[test]
fn epsilon_games_replay_exactly_with_and_without_deals_as() {
    let text = BASE_CONFIG
        .replace(
            "policies = [\"greedy\", \"hoarder\", \"counter\"]",
            "policies = [\"greedy\", \"eps\", \"twin\"]",
        )
        .replace("games = 900", "games = 90")
        .replace(
            "[policies.hoarder]",
            "[policies.eps]\nkind = \"epsilon\"\nbase = \"greedy\"\neps = 0.5\nmoves = \"all\"\n\n\
             [policies.twin]\nkind = \"epsilon\"\nbase = \"counter\"\neps = 0.3\ndeals_as = \"counter\"\n\n\
             [policies.hoarder]",
        );
    let dir = study(&text);
    let p = dir.path();
    assert_exit(&briscola(&["run"], p), 0);
    for matchup in ["eps-vs-greedy", "greedy-vs-twin", "twin-vs-eps"] {
        for game in ["1", "7", "10"] {
            let o = briscola(
                &[
                    "replay",
                    "--study",
                    "paper",
                    "--matchup",
                    matchup,
                    "--game",
                    game,
                ],
                p,
            );
            assert_exit(&o, 0);
            assert!(stdout(&o).contains("trick 20"), "{}", stdout(&o));
        }
    }
}
