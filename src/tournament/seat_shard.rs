//! One simulate shard of a team study (four players in two partnerships, six in two teams of
//! three): side 1 (seats 1, 3 (, 5), leading the first trick) plays one policy, side 2 (seats
//! 2, 4 (, 6)) the other; the games are played in chunks and streamed to the seat tables.
//!
//! Invariant: as for the two-player shard, memory stays bounded by one chunk of games and the
//! files are byte-identical for any thread count; seat `s`'s random stream is keyed by the
//! seed, its policy's name and `s` only.

use std::path::Path;

use super::seat_tables::{seat_game_frame, seat_trick_frame};
use super::shard::{CHUNK_GAMES, GAMES_FILE, SHARD_FILE, TRICKS_FILE, TableWriter};
use super::table_batch::play_batch_seats;
use super::{ShardError, ShardSpec, ShardSummary};
use crate::deal::DealStream;
use crate::deal::table_seat_key;
use crate::game::Rules;
use crate::policy::TablePolicy;

impl ShardSpec {
    /// Play a team shard under `rules` (more than two seats, two sides) with `sides[k]` the
    /// policy of every seat of side `k`, and write its tables and summary into `dir`.
    pub(super) fn run_seats(
        &self,
        rules: &Rules,
        sides: [&TablePolicy; 2],
        mut stream: DealStream,
        dir: &Path,
        progress: &dyn Fn(u64),
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
        let table_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ShardError::Table {
                path: path.clone(),
                source,
            }
        };
        let mut games_w = TableWriter::create(&games_path)?;
        let mut tricks_w = TableWriter::create(&tricks_path)?;
        let (mut non_tied, mut g1_wins, mut ties) = (0u64, 0u64, 0u64);
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
            let gf = seat_game_frame(rules, &self.g1.name, &self.g2.name, first_id, &played)
                .map_err(table_err(&games_path))?;
            games_w.write(&gf)?;
            let tf = seat_trick_frame(rules, first_id, &played).map_err(table_err(&tricks_path))?;
            tricks_w.write(&tf)?;
            done += n as u64;
            progress(done);
        }
        games_w.finish()?;
        tricks_w.finish()?;
        let summary = ShardSummary {
            spec: self.clone(),
            non_tied,
            g1_wins,
            ties,
            // Counted per side from the trick table by the aggregate stage.
            trump_use: Default::default(),
        };
        let summary_path = dir.join(SHARD_FILE);
        let mut text = serde_json::to_string_pretty(&summary).expect("summary serialises");
        text.push('\n');
        std::fs::write(&summary_path, text).map_err(|source| ShardError::Io {
            path: summary_path,
            source,
        })?;
        Ok(summary)
    }
}
