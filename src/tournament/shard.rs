//! One simulate shard: an ordered matchup's games, played in chunks and streamed to Parquet.
//!
//! Invariant: memory stays bounded by one chunk of games whatever the game count, and the files
//! are byte-identical for any thread count and chunking-independent in content.

use std::path::Path;

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use super::batch_streams::BatchStreams;
use super::chunk_tasks::ChunkTasks;
use super::game_batch::play_batch;
use super::outcome_chunk::OutcomeChunk;
pub use super::shard_error::ShardError;
use super::shard_tables::{game_frame, trick_frame};
use super::table_batch::play_batch_table;
pub(super) use super::table_writer::TableWriter;
use crate::deal::seat_keys;
use crate::deal::{DealSeed, DealSourceKind, DealStream, GeneratorSeed};
use crate::game::{KeyTables, RulesSpec, TrumpUse};
use crate::policy::{FollowReading, PolicySpec, TablePolicy};

/// Games per chunk (one Parquet row group of the game table; 20x rows in the trick table).
pub const CHUNK_GAMES: usize = 1 << 15;

/// The widest window of a shard's game-table writer (the chunks it encodes at once; its channel
/// holds as many again): the 16 measured on 16 cores, so that with more threads (and as many
/// shards in flight) the memory grows with the threads, not with their square.
const GAME_WINDOW_MAX: usize = 16;

/// Output file names of a shard.
pub const GAMES_FILE: &str = "games.parquet";
/// Trick table file name.
pub const TRICKS_FILE: &str = "tricks.parquet";
/// Shard description file name.
pub const SHARD_FILE: &str = "shard.json";

/// Everything that determines a shard's output. Nothing in it depends on the matchup's
/// position in a policy list unless the deal source itself does (dotnet-replay's shared stream).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// Deal source.
    pub deal_source: DealSourceKind,
    /// Seed.
    pub seed: i64,
    /// The variant's rules: the standard game when absent (and then omitted from the JSON, so
    /// a standard shard's description, cache key and bytes are those of the two-player engine).
    #[serde(default, skip_serializing_if = "RulesSpec::is_default")]
    pub rules: RulesSpec,
    /// How a follower reads "win the trick" when its partner is winning (tables with
    /// partnerships only); omitted from the JSON when verbatim, so two-player shards keep
    /// their bytes.
    #[serde(default, skip_serializing_if = "FollowReading::is_verbatim")]
    pub reading: FollowReading,
    /// Games in this matchup.
    pub games: u64,
    /// Seat 1's policy.
    pub g1: PolicySpec,
    /// Seat 2's policy.
    pub g2: PolicySpec,
    /// dotnet-replay: 0-based index of this matchup's first game in the whole tournament (the
    /// stream position is `39 *` this, and game ids are this + 1 onwards). chacha: always 0.
    pub first_game: u64,
    /// Paired (duplicate-format) deals: the deals are keyed by the unordered pair of policies,
    /// so the matchups (A, B) and (B, A) play the same deals with the seats swapped (chacha
    /// only). Omitted from the JSON when false, so unpaired shards keep their bytes and keys.
    #[serde(default, skip_serializing_if = "is_false")]
    pub paired: bool,
    /// Whether to write the 20-row-per-game trick table (`tricks.parquet`). The analysis never
    /// needs it (Table 5's counts are tallied while playing, into `shard.json`); `briscola
    /// export tricks` regenerates it from this spec when it is absent. Omitted from the JSON
    /// when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trick_log: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A small summary written beside the tables (`shard.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardSummary {
    /// The spec that produced it.
    pub spec: ShardSpec,
    /// Games not tied.
    pub non_tied: u64,
    /// G1 wins.
    pub g1_wins: u64,
    /// Ties.
    pub ties: u64,
    /// Table 5's counts for G1's and G2's trumps, tallied from every trick while playing.
    #[serde(default)]
    pub trump_use: [TrumpUse; 2],
}

