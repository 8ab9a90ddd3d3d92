//! Tournaments: matchups, deal sources and parallel play, the shard tables they write, and
//! their exports.
//!
//! Invariant: a matchup's games depend only on its deal source, seed, the two policies and the
//! game count; never on thread count or on which other matchups run (with dotnet-replay, whose
//! single stream is the paper's, also on the matchup's position).

mod deal_source;
mod dotnet_random;
mod export;
mod game_batch;
mod matchup;
mod seat_streams;
mod shard;
mod shard_tables;
mod table_batch;
mod tournament_run;

pub use deal_source::{DRAWS_PER_GAME, DealSourceKind, DealStream, chacha_deck};
pub use dotnet_random::DotNetRandom;
pub use export::{
    ExportError, ExportFormat, ExportShard, TRICK_CSV_HEADER, export_games, export_tricks,
    strategy_name,
};
pub use game_batch::{
    BatchStreams, PlayedGame, play_batch, play_batch_generic, play_outcomes, play_outcomes_generic,
};
pub use matchup::Matchup;
pub use seat_streams::{seat_key, seat_keys};
pub use shard::{
    CHUNK_GAMES, GAMES_FILE, SHARD_FILE, ShardError, ShardSpec, ShardSummary, TRICKS_FILE,
};
pub use shard_tables::{GAME_COLUMNS, TRICK_COLUMNS, game_frame, trick_frame, winner_text};
pub use tournament_run::{
    MANIFEST_FILE, Manifest, ManifestShard, TournamentError, read_manifest, run_tournament,
    shard_specs,
};
