//! The `simulate` and `export` commands: ad-hoc tournaments outside the pipeline, and exports
//! of any tournament's tables (the released simulator's CSV included).
//!
//! Invariant: every argument is validated (into a [`TournamentSpec`], the same validated spec a
//! pipeline study is played from) before any file is written; bad input is a
//! [`CliError::Usage`] naming the argument and what would be valid (exit 2).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use briscola::game::{PLAYER_COUNTS, RulesSpec};
use briscola::pipeline::config::study::Study;
use briscola::pipeline::config::{Config, GameCount};
use briscola::pipeline::stored_games::stored_games;
use briscola::policy::{FollowReading, MAX_THRESHOLD, PolicyKind, PolicySpec, TieBreak};
use briscola::tournament::{
    DealSourceKind, Export, ExportDest, ExportFormat, ExportShard, ExportTable, GamesProblem,
    MANIFEST_FILE, SpecError, TournamentSpec, check_destination, check_out, check_shard_files,
    export as run_export, read_manifest, run_tournament, total_games_problem,
};

use super::error::{CliError, Exit};

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
    /// Policies, in matchup order (comma-separated or repeated): the built-in kinds `greedy`,
    /// `hoarder`, `counter`, `search` (default worlds and horizon), or with --config any policy its [policies.NAME] sections define.
    /// Default: the config's simulate.policies, else greedy,hoarder,counter.
    #[arg(long = "policies", value_delimiter = ',', value_name = "NAME")]
    pub policies: Vec<String>,
    /// A pipeline.toml whose policies (with their thresholds and tie-breaks) and [simulate]
    /// settings (deal source, seed, game count) this run starts from; flags override them.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// A study of the study file (`paper`, a variant's name, e.g. `four-player`) this run starts
    /// from: its policies as the study plays them, its rules and reading, deal source, seed and
    /// game count; flags override them. The file is --config, else pipeline.toml.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["tie_break", "threshold"])]
    pub study: Option<String>,
    /// Players at the table: 2, 4 (two partnerships: seats 1 and 3 play the first policy of a
    /// matchup, 2 and 4 the second) or 6 (two teams of three, 36 cards). Default: the study's,
    /// else 2. (Three players each on their own is a league's game: `[leagues.NAME] rules`.)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
    /// Games requested in all; each ordered matchup plays floor(games / k^2). Default: the
    /// config's, else 1000000.
    #[arg(long, allow_negative_numbers = true)]
    pub games: Option<u64>,
    /// Seed (dotnet-replay: -2147483648 to 2147483647; chacha: 0 to 2^63-1). Default: the
    /// config's, else 42.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<i64>,
    /// Where the deals come from. Default: the config's, else dotnet-replay.
    #[arg(long, value_enum)]
    pub deal_source: Option<DealSourceArg>,
    /// How equal-point cards are ordered (overrides every policy's). Default: as-released (or
    /// each configured policy's own).
    #[arg(long, value_enum)]
    pub tie_break: Option<TieBreakArg>,
    /// Overtrump threshold of the built-in hoarder and counter, in points (0..=22; default 10).
    /// With --config each policy has its own.
    #[arg(long, allow_negative_numbers = true, conflicts_with = "config",
          value_parser = clap::value_parser!(u8).range(0..=(MAX_THRESHOLD as i64)))]
    pub threshold: Option<u8>,
    /// Replace the tournament an earlier `simulate` wrote in --out (atomically: it holds the old
    /// tournament until the new one is complete); a directory of other files is refused.
    #[arg(long)]
    pub force: bool,
    /// Also write each matchup's trick table (tricks.parquet, 20 rows per game). The analysis
    /// does not need it, and `briscola export tricks` regenerates it from the seed when absent.
    /// Default: the config's simulate.trick_log, else off.
    #[arg(long)]
    pub trick_log: bool,
    /// Output directory: must not exist, be empty, or (with --force) hold a tournament. The tournament
    /// is written into a temporary directory beside it and renamed into place when complete, so
    /// an interrupted run leaves it as it was.
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
    /// Parquet (zstd), with key-value metadata naming the study, seed, deal source and code.
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
    /// A study, sweep or league of the pipeline (`paper`, a variant's, a sweep's or a league's
    /// name), read from its outputs.
    #[arg(long, value_name = "NAME", alias = "league")]
    pub study: Option<String>,
    /// The pipeline's study file (with --study).
    #[arg(long, value_name = "FILE", default_value = "pipeline.toml")]
    pub config: PathBuf,
    /// The file to write, or `-` to stream to standard output. A file is written to a new,
    /// randomly named temporary file beside it and renamed into place when complete; an
    /// existing regular file is replaced, but a symlink, FIFO, device or directory at that path
    /// is refused (never replaced and never written through): to write into a pipe or
    /// /dev/stdout, give `--out -` and redirect.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

