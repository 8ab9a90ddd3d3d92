//! The `simulate` and `export` commands: ad-hoc tournaments outside the pipeline, and exports
//! of any tournament's tables (the released simulator's CSV included).
//!
//! Invariant: every argument is validated before any file is written; bad input exits 2 with a
//! message naming the argument and what would be valid.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use briscola::pipeline::config::{Config, MAX_GAMES};
use briscola::policy::{PolicyKind, PolicySpec, TieBreak};
use briscola::tournament::{
    DealSourceKind, ExportFormat, ExportShard, Matchup, export_games, export_tricks, read_manifest,
    run_tournament,
};

use crate::cli::Exit;

/// A policy kind on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// Definition 1.
    Greedy,
    /// Definition 2.
    Hoarder,
    /// Definition 3.
    Counter,
}

/// A deal source on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DealSourceArg {
    /// The paper's System.Random stream (seed must be a .NET int).
    DotnetReplay,
    /// Independent ChaCha8 stream per game.
    Chacha,
}

/// A tie-break reading on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TieBreakArg {
    /// What produced the published tables.
    AsReleased,
    /// What the prose says.
    AsWritten,
}

/// `simulate`
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Policies, in matchup order (comma-separated or repeated).
    #[arg(
        long = "policies",
        value_enum,
        value_delimiter = ',',
        default_value = "greedy,hoarder,counter"
    )]
    pub policies: Vec<PolicyArg>,
    /// Games requested in all; each ordered matchup plays floor(games / k^2).
    #[arg(long, default_value_t = 1_000_000, allow_negative_numbers = true)]
    pub games: u64,
    /// Seed (dotnet-replay: -2147483648..=2147483647; chacha: 0..=2^63-1).
    #[arg(long, default_value_t = 42, allow_negative_numbers = true)]
    pub seed: i64,
    /// Where the deals come from.
    #[arg(long, value_enum, default_value = "dotnet-replay")]
    pub deal_source: DealSourceArg,
    /// How equal-point cards are ordered.
    #[arg(long, value_enum, default_value = "as-released")]
    pub tie_break: TieBreakArg,
    /// Overtrump threshold of hoarder and counter, in points (0..=22).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u8).range(0..=22))]
    pub threshold: u8,
    /// Output directory (created; one sub-directory per matchup and a tournament.json).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Which table to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableArg {
    /// The trick log (the paper's Table 2).
    Tricks,
    /// One row per game.
    Games,
}

/// Export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// CSV (tricks: byte-for-byte the released simulator's format).
    Csv,
    /// Parquet.
    Parquet,
}

/// `export`
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Which table.
    #[arg(value_enum)]
    pub table: TableArg,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: FormatArg,
    /// A directory written by `briscola simulate`.
    #[arg(long, value_name = "DIR", conflicts_with = "study")]
    pub from: Option<PathBuf>,
    /// A study of the pipeline (`paper` or a variant's name), read from its outputs.
    #[arg(long, value_name = "NAME")]
    pub study: Option<String>,
    /// The pipeline's study file (with --study).
    #[arg(long, value_name = "FILE", default_value = "pipeline.toml")]
    pub config: PathBuf,
    /// The file to write (written to a temporary name, then renamed).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

fn bad(msg: String) -> Exit {
    eprintln!("error: {msg}");
    Exit::BadInput
}

