//! `briscola verify`: [`verify`] re-hashes, in full, every published output against the lock
//! and every object in the content store against its name, and returns a [`VerifyReport`].
//!
//! Invariant: verify trusts no cache: every byte it vouches for was hashed during this call
//! (hard links to one file are hashed once per call); it writes nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;

use serde::Serialize;

use super::content_store::{ContentStore, ObjectState, sha256_file};
use super::layout::Layout;
use super::lock_file::LockFile;
use super::run_cache::RunCache;
use super::stat_cache::FileStat;
use crate::pipeline::execution::job::Job;
use crate::pipeline::execution::run_error::RunError;

/// Hashes computed during this call, by file identity: a published file is usually a hard link
/// to its store object, and its bytes need hashing only once per call (still in full).
#[derive(Default)]
struct Hashed(BTreeMap<FileStat, String>);

impl Hashed {
    fn hash(&mut self, path: &Path) -> io::Result<String> {
        let before = FileStat::of(path)?;
        if let Some(h) = self.0.get(&before) {
            return Ok(h.clone());
        }
        let h = sha256_file(path)?;
        if FileStat::of(path).ok() == Some(before) {
            self.0.insert(before, h.clone());
        }
        Ok(h)
    }
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Problem {
    /// A job of the plan has no lock entry.
    NotInLock {
        /// the job
        job: String,
    },
    /// The lock has an entry for a job the plan no longer has.
    NotInPlan {
        /// the job
        job: String,
    },
    /// A published output is missing.
    Missing {
        /// the job
        job: String,
        /// path relative to outputs/
        path: String,
        /// the lock's hash
        expected: String,
    },
    /// A published output's bytes differ from the lock.
    Mismatch {
        /// the job
        job: String,
        /// path relative to outputs/
        path: String,
        /// the lock's hash
        expected: String,
        /// the hash on disk
        actual: String,
    },
    /// A store object's bytes do not match its name.
    CorruptObject {
        /// the object's name
        hash: String,
        /// the hash of its bytes
        actual: String,
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::NotInLock { job } => write!(f, "{job}: not in the lock (run `briscola run`)"),
            Problem::NotInPlan { job } => {
                write!(
                    f,
                    "{job}: in the lock but not in the plan (run `briscola run`)"
                )
            }
            Problem::Missing {
                job,
                path,
                expected,
            } => {
                write!(f, "{job}: outputs/{path} is missing (lock: {expected})")
            }
            Problem::Mismatch {
                job,
                path,
                expected,
                actual,
            } => write!(
                f,
                "{job}: outputs/{path} differs: lock {expected}, on disk {actual}"
            ),
            Problem::CorruptObject { hash, actual } => write!(
                f,
                "content store object {hash} is corrupt (its bytes hash to {actual}); the next run rebuilds it"
            ),
        }
    }
}

/// What verify checked and found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct VerifyReport {
    /// Published files hashed.
    pub files_checked: usize,
    /// Store objects hashed.
    pub objects_checked: usize,
    /// Run records naming objects that are no longer in the store (harmless: the job re-runs).
    pub dangling_records: usize,
    /// Problems, sorted.
    pub problems: Vec<Problem>,
}

impl VerifyReport {
    /// No problems.
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Verify the outputs of `plan` under `layout` against the lock.
pub fn verify(layout: &Layout, plan: &[Job]) -> Result<VerifyReport, RunError> {
    let lock = LockFile::load(&layout.lock_file())?;
    let store = ContentStore::new(layout.objects());
    let runs = RunCache::new(layout);
    let mut report = VerifyReport::default();
    let mut hashed = Hashed::default();
    let ids: BTreeSet<&str> = plan.iter().map(|j| j.id.as_str()).collect();
    for job in plan {
        let Some(entry) = lock.jobs.get(&job.id) else {
            report.problems.push(Problem::NotInLock {
                job: job.id.clone(),
            });
            continue;
        };
        let Some(dir) = &job.publish else { continue };
        for (name, expected) in &entry.outputs {
            let rel = Layout::published_rel(dir, name);
            let path = layout.resolve(&rel);
            report.files_checked += 1;
            match hashed.hash(&path) {
                Ok(actual) if actual == *expected => {}
                Ok(actual) => report.problems.push(Problem::Mismatch {
                    job: job.id.clone(),
                    path: rel,
                    expected: expected.clone(),
                    actual,
                }),
                // Not there as a file: absent, under a directory made a file, or a directory.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound
                            | io::ErrorKind::NotADirectory
                            | io::ErrorKind::IsADirectory
                    ) =>
                {
                    report.problems.push(Problem::Missing {
                        job: job.id.clone(),
                        path: rel,
                        expected: expected.clone(),
                    })
                }
                Err(source) => {
                    return Err(RunError::Io {
                        action: "hash",
                        path,
                        source,
                    });
                }
            }
        }
    }
    for id in lock.jobs.keys() {
        if !ids.contains(id.as_str()) {
            report.problems.push(Problem::NotInPlan { job: id.clone() });
        }
    }
    for (hash, _) in store.list()? {
        report.objects_checked += 1;
        if let ObjectState::Corrupt { actual } = store.verify(&hash)? {
            report
                .problems
                .push(Problem::CorruptObject { hash, actual });
        }
    }
    for rec in runs.list_runs()? {
        if rec.outputs.values().any(|h| !store.contains(h)) {
            report.dangling_records += 1;
        }
    }
    report.problems.sort();
    Ok(report)
}
