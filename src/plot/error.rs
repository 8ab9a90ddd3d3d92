//! The error type of the figures: [`PlotError`].
//!
//! Invariant: every variant names the figure (and file, where there is one) it concerns, so a
//! failure can be traced without a backtrace.

use std::path::PathBuf;

/// Why a figure could not be drawn or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The embedded font could not be registered with plotters.
    #[error("cannot register the embedded DejaVu Sans font `{style}` with plotters")]
    Font {
        /// which style (normal, bold)
        style: &'static str,
    },
    /// plotters failed while drawing.
    #[error("drawing {figure}: {message}")]
    Draw {
        /// the figure, e.g. `paper/figure2`
        figure: String,
        /// plotters' message
        message: String,
    },
    /// A file or directory could not be written.
    #[error("writing {path}: {source}")]
    Io {
        /// the file
        path: PathBuf,
        /// the I/O error
        source: std::io::Error,
    },
    /// A study name that cannot be used as a directory name.
    #[error(
        "study name `{name}` cannot name a figure directory; use 1-40 characters a-z, 0-9, '-' or '_'"
    )]
    BadStudyName {
        /// the name
        name: String,
    },
}
