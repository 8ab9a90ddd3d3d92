//! The game table of a shard whose games are ChaCha deals played by two keyed policies, without
//! the trick log (simulate's common case, and most of the committed study's shards): each chunk
//! is one rayon task that deals, plays, tallies, frames and encodes its games on one core, and
//! the calling thread writes the chunks' row groups in order as they finish, starting the next
//! chunk's task each time one is written. Nothing waits for a whole window of chunks, so a core
//! that finishes early takes the next chunk at once (where the chunks went through the player,
//! rayon's tasks and a writer thread, one chunk phase at a time, 10^8 games on 16 cores used
//! 8.3-9.6x one core's speed; BENCHMARKS.md).
//!
//! Invariant: the file's bytes are those of writing each chunk's frame in game order with
//! [`TableWriter::write`], for any thread count and any number of tasks in flight (each chunk is
//! a pure function of the key and its first game; row groups are encoded per chunk and written
//! in chunk order; tested in `shard`'s tests).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use polars::io::parquet::write::{BatchedWriter, RowGroupIterColumns};
use polars::prelude::*;

use super::chunk_tally::ChunkTally;
use super::shard_error::ShardError;
use super::shard_tables::game_frame;
use super::table_writer::{TableFile, TableWriter};
use crate::deal::chacha_decks_into;
use crate::game::{Deck, KeyTables, play_keyed_batch};

/// Games dealt and played at once within a chunk's task: 1,024 decks are 40 KB, well inside a
/// core's L2 cache (a whole chunk's 32,768 decks, 1.3 MB, are not on every CPU).
const SLICE_GAMES: usize = 1024;

/// One chunk's encoded row groups, its tally and its game count.
type Made = (
    Vec<RowGroupIterColumns<'static, PolarsError>>,
    ChunkTally,
    u64,
);

/// The games of one shard: its ChaCha key, its first game in the key's streams, how many games,
/// and the two policies' names (the game table's columns) and key tables.
pub(super) struct ChunkTasks<'a> {
    pub key: [u8; 32],
    pub first_game: u64,
    pub games: u64,
    /// The shard's first game's table id less one (game ids are 1-based).
    pub first_id: u64,
    pub names: [&'a str; 2],
    pub tables: [&'a KeyTables; 2],
    /// Games per chunk: one row group each.
    pub chunk_games: usize,
}

impl ChunkTasks<'_> {
    /// Play every game into `path`'s game table with at most `in_flight` (>= 1) chunks dealt,
    /// played or waiting to be written at once; `progress` gets the games written after each
    /// chunk. Returns the games' tally.
    pub fn run(
        &self,
        path: &Path,
        in_flight: usize,
        progress: &dyn Fn(u64),
    ) -> Result<ChunkTally, ShardError> {
        let mut w = TableWriter::create(path)?;
        let table = ShardError::table_at(path);
        let schema = game_frame(self.names[0], self.names[1], 1, &[]).map_err(&table)?;
        let chunks = self.games.div_ceil(self.chunk_games as u64) as usize;
        let mut tally = ChunkTally::default();
        {
            let err = w.error();
            let writer = &*w.writer(&schema)?;
            let (tx, rx) = channel::<(usize, Result<Made, ShardError>)>();
            rayon::in_place_scope(|scope| -> Result<(), ShardError> {
                let spawn = |i: usize| {
                    let tx = tx.clone();
                    scope.spawn(move |_| {
                        // A panic is sent as an error, so the writing loop never waits on it.
                        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            self.chunk(i, writer, path)
                        }))
                        .unwrap_or_else(|_| {
                            Err(ShardError::Io {
                                path: path.to_path_buf(),
                                source: std::io::Error::other("a chunk's task panicked"),
                            })
                        });
                        // The receiver outlives the scope: after an earlier chunk failed, the
                        // result is dropped unread.
                        let _ = tx.send((i, made));
                    });
                };
                let mut started = in_flight.max(1).min(chunks);
                (0..started).for_each(spawn);
                let mut ready = BTreeMap::new();
                let mut done = 0u64;
                for next in 0..chunks {
                    let (groups, t, games) = loop {
                        if let Some(made) = ready.remove(&next) {
                            break made?;
                        }
                        let (i, made) = receive(&rx);
                        ready.insert(i, made);
                    };
                    writer.write_row_groups(groups).map_err(&err)?;
                    tally = ChunkTally::sum(tally, t);
                    done += games;
                    progress(done);
                    if started < chunks {
                        spawn(started);
                        started += 1;
                    }
                }
                Ok(())
            })?;
        }
        w.finish()?;
        Ok(tally)
    }

    /// Chunk `i`: its games dealt, played and tallied, its frame encoded with `writer`'s schema
    /// and options.
    fn chunk(
        &self,
        i: usize,
        writer: &BatchedWriter<TableFile>,
        path: &Path,
    ) -> Result<Made, ShardError> {
        let from = (i * self.chunk_games) as u64;
        let games = (self.games - from).min(self.chunk_games as u64) as usize;
        // Dealt and played a slice at a time, so the decks stay in the core's own cache.
        let mut decks = vec![Deck::ordered(); games.min(SLICE_GAMES)];
        let mut tally = ChunkTally::default();
        let mut outcomes = Vec::with_capacity(games);
        for at in (0..games).step_by(SLICE_GAMES) {
            let slice = &mut decks[..(games - at).min(SLICE_GAMES)];
            chacha_decks_into(&self.key, self.first_game + from + at as u64, slice);
            for (g, u) in play_keyed_batch(slice, self.tables) {
                tally = ChunkTally::sum(tally, ChunkTally::game(&g, u));
                outcomes.push(g);
            }
        }
        let table = ShardError::table_at(path);
        let first_id = self.first_id + from + 1;
        let df = game_frame(self.names[0], self.names[1], first_id, &outcomes).map_err(&table)?;
        let groups = writer
            .encode_and_compress(&df)
            .collect::<PolarsResult<Vec<_>>>()
            .map_err(&table)?;
        Ok((groups, tally, games as u64))
    }
}

/// The next finished chunk. A thread outside the pool waits for it; a pool thread (a caller
/// inside `install`) runs the pool's other work meanwhile, so a pool of one thread cannot wait
/// on itself.
fn receive(rx: &Receiver<(usize, Result<Made, ShardError>)>) -> (usize, Result<Made, ShardError>) {
    if rayon::current_thread_index().is_none() {
        return rx.recv().expect("every started chunk sends its result");
    }
    loop {
        match rx.try_recv() {
            Ok(got) => return got,
            Err(TryRecvError::Empty) => {
                if rayon::yield_now() != Some(rayon::Yield::Executed) {
                    std::thread::yield_now();
                }
            }
            Err(TryRecvError::Disconnected) => unreachable!("the sender outlives the loop"),
        }
    }
}
