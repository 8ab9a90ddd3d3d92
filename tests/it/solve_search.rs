//! `briscola solve` and the `search` policy through the real binary: the logic model's seed
//! position answered with a witness (snapshot), an open two-player position's minimax value,
//! malformed positions (exit 2 naming the file, the field and what is valid), and the search
//! agent against greedy in a small `simulate` run (it must win significantly more than half of
//! the decided games) and in `pipeline.toml` (zero worlds: exit 2).

use crate::common::*;
use briscola::tournament::read_manifest;

const SEED: &str = include_str!("../data/solve/logic-model-seed.toml");

fn solve_text(text: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("position.toml"), text).unwrap();
    briscola(&["solve", "position.toml"], dir.path())
}

/// The seed: "for some completion" answered with a line (the earliest: tricks 1 to 4); "for
/// every completion" of its 4 tricks is not answered within the default budget (issue 30), so
/// the report adds the most tricks that is proved for every completion: 3 (the SAT-guided
/// cover proves it within the default budget; 1 is easy by hand: Player-1 leads the 2 of Coins
/// and the others can always play the Knight of Cups, the Jack of Clubs and the 5 of Cups under
/// it), and the sampled completions.
#[test]
fn the_seed_position_is_answered_with_a_witness() {
    let o = solve_text(SEED);
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("For some completion of the unknown cards: yes. A witness line:"),
        "{out}"
    );
    // The witness meets the goal as early as a line can: Player-1 takes tricks 1 to 4.
    let tricks: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("    trick "))
        .collect();
    assert_eq!(tricks.len(), 4, "{out}");
    assert!(
        tricks.iter().all(|t| t.ends_with("-> Player-1 wins")),
        "{out}"
    );
    assert!(
        out.contains(
            "what is proved: for every completion Player-1 can win at least 3 of the 10 tricks left"
        ),
        "{out}"
    );
    // 1,000 completions drawn (seed 1), each with a line: at most 0.299 % lack one, R 4.2.2's
    // binom.test(0, 1000, alternative = "less")$conf.int[2] = 0.0029912495.
    assert!(
        out.contains(
            "sampled: 1000 completions drawn uniformly at random (seed 1) and searched one by one: every one has a line; so at most 0.299 % of the completions lack one"
        ),
        "{out}"
    );
    insta::assert_snapshot!("solve_seed", out);
}

/// An open two-player endgame: two cards each, nothing unknown.
const OPEN_TWO: &str = r#"
trump = "Cups"
leader = 2
hands = [["Ace of Coins", "2 of Cups"], ["3 of Coins", "King of Cups"]]
played = [
  "2 of Coins", "4 of Coins", "5 of Coins", "6 of Coins", "7 of Coins", "Jack of Coins", "Knight of Coins", "King of Coins",
  "Ace of Swords", "2 of Swords", "3 of Swords", "4 of Swords", "5 of Swords", "6 of Swords", "7 of Swords", "Jack of Swords", "Knight of Swords", "King of Swords",
  "Ace of Clubs", "2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs", "6 of Clubs", "7 of Clubs", "Jack of Clubs", "Knight of Clubs", "King of Clubs",
  "Ace of Cups", "3 of Cups", "4 of Cups", "5 of Cups", "6 of Cups", "7 of Cups", "Jack of Cups", "Knight of Cups",
]
[goal]
player = 1
points = 20
"#;

#[test]
fn an_open_two_player_position_prints_its_minimax_value() {
    let o = solve_text(OPEN_TWO);
    assert_exit(&o, 0);
    // Cups are trumps and Player-2 leads. If it leads the Three of Coins, Player-1 takes it with
    // the Ace (21) and loses the Two of Cups to the King (4); if it leads the King of Cups,
    // Player-1 throws the Two (4 to Player-2) and takes the Three with the Ace (21): 21 to 4.
    insta::assert_snapshot!("solve_open_two", stdout(&o));
    assert!(stdout(&o).contains("Player-1 takes 21 and Player-2 4 of the 25 points left"));
}

