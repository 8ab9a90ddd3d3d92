//! Rules variants through the real binary: a study's `rules` field in `pipeline.toml` (the
//! loser-draws-first study runs end to end; impossible variants and policies with no meaning in
//! a variant are exit 2 naming the field), and the general engine through the public API.

use briscola::game::{Deck, DrawOrder, RulesSpec, SeatRng, play_table};
use briscola::policy::{FollowReading, PolicyKind, PolicySpec, TablePolicy, TieBreak};

use crate::common::{
    BASE_CONFIG, assert_exit, briscola, file_hashes, matchups, simulate_into, stderr, stdout, study,
};

fn with_variant(rules: &str) -> String {
    format!("{BASE_CONFIG}\n[variants.v]\nlabel = \"a variant\"\nrules = {rules}\n")
}

#[test]
fn impossible_variants_and_meaningless_policies_exit_2_naming_the_field() {
    for (rules, want) in [
        ("{ players = 6, hand_size = 5 }", "five-card hands"),
        (
            "{ players = 4, scoperta = true }",
            "Scoperta is a two-player game",
        ),
        ("{ players = 3, deck = 39 }", "players = 3"),
        ("{ deck = 36 }", "deck = 36"),
        ("{ deck = 39 }", "deck = 39 with players = 2"),
        (
            "{ hand_size = 5, trump = \"none\" }",
            "trump = \"none\" with players = 2",
        ),
        ("{ draw_order = \"sideways\" }", "variants.v.rules"),
        ("{ playerz = 2 }", "playerz"),
    ] {
        let dir = study(&with_variant(rules));
        let out = briscola(&["run"], dir.path());
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.contains("variants.v"), "{rules}: {err}");
        assert!(err.contains(want), "{rules}: {err} should say {want:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_reading_without_partners_or_unknown_exits_2_naming_the_field() {
    for (extra, want) in [
        ("reading = \"partner-aware\"\n", "no seat has a partner"),
        (
            "reading = \"partner-aware\"\nrules = { players = 3, deck = 39 }\n",
            "players = 3",
        ),
        ("reading = \"sideways\"\n", "variants.v"),
    ] {
        let cfg = format!("{BASE_CONFIG}\n[variants.v]\nlabel = \"a variant\"\n{extra}");
        let dir = study(&cfg);
        let out = briscola(&["run"], dir.path());
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(err.contains("variants.v"), "{extra}: {err}");
        assert!(err.contains(want), "{extra}: {err} should say {want:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The four-player blind study in both readings runs end to end through the real binary: its
/// shards hold four seats, its analysis runs on the two partnerships, and the report answers
/// the variant questions (greedy's dominance, the briscola effect against two-player play).
#[test]
fn four_player_studies_run_in_both_readings_and_are_reported() {
    let cfg = format!(
        "{BASE_CONFIG}\n[variants.four]\nlabel = \"four players\"\nrules = {{ players = 4 }}\n\
         \n[variants.four-aware]\nlabel = \"four players, partner-aware\"\n\
         rules = {{ players = 4 }}\nreading = \"partner-aware\"\n"
    );
    let dir = study(&cfg);
    let out = briscola(&["run"], dir.path());
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("simulate/four/greedy-vs-hoarder"));
    let shard = dir
        .path()
        .join("outputs/four/simulate/greedy-vs-hoarder/shard.json");
    let text =
        std::fs::read_to_string(&shard).unwrap_or_else(|e| panic!("{}: {e}", shard.display()));
    assert!(text.contains("\"players\": 4"), "{text}");
    let aware = std::fs::read_to_string(
        dir.path()
            .join("outputs/four-aware/simulate/greedy-vs-hoarder/shard.json"),
    )
    .unwrap();
    assert!(aware.contains("\"reading\": \"partner-aware\""), "{aware}");
    assert!(
        !text.contains("reading"),
        "verbatim is the default, omitted: {text}"
    );
    let report = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    for want in [
        "Does greedy still dominate the four-player blind game?",
        "Is the briscola effect larger with partners?",
        "`four` (verbatim)",
        "`four-aware` (partner-aware)",
    ] {
        assert!(report.contains(want), "the report says {want:?}");
    }
    let html = std::fs::read_to_string(dir.path().join("outputs/report.html")).unwrap();
    assert!(html.contains("id=\"variants-briscola-effect\""));

    // `simulate --study` plays a team study outside the pipeline: the same tables, byte for
    // byte, and `export --from` reads them as `export --study` reads the study's.
    let sim = dir.path().join("sim");
    simulate_into(dir.path(), &sim, &["--study", "four-aware"], &[]);
    let ours = file_hashes(&dir.path().join("outputs/four-aware/simulate"));
    let theirs = file_hashes(&sim);
    for m in matchups(&["greedy", "hoarder", "counter"]) {
        for table in ["games.parquet", "tricks.parquet"] {
            let key = format!("{m}/{table}");
            assert_eq!(ours.get(&key), theirs.get(&key), "{key}");
            assert!(ours.contains_key(&key), "{key}");
        }
    }
    for table in ["games", "tricks"] {
        let from = briscola(
            &[
                "export", table, "--from", "sim", "--format", "csv", "--out", "-",
            ],
            dir.path(),
        );
        let by_study = briscola(
            &[
                "export",
                table,
                "--study",
                "four-aware",
                "--format",
                "csv",
                "--out",
                "-",
            ],
            dir.path(),
        );
        assert_exit(&from, 0);
        assert_exit(&by_study, 0);
        assert!(stdout(&from).starts_with("game_id,match_id,"), "{table}");
        assert!(
            stdout(&from) == stdout(&by_study),
            "{table}: --from and --study differ"
        );
    }
}

#[test]
fn a_loser_first_study_runs_and_is_reported() {
    let dir = study(&with_variant("{ draw_order = \"loser-first\" }"));
    let out = briscola(&["run"], dir.path());
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("simulate/v/greedy-vs-hoarder"));
    let report = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    assert!(
        report.contains("Study `v`: a variant"),
        "the variant has its section"
    );
}

/// The four-player engine through the public API: the logic model's constraints (one card per
/// player per trick, one leader per trick, the winner of trick t leads t + 1) on a fixed deal.
#[test]
fn four_player_game_through_the_public_api() {
    let rules = RulesSpec {
        players: 4,
        draw_order: DrawOrder::WinnerFirst,
        ..RulesSpec::default()
    }
    .validate()
    .unwrap();
    let spec = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased);
    let p = TablePolicy::new(&spec, &rules, FollowReading::PartnerAware).unwrap();
    let mut rngs: Vec<SeatRng> = (0..4).map(|s| SeatRng::new([s; 32], 0)).collect();
    let mut tricks = Vec::new();
    let out = play_table(
        &rules,
        &Deck::ordered(),
        &[&p; 4],
        &mut rngs,
        &mut |t: &_| tricks.push(*t),
    );
    assert_eq!(tricks.len(), 10);
    for w in tricks.windows(2) {
        let (a, b): (&briscola::game::TableTrick, &briscola::game::TableTrick) = (&w[0], &w[1]);
        assert_eq!(b.leader, a.winner);
    }
    let sides = out.side_points(&rules);
    assert_eq!(sides[0] + sides[1], 120);
}

/// A four-player shard written by the simulate stage and counted by the aggregate stage equals
/// the same games played through the public API: the sides' wins, ties, briscola imbalances and
/// Table 5's trump counts (a trump "wins" when that card took the trick; "wasted" when every
/// other card of the trick is worth nothing), seat streams keyed by seat.
#[test]
fn a_four_player_shard_is_counted_by_side() {
    use briscola::analysis::seat_trump_use::count_seat_trump_use;
    use briscola::analysis::shard_counts::count_shard;
    use briscola::tournament::{
        DealSourceKind, DealStream, GAMES_FILE, ShardSpec, TRICKS_FILE, play_batch_seats,
        table_seat_key,
    };
    let spec = RulesSpec {
        players: 4,
        ..RulesSpec::default()
    };
    let rules = spec.validate().unwrap();
    let g = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased);
    let h = PolicySpec::paper(PolicyKind::Hoarder, TieBreak::AsReleased);
    let reading = FollowReading::PartnerAware;
    let games = 700u64;
    let shard = ShardSpec {
        deal_source: DealSourceKind::Chacha,
        seed: 11,
        rules: spec,
        reading,
        games,
        g1: g.clone(),
        g2: h.clone(),
        first_game: 0,
        trick_log: false,
        paired: false,
    };
    let dir = tempfile::tempdir().unwrap();
    let summary = shard.run(dir.path(), &|_| {}).unwrap();
    // A team shard keeps its trick table whatever `trick_log` says: Table 5 per side is
    // counted from it (what the aggregate stage does).
    let trump_use = count_seat_trump_use(&dir.path().join(TRICKS_FILE)).unwrap();
    let counts = count_shard(&dir.path().join(GAMES_FILE), trump_use, &|_| (None, None)).unwrap();

    let mut decks = Vec::new();
    DealStream::chacha(11, g.stream_name(), h.stream_name()).next_chunk(games as usize, &mut decks);
    let tg = TablePolicy::new(&g, &rules, reading).unwrap();
    let th = TablePolicy::new(&h, &rules, reading).unwrap();
    let names = [g.stream_name(), h.stream_name()];
    let keys: Vec<[u8; 32]> = (0..4)
        .map(|s| table_seat_key(11, names[s % 2], s as u8))
        .collect();
    let played = play_batch_seats(&rules, &decks, 0, &keys, &[&tg, &th, &tg, &th]);
    let (mut wins, mut ties, mut folk_games) = (0u64, 0u64, 0u64);
    let mut trumps = [(0u64, 0u64, 0u64, 0u64); 2];
    for p in &played {
        let o = &p.outcome;
        match o.winner_side(&rules) {
            None => ties += 1,
            Some(0) => wins += 1,
            Some(_) => {}
        }
        let b = o.side_briscole(&rules);
        if o.winner_side(&rules).is_some() && b[0] != b[1] {
            folk_games += 1;
        }
        for t in &p.tricks {
            for s in 0..4 {
                let c = t.card_of(s);
                if Some(c.suit()) != o.trump {
                    continue;
                }
                let u = &mut trumps[s % 2];
                u.0 += 1;
                if t.winner as usize == s {
                    u.1 += 1;
                    u.2 += t.points as u64;
                }
                if t.points == c.points() {
                    u.3 += 1;
                }
            }
        }
    }
    assert_eq!(counts.games, games);
    assert_eq!((counts.g1_wins, counts.ties), (wins, ties));
    assert_eq!((summary.g1_wins, summary.ties), (wins, ties));
    assert_eq!(counts.folk.iter().flatten().sum::<u64>(), folk_games);
    assert_eq!(
        counts.deltas.iter().map(|d| d.non_tied).sum::<u64>(),
        games - ties
    );
    for (u, want) in counts.trump_use.iter().zip(trumps) {
        assert_eq!((u.n_played, u.wins, u.points_won, u.wasted), want);
        assert!(u.n_played > 0);
    }
    // Ten trumps in a 40-card deck: the two sides' counts sum to ten in every game.
    assert!(played.iter().all(|p| {
        let b = p.outcome.side_briscole(&rules);
        b[0] + b[1] == 10
    }));
}
