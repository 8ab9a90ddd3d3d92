//! A batch of two-player games under non-standard rules with a trump (loser-first draws,
//! Scoperta, redraw, must-follow-suit, five-card hands, another first leader) played by the
//! general engine and reported in the study shard tables' shape ([`play_batch_table`]), so every
//! analysis stage reads them as it reads the standard game; and a batch of games at a table of
//! any size and any variant the engine plays ([`play_batch_seats`]: a study's two teams of two
//! or three seats, a rules league's two or three seats each for themselves, with or without a
//! trump), reported seat by seat.
//!
//! Invariant: the result is identical for any number of rayon threads (each game is a pure
//! function of its deck and its seats' streams, keyed by the game's index; results are
//! collected in deck order). [`play_batch_table`]'s caller has checked the rules give two
//! seats, 20 tricks and a trump (`tournament::table_problem`, run when the config is read and
//! again by the shard).

use rayon::prelude::*;

use crate::game::{
    Deck, GameOutcome, Rules, Seat, SeatRng, TableOutcome, TableTrick, TrickRecord, play_table,
};
use crate::policy::TablePolicy;

use super::batch_streams::BatchStreams;
use super::played_game::PlayedGame;

fn seat(s: u8) -> Seat {
    if s == 0 { Seat::G1 } else { Seat::G2 }
}

fn record(t: &TableTrick) -> TrickRecord {
    TrickRecord {
        trick: t.trick,
        card_g1: t.card_of(0),
        card_g2: t.card_of(1),
        leader: seat(t.leader),
        winner: seat(t.winner),
        points: t.points,
    }
}

fn outcome(o: &TableOutcome) -> GameOutcome {
    GameOutcome {
        points: [o.points[0], o.points[1]],
        briscole: [o.briscole[0], o.briscole[1]],
        trump: o.trump.expect("the caller checked the variant has a trump"),
        face_up: o
            .face_up
            .expect("the caller checked the variant has a trump"),
        trumps_played: [o.trumps_played[0], o.trumps_played[1]],
    }
}

/// Play every deck under `rules` with `p1` in seat 0 and `p2` in seat 1, keeping the tricks.
///
/// # Panics
/// If `rules` is not a two-player game of 20 tricks with a trump (checked by the shard first).
pub fn play_batch_table(
    rules: &Rules,
    decks: &[Deck],
    streams: BatchStreams<'_>,
    p1: &TablePolicy,
    p2: &TablePolicy,
) -> Vec<PlayedGame> {
    assert!(rules.players() == 2 && rules.tricks() == 20 && rules.has_trump());
    decks
        .par_iter()
        .enumerate()
        .with_min_len(super::game_batch::MIN_TASK)
        .map(|(i, d)| {
            let mut tricks = [None; 20];
            let mut n = 0usize;
            let o = play_table(
                rules,
                d,
                &[p1, p2],
                &mut streams.rngs(i),
                &mut |t: &TableTrick| {
                    tricks[n] = Some(record(t));
                    n += 1;
                },
            );
            PlayedGame {
                outcome: outcome(&o),
                tricks: tricks.map(|t| t.expect("a game has exactly 20 tricks")),
            }
        })
        .collect()
}

/// One game at a table of any size: its outcome and its tricks in order.
#[derive(Clone, Debug)]
pub struct TableGame {
    /// The outcome (per-seat arrays hold `players` meaningful entries).
    pub outcome: TableOutcome,
    /// The tricks, in order.
    pub tricks: Vec<TableTrick>,
}

/// Play every deck under `rules` (any number of seats) with `seats[s]` deciding for seat `s`;
/// game `i`'s seat `s` draws from `SeatRng::new(keys[s], first_game + i)`.
///
/// # Panics
/// If `seats` or `keys` does not hold one entry per player.
pub fn play_batch_seats(
    rules: &Rules,
    decks: &[Deck],
    first_game: u64,
    keys: &[[u8; 32]],
    seats: &[&TablePolicy],
) -> Vec<TableGame> {
    assert!(seats.len() == rules.players() && keys.len() == rules.players());
    decks
        .par_iter()
        .enumerate()
        .with_min_len(super::game_batch::MIN_TASK)
        .map(|(i, d)| {
            let g = first_game + i as u64;
            let mut rngs: Vec<SeatRng> = keys.iter().map(|k| SeatRng::new(*k, g)).collect();
            let mut tricks = Vec::with_capacity(rules.tricks());
            let outcome = play_table(rules, d, seats, &mut rngs, &mut |t: &TableTrick| {
                tricks.push(*t)
            });
            TableGame { outcome, tricks }
        })
        .collect()
}
