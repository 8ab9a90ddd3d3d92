//! The error type of the report stage: [`RenderError`].
//!
//! Invariant: every variant says which file (template, data file or output) it concerns and
//! what was wrong, so the message alone is enough to act on.

use std::path::PathBuf;

/// Why the report could not be built or written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A file could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// the file
        path: PathBuf,
        /// the I/O error
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("writing {path}: {source}")]
    Write {
        /// the file
        path: PathBuf,
        /// the I/O error
        source: std::io::Error,
    },
    /// The published-figures file is not valid TOML or not shaped as expected.
    #[error("{origin}:{line}:{column}: {message}")]
    Published {
        /// file name (or `<text>`)
        origin: String,
        /// 1-based line
        line: usize,
        /// 1-based column
        column: usize,
        /// what is wrong
        message: String,
    },
    /// A template failed to load or render (syntax, undefined variable under strict mode, a
    /// filter error).
    #[error("template {template}: {message}")]
    Template {
        /// template name
        template: String,
        /// minijinja's message, with its line information
        message: String,
    },
    /// The results are unusable for the report (e.g. no study).
    #[error("results: {0}")]
    Results(String),
}
