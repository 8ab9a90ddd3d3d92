//! Provenance of a report: the configuration as run, each study's seed and deal source, the
//! crate and compiler versions, every upstream job's cache key and output hashes, and the
//! command that reproduces it.
//!
//! Invariant: nothing here changes from run to run of the same inputs: no wall-clock time, no
//! absolute paths, no host names; jobs are listed in id order.

use serde::Serialize;

use super::published::Published;
use crate::results::Results;

/// The compiler that built this binary (set by the build script), or a note saying it is
/// unknown.
pub const RUSTC_VERSION: &str = match option_env!("BRISCOLA_RUSTC_VERSION") {
    Some(v) => v,
    None => "unknown (BRISCOLA_RUSTC_VERSION was not set at build time)",
};

/// One study's randomness.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudyProvenance {
    /// Study name.
    pub name: String,
    /// Deal source.
    pub deal_source: String,
    /// Seed.
    pub seed: i64,
    /// Games requested.
    pub games_requested: u64,
    /// Games played.
    pub games_total: u64,
    /// `name (kind, threshold, tie-break)` per policy.
    pub policies: Vec<String>,
}

/// One output file of a job.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutputHash {
    /// Output name.
    pub name: String,
    /// hex sha256.
    pub sha256: String,
}

/// One upstream job.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JobProvenance {
    /// Job id.
    pub id: String,
    /// Stage.
    pub stage: String,
    /// Cache key (hex sha256).
    pub key: String,
    /// Its outputs.
    pub outputs: Vec<OutputHash>,
}

/// Everything needed to say where the report came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Provenance {
    /// The configuration file's name as given (relative).
    pub config_path: String,
    /// Its text, as run.
    pub config_text: String,
    /// The published-figures file's name (relative).
    pub published_path: String,
    /// Its sha256.
    pub published_sha256: String,
    /// Per study.
    pub studies: Vec<StudyProvenance>,
    /// This crate's version.
    pub crate_version: String,
    /// rustc's version.
    pub rustc_version: String,
    /// Every upstream job, in id order.
    pub jobs: Vec<JobProvenance>,
    /// The command that reproduces the report.
    pub reproduce: String,
    /// sha256 of the upstream jobs' records (see [`upstream_digest`]): the part of
    /// `pipeline.lock` the report depends on, in one number.
    pub upstream_sha256: String,
}

/// sha256 of one line per upstream job, in id order, `id key name=sha256 ...` (outputs in
/// name order), each line ending in a newline: every cache key and output hash the report
/// depends on (the lock's entries for these jobs), in one number that does not depend on the
/// report's own bytes.
pub fn upstream_digest(jobs: &[JobProvenance]) -> String {
    use sha2::{Digest, Sha256};
    let mut text = String::new();
    for j in jobs {
        text.push_str(&format!("{} {}", j.id, j.key));
        for o in &j.outputs {
            text.push_str(&format!(" {}={}", o.name, o.sha256));
        }
        text.push('\n');
    }
    hex::encode(Sha256::digest(text.as_bytes()))
}

impl Provenance {
    /// Assemble provenance from the configuration, the published figures, the results and the
    /// render job's upstream jobs (the caller adapts its own job records; sorted here by id).
    pub fn new(
        config_path: &str,
        config_text: &str,
        published_path: &str,
        published: &Published,
        results: &Results,
        mut jobs: Vec<JobProvenance>,
    ) -> Provenance {
        let studies = results
            .studies
            .iter()
            .map(|s| StudyProvenance {
                name: s.name.clone(),
                deal_source: s.settings.deal_source.clone(),
                seed: s.settings.seed,
                games_requested: s.settings.games_requested,
                games_total: s.settings.games_total,
                policies: s
                    .settings
                    .policies
                    .iter()
                    .map(|p| {
                        let threshold = match p.kind {
                            crate::policy::PolicyKind::Hoarder
                            | crate::policy::PolicyKind::Counter => {
                                format!(", threshold {}", p.threshold)
                            }
                            _ => String::new(),
                        };
                        format!(
                            "{} ({}{threshold}, tie-break {})",
                            p.name,
                            p.kind.as_str(),
                            p.tie_break.as_str()
                        )
                    })
                    .collect(),
            })
            .collect();
        jobs.sort_by(|a, b| a.id.cmp(&b.id));
        for j in &mut jobs {
            j.outputs.sort_by(|a, b| a.name.cmp(&b.name));
        }
        Provenance {
            upstream_sha256: upstream_digest(&jobs),
            config_path: config_path.to_string(),
            config_text: config_text.to_string(),
            published_path: published_path.to_string(),
            published_sha256: published.sha256.clone(),
            studies,
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            rustc_version: RUSTC_VERSION.to_string(),
            jobs,
            reproduce: "make report".to_string(),
        }
    }
}
