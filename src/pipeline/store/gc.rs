//! Garbage collection: [`collect_garbage`] drops run records and store objects that neither
//! the lock nor any job record refers to, and returns a [`GcReport`]; [`remove_leftovers`]
//! removes what killed runs left (scratch directories, temporary files).
//!
//! Invariant: gc runs only under the run mutex, and never removes an object named by the lock,
//! by a job's last record, or by a run record it keeps; so the current study stays fully cached.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::Path;

use serde::Serialize;

use super::content_store::ContentStore;
use super::layout::Layout;
use super::lock_file::LockFile;
use super::publisher::Publisher;
use super::run_cache::RunCache;
use super::stat_cache::StatCache;
use crate::pipeline::execution::run_error::RunError;
use crate::pipeline::execution::run_mutex::RunMutex;

/// What gc removed.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GcReport {
    /// Job records removed (jobs no longer in the plan).
    pub job_records_removed: Vec<String>,
    /// Run records removed (cache keys).
    pub runs_removed: Vec<String>,
    /// Objects removed: (hash, bytes).
    pub objects_removed: Vec<(String, u64)>,
    /// Objects kept.
    pub objects_kept: usize,
}

impl GcReport {
    /// Bytes freed by removing objects.
    pub fn bytes_freed(&self) -> u64 {
        self.objects_removed.iter().map(|(_, b)| b).sum()
    }
}

/// Remove unreferenced run records and objects, then what killed runs left ([`remove_leftovers`]).
/// `held` proves the caller holds the run mutex.
/// With `plan_ids`, job records of jobs no longer in the plan are removed first, with any files
/// they still publish (so they stop keeping their outputs alive).
pub fn collect_garbage(
    layout: &Layout,
    plan_ids: Option<&BTreeSet<String>>,
    held: &RunMutex,
) -> Result<GcReport, RunError> {
    let store = ContentStore::new(layout.objects());
    let runs = RunCache::new(layout);
    let lock = LockFile::load(&layout.lock_file())?;

    let mut keep_keys: BTreeSet<String> = lock.jobs.values().map(|e| e.key.clone()).collect();
    let mut keep_objects: BTreeSet<String> = lock
        .jobs
        .values()
        .flat_map(|e| e.outputs.values().cloned())
        .collect();
    let mut report = GcReport::default();
    for rec in runs.list_jobs()? {
        if let Some(ids) = plan_ids
            && !ids.contains(&rec.job)
        {
            // Withdraw its published files first, or nothing would remember them.
            let mut stat = StatCache::load(&layout.stat_cache(), layout.root());
            Publisher::new(layout, &store).publish(
                &rec.job,
                "",
                &Default::default(),
                &rec.published,
                &mut stat,
            )?;
            runs.remove_job(&rec.job)?;
            report.job_records_removed.push(rec.job.clone());
            continue;
        }
        keep_keys.insert(rec.components.key.clone());
        keep_objects.extend(rec.outputs.values().cloned());
    }

    for key in runs.list_run_keys()? {
        if keep_keys.contains(&key) {
            if let Some(rec) = runs.get_run(&key)? {
                keep_objects.extend(rec.outputs.values().cloned());
            }
        } else {
            runs.remove_run(&key)?;
            report.runs_removed.push(key);
        }
    }
    for (hash, size) in store.list()? {
        if keep_objects.contains(&hash) {
            report.objects_kept += 1;
        } else {
            store.remove(&hash)?;
            report.objects_removed.push((hash, size));
        }
    }
    remove_leftovers(layout, held)?;
    Ok(report)
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> RunError {
    let path = path.to_path_buf();
    move |source| RunError::Io {
        action,
        path,
        source,
    }
}

/// Remove what killed runs left: the jobs' scratch directories (`.cache/tmp/`), the store's
/// temporary files and interrupted atomic writes. `run` does it before its jobs start, `gc`
/// after collecting; `_held` proves the caller holds the run mutex (no job is writing).
pub fn remove_leftovers(layout: &Layout, _held: &RunMutex) -> Result<(), RunError> {
    let tmp = layout.tmp();
    match fs::remove_dir_all(&tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_err("remove", &tmp)(e)),
    }
    ContentStore::new(layout.objects()).remove_temp_files()?;
    remove_atomic_temps(&layout.runs())?;
    remove_atomic_temps(&layout.jobs())?;
    remove_atomic_temps(&layout.cache())?;
    remove_atomic_temps(layout.root())?;
    Ok(())
}

/// Remove every entry of `dir` that is an interrupted atomic write (`.NAME.tmp-PID-N`).
fn remove_atomic_temps(dir: &Path) -> Result<(), RunError> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_err("list", dir)(e)),
    };
    for entry in rd {
        let entry = entry.map_err(io_err("list", dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.contains(".tmp-") {
            let p = entry.path();
            fs::remove_file(&p).map_err(io_err("remove", &p))?;
        }
    }
    Ok(())
}
