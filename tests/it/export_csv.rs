//! `briscola export` through the real binary.
//!
//! The trick log as the released simulator's CSV (format facts from
//! /work/shared/reference/released-simulator.md, "Its trick-level CSV"), checked row by row on a
//! small dotnet-replay run (seed 42, `--games 90`: 10 games per ordered matchup) and replayed
//! independently: the test deals every game itself from one .NET `System.Random(42)` stream and
//! follows each hand through the game, so every logged card, trick winner, final score and
//! briscola count is checked against the deal. Also: the game table as CSV, both tables as
//! Parquet (read back with polars), export from a pipeline study, and the error paths.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::*;
use briscola::game::Deck;
use briscola::tournament::{DotNetRandom, TRICK_CSV_HEADER};
use polars::prelude::*;

/// The header, copied from released-simulator.md ("Its trick-level CSV").
const HEADER: &str = "PartitaId;MatchId;StrategyG1;StrategyG2;Mano;SemeBriscola;CartaG1;CartaG2;VincitoreMano;PuntiMano;BriscoleTotaliG1;BriscoleTotaliG2;VincitorePartita;PuntiFinaliG1;PuntiFinaliG2";

/// Suits in the released deck order (released-simulator.md, "One game").
const SUITS: [&str; 4] = ["Oro", "Spade", "Bastoni", "Coppe"];
/// Points by rank 1..=10 (released-simulator.md: 1 -> 11, 3 -> 10, 10 -> 4, 9 -> 3, 8 -> 2).
const POINTS: [u32; 10] = [11, 0, 10, 0, 0, 0, 0, 2, 3, 4];
/// Ranks strongest first (released-simulator.md: 1, 3, 10, 9, 8, 7, 6, 5, 4, 2).
const STRENGTH: [u32; 10] = [1, 3, 10, 9, 8, 7, 6, 5, 4, 2];
/// Strategy names in matchup order (released-simulator.md, "The tournament").
const STRATEGIES: [&str; 3] = ["Greedy", "Hoarder", "Counter"];

/// A card as the test reads it: (suit index, rank 1..=10).
type C = (usize, u32);

/// Parse `Carta { Seme = Oro, Rango = 1, Punti = 11 }` strictly; checks Punti against the rank.
fn parse_card(s: &str) -> C {
    let inner = s
        .strip_prefix("Carta { Seme = ")
        .and_then(|r| r.strip_suffix(" }"))
        .unwrap_or_else(|| panic!("not a card: {s:?}"));
    let (suit, rest) = inner.split_once(", Rango = ").expect(s);
    let (rank, points) = rest.split_once(", Punti = ").expect(s);
    let suit = SUITS
        .iter()
        .position(|x| *x == suit)
        .unwrap_or_else(|| panic!("suit {suit:?} in {s:?}"));
    let rank: u32 = rank.parse().expect(s);
    assert!((1..=10).contains(&rank), "{s}");
    let points: u32 = points.parse().expect(s);
    assert_eq!(points, POINTS[rank as usize - 1], "Punti of {s}");
    // Round-trip: exactly the canonical text (no extra spaces, no leading zeros).
    assert_eq!(
        s,
        format!(
            "Carta {{ Seme = {}, Rango = {rank}, Punti = {points} }}",
            SUITS[suit]
        )
    );
    (suit, rank)
}

fn points(c: C) -> u32 {
    POINTS[c.1 as usize - 1]
}

/// Whether the follower's card beats the leader's, by the standard rules: a trump beats a
/// non-trump, an off-suit non-trump loses, within a suit the stronger rank wins.
fn follower_wins(lead: C, follow: C, trump: usize) -> bool {
    let strength = |c: C| STRENGTH.iter().position(|&r| r == c.1).unwrap();
    if lead.0 == follow.0 {
        strength(follow) < strength(lead)
    } else {
        follow.0 == trump
    }
}

/// The deals of the first `n` games of one shared `System.Random(seed)` stream, as the test
/// reads released-simulator.md: each game shuffles a fresh ordered deck, Fisher-Yates from the
/// end (k = Next(n) with n from 40 down, then swap positions n - 1 and k).
fn dotnet_deals(seed: i32, n: usize) -> Vec<Vec<C>> {
    let mut rng = DotNetRandom::new(seed);
    (0..n)
        .map(|_| {
            let mut d = Deck::ordered();
            d.shuffle_with(|m| rng.next_below(m));
            d.cards()
                .iter()
                .map(|c| (c.suit_index() as usize, c.rank() as u32))
                .collect()
        })
        .collect()
}