impl ShardSpec {
    /// The spec of matchup `m` of a tournament in which every matchup plays `games` games under
    /// `rules`.
    pub fn for_matchup(
        deal_source: DealSourceKind,
        seed: i64,
        rules: RulesSpec,
        games: u64,
        m: &super::Matchup,
    ) -> ShardSpec {
        ShardSpec {
            deal_source,
            seed,
            rules,
            reading: FollowReading::Verbatim,
            games,
            g1: m.g1.clone(),
            g2: m.g2.clone(),
            first_game: deal_source.first_game(m.index, games),
            paired: false,
            trick_log: false,
        }
    }

    fn stream(&self) -> Result<DealStream, ShardError> {
        let bad_seed = || ShardError::Seed {
            seed: self.seed,
            source_kind: self.deal_source.as_str(),
            valid: self.deal_source.seed_range_text(),
        };
        let seed = DealSeed::new(self.deal_source, self.seed).map_err(|_| bad_seed())?;
        if self.paired && self.deal_source != DealSourceKind::Chacha {
            return Err(ShardError::Paired {
                deal_source: self.deal_source.as_str(),
            });
        }
        match seed.generator() {
            GeneratorSeed::Dotnet(seed) => Ok(DealStream::dotnet(seed, self.first_game)),
            GeneratorSeed::Chacha(seed) => {
                let (g1, g2) = (self.g1.stream_name(), self.g2.stream_name());
                Ok(if self.paired {
                    DealStream::chacha_paired(seed, g1, g2)
                } else {
                    DealStream::chacha(seed, g1, g2)
                })
            }
        }
    }

    /// The validated rules and the two sides' policies under them, or why the shard tables
    /// (two-player games of 20 tricks, or two teams of two or three seats) cannot hold this
    /// variant.
    fn table_policies(&self) -> Result<(crate::game::Rules, TablePolicy, TablePolicy), ShardError> {
        let err = |message: String| ShardError::Rules {
            g1: self.g1.name.clone(),
            g2: self.g2.name.clone(),
            message,
        };
        let rules = self.rules.validate().map_err(|e| err(e.to_string()))?;
        if let Some(message) = table_problem(&rules, self.reading) {
            return Err(err(message));
        }
        let build = |p: &PolicySpec| {
            TablePolicy::new(p, &rules, self.reading)
                .map_err(|e| ShardError::unfit(e, &self.g1.name, &self.g2.name))
        };
        Ok((rules, build(&self.g1)?, build(&self.g2)?))
    }

    /// Play the shard's games in chunks of at most [`CHUNK_GAMES`], in game order, calling
    /// `chunk(first_game_id, games)` with each (the first game's table id, 1-based); stops early
    /// when `chunk` returns false. The games are those [`ShardSpec::run`] plays and records.
    pub fn play_chunks(
        &self,
        chunk: &mut dyn FnMut(u64, Vec<super::PlayedGame>) -> bool,
    ) -> Result<(), ShardError> {
        let stream = self.stream()?;
        let (rules, t1, t2) = self.table_policies()?;
        if rules.players() > 2 {
            return Err(ShardError::Rules {
                g1: self.g1.name.clone(),
                g2: self.g2.name.clone(),
                message: format!(
                    "players = {}: team games are played and recorded by `run` only (seat tables); \
                     replaying them game by game is not supported yet",
                    rules.players()
                ),
            });
        }
        self.play_policy_chunks(stream, &rules, [&t1, &t2], chunk);
        Ok(())
    }

    /// [`ShardSpec::play_chunks`] with the stream, the validated two-player rules and the two
    /// sides' policies already built: the standard game through each policy's own
    /// `choose` (`play_game`), a variant through the general engine.
    fn play_policy_chunks(
        &self,
        stream: DealStream,
        rules: &crate::game::Rules,
        sides: [&TablePolicy; 2],
        chunk: &mut dyn FnMut(u64, Vec<super::PlayedGame>) -> bool,
    ) {
        let keys = seat_keys(self.seed, self.g1.stream_name(), self.g2.stream_name());
        self.deck_chunks(stream, &mut |done, first_id, decks| {
            let streams = BatchStreams {
                first_game: done,
                keys: &keys,
            };
            let played = if rules.is_standard() {
                play_batch(decks, streams, sides[0].inner(), sides[1].inner())
            } else {
                play_batch_table(rules, decks, streams, sides[0], sides[1])
            };
            chunk(first_id, played)
        });
    }

