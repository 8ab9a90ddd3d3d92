//! Exports of a tournament's tables: the trick log in the released simulator's exact CSV format
//! (or Parquet), and the game table (CSV or Parquet), streamed shard by shard, to a file or to
//! stdout.
//!
//! One schema per table ([`EXPORT_GAME_COLUMNS`], [`EXPORT_TRICK_COLUMNS`], documented in the
//! README): the game table's CSV and Parquet have the same columns in the same order with the
//! same values; the trick Parquet has the released CSV's columns in its order (as codes, plus
//! `leader`), since the trick CSV is the released byte format.
//!
//! Invariant: exports stream in bounded memory (one slice of one shard at a time); a file export
//! is written to an exclusively created, unpredictably named temporary file in the destination
//! directory and renamed over the destination only when complete (removed on any failure), and
//! never replaces anything but a regular file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::kept_io_error::{KeptIoError, LastIoError, kept};
use super::shard::{GAMES_FILE, SHARD_FILE, ShardSummary, TRICKS_FILE};
use super::shard_tables::{GAME_COLUMNS, TRICK_COLUMNS, trick_frame, winner_text};
use crate::game::{Card, Suit};
use crate::policy::PolicySpec;

/// Rows read per slice.
const SLICE_ROWS: u32 = 1 << 20;

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// CSV (the trick log: the released simulator's `;`-separated format).
    Csv,
    /// Parquet, with a `match_id` column added.
    Parquet,
}

/// One shard to export, in MatchId order.
#[derive(Clone, Debug)]
pub struct ExportShard {
    /// MatchId.
    pub match_id: u32,
    /// G1's policy.
    pub g1: PolicySpec,
    /// G2's policy.
    pub g2: PolicySpec,
    /// Directory holding `games.parquet` and `tricks.parquet`.
    pub dir: PathBuf,
    /// Games per matchup (PartitaId = (match_id - 1) * this + game index + 1).
    pub games_per_matchup: u64,
    /// How the shard's tables are laid out.
    pub schema: ShardSchema,
}

/// How a shard's tables are laid out.
#[derive(Clone, Debug, PartialEq)]
pub enum ShardSchema {
    /// Two players: the paper's columns (`card_g1`, `points_g2`, ...), exported in the
    /// released schema ([`EXPORT_GAME_COLUMNS`], [`EXPORT_TRICK_COLUMNS`]).
    TwoPlayer,
    /// More than two seats, or a league's seat table: per-seat columns (`card_s1` ..
    /// `card_sN`, `points_s1` ..), exported as stored after the key columns. A seat table
    /// writes no trick table; its spec regenerates one.
    Seats(Option<Box<super::TableShardSpec>>),
}

impl ExportShard {
    /// The shard whose files are in `dir` (its `shard.json` says what it is), as MatchId
    /// `match_id`; an unreadable summary's error ends with `remedy` (the command that writes
    /// it again: `briscola run` for a study's shards, `briscola simulate` for its own).
    pub fn open(dir: &Path, match_id: u32, remedy: &str) -> Result<ExportShard, ExportError> {
        let path = dir.join(SHARD_FILE);
        let bad = |message: String| ExportError::Summary {
            path: path.clone(),
            message,
        };
        let text = crate::files::read_capped(&path, 1 << 20)
            .map_err(|e| bad(format!("cannot read it ({e}); {remedy}")))?;
        let value: serde_json::Value = serde_json::from_slice(&text)
            .map_err(|e| bad(format!("not a shard summary ({e}); {remedy}")))?;
        let spec = value.get("spec").cloned().unwrap_or_default();
        let not_summary =
            |e: serde_json::Error| bad(format!("not a shard summary ({e}); {remedy}"));
        if spec.get("seats").is_some() {
            let t: super::TableShardSpec = serde_json::from_value(spec).map_err(not_summary)?;
            let (g1, g2) = match t.seats.as_slice() {
                [a, b, ..] => (a.clone(), b.clone()),
                _ => return Err(bad("a seat table with fewer than two seats".into())),
            };
            return Ok(ExportShard {
                match_id,
                g1,
                g2,
                dir: dir.to_path_buf(),
                games_per_matchup: t.games,
                schema: ShardSchema::Seats(Some(Box::new(t))),
            });
        }
        let s: super::ShardSpec = serde_json::from_value(spec).map_err(not_summary)?;
        let schema = if s.rules.players > 2 {
            ShardSchema::Seats(None)
        } else {
            ShardSchema::TwoPlayer
        };
        Ok(ExportShard {
            match_id,
            g1: s.g1,
            g2: s.g2,
            dir: dir.to_path_buf(),
            games_per_matchup: s.games,
            schema,
        })
    }
}