/// One CSV row, typed.
#[derive(Debug, Clone)]
struct Row {
    partita: u64,
    match_id: u32,
    s1: String,
    s2: String,
    mano: u32,
    trump: usize,
    c1: C,
    c2: C,
    trick_winner: u32,
    trick_points: u32,
    b1: u32,
    b2: u32,
    winner: String,
    p1: u32,
    p2: u32,
}

fn parse_rows(text: &str) -> Vec<Row> {
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            assert_eq!(f.len(), 15, "fields in {l:?}");
            let n = |i: usize| -> u32 { f[i].parse().unwrap_or_else(|_| panic!("{l}")) };
            Row {
                partita: f[0].parse().expect(l),
                match_id: n(1),
                s1: f[2].into(),
                s2: f[3].into(),
                mano: n(4),
                trump: SUITS.iter().position(|s| *s == f[5]).expect(l),
                c1: parse_card(f[6]),
                c2: parse_card(f[7]),
                trick_winner: n(8),
                trick_points: n(9),
                b1: n(10),
                b2: n(11),
                winner: f[12].into(),
                p1: n(13),
                p2: n(14),
            }
        })
        .collect()
}

/// A temp dir with `t/` = `briscola simulate --games 90 --seed 42` (dotnet-replay, the default).
fn small_run() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    simulate_into(
        dir.path(),
        &dir.path().join("t"),
        &[
            "--games",
            "90",
            "--seed",
            "42",
            "--deal-source",
            "dotnet-replay",
        ],
        &[],
    );
    dir
}

/// `briscola export TABLE --format FORMAT --from t --out OUT` in `dir`, asserting success.
fn export(dir: &Path, table: &str, format: &str, out: &str) {
    let o = briscola(
        &[
            "export", table, "--format", format, "--from", "t", "--out", out,
        ],
        dir,
    );
    assert_exit(&o, 0);
}

fn parquet(path: &Path) -> DataFrame {
    let p = path.to_str().unwrap();
    LazyFrame::scan_parquet(PlRefPath::new(p), ScanArgsParquet::default())
        .and_then(|lf| lf.collect())
        .unwrap_or_else(|e| panic!("cannot read {p}: {e}"))
}

