//! Tournaments: matchups, deal sources and parallel play, the shard tables they write, and
//! their exports.
//!
//! Invariant: a matchup's games depend only on its deal source, seed, the two policies and the
//! game count; never on thread count or on which other matchups run (with dotnet-replay, whose
//! single stream is the paper's, also on the matchup's position).

mod batch_streams;
mod chunk_tally;
mod chunk_tasks;
mod export;
mod game_batch;
mod kept_io_error;
mod lockstep_batch;
mod matchup;
mod outcome_chunk;
mod played_game;
mod seat_shard;
mod seat_tables;
mod shard;
mod shard_error;
mod shard_tables;
mod table_batch;
mod table_shard;
mod table_writer;
mod tournament_run;
mod tournament_spec;
mod trick_log;

pub use crate::deal::{
    DRAWS_PER_GAME, DealSeed, DealSourceKind, DealStream, DotNetRandom, GeneratorSeed, SeedError,
    chacha_deck, seat_key, seat_keys, table_seat_key,
};
pub use batch_streams::BatchStreams;
pub use chunk_tally::ChunkTally;
pub use export::{
    EXPORT_GAME_COLUMNS, EXPORT_TRICK_COLUMNS, Export, ExportDest, ExportError, ExportFormat,
    ExportShard, ExportTable, ShardSchema, TRICK_CSV_HEADER, check_destination, export,
    strategy_name,
};
pub use game_batch::{play_batch, play_batch_generic, play_outcomes, play_outcomes_generic};
pub use lockstep_batch::{lockstep_batch, play_lockstep};
pub use matchup::Matchup;
pub use played_game::PlayedGame;
pub use seat_tables::{seat_column, seat_game_frame, seat_trick_frame};
pub use shard::{
    CHUNK_GAMES, GAMES_FILE, SHARD_FILE, ShardError, ShardSpec, ShardSummary, TRICKS_FILE,
    table_problem,
};
pub use shard_tables::{GAME_COLUMNS, TRICK_COLUMNS, game_frame, trick_frame, winner_text};
pub use table_batch::{TableGame, play_batch_seats};
pub use table_shard::{TableShardSpec, TableShardSummary, seat_table_problem, table_game_frame};
pub use tournament_run::{
    MANIFEST_FILE, Manifest, ManifestShard, OutState, TournamentError, check_out,
    check_shard_files, file_kind, out_state, read_manifest, run_tournament,
};
pub use tournament_spec::{
    GamesProblem, MAX_GAMES, SpecError, TournamentSpec, check_policies, per_matchup_problem,
    total_games_problem,
};