/// Errors of an export.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Reading a table failed.
    #[error(
        "cannot read {path} as the table briscola wrote ({source}); `briscola verify` checks a study's published files and `briscola run` restores them (a tournament of `briscola simulate`: play it again)"
    )]
    Read {
        /// the table
        path: PathBuf,
        /// why
        source: PolarsError,
    },
    /// Writing the export failed.
    #[error("cannot write {path}: {message}")]
    Write {
        /// the output
        path: PathBuf,
        /// why
        message: String,
    },
    /// The destination is not a regular file: it is never replaced nor written through.
    #[error(
        "will not write {path}: it is a {kind}; name a regular file or a new path, or give `--out -` to stream to standard output"
    )]
    Refused {
        /// the destination
        path: PathBuf,
        /// what it is
        kind: &'static str,
    },
    /// The destination's directory does not exist or is not a directory.
    #[error(
        "will not write {path}: {problem}; name a path in an existing directory, or give `--out -` to stream to standard output"
    )]
    NoDirectory {
        /// the destination
        path: PathBuf,
        /// what is wrong with its directory
        problem: String,
    },
    /// A shard's summary (`shard.json`) could not be read, or is not one.
    #[error("{path}: {message}")]
    Summary {
        /// the shard's summary
        path: PathBuf,
        /// what is wrong, and the command that writes it again
        message: String,
    },
    /// A trick table the shard did not write could not be regenerated from its spec.
    #[error("cannot regenerate the trick table from {path}: {message}")]
    Regenerate {
        /// the shard's summary
        path: PathBuf,
        /// why
        message: String,
    },
    /// Standard output was closed by its reader (e.g. `| head`).
    #[error("standard output was closed before the export finished")]
    BrokenPipe,
}

/// The strategy name the released CSV prints: `Greedy`/`Hoarder`/`Counter` for the paper's
/// policies under their own names (the released format spells them so, and its R scripts
/// match on them), else the user's name as written. Every other export writes the user's name.
pub fn strategy_name(p: &PolicySpec) -> String {
    let builtin = matches!(
        p.kind,
        crate::policy::PolicyKind::Greedy
            | crate::policy::PolicyKind::Hoarder
            | crate::policy::PolicyKind::Counter
    );
    if builtin && p.name == p.kind.as_str() {
        p.kind.dotnet_name().to_string()
    } else {
        p.name.clone()
    }
}

/// The released CSV's header line.
pub const TRICK_CSV_HEADER: &str = "PartitaId;MatchId;StrategyG1;StrategyG2;Mano;SemeBriscola;CartaG1;CartaG2;VincitoreMano;PuntiMano;BriscoleTotaliG1;BriscoleTotaliG2;VincitorePartita;PuntiFinaliG1;PuntiFinaliG2";

