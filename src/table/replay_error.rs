//! Why a game could not be replayed or played: every variant names the file, study, matchup or
//! game concerned and says what would be valid.
//!
//! Invariant: each message is complete on its own line (the CLI prints it after `error: `).

use std::path::PathBuf;

/// Errors of `replay` and `play`.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The study's shard is not there: the study was not run (or its outputs were removed).
    #[error(
        "{what} has not been run: {path} does not exist; run `briscola run --config {config}` first"
    )]
    NotRun {
        /// e.g. "study `paper`, matchup greedy-vs-counter"
        what: String,
        /// the missing file
        path: PathBuf,
        /// the config file to run
        config: PathBuf,
    },
    /// A game number outside the matchup.
    #[error("--game {game}: {what} has games 1..={games}")]
    GameOutOfRange {
        /// the number asked for
        game: u64,
        /// the matchup
        what: String,
        /// how many games it has
        games: u64,
    },
    /// A file that is there but cannot be read or parsed.
    #[error("{path}: {message}")]
    BadFile {
        /// the file
        path: PathBuf,
        /// what is wrong and what would be valid
        message: String,
    },
    /// The replay disagrees with what was recorded.
    #[error("{path}: {message}")]
    Mismatch {
        /// the record or table
        path: PathBuf,
        /// where and how
        message: String,
    },
    /// A path the command may not write: a device, a FIFO, a socket, a directory or a
    /// symbolic link (a rename would replace it).
    #[error("refusing to write the record to {path}: {message}")]
    Refused {
        /// the path
        path: PathBuf,
        /// what is there and what would be valid
        message: String,
    },
    /// Writing a file failed.
    #[error("cannot write {path}: {message}")]
    Write {
        /// the file
        path: PathBuf,
        /// why
        message: String,
    },
}
