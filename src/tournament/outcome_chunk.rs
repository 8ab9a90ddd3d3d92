//! A chunk of a two-player shard as the simulate stage keeps it: every game's outcome, the
//! chunk's tally (wins, ties, Table 5's counts), and the tricks only when the trick log is
//! written.
//!
//! Invariant: a chunk's outcomes, tricks and tally do not depend on how it was played (policy
//! by policy through `play_game`, or as key tables through `play_keyed` or its batch path) nor
//! on the thread count: games are collected in deck order and tallies are integer sums. Every
//! step over the chunk's games runs on rayon's threads (the shard's own thread only sums a
//! chunk's tally into its summary).

use rayon::prelude::*;

use super::chunk_tally::ChunkTally;
use super::played_game::PlayedGame;
use super::trick_log::TrickLog;
use crate::game::{Deck, GameOutcome, KeyTables, TrumpUse, play_keyed, play_keyed_batch};

/// Games per parallel task (a task's games share nothing, so this only bounds scheduling).
const MIN_TASK: usize = 512;

/// One chunk of games (see the module documentation).
#[derive(Clone, Debug)]
pub struct OutcomeChunk {
    /// The table id of the chunk's first game (1-based).
    pub first_id: u64,
    /// Each game's outcome, in game order.
    pub outcomes: Vec<GameOutcome>,
    /// Wins, ties and Table 5's counts over the chunk's games.
    pub tally: ChunkTally,
    /// The games with their tricks, when the trick log is kept.
    pub tricks: Option<Vec<PlayedGame>>,
}

impl OutcomeChunk {
    /// The chunk of games played with their tricks; keeps them when `keep_tricks`.
    pub fn from_played(first_id: u64, played: Vec<PlayedGame>, keep_tricks: bool) -> OutcomeChunk {
        let tally = played
            .par_iter()
            .with_min_len(MIN_TASK)
            .map(|g| {
                let mut u = [TrumpUse::default(); 2];
                for t in &g.tricks {
                    TrumpUse::add_trick(&mut u, t, g.outcome.trump);
                }
                ChunkTally::game(&g.outcome, u)
            })
            .reduce(ChunkTally::default, ChunkTally::sum);
        let mut outcomes = Vec::with_capacity(played.len());
        outcomes.par_extend(played.par_iter().map(|g| g.outcome));
        OutcomeChunk {
            first_id,
            outcomes,
            tally,
            tricks: keep_tricks.then_some(played),
        }
    }

    /// Play `decks` with the two seats' key tables (G1's first), in parallel; keep the tricks
    /// when `keep_tricks`.
    pub fn play_keyed(
        first_id: u64,
        decks: &[Deck],
        tables: [&KeyTables; 2],
        keep_tricks: bool,
    ) -> OutcomeChunk {
        let mut outcomes = vec![PLACEHOLDER; decks.len()];
        if keep_tricks {
            let mut tricks = Vec::with_capacity(decks.len());
            tricks.par_extend(decks.par_iter().map(|d| {
                let ((outcome, u), tricks) = TrickLog::record(|log| play_keyed(d, tables, log));
                (PlayedGame { outcome, tricks }, u)
            }));
            let tally = outcomes
                .par_iter_mut()
                .zip(&tricks)
                .with_min_len(MIN_TASK)
                .map(|(o, (g, u))| {
                    *o = g.outcome;
                    ChunkTally::game(o, *u)
                })
                .reduce(ChunkTally::default, ChunkTally::sum);
            let mut games = Vec::with_capacity(tricks.len());
            games.par_extend(tricks.into_par_iter().map(|(g, _)| g));
            return OutcomeChunk {
                first_id,
                outcomes,
                tally,
                tricks: Some(games),
            };
        }
        // Without the log, tasks of MIN_TASK games go through the batch path (games in SIMD
        // lanes where the CPU allows; the same results as `play_keyed`, game for game), each
        // writing its outcomes in place and tallying its games.
        let tally = outcomes
            .par_chunks_mut(MIN_TASK)
            .zip(decks.par_chunks(MIN_TASK))
            .map(|(out, task)| {
                let mut tally = ChunkTally::default();
                for (o, (g, u)) in out.iter_mut().zip(play_keyed_batch(task, tables)) {
                    *o = g;
                    tally = ChunkTally::sum(tally, ChunkTally::game(&g, u));
                }
                tally
            })
            .reduce(ChunkTally::default, ChunkTally::sum);
        OutcomeChunk {
            first_id,
            outcomes,
            tally,
            tricks: None,
        }
    }
}

/// What a slot holds until its game is played (every slot is overwritten).
const PLACEHOLDER: GameOutcome = GameOutcome {
    points: [0; 2],
    briscole: [0; 2],
    trump: crate::game::Suit::Oro,
    face_up: match crate::game::Card::from_id(0) {
        Some(c) => c,
        None => panic!("card 0 exists"),
    },
    trumps_played: [0; 2],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyKind, PolicySpec, TieBreak};
    use crate::tournament::DotNetRandom;
    use crate::tournament::{BatchStreams, play_batch};

    /// The keyed chunk with its tricks is the chunk `play_game` plays, game by game: outcomes,
    /// all twenty tricks and Table 5's tallies, for every ordered pair of the paper's policies.
    #[test]
    fn keyed_chunk_with_tricks_is_the_policies_chunk() {
        let mut rng = DotNetRandom::new(2026);
        let decks: Vec<Deck> = (0..2000)
            .map(|_| {
                let mut d = Deck::ordered();
                d.shuffle_with(|m| rng.next_below(m));
                d
            })
            .collect();
        let kinds = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter];
        let keys = [[1u8; 32], [2u8; 32]];
        for a in kinds {
            for b in kinds {
                let (p1, p2) = (
                    PolicySpec::paper(a, TieBreak::AsReleased).build(),
                    PolicySpec::paper(b, TieBreak::AsReleased).build(),
                );
                let (t1, t2) = (p1.key_tables().unwrap(), p2.key_tables().unwrap());
                let keyed = OutcomeChunk::play_keyed(7, &decks, [&t1, &t2], true);
                let streams = BatchStreams {
                    first_game: 0,
                    keys: &keys,
                };
                let played =
                    OutcomeChunk::from_played(7, play_batch(&decks, streams, &p1, &p2), true);
                assert_eq!(keyed.outcomes, played.outcomes, "{a:?}-{b:?}");
                assert_eq!(keyed.tally, played.tally, "{a:?}-{b:?}");
                let tricks = |c: &OutcomeChunk| -> Vec<[crate::game::TrickRecord; 20]> {
                    c.tricks
                        .as_ref()
                        .unwrap()
                        .iter()
                        .map(|g| g.tricks)
                        .collect()
                };
                assert_eq!(tricks(&keyed), tricks(&played), "{a:?}-{b:?}");
                let plain = OutcomeChunk::play_keyed(7, &decks, [&t1, &t2], false);
                assert!(plain.tricks.is_none());
                assert_eq!(plain.outcomes, keyed.outcomes);
            }
        }
    }
}