fn assert_bad(text: &str, must_say: &[&str]) {
    let o = solve_text(text);
    assert_exit(&o, 2);
    let e = stderr(&o);
    assert!(e.contains("position.toml"), "names the file: {e}");
    for m in must_say {
        assert!(e.contains(m), "{m:?} missing from: {e}");
    }
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn malformed_positions_exit_2_naming_the_file_and_the_field() {
    assert_bad(
        &SEED.replace("\"Jack of Clubs\"", "\"Ace of Coins\""),
        &["hands[2][1]", "Ace of Coins is listed twice", "hands[1][1]"],
    );
    assert_bad(
        &SEED.replace("\"Jack of Clubs\"", "\"Jack of Clubz\""),
        &[
            "hands[2][1]",
            "`Jack of Clubz` is not a card",
            "Coins, Swords, Clubs, Cups",
        ],
    );
    assert_bad(
        &SEED.replace("tricks = 4", "tricks = 11"),
        &["goal.tricks", "11 is out of range", "use 1 to 10"],
    );
    assert_bad(
        &SEED.replace("tricks = 4", "tricks = 0"),
        &["goal.tricks", "use 1 to 10"],
    );
    assert_bad(
        &SEED.replace(
            "[\"3 of Coins\", \"5 of Cups\"]",
            "[\"3 of Coins\", \"5 of Cups\"], [\"4 of Cups\"]",
        ),
        &["hands", "5 hands listed for 4 players"],
    );
    assert_bad(
        &SEED.replace("hands = [", "unknown = [0, 0, 2, 1]\nhands = ["),
        &["hands", "hand sizes", "[3, 3, 4, 3]"],
    );
    assert_bad(
        &SEED.replace("player = 1", "player = 5"),
        &["goal.player", "use 1 to 4"],
    );
    assert_bad(
        &SEED.replace("trump = \"Swords\"", "trump = \"Hearts\""),
        &["trump", "Coins, Swords, Clubs or Cups"],
    );
    assert_bad(&SEED.replace("players = 4", "players = 5"), &["rules"]);
    assert_bad(&SEED.replace("[goal]", "colour = 1\n[goal]"), &["colour"]);
    assert_bad(
        "this is not toml",
        &["position.toml:1:", "a position file gives"],
    );
    // A missing table or a wrong kind of value: one line at the place, with the file's form
    // (it was the TOML library's caret drawing and "expected a sequence").
    let no_goal = SEED.split("[goal]").next().unwrap().to_string();
    assert_bad(&no_goal, &["`goal`", "a [goal] table with player"]);
    let o = solve_text(&SEED.replace(
        "leader = 1",
        "hands2 = 1
leader = \"x\"",
    ));
    assert_exit(&o, 2);
    assert_eq!(stderr(&o).trim().lines().count(), 1, "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let o = briscola(&["solve", "missing.toml"], dir.path());
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("missing.toml: cannot read"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn search_beats_greedy_in_a_small_simulate_run() {
    let dir = tempfile::tempdir().unwrap();
    // 4 ordered matchups x 150 games: search meets greedy in 300 games, 150 in each seat.
    let o = briscola(
        &[
            "simulate",
            "--policies",
            "search,greedy",
            "--games",
            "600",
            "--seed",
            "5",
            "--deal-source",
            "chacha",
            "--out",
            "t",
        ],
        dir.path(),
    );
    assert_exit(&o, 0);
    let m = read_manifest(&dir.path().join("t")).unwrap();
    let (mut wins, mut decided) = (0, 0);
    for s in &m.shards {
        match s.dir.as_str() {
            "search-vs-greedy" => {
                wins += s.summary.g1_wins;
                decided += s.summary.non_tied;
            }
            "greedy-vs-search" => {
                wins += s.summary.non_tied - s.summary.g1_wins;
                decided += s.summary.non_tied;
            }
            _ => {}
        }
    }
    let rate = wins as f64 / decided as f64;
    let lo = briscola::stats::wilson(wins, decided, 0.95).unwrap().lo;
    assert!(
        lo > 0.5,
        "search wins {wins} of {decided} decided games against greedy ({rate:.3}, 95% lower bound {lo:.3})"
    );
}

#[test]
fn zero_worlds_is_a_config_error() {
    let cfg = BASE_CONFIG
        .replace(
            "[policies.greedy]",
            "[policies.deep]\nkind = \"search\"\nworlds = 0\n\n[policies.greedy]",
        )
        .replace(
            "policies = [\"greedy\", \"hoarder\", \"counter\"]",
            "policies = [\"greedy\", \"deep\"]",
        );
    let dir = study(&cfg);
    let o = briscola(&["status"], dir.path());
    assert_exit(&o, 2);
    let e = stderr(&o);
    assert!(
        e.contains("policies.deep.worlds") && e.contains("use 1 to 100000"),
        "{e}"
    );
}

/// Two players, seven tricks left, Player-1's three low Cups against eleven unknown cards
/// (`tests/data/solve/three-low-cups.toml`): the exact "for every completion" search needs more
/// than 12,000 nodes (about 18,000), but draw 2 of the sampled completions drawn from seed 8
/// has no line to 3 tricks, which answers "no" exactly; seed 1's 21 draws within that budget
/// all have a line.
const SMALL: &str = include_str!("../data/solve/three-low-cups.toml");

#[test]
fn sampled_completions_refute_what_the_exact_search_leaves_open() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("position.toml"), SMALL).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", "position.toml", "--max-nodes", "12000"];
        args.extend_from_slice(extra);
        let o = briscola(&args, dir.path());
        assert_exit(&o, 0);
        stdout(&o)
    };
    let out = run(&["--seed", "8"]);
    assert!(
        out.contains("For every completion of the unknown cards: no. With the unknown cards placed so, no line of play reaches it:"),
        "{out}"
    );
    assert!(
        out.contains("(found by sampling: draw 2 of the completions drawn uniformly at random (seed 8) and searched one by one, its exact search finds no line)"),
        "{out}"
    );
    // Without draws the same budget leaves it open; another seed draws other completions.
    let off = run(&["--seed", "8", "--samples", "0"]);
    assert!(
        off.contains("For every completion of the unknown cards: not answered")
            && !off.contains("sampled"),
        "{off}"
    );
    let other = run(&[]);
    assert!(
        other.contains("(seed 1)") && !other.contains("found by sampling"),
        "{other}"
    );
    let o = briscola(
        &["solve", "position.toml", "--samples", "2000000"],
        dir.path(),
    );
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--samples"), "{}", stderr(&o));
}

/// A node budget too small to answer says so (never a guessed "no"); a zero budget is bad input.
#[test]
fn a_search_out_of_nodes_says_it_did_not_answer() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("position.toml"), SEED).unwrap();
    let o = briscola(&["solve", "position.toml", "--max-nodes", "10"], dir.path());
    assert_exit(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("For some completion of the unknown cards: not answered: the search stopped after 10 nodes"),
        "{out}"
    );
    assert!(
        !out.contains(": no:") && !out.contains(": no.") && !out.contains(": no ("),
        "{out}"
    );
    assert!(
        out.contains("For every completion of the unknown cards: not answered"),
        "{out}"
    );
    let o = briscola(&["solve", "position.toml", "--max-nodes", "0"], dir.path());
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--max-nodes"), "{}", stderr(&o));
}

/// The search agent samples its worlds from its seat's own stream, keyed by game index: its
/// shards are byte-identical on 1 and 2 threads.
#[test]
fn search_shards_are_identical_on_one_and_two_threads() {
    use crate::common::{file_hashes, simulate_into};
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--policies",
        "search,hoarder",
        "--deal-source",
        "chacha",
        "--seed",
        "9",
        "--games",
        "160",
    ];
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    simulate_into(dir.path(), &one, &args, &[("RAYON_NUM_THREADS", "1")]);
    simulate_into(dir.path(), &two, &args, &[("RAYON_NUM_THREADS", "2")]);
    let (h1, h2) = (file_hashes(&one), file_hashes(&two));
    assert!(h1.len() >= 9, "{h1:?}");
    assert_eq!(h1, h2);
}
