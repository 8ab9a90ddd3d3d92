//! The run-cache: [`RunCache`] remembers, for every cache key ever completed, the hashes of the
//! outputs it produced (`outputs/.cache/runs/<key>.json`), and for every job its last key
//! components and published files (`outputs/.cache/jobs/<job id, / as __>.json`).
//!
//! Invariant: a record is written (atomically, via temp + rename) only after every object it
//! names is in the content store, so a record never points at objects that were never stored;
//! a record that cannot be parsed is treated as absent, never trusted.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::atomic_file::write_atomic;
use super::content_store::is_sha256_hex;
use super::layout::{Layout, job_file_stem};
use crate::pipeline::execution::cache_key::KeyComponents;

/// Errors reading or writing records, naming the record file.
#[derive(Debug, thiserror::Error)]
pub enum RunCacheError {
    /// An I/O error on a record file or directory.
    #[error("run-cache: {action} {path}: {source}")]
    Io {
        /// what was being done
        action: &'static str,
        /// the file or directory
        path: PathBuf,
        /// the I/O error
        source: io::Error,
    },
}

/// `runs/<key>.json`: what a key produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The cache key (hex sha256); also the file name.
    pub key: String,
    /// The job that produced it (informational).
    pub job: String,
    /// output name -> hex sha256.
    pub outputs: BTreeMap<String, String>,
}

/// `jobs/<job>.json`: a job's last completed state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobRecord {
    /// The job id.
    pub job: String,
    /// Its stage (lower case).
    pub stage: String,
    /// The components of its last key.
    pub components: KeyComponents,
    /// output name -> hex sha256 of the last completed run.
    pub outputs: BTreeMap<String, String>,
    /// Files it published, relative to `outputs/` with `/` separators, sorted.
    pub published: Vec<String>,
}

/// The run-cache directories of one outputs directory.
#[derive(Debug, Clone)]
pub struct RunCache {
    runs: PathBuf,
    jobs: PathBuf,
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> RunCacheError {
    let path = path.to_path_buf();
    move |source| RunCacheError::Io {
        action,
        path,
        source,
    }
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, RunCacheError> {
    match fs::read(path) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes).ok()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err("read", path)(e)),
    }
}

fn write_json<T: Serialize>(path: &Path, v: &T) -> Result<(), RunCacheError> {
    let mut bytes =
        serde_json::to_vec_pretty(v).map_err(|e| io_err("serialise", path)(io::Error::other(e)))?;
    bytes.push(b'\n');
    write_atomic(path, &bytes).map_err(|e| RunCacheError::Io {
        action: "write",
        path: e.path,
        source: e.source,
    })
}

fn list_json(dir: &Path) -> Result<Vec<(String, PathBuf)>, RunCacheError> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err("list", dir)(e)),
    };
    let mut out = Vec::new();
    for entry in rd {
        let entry = entry.map_err(io_err("list", dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".json")
            && !stem.starts_with('.')
        {
            out.push((stem.to_string(), entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

impl RunCache {
    /// The run-cache of `layout`.
    pub fn new(layout: &Layout) -> RunCache {
        RunCache {
            runs: layout.runs(),
            jobs: layout.jobs(),
        }
    }

    fn run_path(&self, key: &str) -> PathBuf {
        self.runs.join(format!("{key}.json"))
    }

    fn job_path(&self, job: &str) -> PathBuf {
        self.jobs.join(format!("{}.json", job_file_stem(job)))
    }

    /// The record of `key`, if any (an unparsable or mismatched record counts as absent).
    pub fn get_run(&self, key: &str) -> Result<Option<RunRecord>, RunCacheError> {
        if !is_sha256_hex(key) {
            return Ok(None);
        }
        let rec: Option<RunRecord> = read_json(&self.run_path(key))?;
        Ok(rec.filter(|r| r.key == key && r.outputs.values().all(|h| is_sha256_hex(h))))
    }

    /// Write the record of a completed key (call only after its objects are stored).
    pub fn put_run(&self, rec: &RunRecord) -> Result<(), RunCacheError> {
        write_json(&self.run_path(&rec.key), rec)
    }

    /// Remove the record of `key`.
    pub fn remove_run(&self, key: &str) -> Result<(), RunCacheError> {
        let p = self.run_path(key);
        match fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err("remove", &p)(e)),
        }
    }

    /// Every run record, sorted by key (unparsable files are skipped).
    pub fn list_runs(&self) -> Result<Vec<RunRecord>, RunCacheError> {
        let mut out = Vec::new();
        for (stem, _) in list_json(&self.runs)? {
            if let Some(r) = self.get_run(&stem)? {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// Keys of every file in `runs/` (including unparsable ones), sorted.
    pub fn list_run_keys(&self) -> Result<Vec<String>, RunCacheError> {
        Ok(list_json(&self.runs)?.into_iter().map(|(k, _)| k).collect())
    }

    /// A job's last record, if any.
    pub fn get_job(&self, job: &str) -> Result<Option<JobRecord>, RunCacheError> {
        let rec: Option<JobRecord> = read_json(&self.job_path(job))?;
        Ok(rec.filter(|r| r.job == job))
    }

    /// Write a job's record (after its run record).
    pub fn put_job(&self, rec: &JobRecord) -> Result<(), RunCacheError> {
        write_json(&self.job_path(&rec.job), rec)
    }

    /// Every job record (unparsable files skipped), sorted by file name.
    pub fn list_jobs(&self) -> Result<Vec<JobRecord>, RunCacheError> {
        let mut out = Vec::new();
        for (_, path) in list_json(&self.jobs)? {
            if let Some(r) = read_json::<JobRecord>(&path)? {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// Remove a job's record.
    pub fn remove_job(&self, job: &str) -> Result<(), RunCacheError> {
        let p = self.job_path(job);
        match fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err("remove", &p)(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_garbage_is_absent() {
        let dir = tempfile::tempdir().unwrap();
        let layout = Layout::new(dir.path());
        let rc = RunCache::new(&layout);
        let key = "a".repeat(64);
        assert!(rc.get_run(&key).unwrap().is_none());
        let rec = RunRecord {
            key: key.clone(),
            job: "x/y".into(),
            outputs: BTreeMap::from([("o.txt".to_string(), "b".repeat(64))]),
        };
        rc.put_run(&rec).unwrap();
        assert_eq!(rc.get_run(&key).unwrap(), Some(rec));
        fs::write(layout.runs().join(format!("{key}.json")), b"{trunc").unwrap();
        assert!(rc.get_run(&key).unwrap().is_none());
        assert_eq!(rc.list_run_keys().unwrap(), vec![key]);
    }
}