    /// Deal the shard's games from `stream` in chunks of at most [`CHUNK_GAMES`], in game
    /// order, calling `chunk(games dealt before, first game's table id, decks)` with each;
    /// stops early when `chunk` returns false.
    fn deck_chunks(
        &self,
        mut stream: DealStream,
        chunk: &mut dyn FnMut(u64, u64, &[crate::game::Deck]) -> bool,
    ) {
        let mut done = 0u64;
        let mut decks = Vec::with_capacity(CHUNK_GAMES.min(self.games as usize));
        while done < self.games {
            let n = (self.games - done).min(CHUNK_GAMES as u64) as usize;
            decks.clear();
            stream.next_chunk(n, &mut decks);
            let first_id = self.first_game + done + 1;
            let go_on = chunk(done, first_id, &decks);
            done += n as u64;
            if !go_on {
                break;
            }
        }
    }

    /// Play the shard's two-player games in chunks as the simulate stage keeps them
    /// ([`OutcomeChunk`], with the tricks when [`ShardSpec::trick_log`] is set), calling `chunk`
    /// with each in game order; stops early when `chunk` returns false. Policies that have key
    /// tables (the paper's three, and rule programs whose choice is a per-card key) play
    /// through the table-driven engine ([`crate::game::play_keyed`], or without the trick log
    /// its batch path [`crate::game::play_keyed_batch`]): the same games and tricks as
    /// `play_game`'s.
    fn play_outcome_chunks(
        &self,
        stream: DealStream,
        rules: &crate::game::Rules,
        sides: [&TablePolicy; 2],
        chunk: &mut dyn FnMut(OutcomeChunk) -> bool,
    ) {
        if let Some([a, b]) = key_tables(rules, sides) {
            self.deck_chunks(stream, &mut |_, first_id, decks| {
                chunk(OutcomeChunk::play_keyed(
                    first_id,
                    decks,
                    [&a, &b],
                    self.trick_log,
                ))
            });
            return;
        }
        let keep = self.trick_log;
        self.play_policy_chunks(stream, rules, sides, &mut |first_id, played| {
            chunk(OutcomeChunk::from_played(first_id, played, keep))
        });
    }

    /// Play the shard and write `games.parquet`, `shard.json` (with Table 5's counts) and, when
    /// [`ShardSpec::trick_log`] is set, `tricks.parquet` into `dir`. `progress` is called with
    /// the number of games finished after each chunk.
    pub fn run(&self, dir: &Path, progress: &dyn Fn(u64)) -> Result<ShardSummary, ShardError> {
        self.run_windowed(dir, progress, rayon::current_num_threads())
    }

