//! [`ConfigError`]: every way reading or validating a configuration file fails, each naming the
//! file and, past reading, the line, column and dotted field.
//!
//! Invariant: every variant names the file; `Parse` and `Invalid` also say what would be valid.

use std::path::PathBuf;

/// Largest configuration file read, in bytes. A config is a few kilobytes; a bigger one is
/// not a config (e.g. `--config /dev/zero`, which would otherwise be read until memory ran out).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// Errors reading or validating a configuration file. Every variant names the file; the
/// others also name the line and column (1-based) and the dotted field, and say what is valid.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// the file
        path: PathBuf,
        /// the I/O error
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_CONFIG_BYTES`] (reading stopped there).
    #[error(
        "config file {path} is larger than {limit} bytes, so it is not a pipeline configuration (one is a few kilobytes); give the path of a pipeline.toml"
    )]
    TooLarge {
        /// the file
        path: PathBuf,
        /// the limit, in bytes
        limit: u64,
    },
    /// TOML syntax or type error, with location.
    #[error("{path}:{line}:{column}: {}{message}", field_label(.field))]
    Parse {
        /// the file
        path: PathBuf,
        /// 1-based line
        line: usize,
        /// 1-based column
        column: usize,
        /// dotted path of the field, e.g. `simulate.games` (empty when the syntax is broken
        /// before any key)
        field: String,
        /// what is wrong and what would be valid
        message: String,
    },
    /// A value that parses but is not allowed.
    #[error("{path}:{line}:{column}: {}{message}", field_label(.field))]
    Invalid {
        /// the file
        path: PathBuf,
        /// 1-based line of the field (or of its table when the field is absent)
        line: usize,
        /// 1-based column
        column: usize,
        /// dotted path of the field, e.g. `policies.hoarder.threshold`
        field: String,
        /// what is wrong and what would be valid
        message: String,
    },
}

impl ConfigError {
    /// The dotted field the error is about (empty when unknown, e.g. a read error).
    pub fn field(&self) -> &str {
        match self {
            ConfigError::Read { .. } | ConfigError::TooLarge { .. } => "",
            ConfigError::Parse { field, .. } | ConfigError::Invalid { field, .. } => field,
        }
    }
}

fn field_label(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!("field `{field}`: ")
    }
}
