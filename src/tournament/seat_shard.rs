//! One simulate shard of a team study (four players in two partnerships, six in two teams of
//! three): side 1 (seats 1, 3 (, 5), leading the first trick) plays one policy, side 2 (seats
//! 2, 4 (, 6)) the other; the games are played in chunks and streamed to the seat tables.
//!
//! Invariant: as for the two-player shard, memory stays bounded by the writers' windows of
//! chunks and the files are byte-identical for any thread count and window; seat `s`'s random
//! stream is keyed by the seed, its policy's name and `s` only.

use std::path::Path;

use super::seat_tables::{seat_game_frame, seat_trick_frame};
use super::shard::{
    CHUNK_GAMES, GAMES_FILE, TRICKS_FILE, TableWriter, game_window, joined_writer,
    write_in_windows, write_summary,
};
use super::table_batch::{TableGame, play_batch_seats};
use super::{ShardError, ShardSpec, ShardSummary};
use crate::deal::DealStream;
use crate::deal::table_seat_key;
use crate::game::{Rules, TableOutcome};
use crate::policy::TablePolicy;

/// The most chunks a team shard's trick writer encodes at once (~10 MB each with their games'
/// tricks): the pipeline runs a study's team shards side by side, each given every thread as
/// its window, and a window of every thread held ~16 x 10 MB a shard on 16 cores.
const TRICK_WINDOW_MAX: usize = 4;

impl ShardSpec {
    /// Play a team shard under `rules` (more than two seats, two sides) with `sides[k]` the
    /// policy of every seat of side `k`, and write its tables and summary into `dir` (the
    /// trick table's writer encoding `window` chunks at once, as in `run_windowed`).
    pub(super) fn run_seats(
        &self,
        rules: &Rules,
        sides: [&TablePolicy; 2],
        mut stream: DealStream,
        dir: &Path,
        progress: &dyn Fn(u64),
        window: usize,
    ) -> Result<ShardSummary, ShardError> {
        let players = rules.players();
        let seats: Vec<&TablePolicy> = (0..players).map(|s| sides[rules.side_of(s)]).collect();
        let keys: Vec<[u8; 32]> = (0..players)
            .map(|s| {
                let p = if rules.side_of(s) == 0 {
                    &self.g1
                } else {
                    &self.g2
                };
                table_seat_key(self.seed, p.stream_name(), s as u8)
            })
            .collect();
        let games_path = dir.join(GAMES_FILE);
        let tricks_path = dir.join(TRICKS_FILE);
        let mut games_w = TableWriter::create(&games_path)?;
        let mut tricks_w = TableWriter::create(&tricks_path)?;
        let (mut non_tied, mut g1_wins, mut ties) = (0u64, 0u64, 0u64);
        // Pipelined as the two-player shard is (`run_windowed`): this thread deals and plays
        // the next chunks while two writer threads turn windows of earlier chunks into the
        // seat tables; each chunk reaches them in order through channels holding a window, so
        // the files do not depend on timing. The games writer gets the outcomes only (its
        // window is the two-player game table's); the trick writer the games with their tricks
        // (~10 MB a chunk), in a window of at most TRICK_WINDOW_MAX: a pipeline runs its team
        // shards side by side, each with the window of every thread.
        let window = window.clamp(1, TRICK_WINDOW_MAX);
        let game_window = game_window(window);
        type Outcomes = (u64, Vec<TableOutcome>);
        type Games = (u64, Vec<TableGame>);
        let (gtx, grx) = std::sync::mpsc::sync_channel::<Outcomes>(game_window);
        let (ttx, trx) = std::sync::mpsc::sync_channel::<Games>(window);
        let (g1_name, g2_name) = (&self.g1.name, &self.g2.name);
        std::thread::scope(|scope| -> Result<(), ShardError> {
            let games_writer = scope.spawn(|| -> Result<(), ShardError> {
                let frame = |(first_id, outcomes): &Outcomes| {
                    seat_game_frame(rules, g1_name, g2_name, *first_id, outcomes)
                        .map_err(ShardError::table_at(&games_path))
                };
                write_in_windows(grx, &mut games_w, frame, game_window)?;
                games_w.finish()
            });
            let tricks_writer = scope.spawn(|| -> Result<(), ShardError> {
                let frame = |(first_id, played): &Games| {
                    seat_trick_frame(rules, *first_id, played)
                        .map_err(ShardError::table_at(&tricks_path))
                };
                write_in_windows(trx, &mut tricks_w, frame, window)?;
                tricks_w.finish()
            });
            let mut done = 0u64;
            let mut decks = Vec::with_capacity(CHUNK_GAMES);
            while done < self.games {
                let n = (self.games - done).min(CHUNK_GAMES as u64) as usize;
                decks.clear();
                stream.next_chunk(n, &mut decks);
                let played = play_batch_seats(rules, &decks, done, &keys, &seats);
                for g in &played {
                    match g.outcome.winner_side(rules) {
                        None => ties += 1,
                        Some(w) => {
                            non_tied += 1;
                            g1_wins += (w == 0) as u64;
                        }
                    }
                }
                let first_id = self.first_game + done + 1;
                let outcomes = played.iter().map(|g| g.outcome).collect();
                // A writer that stopped on an error ends the loop; it is reported below.
                if gtx.send((first_id, outcomes)).is_err() || ttx.send((first_id, played)).is_err()
                {
                    break;
                }
                done += n as u64;
                progress(done);
            }
            drop(gtx);
            drop(ttx);
            let games = joined_writer(games_writer, &games_path);
            let tricks = joined_writer(tricks_writer, &tricks_path);
            games.and(tricks)
        })?;
        let summary = ShardSummary {
            spec: self.clone(),
            non_tied,
            g1_wins,
            ties,
            // Counted per side from the trick table by the aggregate stage.
            trump_use: Default::default(),
        };
        write_summary(dir, &summary)?;
        Ok(summary)
    }
}