/// Run `simulate`.
pub fn simulate(a: SimulateArgs) -> Exit {
    let tie = match a.tie_break {
        TieBreakArg::AsReleased => TieBreak::AsReleased,
        TieBreakArg::AsWritten => TieBreak::AsWritten,
    };
    let mut seen = Vec::new();
    let mut policies = Vec::new();
    for p in &a.policies {
        if seen.contains(p) {
            return bad(
                format!("--policies lists {p:?} twice; list each policy once").to_lowercase(),
            );
        }
        seen.push(*p);
        let kind = match p {
            PolicyArg::Greedy => PolicyKind::Greedy,
            PolicyArg::Hoarder => PolicyKind::Hoarder,
            PolicyArg::Counter => PolicyKind::Counter,
        };
        let mut spec = PolicySpec::paper(kind, tie);
        if kind != PolicyKind::Greedy {
            spec.threshold = a.threshold;
        }
        policies.push(spec);
    }
    if a.threshold > 22 {
        return bad(format!(
            "--threshold {} is more than any led card is worth; use 0 to 22",
            a.threshold
        ));
    }
    let k = policies.len() as u64;
    if a.games < k * k {
        return bad(format!(
            "--games {} is fewer than one game per ordered matchup ({k} policies need at least {})",
            a.games,
            k * k
        ));
    }
    if a.games > MAX_GAMES {
        return bad(format!(
            "--games {} is more than the limit of {MAX_GAMES}",
            a.games
        ));
    }
    let deal_source = match a.deal_source {
        DealSourceArg::DotnetReplay => DealSourceKind::DotnetReplay,
        DealSourceArg::Chacha => DealSourceKind::Chacha,
    };
    match deal_source {
        DealSourceKind::DotnetReplay if i32::try_from(a.seed).is_err() => {
            return bad(format!(
                "--seed {} is not a .NET int; dotnet-replay seeds lie in -2147483648..=2147483647",
                a.seed
            ));
        }
        DealSourceKind::Chacha if a.seed < 0 => {
            return bad(format!(
                "--seed {} is negative; chacha seeds lie in 0..=9223372036854775807",
                a.seed
            ));
        }
        _ => {}
    }
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        return bad(format!(
            "--out {}: cannot create the directory: {e}",
            a.out.display()
        ));
    }
    let probe = a.out.join(".briscola-write-probe");
    if let Err(e) = std::fs::write(&probe, b"") {
        return bad(format!(
            "--out {}: the directory is not writable: {e}",
            a.out.display()
        ));
    }
    let _ = std::fs::remove_file(&probe);

    let per = a.games / (k * k);
    let total = per * k * k;
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let result = run_tournament(&policies, deal_source, a.seed, per, &a.out, &|done| {
        bar.set_position(done)
    });
    bar.finish_and_clear();
    match result {
        Ok(m) => {
            let non_tied: u64 = m.shards.iter().map(|s| s.summary.non_tied).sum();
            println!(
                "simulated {total} games ({per} per ordered matchup, {} matchups): {non_tied} not tied; tables in {}",
                m.shards.len(),
                a.out.display()
            );
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::StageFailed
        }
    }
}

fn shards_from_dir(dir: &Path) -> Result<Vec<ExportShard>, String> {
    let m = read_manifest(dir).map_err(|e| e.to_string())?;
    Ok(m.shards
        .into_iter()
        .map(|s| ExportShard {
            match_id: s.match_id,
            g1: s.summary.spec.g1,
            g2: s.summary.spec.g2,
            dir: dir.join(&s.dir),
            games_per_matchup: m.games_per_matchup,
        })
        .collect())
}

fn shards_from_study(config: &Path, name: &str) -> Result<Vec<ExportShard>, Exit> {
    let cfg = Config::load(config).map_err(|e| bad(e.to_string()))?;
    let studies = cfg.studies();
    let Some(study) = studies.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = studies.iter().map(|s| s.name.as_str()).collect();
        return Err(bad(format!(
            "--study {name}: no such study in {}; studies: {}",
            config.display(),
            names.join(", ")
        )));
    };
    let outputs = config.parent().unwrap_or(Path::new(".")).join("outputs");
    let per = study.games_per_matchup();
    Ok(Matchup::all(&study.policies)
        .into_iter()
        .map(|m| ExportShard {
            match_id: m.match_id,
            dir: outputs.join(&study.name).join("simulate").join(m.slug()),
            g1: m.g1,
            g2: m.g2,
            games_per_matchup: per,
        })
        .collect())
}

/// Run `export`.
pub fn export(a: ExportArgs) -> Exit {
    let shards = match (&a.from, &a.study) {
        (Some(dir), _) => match shards_from_dir(dir) {
            Ok(s) => s,
            Err(e) => return bad(format!("--from: {e}")),
        },
        (None, Some(study)) => match shards_from_study(&a.config, study) {
            Ok(s) => s,
            Err(code) => return code,
        },
        (None, None) => return bad("say what to export: --from DIR (a `briscola simulate` directory) or --study NAME (a pipeline study; run `briscola run` first)".into()),
    };
    for s in &shards {
        if !s.dir.is_dir() {
            return bad(format!(
                "{} does not exist; run `briscola run` (for --study) or `briscola simulate` first",
                s.dir.display()
            ));
        }
    }
    let format = match a.format {
        FormatArg::Csv => ExportFormat::Csv,
        FormatArg::Parquet => ExportFormat::Parquet,
    };
    let result = match a.table {
        TableArg::Tricks => export_tricks(&shards, format, &a.out),
        TableArg::Games => export_games(&shards, format, &a.out),
    };
    match result {
        Ok(rows) => {
            println!("exported {rows} rows to {}", a.out.display());
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::StageFailed
        }
    }
}