fn usage(msg: String) -> CliError {
    CliError::Usage(msg)
}

/// The policy `name` of a simulate run, as every command resolves a name
/// ([`Config::named_policy`]): the config's [policies.NAME] if it defines it, else a built-in
/// kind or the default search agent.
fn resolve_policy(
    name: &str,
    cfg: Option<&Config>,
    tie: Option<TieBreak>,
    threshold: Option<u8>,
) -> Result<PolicySpec, CliError> {
    let Some(mut spec) = Config::named_policy(cfg, name, tie) else {
        return Err(usage(match cfg {
            Some(cfg) => format!(
                "--policies: `{name}` is not a policy; use one the config defines ({}) or a built-in ({}, search)",
                cfg.policies
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
                PolicyKind::builtin_names()
            ),
            None => format!(
                "--policies: `{name}` is not a policy; without --config use a built-in ({}, search) (or give --config FILE to use its [policies.NAME])",
                PolicyKind::builtin_names()
            ),
        }));
    };
    // --threshold (never with --config) sets the built-in hoarder's and counter's.
    if matches!(spec.kind, PolicyKind::Hoarder | PolicyKind::Counter)
        && let Some(t) = threshold
    {
        spec.threshold = t;
    }
    Ok(spec)
}

/// Turn the arguments into a validated tournament (nothing is written).
fn simulate_spec(a: &SimulateArgs) -> Result<TournamentSpec, CliError> {
    let cfg = match (&a.config, &a.study) {
        (Some(path), _) => Some(Config::load(path)?),
        (None, Some(name)) if !Path::new(DEFAULT_CONFIG).is_file() => {
            return Err(usage(format!(
                "--study {}: reads the study file {DEFAULT_CONFIG} here, which is not there; name the study file with --config FILE",
                briscola::policy::shown_text(name)
            )));
        }
        (None, Some(_)) => Some(Config::load(Path::new(DEFAULT_CONFIG))?),
        (None, None) => None,
    };
    let main = match (&a.study, &cfg) {
        (Some(name), Some(c)) => Some(named_study(c, name)?),
        _ => cfg.as_ref().and_then(|c| c.studies().first().cloned()),
    };
    let tie = a.tie_break.map(|t| match t {
        TieBreakArg::AsReleased => TieBreak::AsReleased,
        TieBreakArg::AsWritten => TieBreak::AsWritten,
    });
    let names: Vec<String> = match (&a.policies, &cfg, &a.study) {
        (p, _, _) if !p.is_empty() => p.clone(),
        (_, _, Some(_)) => main
            .iter()
            .flat_map(|s| s.policies())
            .map(|p| p.name.clone())
            .collect(),
        (_, Some(c), None) => c.simulate.policies.clone(),
        _ => ["greedy", "hoarder", "counter"].map(String::from).to_vec(),
    };
    // With --study, a policy the study plays comes as it plays it (its tie-break and its
    // [variants.NAME.policy.POLICY] settings); any other name as the file's policies resolve it.
    let played = |n: &str| {
        main.as_ref()
            .filter(|_| a.study.is_some())
            .and_then(|s| s.policies().iter().find(|p| p.name == n).cloned())
    };
    let mut policies = Vec::new();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(usage(format!(
                "--policies lists {n} twice; list each policy once"
            )));
        }
        match played(n) {
            Some(p) => policies.push(p),
            None => policies.push(resolve_policy(n, cfg.as_ref(), tie, a.threshold)?),
        }
    }
    let (rules, reading) = simulate_rules(a, main.as_ref(), &policies)?;
    let k = policies.len() as u64;
    let deal_source = match a.deal_source {
        Some(DealSourceArg::DotnetReplay) => DealSourceKind::DotnetReplay,
        Some(DealSourceArg::Chacha) => DealSourceKind::Chacha,
        None => main
            .as_ref()
            .map_or(DealSourceKind::DotnetReplay, |s| s.deal_source()),
    };
    let seed = a.seed.or(main.as_ref().map(|s| s.seed())).unwrap_or(42);
    let per = match (a.games, main.as_ref().map(|s| s.games)) {
        (Some(g), _) | (None, Some(GameCount::Total(g))) => {
            match total_games_problem(g, k as usize) {
                Some(GamesProblem::AboveLimit { .. }) => {
                    return Err(usage(format!(
                        "--games {g} is more than the limit of {}",
                        briscola::tournament::MAX_GAMES
                    )));
                }
                Some(_) => {
                    return Err(usage(format!(
                        "--games {g} is fewer than one game per ordered matchup ({k} policies need at least {})",
                        k * k
                    )));
                }
                None => g / (k * k),
            }
        }
        (None, Some(GameCount::PerMatchup(p))) => p,
        (None, None) => 1_000_000 / (k * k).max(1),
    };
    TournamentSpec::new(policies, deal_source, seed, per).map_err(|e| match e {
        SpecError::Seed {
            seed,
            deal_source,
            problem,
        } => usage(format!(
            "--seed {seed} {problem}; {} seeds lie in {}",
            deal_source.as_str(),
            deal_source.seed_range_text()
        )),
        SpecError::Games { games, .. } => usage(format!(
            "--games: {games} games per ordered matchup over {} matchups is out of range (1 to {} games in all)",
            k * k,
            briscola::tournament::MAX_GAMES
        )),
        other => usage(format!("--policies: {other}")),
    })
    .map(|t| {
        t.with_trick_log(a.trick_log || main.as_ref().is_some_and(|s| s.trick_log()))
            .with_rules(rules, reading)
    })
}

