//! The plan: every job of the study, in dependency order, built from the validated config.
//!
//! Invariant: every job's deps appear earlier in the plan; job ids are unique.

use super::job::Job;
use crate::pipeline::config::pipeline_config::Config;
use crate::pipeline::stages;
use crate::report::published::Published;
use std::collections::BTreeMap;

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
/// then each sweep's shards and curve, then plot and render.
pub fn plan(cfg: &Config) -> Result<Vec<Job>, PlanError> {
    let studies = cfg.studies();
    let mut jobs = Vec::new();
    for s in studies {
        jobs.extend(stages::simulate::jobs(s));
    }
    let leagues = cfg.leagues();
    for l in leagues {
        jobs.extend(stages::league::simulate_jobs(l));
    }
    for s in studies {
        jobs.extend(stages::aggregate::jobs(s));
    }
    for s in studies {
        jobs.push(stages::test::job(cfg, s));
        jobs.push(stages::regress::job(cfg, s));
    }
    for s in cfg.sweeps() {
        jobs.extend(stages::sweep::jobs(cfg, s));
    }
    for l in leagues {
        jobs.extend(stages::league::jobs(l));
    }
    let (published_text, published) = match (cfg.published_path(), &cfg.study.published) {
        (Some(path), Some(rel)) => {
            let text = std::fs::read_to_string(&path).map_err(|e| PlanError::Read {
                path: path.clone(),
                message: format!(
                    "{e} (the paper's figures file named by study.published in {})",
                    cfg.source_name
                ),
            })?;
            let published = Published::parse(&text, rel).map_err(|e| PlanError::Read {
                path: path.clone(),
                message: e.to_string(),
            })?;
            (text, published)
        }
        _ => (String::new(), Published::default()),
    };
    jobs.push(stages::plot::job(cfg, &published));
    jobs.push(stages::render::job(
        cfg,
        read_templates(cfg)?,
        published_text,
    ));
    Ok(jobs)
}

/// Every template (`*.j2`) of the templates directory (`templates/` beside the config unless
/// `[study] templates` names another), by name (sorted).
fn read_templates(cfg: &Config) -> Result<BTreeMap<String, String>, PlanError> {
    let dir = cfg.templates_dir();
    let err = |path: &std::path::Path, e: std::io::Error| PlanError::Read {
        path: path.to_path_buf(),
        message: format!(
            "{e} (the report templates live in templates/ beside the config, or where [study] templates says)"
        ),
    };
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).map_err(|e| err(&dir, e))? {
        let entry = entry.map_err(|e| err(&dir, e))?;
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "j2") {
            let name = entry.file_name().to_string_lossy().to_string();
            out.insert(
                name,
                std::fs::read_to_string(&path).map_err(|e| err(&path, e))?,
            );
        }
    }
    Ok(out)
}