fn slices(path: &Path) -> Result<(LazyFrame, u32), ExportError> {
    let p = path.to_string_lossy().to_string();
    let lf = LazyFrame::scan_parquet(PlRefPath::new(p.as_str()), ScanArgsParquet::default())
        .map_err(|source| ExportError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    let n = lf
        .clone()
        .select([len()])
        .collect()
        .and_then(|df| {
            df.column("len")?
                .get(0)
                .map(|v| v.extract::<u32>().unwrap_or(0))
        })
        .map_err(|source| ExportError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    Ok((lf, n))
}

fn u8s(df: &DataFrame, name: &str, path: &Path) -> Result<Vec<u8>, ExportError> {
    let r = |source| ExportError::Read {
        path: path.to_path_buf(),
        source,
    };
    let c = df
        .column(name)
        .map_err(r)?
        .cast(&DataType::UInt8)
        .map_err(r)?;
    Ok(c.u8().map_err(r)?.iter().map(|v| v.unwrap_or(0)).collect())
}

/// The columns every export starts with, which the shard tables do not hold per row: the
/// global game id (the released PartitaId), the MatchId and both policies' names.
const EXPORT_KEY_COLUMNS: [&str; 4] = ["game_id", "match_id", "g1_policy", "g2_policy"];

/// [`EXPORT_KEY_COLUMNS`] followed by `table[from..]`, as many as fit in `N`.
const fn with_keys<const N: usize>(table: &[&'static str], from: usize) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < 4 {
            EXPORT_KEY_COLUMNS[i]
        } else {
            table[from + i - 4]
        };
        i += 1;
    }
    out
}

/// Columns of the exported game table, in order (CSV and Parquet alike): the key columns, then
/// the shard's game table from `trump_suit` on, without its last two (`trumps_played_g1/g2`
/// equal `briscole_g1/g2` by construction: every card held is played).
pub const EXPORT_GAME_COLUMNS: [&str; 11] = with_keys(&GAME_COLUMNS, 3);

/// Columns of the exported trick table (Parquet), in order: the key columns, then the shard's
/// trick table from `trick` on (the released CSV's columns, in its order, as codes, then
/// `leader`).
pub const EXPORT_TRICK_COLUMNS: [&str; 16] = with_keys(&TRICK_COLUMNS, 1);

/// Which table to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportTable {
    /// One row per game.
    Games,
    /// One row per trick (20 per game).
    Tricks,
}

/// Where an export goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportDest {
    /// A regular file (created, or replaced atomically if it is a regular file).
    File(PathBuf),
    /// Standard output, streamed.
    Stdout,
}

impl std::fmt::Display for ExportDest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportDest::File(p) => write!(f, "{}", p.display()),
            ExportDest::Stdout => f.write_str("standard output"),
        }
    }
}

/// One export: a table of some shards in a format, with the key-value metadata a Parquet file
/// carries (study, seed, deal source, code version, config hash...).
#[derive(Clone, Debug)]
pub struct Export<'a> {
    /// Which table.
    pub table: ExportTable,
    /// Which format.
    pub format: ExportFormat,
    /// The shards, in MatchId order.
    pub shards: &'a [ExportShard],
    /// Parquet file key-value metadata (ignored by CSV).
    pub metadata: Vec<(String, String)>,
}

/// Check that `out` may be written: absent or a regular file. A symlink, FIFO, device, socket or
/// directory is refused (never replaced, never written through).
pub fn check_destination(out: &Path) -> Result<(), ExportError> {
    let dir = crate::files::parent_dir(out);
    let problem = match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => None,
        Ok(m) => Some(format!(
            "{} is a {}, not a directory",
            dir.display(),
            super::tournament_run::file_kind(&m.file_type())
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Some(format!("its directory {} does not exist", dir.display()))
        }
        Err(e) => Some(format!(
            "cannot inspect its directory {}: {e}",
            dir.display()
        )),
    };
    if let Some(problem) = problem {
        return Err(ExportError::NoDirectory {
            path: out.to_path_buf(),
            problem,
        });
    }
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ExportError::Write {
            path: out.to_path_buf(),
            message: e.to_string(),
        }),
        Ok(m) if m.file_type().is_file() => Ok(()),
        Ok(m) => Err(ExportError::Refused {
            path: out.to_path_buf(),
            kind: super::tournament_run::file_kind(&m.file_type()),
        }),
    }
}

/// Run an export; returns the number of data rows written.
pub fn export(e: &Export<'_>, dest: &ExportDest) -> Result<u64, ExportError> {
    match dest {
        ExportDest::Stdout => {
            let out = PipeWatch {
                inner: std::io::stdout().lock(),
                broken: false,
            };
            let mut w = BufWriter::with_capacity(1 << 20, out);
            let err = |m: String| ExportError::Write {
                path: PathBuf::from("-"),
                message: m,
            };
            let result = write_export(e, &mut w, &|m| err(m))
                .and_then(|rows| w.flush().map(|()| rows).map_err(|x| broken_or(x, err)));
            match result {
                Err(_) if w.get_ref().broken => Err(ExportError::BrokenPipe),
                r => r,
            }
        }
        ExportDest::File(path) => export_to_file(e, path),
    }
}

