//! Exports of a tournament's tables: the trick log in the released simulator's exact CSV format
//! (or Parquet), and the game table (CSV or Parquet), streamed shard by shard.
//!
//! Invariant: exports stream in bounded memory (one slice of one shard at a time) and are
//! written to a temporary file renamed into place only when complete.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::shard::{GAMES_FILE, TRICKS_FILE};
use super::shard_tables::winner_text;
use crate::game::{Card, Suit};
use crate::policy::{PolicyKind, PolicySpec};

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
}

/// Errors of an export.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Reading a table failed.
    #[error("cannot read {path}: {source}")]
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
}

/// The strategy name the released CSV prints: `Greedy`/`Hoarder`/`Counter` for the paper's
/// policies under their own names, else the user's name.
pub fn strategy_name(p: &PolicySpec) -> String {
    let builtin = matches!(
        p.kind,
        PolicyKind::Greedy | PolicyKind::Hoarder | PolicyKind::Counter
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

struct Output {
    path: PathBuf,
    tmp: PathBuf,
}

impl Output {
    fn new(path: &Path) -> Output {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        Output {
            path: path.to_path_buf(),
            tmp: path.with_file_name(format!(".{name}.tmp")),
        }
    }
    fn err(&self, e: impl std::fmt::Display) -> ExportError {
        ExportError::Write {
            path: self.path.clone(),
            message: e.to_string(),
        }
    }
    fn create(&self) -> Result<File, ExportError> {
        File::create(&self.tmp).map_err(|e| self.err(e))
    }
    /// Rename the finished temporary into place, or remove it if the export failed: a failed
    /// export leaves nothing behind.
    fn finish(&self, result: Result<u64, ExportError>) -> Result<u64, ExportError> {
        let result = result.and_then(|rows| {
            std::fs::rename(&self.tmp, &self.path).map_err(|e| self.err(e))?;
            Ok(rows)
        });
        if result.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        result
    }
}

/// Export the trick log of `shards` to `out`.
pub fn export_tricks(
    shards: &[ExportShard],
    format: ExportFormat,
    out: &Path,
) -> Result<u64, ExportError> {
    let o = Output::new(out);
    o.finish(export_tricks_to(shards, format, &o))
}

fn export_tricks_to(
    shards: &[ExportShard],
    format: ExportFormat,
    o: &Output,
) -> Result<u64, ExportError> {
    let rows = match format {
        ExportFormat::Csv => {
            let f = o.create()?;
            let mut w = BufWriter::with_capacity(1 << 22, f);
            let rows = write_trick_csv(shards, &mut w, o)?;
            w.flush().map_err(|e| o.err(e))?;
            w.into_inner()
                .map_err(|e| o.err(e))?
                .sync_all()
                .map_err(|e| o.err(e))?;
            rows
        }
        ExportFormat::Parquet => concat_parquet(shards, TRICKS_FILE, o)?,
    };
    Ok(rows)
}

/// Export the game table of `shards` to `out`.
pub fn export_games(
    shards: &[ExportShard],
    format: ExportFormat,
    out: &Path,
) -> Result<u64, ExportError> {
    let o = Output::new(out);
    o.finish(export_games_to(shards, format, &o))
}

fn export_games_to(
    shards: &[ExportShard],
    format: ExportFormat,
    o: &Output,
) -> Result<u64, ExportError> {
    let rows = match format {
        ExportFormat::Csv => {
            let f = o.create()?;
            let mut w = BufWriter::with_capacity(1 << 22, f);
            let mut rows = 0u64;
            let mut first = true;
            for s in shards {
                let path = s.dir.join(GAMES_FILE);
                let (lf, n) = slices(&path)?;
                let mut df = lf
                    .with_column(lit(s.match_id).alias("match_id"))
                    .collect()
                    .map_err(|source| ExportError::Read {
                        path: path.clone(),
                        source,
                    })?;
                let mut cols: Vec<String> = df
                    .get_column_names()
                    .iter()
                    .map(|c| c.to_string())
                    .collect();
                cols.retain(|c| c != "match_id");
                cols.insert(1, "match_id".into());
                df = df.select(cols).map_err(|source| ExportError::Read {
                    path: path.clone(),
                    source,
                })?;
                CsvWriter::new(&mut w)
                    .include_header(first)
                    .finish(&mut df)
                    .map_err(|e| o.err(e))?;
                first = false;
                rows += n as u64;
            }
            w.flush().map_err(|e| o.err(e))?;
            rows
        }
        ExportFormat::Parquet => concat_parquet(shards, GAMES_FILE, o)?,
    };
    Ok(rows)
}

fn concat_parquet(shards: &[ExportShard], file: &str, o: &Output) -> Result<u64, ExportError> {
    let f = o.create()?;
    let mut writer: Option<polars::io::parquet::write::BatchedWriter<File>> = None;
    let mut file_opt = Some(f);
    let mut rows = 0u64;
    for s in shards {
        let path = s.dir.join(file);
        let (lf, n) = slices(&path)?;
        let mut off = 0u32;
        while off < n {
            let df = lf
                .clone()
                .slice(off as i64, SLICE_ROWS)
                .with_column(lit(s.match_id).alias("match_id"))
                .collect()
                .map_err(|source| ExportError::Read {
                    path: path.clone(),
                    source,
                })?;
            if writer.is_none() {
                let w = ParquetWriter::new(file_opt.take().expect("file"))
                    .with_compression(ParquetCompression::Zstd(None))
                    .batched(df.schema())
                    .map_err(|e| o.err(e))?;
                writer = Some(w);
            }
            writer
                .as_mut()
                .expect("writer")
                .write_batch(&df)
                .map_err(|e| o.err(e))?;
            rows += df.height() as u64;
            off += SLICE_ROWS;
        }
    }
    if let Some(w) = writer {
        w.finish().map_err(|e| o.err(e))?;
    }
    Ok(rows)
}

fn write_trick_csv(
    shards: &[ExportShard],
    w: &mut impl Write,
    o: &Output,
) -> Result<u64, ExportError> {
    let cards: Vec<String> = Card::all().map(|c| c.dotnet_repr()).collect();
    let we = |e: std::io::Error| o.err(e);
    writeln!(w, "{TRICK_CSV_HEADER}").map_err(we)?;
    let mut rows = 0u64;
    let mut line = Vec::with_capacity(256);
    for s in shards {
        let path = s.dir.join(TRICKS_FILE);
        let (lf, n) = slices(&path)?;
        let prefix = format!(
            ";{};{};{};",
            s.match_id,
            strategy_name(&s.g1),
            strategy_name(&s.g2)
        );
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
            let col = |name| u8s(&df, name, &path);
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
                let local = (off as u64 + i as u64) / 20;
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
            off += SLICE_ROWS;
        }
    }
    Ok(rows)
}
