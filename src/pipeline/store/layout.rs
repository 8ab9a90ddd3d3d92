//! Where everything lives under `outputs/`: [`Layout`] names every path the pipeline reads or
//! writes, so no other module spells a path.
//!
//! Invariant: everything the pipeline writes except published outputs and `pipeline.lock`
//! lives under `outputs/.cache/` (gitignored) except `run-provenance.json` (the git state of
//! the last run, never hashed), and published outputs never land inside
//! `.cache/` or on `pipeline.lock`.

use std::path::{Path, PathBuf};

/// Name of the cache directory under `outputs/`.
pub const CACHE_DIR: &str = ".cache";
/// Name of the lock file under `outputs/`.
pub const LOCK_FILE: &str = "pipeline.lock";
/// Name of the (unhashed) git provenance file under `outputs/`.
pub const RUN_PROVENANCE_FILE: &str = "run-provenance.json";
/// Where the plot stage publishes the figures, relative to `outputs/`.
pub const FIGURES_PUBLISH: &str = "figures";
/// Where the render stage publishes the report and `results.json`: `outputs/` itself.
pub const REPORT_PUBLISH: &str = "";

/// The paths of one outputs directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    root: PathBuf,
}

impl Layout {
    /// The layout of `outputs_dir` (nothing is created).
    pub fn new(outputs_dir: impl Into<PathBuf>) -> Layout {
        Layout {
            root: outputs_dir.into(),
        }
    }

    /// The layout for a config file: `outputs/` beside it.
    pub fn for_config(config_path: &Path) -> Layout {
        match config_path.parent() {
            Some(p) if !p.as_os_str().is_empty() => Layout::new(p.join("outputs")),
            _ => Layout::new("outputs"),
        }
    }

    /// Why the tree cannot be used as it stands, if it cannot: one of its directories is a
    /// file (or the lock file a directory), which every command would otherwise meet as an
    /// operating-system error about an inner path.
    pub fn shape_problem(&self) -> Option<String> {
        let dirs = [
            self.root.clone(),
            self.cache(),
            self.objects(),
            self.runs(),
            self.jobs(),
            self.tmp(),
        ];
        for d in &dirs {
            if let Ok(m) = std::fs::metadata(d)
                && !m.is_dir()
            {
                let kind = crate::files::file_kind(&m.file_type());
                return Some(format!(
                    "{} is a {kind}, not a directory: briscola keeps the study's outputs and its cache in it; move the {kind} away (a run makes the directory again)",
                    d.display()
                ));
            }
        }
        let lock = self.lock_file();
        if std::fs::metadata(&lock).is_ok_and(|m| m.is_dir()) {
            return Some(format!(
                "{} is a directory, not the lock file: move it away (`git checkout {}` restores the committed lock)",
                lock.display(),
                lock.display()
            ));
        }
        None
    }

    /// `outputs/`
    pub fn root(&self) -> &Path {
        &self.root
    }
    /// `outputs/.cache/`
    pub fn cache(&self) -> PathBuf {
        self.root.join(CACHE_DIR)
    }
    /// `outputs/.cache/objects/`: the content store.
    pub fn objects(&self) -> PathBuf {
        self.cache().join("objects")
    }
    /// `outputs/.cache/runs/`: cache key -> output hashes, for every key ever completed.
    pub fn runs(&self) -> PathBuf {
        self.cache().join("runs")
    }
    /// `outputs/.cache/jobs/`: each job's last key components (for rerun reasons).
    pub fn jobs(&self) -> PathBuf {
        self.cache().join("jobs")
    }
    /// `outputs/.cache/tmp/`: scratch directories of running jobs.
    pub fn tmp(&self) -> PathBuf {
        self.cache().join("tmp")
    }
    /// `outputs/.cache/run.lock`: the run mutex.
    pub fn run_mutex(&self) -> PathBuf {
        self.cache().join("run.lock")
    }
    /// `outputs/.cache/stat-cache.json`: (size, mtime, ctime, inode) -> sha256 hints.
    pub fn stat_cache(&self) -> PathBuf {
        self.cache().join("stat-cache.json")
    }
    /// `outputs/.cache/last-run.json`: the last run's report with timings (never hashed).
    pub fn last_run(&self) -> PathBuf {
        self.cache().join("last-run.json")
    }
    /// `outputs/run-provenance.json`: the git commit and dirty flag of the last run (never
    /// hashed, not in the lock).
    pub fn run_provenance(&self) -> PathBuf {
        self.root.join(RUN_PROVENANCE_FILE)
    }
    /// `outputs/.cache/slurm/`: the logs of jobs the Slurm executor submitted (never hashed).
    pub fn slurm_logs(&self) -> PathBuf {
        self.cache().join("slurm")
    }
    /// `outputs/pipeline.lock`
    pub fn lock_file(&self) -> PathBuf {
        self.root.join(LOCK_FILE)
    }

