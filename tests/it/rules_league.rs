//! Leagues under other rules (`[leagues.NAME] rules = { ... }`) through the real binary: a
//! Briscola a 31 league's games end when a seat reaches 31, a three-player league's games have
//! three seats whose points sum to the 39-card deck's 120 and whose six seatings play the same
//! deals, one and two threads give the same lock, and bad `rules` are refused with exit 2
//! naming the file and the field.

use std::path::Path;

use briscola::analysis::league_pair::point_columns;

use crate::common::{BASE_CONFIG, assert_exit, briscola, briscola_env, stderr, study};

fn league(policies: &str, games: u64, rules: &str) -> String {
    format!(
        "{BASE_CONFIG}\n[leagues.lg]\nlabel = \"a rules league\"\npolicies = {policies}\ngames_per_pair = {games}\nseed = 9\nrules = {rules}\n"
    )
}

fn games(dir: &Path, slug: &str, columns: &[&str]) -> Vec<Vec<u64>> {
    let path = dir.join(format!("outputs/lg/simulate/{slug}/games.parquet"));
    point_columns(&path, columns).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn results(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("outputs/results.json")).expect("results.json");
    serde_json::from_str(&text).expect("results.json parses")
}

#[test]
fn a_target_31_league_ends_every_game_when_a_seat_reaches_31() {
    let dir = study(&league("[\"greedy\", \"hoarder\"]", 400, "{ target = 31 }"));
    assert_exit(&briscola(&["run"], dir.path()), 0);
    for slug in ["greedy-vs-hoarder", "hoarder-vs-greedy"] {
        let c = games(
            dir.path(),
            slug,
            &["points_s1", "points_s2", "tricks", "winner"],
        );
        assert_eq!(c[0].len(), 400);
        let rows = c[0].iter().zip(&c[1]).zip(&c[2]).zip(&c[3]);
        for (j, (((&p1, &p2), &tricks), &winner)) in rows.enumerate() {
            let (w, l) = if winner == 1 { (p1, p2) } else { (p2, p1) };
            assert!(
                w >= 31 && l < 31,
                "{slug} game {j}: {p1}-{p2}, winner {winner}"
            );
            assert!(
                tricks < 20,
                "{slug} game {j} ended by a claim, not the deck"
            );
        }
    }
    let r = results(dir.path());
    let lg = &r["leagues"][0];
    assert_eq!(lg["settings"]["rules"]["target"], 31);
    assert!(lg["pairs"][0]["b_points"]["value"].as_f64().unwrap() < 60.0);
    let md = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    assert!(
        md.contains("### League `lg`: "),
        "the league is headed by what it is"
    );
    assert!(md.contains("lg (first side to 31 points wins): who is strongest?"));
}