#[test]
fn trick_csv_is_the_released_format() {
    let dir = small_run();
    export(dir.path(), "tricks", "csv", "tricks.csv");
    let bytes = std::fs::read(dir.path().join("tricks.csv")).unwrap();
    assert!(
        !bytes.starts_with(&[0xEF, 0xBB, 0xBF]),
        "no byte-order mark"
    );
    assert!(!bytes.contains(&b'\r'), "LF line ends");
    assert!(bytes.ends_with(b"\n"));
    let text = String::from_utf8(bytes).expect("UTF-8");
    assert_eq!(text.lines().next(), Some(HEADER));
    assert_eq!(TRICK_CSV_HEADER, HEADER);

    let rows = parse_rows(&text);
    // 90 games x 20 tricks (40 cards, two per trick).
    assert_eq!(rows.len(), 1800);
    let mut games: BTreeMap<u64, Vec<Row>> = BTreeMap::new();
    let mut order = Vec::new();
    for r in &rows {
        if order.last() != Some(&r.partita) {
            order.push(r.partita);
        }
        games.entry(r.partita).or_default().push(r.clone());
    }
    assert_eq!(
        order,
        (1..=90).collect::<Vec<u64>>(),
        "PartitaId 1..=90 in order, contiguous"
    );

    for (&id, g) in &games {
        assert_eq!(g.len(), 20, "game {id}");
        let manos: Vec<u32> = g.iter().map(|r| r.mano).collect();
        assert_eq!(manos, (1..=20).collect::<Vec<u32>>(), "game {id}");
        // MatchId 1..=9 in blocks of 10 games; strategies row-major over Greedy, Hoarder, Counter.
        let m = ((id - 1) / 10) as usize;
        let first = &g[0];
        assert_eq!(first.match_id as usize, m + 1, "game {id}");
        assert_eq!(first.s1, STRATEGIES[m / 3], "game {id}");
        assert_eq!(first.s2, STRATEGIES[m % 3], "game {id}");

        let cards: BTreeSet<C> = g.iter().flat_map(|r| [r.c1, r.c2]).collect();
        assert_eq!(cards.len(), 40, "game {id}: the 40 cards are distinct");
        for r in g {
            assert_eq!(
                (r.match_id, &r.s1, &r.s2, r.trump),
                (first.match_id, &first.s1, &first.s2, first.trump),
                "game {id}: per-game columns constant"
            );
            assert_eq!(
                (r.b1, r.b2, &r.winner, r.p1, r.p2),
                (first.b1, first.b2, &first.winner, first.p1, first.p2),
                "game {id}: the last five columns repeat the game's final values"
            );
            assert!(matches!(r.trick_winner, 1 | 2), "game {id}: {r:?}");
            assert_eq!(
                r.trick_points,
                points(r.c1) + points(r.c2),
                "game {id}: {r:?}"
            );
        }
        // 120 card points in a deck; 10 trumps, each held by someone (released-simulator.md).
        assert_eq!(first.p1 + first.p2, 120, "game {id}");
        assert_eq!(first.b1 + first.b2, 10, "game {id}");
        let won = |seat| -> u32 {
            g.iter()
                .filter(|r| r.trick_winner == seat)
                .map(|r| r.trick_points)
                .sum()
        };
        assert_eq!((won(1), won(2)), (first.p1, first.p2), "game {id}");
        let want = match first.p1.cmp(&first.p2) {
            std::cmp::Ordering::Greater => "G1",
            std::cmp::Ordering::Less => "G2",
            std::cmp::Ordering::Equal => "Pareggio",
        };
        assert_eq!(first.winner, want, "game {id}");
    }
}

#[test]
fn trick_csv_agrees_with_an_independent_deal_of_system_random_42() {
    let dir = small_run();
    export(dir.path(), "tricks", "csv", "tricks.csv");
    let rows = parse_rows(&std::fs::read_to_string(dir.path().join("tricks.csv")).unwrap());
    // One System.Random(42) shared by the 90 games in PartitaId order.
    let deals = dotnet_deals(42, 90);

    // Game 1, as the brief states it: G1's hand is cards 0..3, G2's 3..6, trump the last card.
    let d = &deals[0];
    let r = &rows[0];
    assert_eq!(r.partita, 1);
    assert!(
        d[0..3].contains(&r.c1),
        "trick 1 CartaG1 {:?} not in G1's hand {:?}",
        r.c1,
        &d[0..3]
    );
    assert!(
        d[3..6].contains(&r.c2),
        "trick 1 CartaG2 {:?} not in G2's hand {:?}",
        r.c2,
        &d[3..6]
    );
    assert_eq!(
        SUITS[r.trump], SUITS[d[39].0],
        "SemeBriscola is the last card's suit"
    );

    // Every game: follow both hands through the deal.
    for (g, deal) in deals.iter().enumerate() {
        let game = &rows[g * 20..(g + 1) * 20];
        let trump = deal[39].0;
        let mut hands = [deal[0..3].to_vec(), deal[3..6].to_vec()];
        let mut held = [hands[0].clone(), hands[1].clone()];
        let mut leader = 0usize; // G1 leads trick 1
        let (mut p1, mut p2) = (0, 0);
        for (t, r) in game.iter().enumerate() {
            let id = g + 1;
            assert_eq!(r.trump, trump, "game {id}");
            for (seat, card) in [(0, r.c1), (1, r.c2)] {
                let pos = hands[seat]
                    .iter()
                    .position(|c| *c == card)
                    .unwrap_or_else(|| {
                        panic!(
                            "game {id} trick {}: G{} played {card:?} not in hand {:?}",
                            t + 1,
                            seat + 1,
                            hands[seat]
                        )
                    });
                hands[seat].remove(pos);
            }
            let (lead, follow) = if leader == 0 {
                (r.c1, r.c2)
            } else {
                (r.c2, r.c1)
            };
            let winner = if follower_wins(lead, follow, trump) {
                1 - leader
            } else {
                leader
            };
            assert_eq!(
                r.trick_winner as usize,
                winner + 1,
                "game {id} trick {}",
                t + 1
            );
            if winner == 0 {
                p1 += r.trick_points;
            } else {
                p2 += r.trick_points;
            }
            // Draws after tricks 1..=17: winner takes the top of the stock, loser the next.
            if t < 17 {
                let (top, next) = (deal[6 + 2 * t], deal[7 + 2 * t]);
                hands[winner].push(top);
                hands[1 - winner].push(next);
                held[winner].push(top);
                held[1 - winner].push(next);
            }
            leader = winner;
        }
        assert!(hands.iter().all(Vec::is_empty), "game {}", g + 1);
        let trumps = |seat: usize| held[seat].iter().filter(|c| c.0 == trump).count() as u32;
        let last = &game[19];
        assert_eq!((last.p1, last.p2), (p1, p2), "game {}", g + 1);
        assert_eq!(
            (last.b1, last.b2),
            (trumps(0), trumps(1)),
            "game {}: BriscoleTotali",
            g + 1
        );
    }
}