/// A writer that remembers whether its reader went away (a closed pipe), whatever error type a
/// layer above (the Parquet writer) wraps it in.
struct PipeWatch<W> {
    inner: W,
    broken: bool,
}

impl<W: Write> Write for PipeWatch<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let r = self.inner.write(buf);
        self.note(r)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let r = self.inner.flush();
        self.note(r)
    }
}

impl<W> PipeWatch<W> {
    fn note<T>(&mut self, r: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &r
            && e.kind() == std::io::ErrorKind::BrokenPipe
        {
            self.broken = true;
        }
        r
    }
}

/// A write error, or [`ExportError::BrokenPipe`] if the reader went away.
fn broken_or(e: std::io::Error, f: impl Fn(String) -> ExportError) -> ExportError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        ExportError::BrokenPipe
    } else {
        f(e.to_string())
    }
}

fn export_to_file(e: &Export<'_>, path: &Path) -> Result<u64, ExportError> {
    check_destination(path)?;
    let err = |m: String| ExportError::Write {
        path: path.to_path_buf(),
        message: m,
    };
    let dir = crate::files::parent_dir(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // An export killed earlier left its temporary: nothing else removes it.
    crate::files::sweep_stale_temps(dir, &name);
    // O_CREAT | O_EXCL with a random name: a planted file or symlink is never opened.
    let tmp = tempfile::Builder::new()
        .prefix(&crate::files::temp_prefix(&name))
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(0o644))
        .tempfile_in(dir)
        .map_err(|x| err(x.to_string()))?;
    let mut w = BufWriter::with_capacity(1 << 22, tmp);
    let rows = write_export(e, &mut w, &err)?;
    let tmp = w.into_inner().map_err(|x| err(x.to_string()))?;
    tmp.as_file().sync_all().map_err(|x| err(x.to_string()))?;
    // Re-check just before the rename: something other than a regular file may have appeared.
    check_destination(path)?;
    tmp.persist(path).map_err(|x| err(x.error.to_string()))?; // drops (removes) the temp on failure
    let _ = File::open(dir).and_then(|d| d.sync_all());
    Ok(rows)
}

fn write_export<W: Write>(
    e: &Export<'_>,
    w: &mut W,
    err: &dyn Fn(String) -> ExportError,
) -> Result<u64, ExportError> {
    match (e.table, e.format) {
        (ExportTable::Tricks, ExportFormat::Csv)
            if e.shards.iter().all(|s| s.schema == ShardSchema::TwoPlayer) =>
        {
            write_trick_csv(e.shards, w, err)
        }
        (table, ExportFormat::Csv) => {
            let mut rows = 0u64;
            let mut first = true;
            for_each_slice(e.shards, table, &mut |mut df| {
                CsvWriter::new(&mut *w)
                    .include_header(first)
                    .finish(&mut df)
                    .map_err(|x| polars_write(x, &LastIoError::default(), err))?;
                first = false;
                rows += df.height() as u64;
                Ok(())
            })?;
            if first {
                // No rows at all: still write the header.
                writeln!(w, "{}", columns(table).join(",")).map_err(|x| broken_or(x, err))?;
            }
            Ok(rows)
        }
        (table, ExportFormat::Parquet) => {
            let mut writer: Option<polars::io::parquet::write::BatchedWriter<KeptIoError<&mut W>>> =
                None;
            let (sink, last) = KeptIoError::new(&mut *w);
            let mut sink = Some(sink);
            let mut rows = 0u64;
            for_each_slice(e.shards, table, &mut |mut df| {
                // The batched writer writes one record batch per chunk and needs every column
                // chunked alike; a scanned slice with a literal column added is not.
                df.align_chunks_par();
                if writer.is_none() {
                    let Some(out) = sink.take() else {
                        return Err(err("the Parquet writer was lost".into()));
                    };
                    let mut kv = e.metadata.clone();
                    kv.push(arrow_schema_entry(df.schema(), &e.metadata));
                    let bw = ParquetWriter::new(out)
                        .with_compression(ParquetCompression::Zstd(None))
                        .with_key_value_metadata(Some(KeyValueMetadata::from_static(kv)))
                        .batched(df.schema())
                        .map_err(|x| polars_write(x, &last, err))?;
                    writer = Some(bw);
                }
                if let Some(bw) = writer.as_mut() {
                    bw.write_batch(&df)
                        .map_err(|x| polars_write(x, &last, err))?;
                }
                rows += df.height() as u64;
                Ok(())
            })?;
            if let Some(bw) = writer {
                bw.finish().map_err(|x| polars_write(x, &last, err))?;
            }
            Ok(rows)
        }
    }
}

