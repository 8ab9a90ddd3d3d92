//! The plan: every job of the study, in dependency order, built from the validated config.
//!
//! Invariant: every job's deps appear earlier in the plan; job ids are unique.

use super::config::Config;
use super::job::Job;
use super::stages;

/// Errors building the plan.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Reading a file the plan needs (templates, published figures) failed.
    #[error("cannot read {path}: {message}")]
    Read {
        /// the file
        path: std::path::PathBuf,
        /// why
        message: String,
    },
}

/// Build the jobs of `cfg`: simulate and aggregate shards, then per study test and regress,
/// then plot and render.
pub fn plan(cfg: &Config) -> Result<Vec<Job>, PlanError> {
    let studies = cfg.studies();
    let mut jobs = Vec::new();
    for s in &studies {
        jobs.extend(stages::simulate::jobs(s));
    }
    for s in &studies {
        jobs.extend(stages::aggregate::jobs(s));
    }
    for s in &studies {
        jobs.push(stages::test::job(cfg, s));
        jobs.push(stages::regress::job(cfg, s));
    }
    jobs.push(stages::plot::job(cfg));
    jobs.push(stages::render::job(cfg));
    Ok(jobs)
}