#[test]
fn game_csv_and_parquet_exports_have_the_right_rows() {
    let dir = small_run();
    let p = dir.path();
    export(p, "games", "csv", "games.csv");
    export(p, "tricks", "csv", "tricks.csv");
    export(p, "tricks", "parquet", "tricks.parquet");
    export(p, "games", "parquet", "games.parquet");

    // The game CSV: a header and one row per game, agreeing with the trick log's final scores.
    let games = std::fs::read_to_string(p.join("games.csv")).unwrap();
    let mut lines = games.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no {name} in {header:?}"))
    };
    let (gid, mid, pg1, pg2) = (
        col("game_id"),
        col("match_id"),
        col("points_g1"),
        col("points_g2"),
    );
    let body: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(body.len(), 90);
    let tricks = parse_rows(&std::fs::read_to_string(p.join("tricks.csv")).unwrap());
    for (i, r) in body.iter().enumerate() {
        assert_eq!(r.len(), header.len());
        assert_eq!(
            r[gid],
            (i + 1).to_string(),
            "game_id runs 1..=90 like PartitaId"
        );
        assert_eq!(r[mid], (i / 10 + 1).to_string());
        let t = &tricks[i * 20];
        assert_eq!(
            (r[pg1], r[pg2]),
            (t.p1.to_string().as_str(), t.p2.to_string().as_str()),
            "game {}",
            i + 1
        );
    }

    // Parquet: same row counts, with a match_id column covering 1..=9.
    for (file, rows) in [("tricks.parquet", 1800), ("games.parquet", 90)] {
        let df = parquet(&p.join(file));
        assert_eq!(df.height(), rows, "{file}");
        let ids: BTreeSet<u32> = df
            .column("match_id")
            .and_then(|c| c.cast(&DataType::UInt32))
            .unwrap()
            .u32()
            .unwrap()
            .into_no_null_iter()
            .collect();
        assert_eq!(ids, (1..=9).collect::<BTreeSet<u32>>(), "{file}");
    }
}

#[test]
fn export_into_a_missing_directory_fails_and_writes_nothing() {
    let dir = small_run();
    for format in ["csv", "parquet"] {
        let o = briscola(
            &[
                "export",
                "tricks",
                "--format",
                format,
                "--from",
                "t",
                "--out",
                "missing/tricks.out",
            ],
            dir.path(),
        );
        // A directory that is not there is bad usage, refused before anything is read: exit 2
        // (the README's exit-code table; issue 26 found exit 1 here).
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains("does not exist") && err.contains("missing/tricks.out"),
            "{err}"
        );
        assert!(!dir.path().join("missing").exists());
    }
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["t"]);
}

