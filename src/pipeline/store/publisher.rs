//! Publishing: [`Publisher`] materialises a job's outputs from the content store under
//! `outputs/<publish>/<name>` (a hard link when possible, else a copy), and removes files the
//! job published before that are no longer among its outputs.
//!
//! Invariant: a published path is only ever replaced by an atomic rename of a complete file
//! (linked or copied to a temp name beside it first), and only paths inside `outputs/` outside
//! `.cache/` and other than `pipeline.lock` are ever written or removed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::atomic_file::{sync_parent, temp_path_beside};
use super::content_store::ContentStore;
use super::layout::{CACHE_DIR, LOCK_FILE, Layout, check_rel_path};
use super::stat_cache::StatCache;

/// Errors publishing, naming the path.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// An I/O error at `path`.
    #[error("publishing {path}: {action}: {source}")]
    Io {
        /// what was being done
        action: &'static str,
        /// the published path
        path: PathBuf,
        /// the I/O error
        source: io::Error,
    },
    /// A published path would be unsafe (outside outputs/, inside .cache/, the lock...).
    #[error("job {job}: cannot publish `{rel}`: {message}")]
    Unsafe {
        /// the job
        job: String,
        /// the path relative to outputs/
        rel: String,
        /// why
        message: String,
    },
    /// An object to publish is not in the store.
    #[error("job {job}: object {hash} for `{rel}` is missing from the content store")]
    MissingObject {
        /// the job
        job: String,
        /// the path relative to outputs/
        rel: String,
        /// the object
        hash: String,
    },
}

/// What publishing did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Published {
    /// Every published path (relative to outputs/), sorted.
    pub files: Vec<String>,
    /// Paths that existed before with other bytes, or were missing, and were (re)written.
    pub written: Vec<String>,
    /// Stale paths removed.
    pub removed: Vec<String>,
}

/// Materialises outputs under `outputs/`.
#[derive(Debug)]
pub struct Publisher<'a> {
    layout: &'a Layout,
    store: &'a ContentStore,
}

/// Check a path relative to outputs/ may be published to.
pub fn check_publish_rel(rel: &str) -> Result<(), String> {
    check_rel_path(rel)?;
    let first = rel.split('/').next().unwrap_or("");
    if first == CACHE_DIR {
        return Err(format!(
            "`{rel}` is inside {CACHE_DIR}/, which belongs to the cache"
        ));
    }
    if rel == LOCK_FILE {
        return Err(format!("`{rel}` is the lock file"));
    }
    Ok(())
}

impl<'a> Publisher<'a> {
    /// A publisher for `layout`'s outputs directory.
    pub fn new(layout: &'a Layout, store: &'a ContentStore) -> Publisher<'a> {
        Publisher { layout, store }
    }

    /// Publish `outputs` (name -> hash) of `job` under `publish`; `previous` lists what the job
    /// published last time (relative to outputs/) so stale files can be removed.
    pub fn publish(
        &self,
        job: &str,
        publish: &str,
        outputs: &BTreeMap<String, String>,
        previous: &[String],
        stat: &mut StatCache,
    ) -> Result<Published, PublishError> {
        let mut result = Published::default();
        let io = |action: &'static str, path: &Path| {
            let path = path.to_path_buf();
            move |source| PublishError::Io {
                action,
                path,
                source,
            }
        };
        for (name, hash) in outputs {
            let rel = Layout::published_rel(publish, name);
            check_publish_rel(&rel).map_err(|message| PublishError::Unsafe {
                job: job.to_string(),
                rel: rel.clone(),
                message,
            })?;
            let dest = self.layout.resolve(&rel);
            result.files.push(rel.clone());
            if let Ok(m) = fs::symlink_metadata(&dest) {
                if m.is_file()
                    && stat.hash(&dest).map_err(io("hash", &dest))?.as_deref()
                        == Some(hash.as_str())
                {
                    continue;
                }
                if m.is_dir() {
                    return Err(PublishError::Unsafe {
                        job: job.to_string(),
                        rel,
                        message: "a directory is in the way".into(),
                    });
                }
            }
            let obj = self
                .store
                .path(hash)
                .ok()
                .filter(|p| p.is_file())
                .ok_or_else(|| PublishError::MissingObject {
                    job: job.to_string(),
                    rel: rel.clone(),
                    hash: hash.clone(),
                })?;
            if let Some(parent) = dest.parent()
                && let Err(e) = fs::create_dir_all(parent)
            {
                // A file where the output's directory belongs (or above it) is refused as a
                // directory in the file's place is: named, not "File exists (os error 17)".
                // Looked for only when the directory could not be made (`metadata` follows
                // links, as `create_dir_all` does).
                let Some((blocker, m)) = parent
                    .ancestors()
                    .take_while(|a| *a != self.layout.root())
                    .find_map(|a| fs::metadata(a).ok().filter(|m| !m.is_dir()).map(|m| (a, m)))
                else {
                    return Err(io("create directory", parent)(e));
                };
                return Err(PublishError::Unsafe {
                    job: job.to_string(),
                    rel,
                    message: format!(
                        "{} is a {} where its directory belongs; move it away",
                        blocker.display(),
                        crate::files::file_kind(&m.file_type())
                    ),
                });
            }
            let temp = temp_path_beside(&dest);
            if fs::hard_link(&obj, &temp).is_err() {
                fs::copy(&obj, &temp).map_err(io("copy", &temp))?;
                fs::File::open(&temp)
                    .and_then(|f| f.sync_all())
                    .map_err(io("fsync", &temp))?;
            }
            if let Err(e) = fs::rename(&temp, &dest) {
                let _ = fs::remove_file(&temp);
                return Err(io("rename", &dest)(e));
            }
            sync_parent(&dest);
            // Linking changed the object's ctime: refresh both hints (same bytes, just verified).
            stat.record(&dest, hash);
            stat.record(&obj, hash);
            result.written.push(rel);
        }
        result.files.sort();
        let current: BTreeSet<&String> = result.files.iter().collect();
        for rel in previous {
            if current.contains(rel) || check_publish_rel(rel).is_err() {
                continue;
            }
            let path = self.layout.resolve(rel);
            match fs::remove_file(&path) {
                Ok(()) => {
                    stat.forget(&path);
                    result.removed.push(rel.clone());
                    self.remove_empty_parents(rel);
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io("remove stale file", &path)(e)),
            }
        }
        Ok(result)
    }

    /// The published paths (relative to outputs/) of `outputs` under `publish` that are missing
    /// or hold other bytes; read-only (a dry run's view of what publishing would rewrite).
    pub fn needs_publishing(
        &self,
        publish: &str,
        outputs: &BTreeMap<String, String>,
        stat: &mut StatCache,
    ) -> Vec<String> {
        outputs
            .iter()
            .filter_map(|(name, hash)| {
                let rel = Layout::published_rel(publish, name);
                let path = self.layout.resolve(&rel);
                let ok = fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
                    && stat.hash(&path).ok().flatten().as_deref() == Some(hash.as_str());
                (!ok).then_some(rel)
            })
            .collect()
    }

    /// Remove now-empty directories of `rel` below outputs/ (best effort).
    fn remove_empty_parents(&self, rel: &str) {
        let parts: Vec<&str> = rel.split('/').collect();
        for n in (1..parts.len()).rev() {
            let dir = self.layout.resolve(&parts[..n].join("/"));
            if fs::remove_dir(&dir).is_err() {
                break;
            }
        }
    }
}