/// The Parquet footer's `ARROW:schema` entry for `schema`, written in place of polars' own:
/// strings as Arrow `large_string` (polars' default `string_view` is unreadable to pyarrow
/// before 16 and to older R `arrow`), and the export's metadata as the Arrow schema's metadata,
/// where pyarrow's `schema.metadata` and R's `arrow` look (it is also the file's key-value
/// metadata, where polars and `parquet-tools` look).
fn arrow_schema_entry(schema: &Schema, meta: &[(String, String)]) -> (String, String) {
    use base64::Engine;
    use polars_arrow::io::ipc::write::{default_ipc_fields, schema_to_bytes};
    let arrow = schema.to_arrow(CompatLevel::oldest());
    let fields = default_ipc_fields(arrow.iter_values());
    let md: polars_arrow::datatypes::Metadata = meta
        .iter()
        .map(|(k, v)| (k.as_str().into(), v.as_str().into()))
        .collect();
    let bytes = schema_to_bytes(&arrow, &fields, Some(&md));
    // Arrow's legacy IPC framing, as every Parquet writer stores it: continuation, length.
    let mut framed = Vec::with_capacity(bytes.len() + 8);
    framed.extend_from_slice(&[255u8; 4]);
    framed.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    framed.extend_from_slice(&bytes);
    (
        "ARROW:schema".into(),
        base64::engine::general_purpose::STANDARD.encode(framed),
    )
}

/// A polars write error; a closed pipe underneath becomes [`ExportError::BrokenPipe`].
/// A polars write error as an export error: the sink's own I/O error when it had one (a full
/// disk reads "No space left on device", not polars' "Invalid thrift: transport error").
fn polars_write(
    e: PolarsError,
    last: &LastIoError,
    err: &dyn Fn(String) -> ExportError,
) -> ExportError {
    let io = match &e {
        PolarsError::IO { error, .. } => Some(error.kind()),
        _ => None,
    };
    let kept = kept(last);
    if io == Some(std::io::ErrorKind::BrokenPipe)
        || kept.as_ref().map(|k| k.kind()) == Some(std::io::ErrorKind::BrokenPipe)
    {
        return ExportError::BrokenPipe;
    }
    match kept {
        Some(k) => err(k.to_string()),
        None => err(e.to_string()),
    }
}

fn columns(table: ExportTable) -> &'static [&'static str] {
    match table {
        ExportTable::Games => &EXPORT_GAME_COLUMNS,
        ExportTable::Tricks => &EXPORT_TRICK_COLUMNS,
    }
}

/// Call `f` with each slice of every shard's `table`, in the export schema.
fn for_each_slice(
    shards: &[ExportShard],
    table: ExportTable,
    f: &mut dyn FnMut(DataFrame) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    for s in shards {
        shard_slices(s, table, &mut |df, off, path| {
            let df = match s.schema {
                ShardSchema::TwoPlayer => export_frame(&df, s, table, off),
                ShardSchema::Seats(_) => export_seat_frame(&df, s),
            }
            .map_err(|source| ExportError::Read {
                path: path.to_path_buf(),
                source,
            })?;
            f(df)
        })?;
    }
    Ok(())
}

