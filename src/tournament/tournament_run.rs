//! An ad-hoc tournament (`briscola simulate`): every ordered matchup of a policy list played into
//! one directory, one sub-directory per shard, with a manifest naming them in MatchId order.
//!
//! Invariant: the manifest is written last, through a temporary file and a rename, so a
//! directory with a manifest is complete.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::deal_source::DealSourceKind;
use super::matchup::Matchup;
use super::shard::{ShardError, ShardSpec, ShardSummary};
use crate::policy::PolicySpec;

/// File name of the manifest.
pub const MANIFEST_FILE: &str = "tournament.json";

/// One shard in a manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestShard {
    /// MatchId (1-based, row-major).
    pub match_id: u32,
    /// Sub-directory holding the shard's tables.
    pub dir: String,
    /// Its summary.
    pub summary: ShardSummary,
}

/// The manifest of a tournament directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Deal source.
    pub deal_source: DealSourceKind,
    /// Seed.
    pub seed: i64,
    /// Games per ordered matchup.
    pub games_per_matchup: u64,
    /// Policies in matchup order.
    pub policies: Vec<PolicySpec>,
    /// Shards in MatchId order.
    pub shards: Vec<ManifestShard>,
}

/// Errors of a tournament run or of reading a tournament directory.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// A shard failed.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// File system trouble.
    #[error("{path}: {message}")]
    Io {
        /// where
        path: PathBuf,
        /// what
        message: String,
    },
}

/// Shard specs of a tournament, in MatchId order.
pub fn shard_specs(
    policies: &[PolicySpec],
    deal_source: DealSourceKind,
    seed: i64,
    games_per_matchup: u64,
) -> Vec<(Matchup, ShardSpec)> {
    Matchup::all(policies)
        .into_iter()
        .map(|m| {
            let spec = ShardSpec {
                deal_source,
                seed,
                rules: Default::default(),
                games: games_per_matchup,
                g1: m.g1.clone(),
                g2: m.g2.clone(),
                first_game: match deal_source {
                    DealSourceKind::DotnetReplay => m.index as u64 * games_per_matchup,
                    DealSourceKind::Chacha => 0,
                },
            };
            (m, spec)
        })
        .collect()
}

/// Play the tournament into `out`. `progress(done_games)` is called as games finish.
pub fn run_tournament(
    policies: &[PolicySpec],
    deal_source: DealSourceKind,
    seed: i64,
    games_per_matchup: u64,
    out: &Path,
    progress: &dyn Fn(u64),
) -> Result<Manifest, TournamentError> {
    let io = |path: &Path, e: std::io::Error| TournamentError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let mut shards = Vec::new();
    let mut base = 0u64;
    for (m, spec) in shard_specs(policies, deal_source, seed, games_per_matchup) {
        let dir = out.join(m.slug());
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        let b = base;
        let summary = spec.run(&dir, &|done| progress(b + done))?;
        base += games_per_matchup;
        shards.push(ManifestShard {
            match_id: m.match_id,
            dir: m.slug(),
            summary,
        });
    }
    let manifest = Manifest {
        deal_source,
        seed,
        games_per_matchup,
        policies: policies.to_vec(),
        shards,
    };
    let path = out.join(MANIFEST_FILE);
    let tmp = out.join(format!(".{MANIFEST_FILE}.tmp"));
    let mut text = serde_json::to_string_pretty(&manifest).expect("manifest serialises");
    text.push('\n');
    std::fs::write(&tmp, text).map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| io(&path, e))?;
    Ok(manifest)
}

/// Read the manifest of a tournament directory.
pub fn read_manifest(dir: &Path) -> Result<Manifest, TournamentError> {
    let path = dir.join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| TournamentError::Io {
        path: path.clone(),
        message: format!("{e} (is this a directory written by `briscola simulate`?)"),
    })?;
    serde_json::from_str(&text).map_err(|e| TournamentError::Io {
        path,
        message: e.to_string(),
    })
}
