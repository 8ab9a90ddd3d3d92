//! The simulate stage's two tables for a study with more than two seats (four players in two
//! partnerships, six in two teams of three): the game table by side and by seat, and the trick
//! table with one card column per seat.
//!
//! The sides keep the two-player column names so the analysis reads a team game as it reads a
//! two-player one: `g1` is the side of seats 1, 3 (and 5) (1-based; the side that leads the first
//! trick), `g2` the side of seats 2, 4 (and 6); `points_g1`, `briscole_g1`, `trumps_played_g1`
//! and `winner` are that side's totals and result. Seat columns are suffixed `_s1` .. `_sN`.
//! Invariant: row order is game order, then trick order; the trick table has exactly
//! `rules.tricks()` rows per game; the side columns are the sums of their seats' columns.

use polars::prelude::*;

use super::shard_tables::winner_text;
use super::table_batch::TableGame;
use crate::game::{Rules, TableOutcome};

/// The name of seat `s`'s (0-based) column `what`, e.g. `card_s1` for seat 0.
pub fn seat_column(what: &str, s: usize) -> String {
    format!("{what}_s{}", s + 1)
}

/// The 1-based code of a game's winning side: 1 (`G1`), 2 (`G2`) or 0 for a tie.
fn side_code(rules: &Rules, o: &TableOutcome) -> u8 {
    o.winner_side(rules).map_or(0, |s| s as u8 + 1)
}

/// Build the game table of the games ending in `games` (their outcomes: the table needs nothing
/// of their tricks) at a table of `rules.players()` seats, the first of which has id
/// `first_game_id`; `g1_policy` plays for side 1, `g2_policy` for side 2.
pub fn seat_game_frame(
    rules: &Rules,
    g1_policy: &str,
    g2_policy: &str,
    first_game_id: u64,
    games: &[TableOutcome],
) -> PolarsResult<DataFrame> {
    let n = games.len();
    let ids: Vec<u32> = (0..n).map(|i| (first_game_id + i as u64) as u32).collect();
    let col_u8 = |name: String, f: &dyn Fn(&TableOutcome) -> u8| -> Column {
        Column::new(name.into(), games.iter().map(f).collect::<Vec<u8>>())
    };
    let side = |per_seat: fn(&TableOutcome) -> &[u8; 6], side: usize| {
        move |o: &TableOutcome| -> u8 {
            (0..rules.players())
                .filter(|&s| rules.side_of(s) == side)
                .map(|s| per_seat(o)[s])
                .sum()
        }
    };
    let winner: Vec<&str> = games
        .iter()
        .map(|g| winner_text(side_code(rules, g)))
        .collect();
    let mut cols = vec![
        Column::new("game_id".into(), ids),
        Column::new("g1_policy".into(), vec![g1_policy; n]),
        Column::new("g2_policy".into(), vec![g2_policy; n]),
        col_u8("trump_suit".into(), &|o| {
            o.trump.map_or(u8::MAX, |t| t as u8)
        }),
        col_u8("face_up".into(), &|o| o.face_up.map_or(u8::MAX, |c| c.id())),
        Column::new("winner".into(), winner),
    ];
    for (what, f) in [
        ("points", (|o| &o.points) as fn(&TableOutcome) -> &[u8; 6]),
        ("briscole", |o| &o.briscole),
        ("trumps_played", |o| &o.trumps_played),
    ] {
        for s in 0..2 {
            cols.push(col_u8(format!("{what}_g{}", s + 1), &side(f, s)));
        }
    }
    for (what, f) in [
        ("points", (|o| &o.points) as fn(&TableOutcome) -> &[u8; 6]),
        ("briscole", |o| &o.briscole),
        ("trumps_played", |o| &o.trumps_played),
        ("tricks_won", |o| &o.tricks_won),
    ] {
        for s in 0..rules.players() {
            cols.push(col_u8(seat_column(what, s), &|o| f(o)[s]));
        }
    }
    DataFrame::new(n, cols)
}

/// Build the trick table of `games`: per trick the leader and the winner (1-based seats), the
/// trick's points and each seat's card.
pub fn seat_trick_frame(
    rules: &Rules,
    first_game_id: u64,
    games: &[TableGame],
) -> PolarsResult<DataFrame> {
    let players = rules.players();
    let rows: usize = games.iter().map(|g| g.tricks.len()).sum();
    let mut game_id = Vec::with_capacity(rows);
    let mut trick = Vec::with_capacity(rows);
    let mut trump = Vec::with_capacity(rows);
    let mut leader = Vec::with_capacity(rows);
    let mut winner = Vec::with_capacity(rows);
    let mut points = Vec::with_capacity(rows);
    let mut cards: Vec<Vec<u8>> = vec![Vec::with_capacity(rows); players];
    for (i, g) in games.iter().enumerate() {
        let id = (first_game_id + i as u64) as u32;
        for t in &g.tricks {
            game_id.push(id);
            trick.push(t.trick);
            trump.push(g.outcome.trump.map_or(u8::MAX, |s| s as u8));
            leader.push(t.leader + 1);
            winner.push(t.winner + 1);
            points.push(t.points);
            for (s, c) in cards.iter_mut().enumerate() {
                c.push(t.card_of(s).id());
            }
        }
    }
    let mut cols = vec![
        Column::new("game_id".into(), game_id),
        Column::new("trick".into(), trick),
        Column::new("trump_suit".into(), trump),
        Column::new("leader".into(), leader),
        Column::new("trick_winner".into(), winner),
        Column::new("trick_points".into(), points),
    ];
    for (s, c) in cards.into_iter().enumerate() {
        cols.push(Column::new(seat_column("card", s).into(), c));
    }
    DataFrame::new(rows, cols)
}
