//! The paper's tournament replayed exactly: the published integers, checked at full scale.
//! (Run in release: `cargo test --release --test replay_paper`.)

use briscola::game::Seat;
use briscola::policy::{PolicyKind, PolicySpec, TieBreak};
use briscola::tournament::{BatchStreams, DealStream, Matchup, play_outcomes, seat_keys};

#[derive(Default, Debug, PartialEq)]
struct Totals {
    games: u64,
    non_tied: u64,
    folk_games: u64,
    folk_majority_wins: u64,
    trumps_played: [u64; 3],
}

fn replay(tie: TieBreak) -> Totals {
    let policies: Vec<PolicySpec> = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter]
        .into_iter()
        .map(|k| PolicySpec::paper(k, tie))
        .collect();
    // One System.Random(42) shared by all games in matchup order.
    let mut stream = DealStream::dotnet(42, 0);
    let per = 1_000_000 / 9;
    let mut t = Totals::default();
    for m in Matchup::all(&policies) {
        let mut decks = Vec::new();
        stream.next_chunk(per, &mut decks);
        let keys = seat_keys(42, &m.g1.name, &m.g2.name);
        let streams = BatchStreams {
            first_game: 0,
            keys: &keys,
        };
        let outs = play_outcomes(&decks, streams, &m.g1.build(), &m.g2.build());
        for o in outs {
            t.games += 1;
            t.trumps_played[m.index / 3] += o.trumps_played[0] as u64;
            t.trumps_played[m.index % 3] += o.trumps_played[1] as u64;
            let Some(w) = o.winner() else { continue };
            t.non_tied += 1;
            if o.briscole[0] != o.briscole[1] {
                t.folk_games += 1;
                let major = if o.briscole[0] > o.briscole[1] {
                    Seat::G1
                } else {
                    Seat::G2
                };
                if w == major {
                    t.folk_majority_wins += 1;
                }
            }
        }
    }
    t
}

#[test]
fn as_released_reproduces_every_published_integer() {
    let t = replay(TieBreak::AsReleased);
    assert_eq!(t.games, 999_999);
    assert_eq!(t.non_tied, 975_263, "Table 4's N");
    assert_eq!(t.folk_games, 693_633, "H0(1) games");
    assert_eq!(t.folk_majority_wins, 436_627, "H0(1) majority-holder wins");
    assert_eq!(
        t.trumps_played,
        [3_289_145, 3_349_881, 3_360_964],
        "Table 5 n_played"
    );
}

#[test]
fn as_written_is_a_different_policy_family() {
    let released = replay(TieBreak::AsReleased);
    let written = replay(TieBreak::AsWritten);
    assert_eq!(written.games, 999_999);
    assert_ne!(written, released);
    // Printed so the difference can be quoted (cargo test -- --nocapture).
    println!("as-written: {written:?}");
}