/// The study file `--study` reads without --config.
const DEFAULT_CONFIG: &str = "pipeline.toml";

/// The study `name` of `cfg` (the main study or a variant), or a usage error listing them.
fn named_study(cfg: &Config, name: &str) -> Result<Study, CliError> {
    cfg.studies()
        .iter()
        .find(|s| s.name == name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = cfg.studies().iter().map(|s| s.name.as_str()).collect();
            usage(format!(
                "--study {}: {} has no study of that name; its studies are {} (a sweep's or a league's games are simulated by `briscola run`)",
                briscola::policy::shown_text(name),
                cfg.source_name,
                names.join(", ")
            ))
        })
}

/// The rules and reading a simulate run plays: the study's (the standard game without one),
/// with `--players` setting the table's size (and the deck that size is played with), checked
/// as a study's rules are, against the run's policies.
fn simulate_rules(
    a: &SimulateArgs,
    study: Option<&Study>,
    policies: &[PolicySpec],
) -> Result<(RulesSpec, FollowReading), CliError> {
    let (mut rules, reading) = study.map_or((RulesSpec::default(), FollowReading::Verbatim), |s| {
        (s.rules(), s.reading())
    });
    if let Some(n) = a.players {
        let table = RulesSpec::for_players(n);
        if table.validate().is_err() {
            return Err(usage(format!(
                "--players {n}: {PLAYER_COUNTS}; a simulate table takes 2, 4 or 6"
            )));
        }
        // The study file's advice ("drop `reading`") has no flag here: say it in flags.
        if let Some(s) = study.filter(|_| n == 2 && reading == FollowReading::PartnerAware) {
            return Err(usage(format!(
                "--players 2: study {} reads the paper's policies partner-aware (reading = \
                 \"partner-aware\"), which needs partners: give --players 4 or 6, or name a \
                 study without that reading",
                s.name
            )));
        }
        rules = RulesSpec {
            players: n,
            deck: table.deck,
            ..rules
        };
    }
    briscola::pipeline::config::study_rules::check(rules, reading, policies).map_err(
        |problem| {
            let players = a
                .players
                .map_or(String::new(), |n| format!("--players {n}: "));
            usage(format!("{players}{problem}"))
        },
    )?;
    Ok((rules, reading))
}

/// Run `simulate`.
pub fn simulate(a: SimulateArgs) -> Result<Exit, CliError> {
    let spec = simulate_spec(&a)?;
    let out = &a.out;
    check_out(out, a.force).map_err(|e| usage(format!("--out {e}")))?;
    // The tournament is written beside `out` first, then renamed: its directory must take a
    // new entry (refused before any game is played, not after).
    if let Err(problem) = briscola::files::dir_writable(briscola::files::parent_dir(out)) {
        return Err(usage(format!("--out {}: {problem}", out.display())));
    }
    let total = spec.total_games();
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
    let result = run_tournament(&spec, out, a.force, &|done| bar.set_position(done));
    bar.finish_and_clear();
    let m = result?;
    let non_tied: u64 = m.shards.iter().map(|s| s.summary.non_tied).sum();
    outln!(
        "simulated {total} games ({} per ordered matchup, {} matchup{}): {non_tied} not tied; tables in {}",
        spec.games_per_matchup(),
        m.shards.len(),
        if m.shards.len() == 1 { "" } else { "s" },
        out.display()
    );
    for line in pair_scores(&m) {
        outln!("{line}");
    }
    Ok(Exit::Ok)
}

