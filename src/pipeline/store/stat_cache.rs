//! A hint cache so a no-op run does not re-hash large unchanged files: [`StatCache`] maps a
//! path to (device, inode, size, mtime, ctime) and the sha256 its bytes had when last hashed,
//! stored in `outputs/.cache/stat-cache.json`.
//!
//! Invariant: a cached hash is used only when all five stat fields still match exactly; any
//! change (including ctime, which no user tool can set back) forces a full re-hash. The cache
//! never decides anything on its own: deleting it only costs time.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::atomic_file::{AtomicFileError, write_atomic};
use super::content_store::sha256_file;

/// The stat fields a cached hash depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileStat {
    /// Device id.
    pub dev: u64,
    /// Inode number.
    pub ino: u64,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, seconds and nanoseconds.
    pub mtime: (i64, i64),
    /// Status-change time, seconds and nanoseconds.
    pub ctime: (i64, i64),
}

impl FileStat {
    /// Stat `path` (follows symlinks).
    pub fn of(path: &Path) -> io::Result<FileStat> {
        let m = fs::metadata(path)?;
        Ok(FileStat {
            dev: m.dev(),
            ino: m.ino(),
            size: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    stat: FileStat,
    sha256: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Doc {
    entries: BTreeMap<String, Entry>,
}

/// Path -> (stat, sha256) hints.
#[derive(Debug)]
pub struct StatCache {
    file: PathBuf,
    root: PathBuf,
    doc: Doc,
    touched: BTreeSet<String>,
    dirty: bool,
}

impl StatCache {
    /// Load the cache stored at `file` (missing or unparsable: empty); paths under `root` are
    /// stored relative to it.
    pub fn load(file: &Path, root: &Path) -> StatCache {
        let mut doc: Doc = fs::read(file)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        // "Racy" entries (git's term): a file changed in the same clock tick as the cache was
        // written could have changed after it was hashed without its stat showing it. Entries
        // not strictly older than the cache file are dropped, so those files are re-hashed.
        match FileStat::of(file) {
            Ok(own) => doc
                .entries
                .retain(|_, e| e.stat.ctime < own.mtime && e.stat.mtime < own.mtime),
            Err(_) => doc.entries.clear(),
        }
        StatCache {
            file: file.to_path_buf(),
            root: root.to_path_buf(),
            doc,
            touched: BTreeSet::new(),
            dirty: false,
        }
    }

    fn key(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    }

    /// The sha256 of `path`: from the cache when its stat is unchanged, else by hashing it
    /// (and remembering the result). `Ok(None)` if the file does not exist.
    pub fn hash(&mut self, path: &Path) -> io::Result<Option<String>> {
        let stat = match FileStat::of(path) {
            Ok(s) => s,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let key = self.key(path);
        self.touched.insert(key.clone());
        if let Some(e) = self.doc.entries.get(&key)
            && e.stat == stat
        {
            return Ok(Some(e.sha256.clone()));
        }
        let sha = sha256_file(path)?;
        // Only remember it if the file did not change while we hashed it.
        if FileStat::of(path).ok() == Some(stat) {
            self.doc.entries.insert(
                key,
                Entry {
                    stat,
                    sha256: sha.clone(),
                },
            );
            self.dirty = true;
        }
        Ok(Some(sha))
    }

    /// Remember that `path` (just written or verified by the caller) has hash `sha`.
    pub fn record(&mut self, path: &Path, sha: &str) {
        if let Ok(stat) = FileStat::of(path) {
            let key = self.key(path);
            self.touched.insert(key.clone());
            let entry = Entry {
                stat,
                sha256: sha.to_string(),
            };
            if self.doc.entries.get(&key) != Some(&entry) {
                self.doc.entries.insert(key, entry);
                self.dirty = true;
            }
        }
    }

    /// Forget `path`.
    pub fn forget(&mut self, path: &Path) {
        let key = self.key(path);
        if self.doc.entries.remove(&key).is_some() {
            self.dirty = true;
        }
    }

    /// Save (if anything changed). With `prune`, entries not used since loading are dropped.
    pub fn save(&mut self, prune: bool) -> Result<(), AtomicFileError> {
        if prune {
            let before = self.doc.entries.len();
            let touched = &self.touched;
            self.doc.entries.retain(|k, _| touched.contains(k));
            self.dirty |= self.doc.entries.len() != before;
        }
        if !self.dirty {
            return Ok(());
        }
        let bytes = serde_json::to_vec(&self.doc).unwrap_or_default();
        // If an entry was modified in the same clock tick as this write, the next load would
        // drop it as racy; wait for the tick to pass and write again so a no-op run that
        // follows does not re-hash (a pure speed measure: correctness never depends on it).
        for _ in 0..5 {
            write_atomic(&self.file, &bytes)?;
            let racy = match FileStat::of(&self.file) {
                Ok(own) => self
                    .doc
                    .entries
                    .values()
                    .any(|e| e.stat.ctime >= own.mtime || e.stat.mtime >= own.mtime),
                Err(_) => false,
            };
            if !racy {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        self.dirty = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rehashes_when_content_changes() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a");
        fs::write(&f, b"one").unwrap();
        let mut sc = StatCache::load(&dir.path().join("sc.json"), dir.path());
        let h1 = sc.hash(&f).unwrap().unwrap();
        sc.save(true).unwrap();
        let mut sc = StatCache::load(&dir.path().join("sc.json"), dir.path());
        assert_eq!(sc.hash(&f).unwrap().unwrap(), h1);
        fs::write(&f, b"two").unwrap();
        assert_ne!(sc.hash(&f).unwrap().unwrap(), h1);
        fs::remove_file(&f).unwrap();
        assert_eq!(sc.hash(&f).unwrap(), None);
    }
}
