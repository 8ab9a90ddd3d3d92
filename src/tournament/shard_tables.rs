//! The simulate stage's two tables for one matchup, built column by column: the game table and
//! the trick table (the paper's Table 2 columns, typed and compact). The column lists here are
//! the only ones: the exports' schemas are built from them.
//!
//! Neither table holds anything that depends on the matchup's position in a policy list (no
//! MatchId): the export adds it. Invariant: row order is game order, then trick order; the trick table has exactly 20 rows per
//! game and repeats the game's final values on each of them, as the released log does.

use polars::prelude::*;

use super::played_game::PlayedGame;
use crate::game::{GameOutcome, Seat};

/// Column names of the game table.
pub const GAME_COLUMNS: [&str; 12] = [
    "game_id",
    "g1_policy",
    "g2_policy",
    "trump_suit",
    "face_up",
    "winner",
    "points_g1",
    "points_g2",
    "briscole_g1",
    "briscole_g2",
    "trumps_played_g1",
    "trumps_played_g2",
];

/// Column names of the trick table: after `game_id`, the released CSV's columns in its order
/// (the export prints them so), then `leader`.
pub const TRICK_COLUMNS: [&str; 13] = [
    "game_id",
    "trick",
    "trump_suit",
    "card_g1",
    "card_g2",
    "trick_winner",
    "trick_points",
    "briscole_g1",
    "briscole_g2",
    "game_winner",
    "points_g1",
    "points_g2",
    "leader",
];

fn seat_code(s: Seat) -> u8 {
    match s {
        Seat::G1 => 1,
        Seat::G2 => 2,
    }
}

/// Game winner as text: `G1`, `G2` or `Tie`.
pub fn winner_text(w: u8) -> &'static str {
    match w {
        1 => "G1",
        2 => "G2",
        _ => "Tie",
    }
}

/// Build the game table of `games`, the first of which has id `first_game_id`.
pub fn game_frame(
    g1_policy: &str,
    g2_policy: &str,
    first_game_id: u64,
    games: &[GameOutcome],
) -> PolarsResult<DataFrame> {
    let n = games.len();
    let ids: Vec<u32> = (0..n).map(|i| (first_game_id + i as u64) as u32).collect();
    let col_u8 = |f: &dyn Fn(&GameOutcome) -> u8| -> Vec<u8> { games.iter().map(f).collect() };
    let winner: Vec<&str> = games
        .iter()
        .map(|g| winner_text(g.winner().map_or(0, seat_code)))
        .collect();
    DataFrame::new(
        n,
        vec![
            Column::new(GAME_COLUMNS[0].into(), ids),
            Column::new(GAME_COLUMNS[1].into(), vec![g1_policy; n]),
            Column::new(GAME_COLUMNS[2].into(), vec![g2_policy; n]),
            Column::new(GAME_COLUMNS[3].into(), col_u8(&|g| g.trump as u8)),
            Column::new(GAME_COLUMNS[4].into(), col_u8(&|g| g.face_up.id())),
            Column::new(GAME_COLUMNS[5].into(), winner),
            Column::new(GAME_COLUMNS[6].into(), col_u8(&|g| g.points[0])),
            Column::new(GAME_COLUMNS[7].into(), col_u8(&|g| g.points[1])),
            Column::new(GAME_COLUMNS[8].into(), col_u8(&|g| g.briscole[0])),
            Column::new(GAME_COLUMNS[9].into(), col_u8(&|g| g.briscole[1])),
            Column::new(GAME_COLUMNS[10].into(), col_u8(&|g| g.trumps_played[0])),
            Column::new(GAME_COLUMNS[11].into(), col_u8(&|g| g.trumps_played[1])),
        ],
    )
}

/// Build the trick table of `games`.
pub fn trick_frame(first_game_id: u64, games: &[PlayedGame]) -> PolarsResult<DataFrame> {
    let rows = games.len() * 20;
    let mut game_id = Vec::with_capacity(rows);
    let mut trick = Vec::with_capacity(rows);
    let mut trump = Vec::with_capacity(rows);
    let mut c1 = Vec::with_capacity(rows);
    let mut c2 = Vec::with_capacity(rows);
    let mut leader = Vec::with_capacity(rows);
    let mut tw = Vec::with_capacity(rows);
    let mut tp = Vec::with_capacity(rows);
    let mut b1 = Vec::with_capacity(rows);
    let mut b2 = Vec::with_capacity(rows);
    let mut gw = Vec::with_capacity(rows);
    let mut p1 = Vec::with_capacity(rows);
    let mut p2 = Vec::with_capacity(rows);
    for (i, g) in games.iter().enumerate() {
        let id = (first_game_id + i as u64) as u32;
        let o = &g.outcome;
        let w = o.winner().map_or(0, seat_code);
        for t in &g.tricks {
            game_id.push(id);
            trick.push(t.trick);
            trump.push(o.trump as u8);
            c1.push(t.card_g1.id());
            c2.push(t.card_g2.id());
            leader.push(seat_code(t.leader));
            tw.push(seat_code(t.winner));
            tp.push(t.points);
            b1.push(o.briscole[0]);
            b2.push(o.briscole[1]);
            gw.push(w);
            p1.push(o.points[0]);
            p2.push(o.points[1]);
        }
    }
    DataFrame::new(
        rows,
        vec![
            Column::new(TRICK_COLUMNS[0].into(), game_id),
            Column::new(TRICK_COLUMNS[1].into(), trick),
            Column::new(TRICK_COLUMNS[2].into(), trump),
            Column::new(TRICK_COLUMNS[3].into(), c1),
            Column::new(TRICK_COLUMNS[4].into(), c2),
            Column::new(TRICK_COLUMNS[5].into(), tw),
            Column::new(TRICK_COLUMNS[6].into(), tp),
            Column::new(TRICK_COLUMNS[7].into(), b1),
            Column::new(TRICK_COLUMNS[8].into(), b2),
            Column::new(TRICK_COLUMNS[9].into(), gw),
            Column::new(TRICK_COLUMNS[10].into(), p1),
            Column::new(TRICK_COLUMNS[11].into(), p2),
            Column::new(TRICK_COLUMNS[12].into(), leader),
        ],
    )
}