#[test]
fn a_three_player_league_plays_each_deal_in_six_seatings_of_three_seats() {
    let dir = study(&league(
        "[\"greedy\", \"hoarder\", \"counter\"]",
        300,
        "{ players = 3, deck = 39 }",
    ));
    assert_exit(&briscola(&["run"], dir.path()), 0);
    let slugs = [
        "greedy-vs-hoarder-vs-counter",
        "greedy-vs-counter-vs-hoarder",
        "hoarder-vs-greedy-vs-counter",
        "hoarder-vs-counter-vs-greedy",
        "counter-vs-greedy-vs-hoarder",
        "counter-vs-hoarder-vs-greedy",
    ];
    let cols = ["points_s1", "points_s2", "points_s3", "face_up", "tricks"];
    let first = games(dir.path(), slugs[0], &cols);
    for slug in slugs {
        let c = games(dir.path(), slug, &cols);
        assert_eq!(c[0].len(), 300);
        let rows = c[0].iter().zip(&c[1]).zip(&c[2]).zip(&c[4]);
        for (j, (((p1, p2), p3), tricks)) in rows.enumerate() {
            assert_eq!(p1 + p2 + p3, 120, "{slug} game {j}");
            assert_eq!(*tricks, 13, "39 cards, 3 seats: 13 tricks");
        }
        assert_eq!(
            c[3], first[3],
            "{slug} plays the same deals (face-up cards)"
        );
    }
    let r = results(dir.path());
    let s = r["leagues"][0]["standings"].as_array().expect("standings");
    assert_eq!(s.len(), 3);
    let total: f64 = s
        .iter()
        .map(|x| x["win_share"]["value"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-6, "shares sum to 1: {total}");
    assert_eq!(r["leagues"][0]["pairs"].as_array().unwrap().len(), 3);
    assert!(dir.path().join("outputs/tables/lg/standings.csv").exists());
}

#[test]
fn rules_leagues_give_the_same_lock_on_one_and_two_threads() {
    let text = league("[\"greedy\", \"hoarder\"]", 1500, "{ deck = 36 }")
        + "\n[leagues.three]\nlabel = \"three\"\npolicies = [\"greedy\", \"hoarder\", \"counter\"]\ngames_per_pair = 1500\nseed = 3\nrules = { players = 3, deck = 39 }\n";
    let (one, two) = (study(&text), study(&text));
    for (d, t) in [(&one, "1"), (&two, "2")] {
        assert_exit(
            &briscola_env(&["run"], d.path(), &[("RAYON_NUM_THREADS", t)]),
            0,
        );
    }
    let lock = |d: &Path| std::fs::read_to_string(d.join("outputs/pipeline.lock")).unwrap();
    assert_eq!(lock(one.path()), lock(two.path()));
}

#[test]
fn bad_league_rules_exit_2_naming_the_file_and_field() {
    for (policies, rules, field, want) in [
        (
            "[\"greedy\", \"hoarder\"]",
            "{ colour = 1 }",
            "leagues.lg.rules",
            "unknown",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "{ deck = 37 }",
            "leagues.lg.rules",
            "deck = 37",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "{ players = 3, deck = 39, target = 31 }",
            "leagues.lg.rules",
            "two-player game",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "{ players = 3, deck = 39 }",
            "leagues.lg.rules",
            "exactly 3 policies",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "{ players = 4 }",
            "leagues.lg.rules",
            "players = 2 or 3",
        ),
        (
            "[\"hoarder\", \"greedy\"]",
            "{ hand_size = 5, trump = \"none\" }",
            "leagues.lg.policies[0]",
            "`hoarder`",
        ),
        (
            "[\"greedy\", \"search\"]",
            "{ deck = 36 }",
            "leagues.lg.policies[1]",
            "`search` (search) plays the standard two-player rules only",
        ),
    ] {
        let text = league(policies, 100, rules)
            + "\n[policies.search]\nkind = \"search\"\nworlds = 2\nhorizon = 1\n";
        let dir = study(&text);
        let out = briscola(&["run"], dir.path());
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(
            err.contains("pipeline.toml"),
            "{rules}: {err} names the file"
        );
        assert!(err.contains(field), "{rules}: {err} should name {field}");
        assert!(err.contains(want), "{rules}: {err} should say {want:?}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!dir.path().join("outputs/pipeline.lock").exists());
    }
}

/// Two random players (every policy has a meaning without a trump).
const RANDOMS: &str =
    "\n[policies.random]\nkind = \"random\"\n\n[policies.r2]\nkind = \"random\"\n";

/// A two-player study without a trump is refused at config load (its shard tables record each
/// game's trump; it once reached an assert in the table batch), even when every policy has a
/// meaning there; a league of the same rules plays it on seat tables.
#[test]
fn a_two_player_study_without_a_trump_is_exit_2_and_a_league_plays_it() {
    for hand_size in [3, 5] {
        let rules = format!("{{ hand_size = {hand_size}, trump = \"none\" }}");
        let text = BASE_CONFIG
            .replace(
                "policies = [\"greedy\", \"hoarder\", \"counter\"]",
                "policies = [\"random\", \"r2\"]",
            )
            .replace(
                "baseline = [\"greedy\", \"greedy\"]",
                "baseline = [\"random\", \"random\"]",
            )
            .replace(
                "reference_policy = \"greedy\"",
                "reference_policy = \"random\"",
            )
            + RANDOMS
            + &format!("\n[variants.nt]\nlabel = \"no trump\"\nrules = {rules}\n");
        let dir = study(&text);
        let out = briscola(&["run"], dir.path());
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(
            err.contains("pipeline.toml")
                && err.contains("variants.nt.rules")
                && err.contains("trump = \"none\" with players = 2")
                && !err.contains("panicked"),
            "{err}"
        );
        assert!(!dir.path().join("outputs/pipeline.lock").exists());
    }
    let dir = study(
        &(league(
            "[\"random\", \"r2\"]",
            200,
            "{ hand_size = 5, trump = \"none\" }",
        ) + RANDOMS),
    );
    assert_exit(&briscola(&["run"], dir.path()), 0);
    let g = games(
        dir.path(),
        "random-vs-r2",
        &["trump_suit", "points_s1", "points_s2"],
    );
    assert!(g[0].iter().all(|&t| t == 255), "no trump suit recorded");
    assert!(g[1].iter().zip(&g[2]).all(|(a, b)| a + b == 120));
}

/// A three-player league is read deal by deal across its six seatings, so it cannot deal each
/// seating its own games: `paired = false` is refused naming the field.
#[test]
fn a_three_player_league_with_unpaired_deals_is_exit_2() {
    let text = league(
        "[\"greedy\", \"hoarder\", \"counter\"]",
        100,
        "{ players = 3, deck = 39 }",
    ) + "paired = false\n";
    let dir = study(&text);
    let out = briscola(&["run"], dir.path());
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains("pipeline.toml")
            && err.contains("leagues.lg.paired")
            && !err.contains("panicked"),
        "{err}"
    );
    // Two players may deal each seating on its own.
    let two = league("[\"greedy\", \"hoarder\"]", 100, "{ deck = 36 }") + "paired = false\n";
    assert_exit(&briscola(&["run"], study(&two).path()), 0);
}
