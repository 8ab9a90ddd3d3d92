//! The binary's one error path: [`CliError`] (every way a command can fail), its mapping to the
//! documented [`Exit`] codes, and the pipe-safe output macros every command prints through.
//!
//! Invariant: every failure maps to exactly one documented exit code in [`CliError::exit`], and
//! nothing the binary prints can panic on a closed stdout or stderr (`briscola status | head -1`).

use briscola::pipeline::config::ConfigError;
use briscola::pipeline::job_command::JobRunError;
use briscola::pipeline::lock_file::LockError;
use briscola::pipeline::plan::PlanError;
use briscola::pipeline::run_mutex::RunMutexError;
use briscola::pipeline::runner::RunError;
use briscola::table::ReplayError;
use briscola::tournament::{ExportError, TournamentError};

/// `println!` that ignores a closed stdout (e.g. piped into `head`) instead of panicking, and
/// notes any other failure ([`note_stdout`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        $crate::cli::error::note_stdout(writeln!(std::io::stdout().lock(), $($arg)*));
    }};
}

/// `print!` that ignores a closed stdout, as [`outln`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        $crate::cli::error::note_stdout(write!(std::io::stdout().lock(), $($arg)*));
    }};
}

/// `eprintln!` that ignores a closed stderr.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// The first failure to write standard output other than a closed pipe (a full disk,
/// `/dev/full`): the command then exits 1 saying so ([`stdout_failure`]), where it would
/// have claimed success for output no one got.
static STDOUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Note the result of a write to standard output: a closed pipe (`| head`) is the reader's
/// choice and passes; any other failure is kept for [`stdout_failure`].
pub fn note_stdout(r: std::io::Result<()>) {
    if let Err(e) = r
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        let _ = STDOUT_FAILED.set(e.to_string());
    }
}

/// Flush standard output; the first failure noted, if any.
pub fn stdout_failure() -> Option<String> {
    use std::io::Write as _;
    note_stdout(std::io::stdout().flush());
    STDOUT_FAILED.get().cloned()
}

/// The documented exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Success.
    Ok = 0,
    /// A stage failed (or another runtime error, e.g. I/O).
    StageFailed = 1,
    /// Bad config file or command-line usage.
    BadInput = 2,
    /// Reproducibility failure: a job's key matches the lock but its bytes do not.
    Reproducibility = 3,
    /// `verify` found missing or corrupt outputs.
    VerifyFailed = 4,
    /// Another run holds the outputs lock (`--no-wait`).
    Busy = 5,
}

/// The exit-code table shown by `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  a stage failed (or another runtime error, e.g. I/O)
  2  bad config file or command-line usage
  3  reproducibility failure: a job's cache key matches outputs/pipeline.lock but its bytes differ
  4  verify found missing, changed or corrupt outputs
  5  another run holds the outputs lock (run --no-wait)";

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The config file.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Planning the jobs.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// Running the pipeline.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The outputs lock.
    #[error(transparent)]
    Mutex(#[from] RunMutexError),
    /// `briscola job run`.
    #[error(transparent)]
    Job(#[from] JobRunError),
    /// An export.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// An ad-hoc tournament.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// `replay` (or a game record `play` writes).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A bad argument: the message names it and what would be valid.
    #[error("{0}")]
    Usage(String),
    /// A failure while working (writing a file, drawing a figure), named in the message.
    #[error("{0}")]
    Runtime(String),
}

impl CliError {
    /// The exit code of this failure (the one mapping of the binary).
    pub fn exit(&self) -> Exit {
        match self {
            CliError::Config(_) | CliError::Plan(_) | CliError::Usage(_) => Exit::BadInput,
            CliError::Job(JobRunError::UnknownJob { .. } | JobRunError::Wave { .. }) => {
                Exit::BadInput
            }
            CliError::Run(RunError::Mutex(RunMutexError::Held { .. }))
            | CliError::Mutex(RunMutexError::Held { .. }) => Exit::Busy,
            CliError::Run(RunError::Lock(LockError::Parse { .. })) => Exit::BadInput,
            CliError::Export(
                ExportError::Refused { .. }
                | ExportError::NoDirectory { .. }
                | ExportError::Summary { .. },
            ) => Exit::BadInput,
            // The game regenerated differs from the stored one, or its record cannot be written.
            CliError::Replay(ReplayError::Mismatch { .. } | ReplayError::Write { .. }) => {
                Exit::StageFailed
            }
            CliError::Replay(_) => Exit::BadInput,
            // The reader of stdout went away (`| head`): it asked for no more.
            CliError::Export(ExportError::BrokenPipe) => Exit::Ok,
            _ => Exit::StageFailed,
        }
    }

    /// Whether the failure is worth a message (a closed pipe is not).
    pub fn is_quiet(&self) -> bool {
        matches!(self, CliError::Export(ExportError::BrokenPipe))
    }
}

/// Print a failure (unless quiet) and return its exit code.
pub fn report(e: &CliError) -> Exit {
    if !e.is_quiet() {
        errln!("error: {e}");
    }
    e.exit()
}