    /// [`ShardSpec::run`] with the trick table's writer encoding `window` (>= 1) chunks at once:
    /// a shard played alone uses every rayon thread; shards played side by side share them (see
    /// `tournament_run`), so the trick chunks held in memory (~6 MB each) grow with the threads,
    /// not with their square. The game table's chunks are smaller (~1.6 MB a window slot with
    /// its frame, measured) and its writer keeps a window of every thread, up to
    /// `GAME_WINDOW_MAX`, so the players run ahead of it: a window shared out too (16 threads
    /// over 9 shards: 2) left 10^8 games 1.3x slower on 16 cores, while a window of 16 doubled
    /// the peak memory there (230 -> 460 MB; BENCHMARKS.md). The files do not depend on either
    /// window.
    pub fn run_windowed(
        &self,
        dir: &Path,
        progress: &dyn Fn(u64),
        window: usize,
    ) -> Result<ShardSummary, ShardError> {
        // Refuse a bad seed or variant before creating any file.
        let stream = self.stream()?;
        let (rules, t1, t2) = self.table_policies()?;
        if rules.players() > 2 {
            // Team games: seat tables, and the trick table always (Table 5 per side is
            // counted from it, see `analysis::seat_trump_use`).
            return self.run_seats(&rules, [&t1, &t2], stream, dir, progress, window);
        }
        let games_path = dir.join(GAMES_FILE);
        let tricks_path = dir.join(TRICKS_FILE);
        if let Some(tally) =
            self.run_chunk_tasks(&stream, &rules, [&t1, &t2], &games_path, progress)?
        {
            return self.summarise(dir, tally);
        }
        let mut games_w = TableWriter::create(&games_path)?;
        let tricks_w = if self.trick_log {
            Some(TableWriter::create(&tricks_path)?)
        } else {
            None
        };
        let mut tally = super::ChunkTally::default();
        // Pipeline: this thread deals and plays the next chunks (rayon) while one writer thread
        // turns a window of earlier chunks into the game table and, with the trick log, another
        // its trick table (each window's chunks encoded at once, see `write_in_windows`). The
        // chunks reach each writer in order through a channel that holds a window, so the
        // players go on while a window is encoded, and the files do not depend on timing.
        let window = window.max(1);
        let game_window = game_window(window);
        let (tx, rx) = std::sync::mpsc::sync_channel::<OutcomeChunk>(game_window);
        let (ttx, trx) = std::sync::mpsc::sync_channel::<(u64, Vec<super::PlayedGame>)>(window);
        let (g1_name, g2_name) = (&self.g1.name, &self.g2.name);
        let written = std::thread::scope(|scope| -> Result<(), ShardError> {
            let writer = scope.spawn(|| -> Result<(), ShardError> {
                let frame = |c: &OutcomeChunk| {
                    game_frame(g1_name, g2_name, c.first_id, &c.outcomes)
                        .map_err(ShardError::table_at(&games_path))
                };
                write_in_windows(rx, &mut games_w, frame, game_window)?;
                games_w.finish()
            });
            let trick_writer = scope.spawn(|| -> Result<(), ShardError> {
                let Some(mut w) = tricks_w else {
                    return Ok(());
                };
                let frame = |(first_id, played): &(u64, Vec<super::PlayedGame>)| {
                    trick_frame(*first_id, played).map_err(ShardError::table_at(&tricks_path))
                };
                write_in_windows(trx, &mut w, frame, window)?;
                w.finish()
            });
            let mut done = 0u64;
            self.play_outcome_chunks(stream, &rules, [&t1, &t2], &mut |chunk| {
                tally = super::ChunkTally::sum(tally, chunk.tally);
                done += chunk.outcomes.len() as u64;
                let mut chunk = chunk;
                if let Some(tricks) = chunk.tricks.take()
                    && ttx.send((chunk.first_id, tricks)).is_err()
                {
                    return false; // the trick writer stopped on an error; reported below
                }
                if tx.send(chunk).is_err() {
                    return false; // the writer stopped on an error; it is reported below
                }
                progress(done);
                true
            });
            drop(tx);
            drop(ttx);
            let written = joined_writer(writer, &games_path);
            let tricks_written = joined_writer(trick_writer, &tricks_path);
            written.and(tricks_written)
        });
        written?;
        self.summarise(dir, tally)
    }

    /// The game table as [`ChunkTasks`] writes it, when the shard fits it (ChaCha deals, two
    /// keyed policies, no trick log, at least one game): its tally, or `None` to play it the
    /// general way. Twice as many chunks as rayon has threads are started at once, whatever the
    /// shard's share of the threads: a chunk takes its memory (~3 MB) only once a thread runs
    /// it, and a large shard left last can then still use every thread.
    fn run_chunk_tasks(
        &self,
        stream: &DealStream,
        rules: &crate::game::Rules,
        sides: [&TablePolicy; 2],
        path: &Path,
        progress: &dyn Fn(u64),
    ) -> Result<Option<super::ChunkTally>, ShardError> {
        let DealStream::Chacha { key, next_game } = stream else {
            return Ok(None);
        };
        if self.trick_log || self.games == 0 {
            return Ok(None);
        }
        let Some([a, b]) = key_tables(rules, sides) else {
            return Ok(None);
        };
        let tasks = ChunkTasks {
            key: *key,
            first_game: *next_game,
            games: self.games,
            first_id: self.first_game,
            names: [&self.g1.name, &self.g2.name],
            tables: [&a, &b],
            chunk_games: CHUNK_GAMES,
        };
        tasks
            .run(path, 2 * rayon::current_num_threads(), progress)
            .map(Some)
    }