/// Each pair of different policies over both seats: wins, ties and losses of the first, its
/// share of the decided games with a 95% Wilson interval, and its score with ties as half.
fn pair_scores(m: &briscola::tournament::Manifest) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in m.policies.iter().enumerate() {
        for b in &m.policies[i + 1..] {
            let (mut wins, mut ties, mut games) = (0u64, 0u64, 0u64);
            for s in &m.shards {
                let sum = &s.summary;
                let g = sum.non_tied + sum.ties;
                let a_wins = match (&sum.spec.g1.name, &sum.spec.g2.name) {
                    (x, y) if *x == a.name && *y == b.name => sum.g1_wins,
                    (x, y) if *x == b.name && *y == a.name => sum.non_tied - sum.g1_wins,
                    _ => continue,
                };
                wins += a_wins;
                ties += sum.ties;
                games += g;
            }
            let decided = games - ties;
            let Ok(ci) = briscola::stats::wilson(wins, decided, 0.95) else {
                continue;
            };
            // A team game's side is a team of seats playing one policy.
            let (seats, side) = match m.shards.first().map(|s| s.summary.spec.rules.players) {
                Some(n) if n > 2 => ("both sides", format!("{}'s team", a.name)),
                _ => ("both seats", a.name.clone()),
            };
            out.push(format!(
                "{} vs {} ({seats}, {games} games): {side} wins {wins}, ties {ties}, loses {}; wins {:.4} of the decided games (95% Wilson {:.4}-{:.4}); score with ties as half {:.4}",
                a.name,
                b.name,
                decided - wins,
                ci.rate,
                ci.lo,
                ci.hi,
                (wins as f64 + ties as f64 / 2.0) / games as f64
            ));
        }
    }
    out
}

/// What an export reads, and the metadata a Parquet file gets.
struct Source {
    shards: Vec<ExportShard>,
    metadata: Vec<(String, String)>,
}

fn sha256_file(path: &Path) -> Result<String, CliError> {
    briscola::files::sha256_file(path)
        .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))
}

fn metadata(
    study: &str,
    seed: i64,
    deal_source: DealSourceKind,
    games_per_matchup: u64,
    policies: &[PolicySpec],
    config_sha256: String,
) -> Vec<(String, String)> {
    vec![
        ("study".into(), study.into()),
        ("seed".into(), seed.to_string()),
        ("deal_source".into(), deal_source.as_str().into()),
        ("games_per_matchup".into(), games_per_matchup.to_string()),
        (
            "policies".into(),
            serde_json::to_string(policies).unwrap_or_default(),
        ),
        (
            "code_version".into(),
            format!("briscola {}", env!("CARGO_PKG_VERSION")),
        ),
        (
            "simulate_code".into(),
            briscola::pipeline::stages::simulate::CODE.into(),
        ),
        ("config_sha256".into(), config_sha256),
    ]
}

fn source_from_dir(dir: &Path) -> Result<Source, CliError> {
    let m = read_manifest(dir).map_err(|e| usage(format!("--from: {e}")))?;
    for s in &m.shards {
        check_shard_files(dir, s).map_err(|e| usage(format!("--from: {e}")))?;
    }
    // Each shard as a study's is read (its schema from its own spec: a team tournament's
    // shards are seat tables).
    let remedy = format!("run `briscola simulate` again to write {}", dir.display());
    let shards = m
        .shards
        .iter()
        .map(|s| ExportShard::open(&dir.join(&s.dir), s.match_id, &remedy))
        .collect::<Result<Vec<_>, _>>()?;
    let metadata = metadata(
        "(briscola simulate)",
        m.seed,
        m.deal_source,
        m.games_per_matchup,
        &m.policies,
        sha256_file(&dir.join(MANIFEST_FILE))?,
    );
    Ok(Source { shards, metadata })
}