    /// The directory a job publishes into (`publish` is relative to `outputs/`, may be empty).
    pub fn publish_dir(&self, publish: &str) -> PathBuf {
        if publish.is_empty() {
            self.root.clone()
        } else {
            self.root.join(publish)
        }
    }

    /// Where the simulate job of `study`'s matchup `slug` publishes, relative to `outputs/`
    /// (`<study>/simulate/<g1>-vs-<g2>`).
    pub fn shard_publish(study: &str, slug: &str) -> String {
        format!("{study}/simulate/{slug}")
    }

    /// Where `study`'s test and regress jobs publish their tables, relative to `outputs/`.
    pub fn tables_publish(study: &str) -> String {
        format!("tables/{study}")
    }

    /// The published directory of `study`'s matchup `slug` (its games and tricks tables).
    pub fn shard_dir(&self, study: &str, slug: &str) -> PathBuf {
        self.resolve(&Layout::shard_publish(study, slug))
    }

    /// A path relative to `outputs/` with `/` separators, as stored in records.
    pub fn published_rel(publish: &str, name: &str) -> String {
        if publish.is_empty() {
            name.to_string()
        } else {
            format!("{}/{name}", publish.trim_end_matches('/'))
        }
    }

    /// A relative link from a file published in `from` to `name` published in `to` (both
    /// relative to `outputs/`): `link("", "figures", "paper/figure2.png")` is
    /// `figures/paper/figure2.png`; from `tables/paper` it is `../../figures/paper/figure2.png`.
    pub fn link(from: &str, to: &str, name: &str) -> String {
        let up = from.split('/').filter(|p| !p.is_empty()).count();
        format!("{}{}", "../".repeat(up), Layout::published_rel(to, name))
    }

    /// The absolute-or-relative path of a `/`-separated path relative to `outputs/`.
    pub fn resolve(&self, rel: &str) -> PathBuf {
        let mut p = self.root.clone();
        for part in rel.split('/') {
            p.push(part);
        }
        p
    }
}

/// Checks a relative `/`-separated path (job id, output name, publish dir) is safe to join
/// under a directory: non-empty parts of `A-Za-z0-9._-`, none `.` or `..`.
pub fn check_rel_path(rel: &str) -> Result<(), String> {
    if rel.is_empty() {
        return Err("is empty".into());
    }
    for part in rel.split('/') {
        if part.is_empty() || part == "." || part == ".." {
            return Err(format!("`{rel}` has an empty, `.` or `..` component"));
        }
        if let Some(c) = part
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
        {
            return Err(format!(
                "`{rel}` contains {c:?}; use A-Z, a-z, 0-9, '.', '_', '-' and '/'"
            ));
        }
    }
    Ok(())
}

/// The file name a job id maps to in `jobs/` and `tmp/` (`/` becomes `__`).
pub fn job_file_stem(job_id: &str) -> String {
    job_id.replace('/', "__")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_paths() {
        assert!(check_rel_path("paper/simulate/a-vs-b").is_ok());
        assert!(check_rel_path("a/../b").is_err());
        assert!(check_rel_path("/abs").is_err());
        assert!(check_rel_path("a b").is_err());
        assert!(check_rel_path("").is_err());
        assert_eq!(Layout::published_rel("", "x.md"), "x.md");
        assert_eq!(
            Layout::published_rel("paper/test", "t.json"),
            "paper/test/t.json"
        );
        assert_eq!(
            job_file_stem("simulate/paper/a-vs-b"),
            "simulate__paper__a-vs-b"
        );
    }
}