    /// The shard's summary from its games' tally, written as `dir`'s `shard.json`.
    fn summarise(&self, dir: &Path, tally: super::ChunkTally) -> Result<ShardSummary, ShardError> {
        let summary = ShardSummary {
            spec: self.clone(),
            non_tied: tally.non_tied,
            g1_wins: tally.g1_wins,
            ties: tally.ties,
            trump_use: tally.trump_use,
        };
        write_summary(dir, &summary)?;
        Ok(summary)
    }
}

/// Write a shard's summary as `dir`'s `shard.json` (pretty JSON, one trailing newline).
pub(super) fn write_summary(dir: &Path, summary: &impl Serialize) -> Result<(), ShardError> {
    let path = dir.join(SHARD_FILE);
    let mut text = serde_json::to_string_pretty(summary).expect("summary serialises");
    text.push('\n');
    std::fs::write(&path, text).map_err(|source| ShardError::Io { path, source })
}

/// A table writer thread's result, a panic in it as an I/O error naming its file.
pub(super) fn joined_writer(
    h: std::thread::ScopedJoinHandle<'_, Result<(), ShardError>>,
    path: &Path,
) -> Result<(), ShardError> {
    h.join().unwrap_or_else(|_| {
        Err(ShardError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other("a table writer thread panicked"),
        })
    })
}

/// The game table writer's window beside a trick table's `window` (see
/// [`ShardSpec::run_windowed`]): every rayon thread, at most [`GAME_WINDOW_MAX`], at least
/// `window`.
pub(super) fn game_window(window: usize) -> usize {
    rayon::current_num_threads()
        .min(GAME_WINDOW_MAX)
        .max(window.max(1))
}

/// Receive chunks in order and write each as its table's row group: a window of `width`
/// chunks is turned into frames and encoded at once on rayon's threads, then written in order
/// (so the file's bytes are those of writing the chunks one by one, for any width and any
/// number of threads).
pub(super) fn write_in_windows<T: Send + Sync>(
    rx: std::sync::mpsc::Receiver<T>,
    w: &mut TableWriter,
    frame: impl Fn(&T) -> Result<DataFrame, ShardError> + Sync,
    width: usize,
) -> Result<(), ShardError> {
    use rayon::prelude::*;
    let width = width.max(1);
    let mut window: Vec<T> = Vec::with_capacity(width);
    let mut flush = |window: &mut Vec<T>| -> Result<(), ShardError> {
        let frames = window
            .par_iter()
            .map(&frame)
            .collect::<Result<Vec<_>, _>>()?;
        window.clear();
        w.write_frames(&frames)
    };
    for chunk in rx {
        window.push(chunk);
        if window.len() >= width {
            flush(&mut window)?;
        }
    }
    flush(&mut window)
}

/// Both sides' key tables, when the game is the standard one and both policies have them.
fn key_tables(rules: &crate::game::Rules, sides: [&TablePolicy; 2]) -> Option<[KeyTables; 2]> {
    if !rules.is_standard() {
        return None;
    }
    Some([
        sides[0].inner().key_tables()?,
        sides[1].inner().key_tables()?,
    ])
}

