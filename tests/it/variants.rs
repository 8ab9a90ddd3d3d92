//! Rules variants through the real binary: a study's `rules` field in `pipeline.toml` (the
//! loser-draws-first study runs end to end; impossible variants and policies with no meaning in
//! a variant are exit 2 naming the field), and the general engine through the public API.

use briscola::game::{Deck, DrawOrder, RulesSpec, SeatRng, play_table};
use briscola::policy::{FollowReading, PolicyKind, PolicySpec, TablePolicy, TieBreak};

use crate::common::{BASE_CONFIG, assert_exit, briscola, stderr, stdout, study};

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
        ("{ players = 4 }", "players = 4"),
        ("{ deck = 39 }", "deck = 39 with players = 2"),
        (
            "{ hand_size = 5, trump = \"none\" }",
            "without a trump suit",
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
