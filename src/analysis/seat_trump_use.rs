//! Table 5's counts from the trick table of a team study (one card column per seat, see
//! `tournament::seat_tables`): per side, the trumps its seats played, how many of them took the
//! trick, the points those took, and how many fell on a trick whose other cards were all worth
//! nothing (the two-player "wasted" trump, where the other card is worth 0 points, read for a
//! table of N cards).
//!
//! Invariant: a trump "wins" when that very card took the trick (a partner's winning card does
//! not count), so the counts equal the two-player ones on a two-seat table.

use std::path::Path;

use polars::prelude::*;

use super::shard_counts::{CountError, TrumpUse, pl, scan, u64_column};
use crate::game::Card;

/// Count Table 5 per side (side of seat `s` = `s % 2`) from a seat trick table.
pub fn count_seat_trump_use(tricks: &Path) -> Result<[TrumpUse; 2], CountError> {
    let schema = scan(tricks)?.collect_schema().map_err(pl(tricks))?;
    let seats = (1..=6)
        .take_while(|s| schema.contains(&format!("card_s{s}")))
        .count();
    let mut names = vec!["trump_suit".to_string(), "trick_winner".to_string()];
    names.extend((1..=seats).map(|s| format!("card_s{s}")));
    let df = scan(tricks)?
        .select(names.iter().map(|n| col(n.as_str())).collect::<Vec<_>>())
        .collect()
        .map_err(pl(tricks))?;
    let trump = u64_column(&df, "trump_suit", tricks)?;
    let winner = u64_column(&df, "trick_winner", tricks)?;
    let cards: Vec<Vec<u64>> = names[2..]
        .iter()
        .map(|n| u64_column(&df, n, tricks))
        .collect::<Result<_, _>>()?;
    let card = |id: u64| {
        Card::from_id(id as u8).ok_or_else(|| CountError::Shape {
            path: tricks.to_path_buf(),
            message: format!("card id {id} is not in 0..40"),
        })
    };
    let mut out = [TrumpUse::default(); 2];
    let mut trick = [card(0)?; 6];
    for r in 0..trump.len() {
        for s in 0..seats {
            trick[s] = card(cards[s][r])?;
        }
        let total: u64 = trick[..seats].iter().map(|c| c.points() as u64).sum();
        for (s, c) in trick[..seats].iter().enumerate() {
            if c.suit() as u64 != trump[r] {
                continue;
            }
            let u = &mut out[s % 2];
            u.n_played += 1;
            if winner[r] == s as u64 + 1 {
                u.wins += 1;
                u.points_won += total;
            }
            if total == c.points() as u64 {
                u.wasted += 1;
            }
        }
    }
    Ok(out)
}