/// Why the shard tables cannot hold games of `rules` read under `reading`, if they cannot: they
/// hold two-player games of 20 tricks played to the end with a trump, and games of two teams
/// (four or six seats); the partner-aware reading needs partners.
pub fn table_problem(rules: &crate::game::Rules, reading: FollowReading) -> Option<String> {
    let spec = rules.spec();
    if rules.players() == 2 && (rules.tricks() != 20 || spec.target.is_some()) {
        return Some(format!(
            "two-player shard tables hold games of 20 tricks played to the end; deck = {}, \
             target = {} is a variant a league plays ([leagues.NAME] rules = {{ ... }}) but \
             the tables cannot hold yet: use deck = 40 and no target",
            spec.deck,
            spec.target.map_or("none".to_string(), |t| t.to_string())
        ));
    }
    if rules.players() == 2 && !rules.has_trump() {
        return Some(
            "trump = \"none\" with players = 2: a two-player study's shard tables record every \
             game's trump suit and face-up card (Table 5, the folk theorem), so they hold games \
             with a trump only; use trump = \"face-up\", or play the variant without a trump in \
             a league ([leagues.NAME] rules = { ... }, with policies that have a meaning without \
             a trump, such as `random`)"
                .into(),
        );
    }
    if rules.sides() != 2 {
        return Some(format!(
            "players = {}: a study's tables hold two sides (two players, or four or six in two \
             teams); three players each on their own play in a league ([leagues.NAME] rules = \
             {{ players = 3 }}) or at `briscola play --players 3`, but the study tables cannot \
             hold them yet: use players = 2, 4 or 6",
            spec.players
        ));
    }
    if reading == FollowReading::PartnerAware && rules.players() == 2 {
        return Some(
            "reading = \"partner-aware\" with players = 2: no seat has a partner, so both \
             readings play the paper's policies exactly; drop `reading` or use players = 4 or 6"
                .into(),
        );
    }
    None
}

#[cfg(test)]
mod chunk_task_tests {
    use super::*;
    use crate::policy::{PolicyKind, TieBreak};

    /// A ChaCha shard of two keyed policies without the trick log (played as chunk tasks,
    /// [`ChunkTasks`]) writes the game table and summary that playing its chunks one by one
    /// through the general path and writing each in turn gives, byte for byte, over full and
    /// partial chunks: from a thread outside the pool (which waits for the chunks) and inside
    /// pools of 1 and 3 threads (which run other chunks while waiting; 2 and 6 chunks in
    /// flight), whatever the trick writers' window.
    #[test]
    fn chunk_tasks_write_the_bytes_of_chunks_written_one_by_one() {
        let spec = ShardSpec {
            deal_source: DealSourceKind::Chacha,
            seed: 11,
            rules: RulesSpec::default(),
            reading: FollowReading::Verbatim,
            games: 2 * CHUNK_GAMES as u64 + 1_001,
            g1: PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased),
            g2: PolicySpec::paper(PolicyKind::Counter, TieBreak::AsReleased),
            first_game: 0,
            paired: false,
            trick_log: false,
        };
        let tmp = tempfile::tempdir().unwrap();
        // The reference: every chunk played in order and written with `TableWriter::write`.
        let reference = tmp.path().join("reference.parquet");
        let (rules, t1, t2) = spec.table_policies().unwrap();
        let mut w = TableWriter::create(&reference).unwrap();
        let mut tally = crate::tournament::ChunkTally::default();
        spec.play_outcome_chunks(spec.stream().unwrap(), &rules, [&t1, &t2], &mut |c| {
            tally = crate::tournament::ChunkTally::sum(tally, c.tally);
            let df = game_frame(&spec.g1.name, &spec.g2.name, c.first_id, &c.outcomes).unwrap();
            w.write(&df).unwrap();
            true
        });
        w.finish().unwrap();
        let want = std::fs::read(&reference).unwrap();
        let check = |label: &str, s: ShardSummary, dir: &Path| {
            let got = std::fs::read(dir.join(GAMES_FILE)).unwrap();
            assert!(got == want, "{label}");
            assert_eq!(
                (s.non_tied, s.g1_wins, s.ties, s.trump_use),
                (tally.non_tied, tally.g1_wins, tally.ties, tally.trump_use),
                "{label}"
            );
        };
        for window in [1, 5] {
            let dir = tmp.path().join(format!("outside-w{window}"));
            std::fs::create_dir(&dir).unwrap();
            let s = spec.run_windowed(&dir, &|_| {}, window).unwrap();
            check(&format!("outside the pool, window {window}"), s, &dir);
        }
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for window in [1, 2, 5] {
                let dir = tmp.path().join(format!("t{threads}-w{window}"));
                std::fs::create_dir(&dir).unwrap();
                let s = pool
                    .install(|| spec.run_windowed(&dir, &|_| {}, window))
                    .unwrap();
                check(&format!("{threads} threads, window {window}"), s, &dir);
            }
        }
    }
}
