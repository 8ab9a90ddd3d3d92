//! `serve`: the web table on loopback (or `--addr`), seating the study file's policies and the
//! built-in ones; prints the URL and serves until interrupted.
//!
//! Invariant: the arguments (the address, the study file, the records directory) are checked
//! before the server starts; a bad one is exit 2 with a sentence.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use briscola::pipeline::config::Config;
use briscola::policy::{BUILTIN_KINDS, PolicySpec, TieBreak};
use briscola::serve::{PolicyChoice, ServeOptions, serve as run_server};

use super::error::{CliError, Exit};

/// `serve`
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen (loopback by default; `0.0.0.0:8080` opens it to the network).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The study file whose policies the table offers (the built-ins are always offered);
    /// without it, `pipeline.toml` where there is one.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Where finished games' records are saved (they replay with `briscola replay --record`).
    #[arg(long, value_name = "DIR", default_value = "briscola-games")]
    pub records: PathBuf,
    /// Threads answering requests.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
}

/// The policies offered: the built-ins and the default search agent, then the study file's
/// (a study's `search` replaces the default): the one named by `--config`, which must exist,
/// or else `pipeline.toml` when there is one.
fn offered(config: Option<&std::path::Path>) -> Result<BTreeMap<String, PolicySpec>, CliError> {
    let mut out = BTreeMap::new();
    for k in BUILTIN_KINDS {
        let p = PolicySpec::paper(k, TieBreak::AsReleased);
        out.insert(p.name.clone(), p);
    }
    // The search agent with its default worlds and horizon (two players).
    let search = PolicySpec::search_default();
    out.insert(search.name.clone(), search);
    let default = std::path::Path::new("pipeline.toml");
    let config = match config {
        Some(c) if !c.exists() => {
            return Err(CliError::Usage(format!(
                "--config {}: no such file; name a study file (its policies join the built-ins), or leave --config out for the built-ins alone",
                c.display()
            )));
        }
        Some(c) => Some(c),
        None => default.exists().then_some(default),
    };
    if let Some(config) = config {
        let cfg = Config::load(config)?;
        for name in cfg.policies.keys() {
            out.extend(
                cfg.policy_spec(name, None)
                    .map(|s| (name.clone(), s.clone())),
            );
        }
    }
    Ok(out)
}

/// Run `serve`.
pub fn serve(a: ServeArgs) -> Result<Exit, CliError> {
    let specs = offered(a.config.as_deref())?;
    // The records' directory: a directory that takes new files (checked before listening; a
    // file there read "File exists (os error 17)").
    if a.records.exists() && !a.records.is_dir() {
        return Err(CliError::Usage(format!(
            "--records {}: not a directory; name a directory for the finished games' records (it is created if missing)",
            a.records.display()
        )));
    }
    if let Err(problem) = briscola::files::dir_writable(&a.records) {
        return Err(CliError::Usage(format!(
            "--records {}: {problem}",
            a.records.display()
        )));
    }
    let list: Vec<(String, String)> = specs
        .values()
        .map(|p| (p.name.clone(), p.kind.as_str().to_string()))
        .collect();
    let names: Vec<String> = specs.keys().cloned().collect();
    let policies = PolicyChoice {
        offered: list,
        resolve: Box::new(move |name| {
            specs
                .get(name)
                .cloned()
                .ok_or_else(|| format!("no such policy; the table offers {}", names.join(", ")))
        }),
    };
    let opts = ServeOptions {
        addr: a.addr.clone(),
        records: a.records.clone(),
        threads: usize::from(a.threads),
        policies,
    };
    run_server(opts, |url| {
        println!(
            "briscola table: {url}  (records in {}; Ctrl-C stops)",
            a.records.display()
        );
    })
    .map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(Exit::Ok)
}