/// Call `f(slice, first_row, source)` with each slice of one shard's `table` as the shard stores
/// it, in row order. A trick table the shard did not write (`tricks.parquet` is written only
/// with `trick_log`) is regenerated from the shard's spec (`shard.json`): the engine replays the
/// same deals and streams, chunk by chunk, into the same columns.
fn shard_slices(
    s: &ExportShard,
    table: ExportTable,
    f: &mut dyn FnMut(DataFrame, u64, &Path) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let file = match table {
        ExportTable::Games => GAMES_FILE,
        ExportTable::Tricks => TRICKS_FILE,
    };
    let path = s.dir.join(file);
    if table == ExportTable::Tricks && !path.exists() {
        return match &s.schema {
            ShardSchema::Seats(Some(spec)) => regenerate_seat_tricks(s, spec, f),
            _ => regenerate_tricks(s, f),
        };
    }
    let (lf, n) = slices(&path)?;
    let mut off = 0u32;
    while off < n {
        let df = lf
            .clone()
            .slice(off as i64, SLICE_ROWS)
            .collect()
            .map_err(|source| ExportError::Read {
                path: path.clone(),
                source,
            })?;
        f(df, off as u64, &path)?;
        off = off.saturating_add(SLICE_ROWS);
    }
    Ok(())
}

