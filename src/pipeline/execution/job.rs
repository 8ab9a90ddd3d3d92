//! One unit of work in the stage pipeline: a stage (or one shard of it) with everything that
//! determines its output.
//!
//! Invariant: a [`Job`]'s output is a pure function of its `params`, its `code` fingerprint and
//! the bytes of its dependencies' outputs; nothing else (no clock, no environment) may leak in.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// The stages, in pipeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StageName {
    /// Play the tournament: one job per (study, ordered matchup).
    Simulate,
    /// Count what the analysis needs, per (study, ordered matchup).
    Aggregate,
    /// Hypothesis tests and Tables 3 and 5, per study.
    Test,
    /// The logistic regression of Table 4, per study.
    Regress,
    /// A league's pairs and ratings.
    League,
    /// Figures.
    Plot,
    /// results.json, tables and the literate report.
    Render,
}

impl StageName {
    /// Every stage in pipeline order.
    pub const ALL: [StageName; 7] = [
        StageName::Simulate,
        StageName::Aggregate,
        StageName::Test,
        StageName::Regress,
        StageName::League,
        StageName::Plot,
        StageName::Render,
    ];

    /// Lower-case name, as used on the command line and in the lock file.
    pub const fn as_str(self) -> &'static str {
        match self {
            StageName::Simulate => "simulate",
            StageName::Aggregate => "aggregate",
            StageName::Test => "test",
            StageName::Regress => "regress",
            StageName::League => "league",
            StageName::Plot => "plot",
            StageName::Render => "render",
        }
    }

    /// Parse a stage name as typed on the command line.
    pub fn parse(s: &str) -> Option<StageName> {
        StageName::ALL.into_iter().find(|st| st.as_str() == s)
    }
}

impl fmt::Display for StageName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The output files of the jobs a job depends on: dependency job id -> output name -> path.
/// Output names are relative paths with `/` separators, e.g. `tricks.parquet`.
#[derive(Debug, Default, Clone)]
pub struct JobInputs {
    /// dependency job id -> (output name -> readable path of that output's bytes)
    pub files: BTreeMap<String, BTreeMap<String, PathBuf>>,
    /// Every transitive ancestor of the job (not only direct deps): its stage, cache key and
    /// output hashes, for provenance. Deterministic: no times, no absolute paths.
    pub ancestors: BTreeMap<String, AncestorInfo>,
}

/// Provenance of one upstream job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AncestorInfo {
    /// Its stage.
    pub stage: StageName,
    /// Its cache key (hex sha256).
    pub key: String,
    /// output name -> hex sha256.
    pub outputs: BTreeMap<String, String>,
}

impl JobInputs {
    /// The path of output `name` of dependency `job`, if present.
    pub fn get(&self, job: &str, name: &str) -> Option<&Path> {
        self.files
            .get(job)
            .and_then(|m| m.get(name))
            .map(PathBuf::as_path)
    }
}

/// Error a job's body may return; the runner adds the job id.
pub type JobResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// The body of a job: reads its inputs, writes every output file into `out_dir` (an empty
/// directory owned by the runner), and returns. It must not write anywhere else.
pub type JobBody = Box<dyn Fn(&JobInputs, &Path) -> JobResult + Send + Sync>;

/// A unit of work.
pub struct Job {
    /// Unique, stable, path-safe id, e.g. `simulate/paper/greedy-vs-hoarder`, `test/paper`, `render`.
    pub id: String,
    /// The stage this job belongs to.
    pub stage: StageName,
    /// Ids of the jobs whose outputs this job reads (all must appear earlier in the plan).
    pub deps: Vec<String>,
    /// Everything from the configuration (and any file contents such as templates) that affects
    /// the output. The runner canonicalises it (sorted keys) before hashing.
    pub params: serde_json::Value,
    /// Fingerprint of the code that computes the output (stage source hash + crate version).
    pub code: String,
    /// Where under `outputs/` the job's files are published for people to read, e.g.
    /// `paper/simulate/greedy-vs-hoarder` or `` (the top of `outputs/`). `None`: not published.
    pub publish: Option<String>,
    /// A note the runner shows in `status`, e.g. why shards are tied together.
    pub note: Option<String>,
    /// The work itself.
    pub body: JobBody,
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Job")
            .field("id", &self.id)
            .field("stage", &self.stage)
            .field("deps", &self.deps)
            .field("params", &self.params)
            .field("code", &self.code)
            .field("publish", &self.publish)
            .finish_non_exhaustive()
    }
}
