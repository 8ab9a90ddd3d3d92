//! Which games the pipeline stores under a name: every simulate shard of a study (the paper's
//! or a variant), a sweep or a league, in the order the plan runs them, with the directory each
//! publishes to. `replay`, `export` and the Python binding find a game through this one list, so
//! a study, a team study, a sweep and a league are named the same way (`--study NAME --matchup
//! SLUG --game N`).
//!
//! Invariant: the list is the plan's own simulate jobs for that name (the same ids and publish
//! paths `briscola run` uses), never a second spelling of them.

use std::path::{Path, PathBuf};

use crate::pipeline::config::pipeline_config::Config;
use crate::pipeline::execution::job::{Job, StageName};
use crate::pipeline::stages;
use crate::pipeline::store::layout::Layout;

/// One stored shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredShardDir {
    /// The seating's name, e.g. `greedy-vs-counter` or `counter-vs-greedy-vs-hoarder`.
    pub slug: String,
    /// 1-based position among the name's shards (the released MatchId for a study).
    pub match_id: u32,
    /// Where its files are published.
    pub dir: PathBuf,
}

/// The games stored under one name.
#[derive(Clone, Debug)]
pub struct StoredGames {
    /// The name.
    pub name: String,
    /// `study`, `sweep` or `league`.
    pub kind: &'static str,
    /// Its shards, in plan order.
    pub shards: Vec<StoredShardDir>,
}

impl StoredGames {
    /// The shard called `slug`, or a sentence listing the valid ones.
    pub fn shard(&self, slug: &str) -> Result<&StoredShardDir, String> {
        self.shards.iter().find(|s| s.slug == slug).ok_or_else(|| {
            let names: Vec<&str> = self.shards.iter().map(|s| s.slug.as_str()).collect();
            format!(
                "--matchup {slug}: {} `{}` has no such matchup; matchups: {}",
                self.kind,
                self.name,
                names.join(", ")
            )
        })
    }
}

/// Every name that stores games, with its kind, in plan order.
pub fn stored_names(cfg: &Config) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = cfg
        .studies()
        .iter()
        .map(|s| (s.name.clone(), "study"))
        .collect();
    out.extend(cfg.sweeps().iter().map(|s| (s.name.clone(), "sweep")));
    out.extend(cfg.leagues().iter().map(|l| (l.name.clone(), "league")));
    out
}

/// The simulate jobs stored under `name`, or `None` when no study, sweep or league has it.
fn jobs_of(cfg: &Config, name: &str) -> Option<(Vec<Job>, &'static str)> {
    if let Some(s) = cfg.studies().iter().find(|s| s.name == name) {
        return Some((stages::simulate::jobs(s), "study"));
    }
    if let Some(s) = cfg.sweeps().iter().find(|s| s.name == name) {
        return Some((stages::sweep::jobs(cfg, s), "sweep"));
    }
    if let Some(l) = cfg.leagues().iter().find(|l| l.name == name) {
        return Some((stages::league::simulate_jobs(l), "league"));
    }
    None
}

/// The games stored under `name` by the pipeline of `cfg` (read from `config`), or a sentence
/// naming every study, sweep and league there is.
pub fn stored_games(cfg: &Config, config: &Path, name: &str) -> Result<StoredGames, String> {
    let Some((jobs, kind)) = jobs_of(cfg, name) else {
        let names = stored_names(cfg);
        let of = |k: &str| -> String {
            let v: Vec<&str> = names
                .iter()
                .filter(|(_, kind)| *kind == k)
                .map(|(n, _)| n.as_str())
                .collect();
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        };
        return Err(format!(
            "--study {name}: no study, sweep or league of that name in {}; studies: {}; sweeps: {}; leagues: {}",
            config.display(),
            of("study"),
            of("sweep"),
            of("league")
        ));
    };
    let layout = Layout::for_config(config);
    let prefix = format!("simulate/{name}/");
    let shards = jobs
        .iter()
        .filter(|j| j.stage == StageName::Simulate)
        .filter_map(|j| {
            let slug = j.id.strip_prefix(&prefix)?.to_string();
            let publish = j.publish.as_ref()?;
            Some((slug, layout.resolve(publish)))
        })
        .enumerate()
        .map(|(i, (slug, dir))| StoredShardDir {
            slug,
            match_id: i as u32 + 1,
            dir,
        })
        .collect();
    Ok(StoredGames {
        name: name.to_string(),
        kind,
        shards,
    })
}