/// [`shard_slices`] of a trick table replayed from the shard's `shard.json`.
fn regenerate_tricks(
    s: &ExportShard,
    f: &mut dyn FnMut(DataFrame, u64, &Path) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let path = s.dir.join(SHARD_FILE);
    let bad = |message: String| ExportError::Regenerate {
        path: path.clone(),
        message,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let summary: ShardSummary = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let mut off = 0u64;
    let mut failed = None;
    summary
        .spec
        .play_chunks(&mut |first_id, played| {
            let rows = played.len() as u64 * 20;
            let r = trick_frame(first_id, &played)
                .map_err(|source| ExportError::Read {
                    path: path.clone(),
                    source,
                })
                .and_then(|df| f(df, off, &path));
            off += rows;
            match r {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        })
        .map_err(|e| bad(e.to_string()))?;
    failed.map_or(Ok(()), Err)
}

/// [`shard_slices`] of a seat table's trick table, replayed from its spec: the engine plays
/// the same deals and streams, chunk by chunk, into the team studies' trick columns.
fn regenerate_seat_tricks(
    s: &ExportShard,
    spec: &super::TableShardSpec,
    f: &mut dyn FnMut(DataFrame, u64, &Path) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let path = s.dir.join(SHARD_FILE);
    let mut failed = None;
    let mut off = 0u64;
    let rules = spec.rules.validate().map_err(|e| ExportError::Regenerate {
        path: path.clone(),
        message: e.to_string(),
    })?;
    spec.play_chunks(&mut |done, played| {
        let rows: u64 = played.iter().map(|g| g.tricks.len() as u64).sum();
        let r = super::seat_trick_frame(&rules, done + 1, &played)
            .map_err(|source| ExportError::Read {
                path: path.clone(),
                source,
            })
            .and_then(|df| f(df, off, &path));
        off += rows;
        match r {
            Ok(()) => Ok(true),
            Err(e) => {
                failed = Some(e);
                Ok(false)
            }
        }
    })
    .map_err(|e| ExportError::Regenerate {
        path: path.clone(),
        message: e.to_string(),
    })?;
    failed.map_or(Ok(()), Err)
}

/// A slice of a seat shard's table in the export schema: the global game id (MatchId-major, as
/// for two players) and the MatchId, then every stored column after `game_id` as stored (side
/// and per-seat columns, `_s1` .. `_sN`).
fn export_seat_frame(df: &DataFrame, s: &ExportShard) -> PolarsResult<DataFrame> {
    let n = df.height();
    let per = s.games_per_matchup.max(1);
    let base = u64::from(s.match_id).saturating_sub(1) * per;
    let stored = df.column("game_id")?.cast(&DataType::UInt64)?;
    let ids: Vec<u32> = stored
        .u64()?
        .iter()
        .map(|id| (base + (id.unwrap_or(1).saturating_sub(1) % per) + 1) as u32)
        .collect();
    let mut cols = vec![
        Column::new("game_id".into(), ids),
        Column::new("match_id".into(), vec![s.match_id; n]),
    ];
    for c in df.columns() {
        if c.name().as_str() != "game_id" {
            cols.push(c.clone());
        }
    }
    DataFrame::new(n, cols)
}

/// A slice of a shard table (its rows from `offset`) in the export schema: global game ids
/// (the released PartitaId), the MatchId, both policies' names as the user wrote them, and
/// every code column as UInt8.
fn export_frame(
    df: &DataFrame,
    s: &ExportShard,
    table: ExportTable,
    offset: u64,
) -> PolarsResult<DataFrame> {
    let n = df.height();
    let rows_per_game = match table {
        ExportTable::Games => 1,
        ExportTable::Tricks => 20,
    };
    let base = (s.match_id as u64).saturating_sub(1) * s.games_per_matchup;
    let ids: Vec<u32> = (0..n as u64)
        .map(|i| (base + (offset + i) / rows_per_game + 1) as u32)
        .collect();
    let mut cols = vec![
        Column::new("game_id".into(), ids),
        Column::new("match_id".into(), vec![s.match_id; n]),
        Column::new("g1_policy".into(), vec![s.g1.name.as_str(); n]),
        Column::new("g2_policy".into(), vec![s.g2.name.as_str(); n]),
    ];
    for name in &columns(table)[4..] {
        let c = df.column(name)?;
        cols.push(if *name == "winner" {
            c.cast(&DataType::String)?
        } else {
            c.cast(&DataType::UInt8)?
        });
    }
    DataFrame::new(n, cols)
}

fn write_trick_csv(
    shards: &[ExportShard],
    w: &mut impl Write,
    err: &dyn Fn(String) -> ExportError,
) -> Result<u64, ExportError> {
    let cards: Vec<String> = Card::all().map(|c| c.dotnet_repr()).collect();
    let we = |e: std::io::Error| broken_or(e, err);
    writeln!(w, "{TRICK_CSV_HEADER}").map_err(we)?;
    let mut rows = 0u64;
    let mut line = Vec::with_capacity(256);
    for s in shards {
        let prefix = format!(
            ";{};{};{};",
            s.match_id,
            strategy_name(&s.g1),
            strategy_name(&s.g2)
        );
        shard_slices(s, ExportTable::Tricks, &mut |df, off, path| {
            let col = |name| u8s(&df, name, path);
            let (trick, trump, c1, c2) = (
                col("trick")?,
                col("trump_suit")?,
                col("card_g1")?,
                col("card_g2")?,
            );
            let (tw, tp, b1, b2) = (
                col("trick_winner")?,
                col("trick_points")?,
                col("briscole_g1")?,
                col("briscole_g2")?,
            );
            let (gw, p1, p2) = (col("game_winner")?, col("points_g1")?, col("points_g2")?);
            for i in 0..df.height() {
                let local = (off + i as u64) / 20;
                let partita = (s.match_id as u64 - 1) * s.games_per_matchup + local + 1;
                line.clear();
                let _ = write!(line, "{partita}");
                line.extend_from_slice(prefix.as_bytes());
                let _ = write!(line, "{};", trick[i]);
                line.extend_from_slice(Suit::from_index(trump[i]).name().as_bytes());
                line.push(b';');
                line.extend_from_slice(cards[c1[i] as usize % 40].as_bytes());
                line.push(b';');
                line.extend_from_slice(cards[c2[i] as usize % 40].as_bytes());
                let gwt = match gw[i] {
                    0 => "Pareggio",
                    x => winner_text(x),
                };
                let _ = writeln!(
                    line,
                    ";{};{};{};{};{};{};{}",
                    tw[i], tp[i], b1[i], b2[i], gwt, p1[i], p2[i]
                );
                w.write_all(&line).map_err(we)?;
            }
            rows += df.height() as u64;
            Ok(())
        })?;
    }
    Ok(rows)
}