/// The trick table is written only with `--trick-log`; without it the export regenerates it
/// from each shard's seed, and both give the same CSV bytes and the same Parquet rows (the
/// Parquet metadata names the tournament's manifest, which differs), over more than one engine
/// chunk per shard. The logged table comes from the table-driven engine (`play_keyed`), the
/// regenerated one from `play_game`, so this also holds the two engines' tricks equal.
#[test]
fn regenerated_trick_export_equals_the_logged_one() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let args = [
        "--games",
        "600000",
        "--seed",
        "42",
        "--policies",
        "greedy,counter",
    ];
    simulate_into(p, &p.join("t"), &args, &[]);
    let logged: Vec<&str> = args.iter().copied().chain(["--trick-log"]).collect();
    simulate_into(p, &p.join("l"), &logged, &[]);
    assert!(!p.join("t/greedy-vs-counter/tricks.parquet").exists());
    assert!(p.join("l/greedy-vs-counter/tricks.parquet").is_file());
    let mut frames = Vec::new();
    for format in ["csv", "parquet"] {
        let mut bytes = Vec::new();
        for from in ["t", "l"] {
            let out = format!("{from}.{format}");
            let o = briscola(
                &[
                    "export", "tricks", "--format", format, "--from", from, "--out", &out,
                ],
                p,
            );
            assert_exit(&o, 0);
            bytes.push(std::fs::read(p.join(&out)).unwrap());
            if format == "parquet" {
                frames.push(parquet(&p.join(&out)));
            }
            std::fs::remove_file(p.join(&out)).unwrap();
        }
        assert!(bytes[0].len() > 1_000_000, "{format}");
        if format == "csv" {
            assert!(bytes[0] == bytes[1], "csv: regenerated != logged");
        }
    }
    assert_eq!(frames[0].height(), 4 * 150_000 * 20);
    assert!(
        frames[0].equals(&frames[1]),
        "parquet: regenerated != logged"
    );
}

#[test]
fn failed_export_leaves_no_partial_file() {
    let dir = small_run();
    std::fs::write(
        dir.path().join("t/hoarder-vs-hoarder/tricks.parquet"),
        b"not parquet",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("x")).unwrap();
    for (format, out) in [("csv", "x/tricks.csv"), ("parquet", "x/tricks.parquet")] {
        let o = briscola(
            &[
                "export", "tricks", "--format", format, "--from", "t", "--out", out,
            ],
            dir.path(),
        );
        assert_exit(&o, 1);
        assert!(
            stderr(&o).contains("hoarder-vs-hoarder/tricks.parquet"),
            "{}",
            stderr(&o)
        );
        // With the remedy, not the library's sentence alone.
        assert!(stderr(&o).contains("briscola verify"), "{}", stderr(&o));
    }
    let left: Vec<String> = std::fs::read_dir(dir.path().join("x"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn export_from_a_study_needs_its_outputs() {
    let dir = study(BASE_CONFIG);
    let p = dir.path();
    let args = |study: &'static str| {
        [
            "export",
            "tricks",
            "--format",
            "csv",
            "--study",
            study,
            "--out",
            "tricks.csv",
        ]
    };

    // Before `briscola run`: exit 2, saying what is missing and what to run.
    let o = briscola(&args("paper"), p);
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("does not exist") && err.contains("briscola run"),
        "{err}"
    );
    assert!(!p.join("tricks.csv").exists());

    // An unknown study is named, with the studies there are.
    let o = briscola(&args("nope"), p);
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("--study nope") && err.contains("paper"),
        "{err}"
    );

    // Neither --from nor --study.
    let o = briscola(&["export", "games", "--format", "csv", "--out", "g.csv"], p);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("--from") && stderr(&o).contains("--study"),
        "{}",
        stderr(&o)
    );

    // --from a directory that is not a tournament.
    let o = briscola(
        &[
            "export",
            "games",
            "--format",
            "csv",
            "--from",
            "templates",
            "--out",
            "g.csv",
        ],
        p,
    );
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--from"), "{}", stderr(&o));

    // After the run: BASE_CONFIG plays floor(900 / 9) = 100 games per matchup, 20 tricks each.
    assert_exit(&briscola(&["run"], p), 0);
    let o = briscola(&args("paper"), p);
    assert_exit(&o, 0);
    let rows = parse_rows(&std::fs::read_to_string(p.join("tricks.csv")).unwrap());
    assert_eq!(rows.len(), 900 * 20);
    assert_eq!(rows.last().unwrap().partita, 900);
    assert_eq!(rows.last().unwrap().match_id, 9);
}