fn source_from_study(config: &Path, name: &str) -> Result<Source, CliError> {
    let cfg = Config::load(config)?;
    let stored = stored_games(&cfg, config, name).map_err(usage)?;
    let mut shards = Vec::with_capacity(stored.shards.len());
    let remedy = format!("run `briscola run --config {}` first", config.display());
    for s in &stored.shards {
        if !s.dir.join(briscola::tournament::SHARD_FILE).is_file() {
            return Err(usage(format!(
                "{} does not exist: {} `{name}`, matchup {} has not been run; run `briscola run --config {}` first",
                s.dir.display(),
                stored.kind,
                s.slug,
                config.display()
            )));
        }
        shards.push(ExportShard::open(&s.dir, s.match_id, &remedy)?);
    }
    let (seed, deal_source, per) = match cfg.studies().iter().find(|s| s.name == name) {
        Some(study) => (study.seed(), study.deal_source(), study.games_per_matchup()),
        None => {
            let first = shards
                .first()
                .map(|s| s.dir.join(briscola::tournament::SHARD_FILE));
            let (seed, source) = first
                .and_then(|p| std::fs::read_to_string(p).ok())
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .map(|v| {
                    let spec = &v["spec"];
                    let source = if spec["deal_source"].as_str() == Some("dotnet-replay") {
                        DealSourceKind::DotnetReplay
                    } else {
                        DealSourceKind::Chacha
                    };
                    (spec["seed"].as_i64().unwrap_or(0), source)
                })
                .unwrap_or((0, DealSourceKind::Chacha));
            (
                seed,
                source,
                shards.first().map_or(0, |s| s.games_per_matchup),
            )
        }
    };
    let mut policies: Vec<PolicySpec> = Vec::new();
    for s in &shards {
        for p in [&s.g1, &s.g2] {
            if !policies.iter().any(|q| q.name == p.name) {
                policies.push(p.clone());
            }
        }
        if let briscola::tournament::ShardSchema::Seats(Some(t)) = &s.schema {
            for p in &t.seats {
                if !policies.iter().any(|q| q.name == p.name) {
                    policies.push(p.clone());
                }
            }
        }
    }
    let mut metadata = metadata(
        name,
        seed,
        deal_source,
        per,
        &policies,
        sha256_file(config)?,
    );
    metadata.insert(1, ("kind".into(), stored.kind.into()));
    Ok(Source { shards, metadata })
}

/// The first of `dirs` that `out` would be written inside (comparing canonical paths; `out`
/// itself need not exist yet).
fn inside_any<'a>(out: &Path, dirs: &[&'a Path]) -> Option<&'a Path> {
    let parent = briscola::files::parent_dir(out);
    let target = parent.canonicalize().ok()?;
    dirs.iter()
        .copied()
        .find(|d| d.canonicalize().is_ok_and(|d| target.starts_with(&d)))
}

/// Run `export`.
pub fn export(a: ExportArgs) -> Result<Exit, CliError> {
    let dest = if a.out.as_os_str() == "-" {
        ExportDest::Stdout
    } else {
        check_destination(&a.out)?;
        let parent = briscola::files::parent_dir(&a.out);
        if !parent.is_dir() {
            return Err(usage(format!(
                "--out {}: its directory {} does not exist; create it first, or name a file in an existing directory",
                a.out.display(),
                parent.display()
            )));
        }
        if let Err(problem) = briscola::files::dir_writable(parent) {
            return Err(usage(format!("--out {}: {problem}", a.out.display())));
        }
        ExportDest::File(a.out.clone())
    };
    let source = match (&a.from, &a.study) {
        (Some(dir), _) => source_from_dir(dir)?,
        (None, Some(study)) => source_from_study(&a.config, study)?,
        (None, None) => return Err(usage("say what to export: --from DIR (a `briscola simulate` directory) or --study NAME (a pipeline study; run `briscola run` first)".into())),
    };
    for s in &source.shards {
        if !s.dir.is_dir() {
            return Err(usage(format!(
                "{} does not exist; run `briscola run` (for --study) or `briscola simulate` first",
                s.dir.display()
            )));
        }
    }
    if let ExportDest::File(out) = &dest {
        let inputs: Vec<&Path> = a
            .from
            .iter()
            .map(PathBuf::as_path)
            .chain(source.shards.iter().map(|s| s.dir.as_path()))
            .collect();
        if let Some(dir) = inside_any(out, &inputs) {
            return Err(usage(format!(
                "--out {}: it is inside {}, which holds this export's inputs; name a path outside it",
                out.display(),
                dir.display()
            )));
        }
    }
    let table = match a.table {
        TableArg::Tricks => ExportTable::Tricks,
        TableArg::Games => ExportTable::Games,
    };
    let format = match a.format {
        FormatArg::Csv => ExportFormat::Csv,
        FormatArg::Parquet => ExportFormat::Parquet,
    };
    let mut metadata = source.metadata;
    metadata.insert(
        1,
        (
            "table".into(),
            match table {
                ExportTable::Tricks => "tricks",
                ExportTable::Games => "games",
            }
            .into(),
        ),
    );
    let job = Export {
        table,
        format,
        shards: &source.shards,
        metadata,
    };
    let rows = run_export(&job, &dest)?;
    match dest {
        ExportDest::Stdout => errln!("exported {rows} rows to standard output"),
        ExportDest::File(p) => outln!("exported {rows} rows to {}", p.display()),
    }
    Ok(Exit::Ok)
}
