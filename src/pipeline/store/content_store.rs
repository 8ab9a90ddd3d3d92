//! The content store: [`ContentStore`] keeps files at `outputs/.cache/objects/<sha256 hex>`.
//!
//! Invariant: an object only ever appears under its name by an atomic rename of a complete,
//! fsynced file whose bytes were hashed to that name; a name whose bytes no longer match
//! (disk corruption, a stray edit through a hard link) is reported by [`ContentStore::verify`]
//! and then treated as missing.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::atomic_file::{AtomicFile, sync_parent, temp_path_beside};

/// Errors of the content store, each naming the path involved.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading, writing, renaming or listing failed.
    #[error("content store: {action} {path}: {source}")]
    Io {
        /// what was being done
        action: &'static str,
        /// the file or directory
        path: PathBuf,
        /// the I/O error
        source: io::Error,
    },
    /// A name that is not a sha256 hex digest was asked for.
    #[error("content store: `{0}` is not a sha256 hex digest")]
    BadName(String),
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> StoreError {
    let path = path.to_path_buf();
    move |source| StoreError::Io {
        action,
        path,
        source,
    }
}

/// The state of one object after re-hashing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectState {
    /// Present and its bytes hash to its name.
    Ok,
    /// No such object.
    Missing,
    /// Present but its bytes hash to `actual`.
    Corrupt {
        /// the hash of the bytes found
        actual: String,
    },
}

/// Hex sha256 of a byte slice.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Hex sha256 of a file's bytes, streamed (the one streamed file hash, `files::sha256_file`).
pub use crate::files::sha256_file;

/// Whether `name` looks like a sha256 hex digest (64 lower-case hex characters).
pub fn is_sha256_hex(name: &str) -> bool {
    name.len() == 64
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Objects named by their sha256.
#[derive(Debug, Clone)]
pub struct ContentStore {
    dir: PathBuf,
}

impl ContentStore {
    /// The store in `dir` (created on first put).
    pub fn new(dir: impl Into<PathBuf>) -> ContentStore {
        ContentStore { dir: dir.into() }
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where object `hash` lives (whether or not it exists).
    pub fn path(&self, hash: &str) -> Result<PathBuf, StoreError> {
        if !is_sha256_hex(hash) {
            return Err(StoreError::BadName(hash.to_string()));
        }
        Ok(self.dir.join(hash))
    }

    /// Whether object `hash` exists (its bytes are not checked).
    pub fn contains(&self, hash: &str) -> bool {
        self.path(hash).map(|p| p.is_file()).unwrap_or(false)
    }

    /// Move `src` into the store under the sha256 of its bytes (hashed first, then fsynced,
    /// made read-only and renamed into place; copied via a temp file if `src` is on another
    /// file system). `src` is consumed. Returns the hash.
    pub fn put_file(&self, src: &Path) -> Result<String, StoreError> {
        let hash = sha256_file(src).map_err(io_err("hash", src))?;
        self.put_file_hashed(src, &hash)?;
        Ok(hash)
    }

    /// [`ContentStore::put_file`] when the caller has just hashed `src` itself.
    pub fn put_file_hashed(&self, src: &Path, hash: &str) -> Result<(), StoreError> {
        let dest = self.path(hash)?;
        fs::create_dir_all(&self.dir).map_err(io_err("create", &self.dir))?;
        File::open(src)
            .and_then(|f| f.sync_all())
            .map_err(io_err("fsync", src))?;
        set_read_only(src).map_err(io_err("chmod", src))?;
        match fs::rename(src, &dest) {
            Ok(()) => {
                sync_parent(&dest);
                Ok(())
            }
            Err(_) => {
                // Different file system: copy through a temp file beside the destination.
                let mut out = AtomicFile::create(&dest).map_err(|e| StoreError::Io {
                    action: "create",
                    path: e.path,
                    source: e.source,
                })?;
                let mut input = File::open(src).map_err(io_err("read", src))?;
                io::copy(&mut input, out.file_mut()).map_err(io_err("copy", &dest))?;
                set_read_only(out.temp_path()).map_err(io_err("chmod", &dest))?;
                out.commit().map_err(|e| StoreError::Io {
                    action: "commit",
                    path: e.path,
                    source: e.source,
                })?;
                fs::remove_file(src).map_err(io_err("remove", src))?;
                Ok(())
            }
        }
    }

    /// Store `bytes` (used by tests and small records).
    pub fn put_bytes(&self, bytes: &[u8]) -> Result<String, StoreError> {
        let hash = sha256_hex(bytes);
        let dest = self.path(&hash)?;
        fs::create_dir_all(&self.dir).map_err(io_err("create", &self.dir))?;
        let temp = temp_path_beside(&dest);
        fs::write(&temp, bytes).map_err(io_err("write", &temp))?;
        self.put_file_hashed(&temp, &hash)?;
        Ok(hash)
    }

    /// Re-hash object `hash` in full and say whether it is intact.
    pub fn verify(&self, hash: &str) -> Result<ObjectState, StoreError> {
        let p = self.path(hash)?;
        match sha256_file(&p) {
            Ok(actual) if actual == hash => Ok(ObjectState::Ok),
            Ok(actual) => Ok(ObjectState::Corrupt { actual }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(ObjectState::Missing),
            Err(e) => Err(StoreError::Io {
                action: "hash",
                path: p,
                source: e,
            }),
        }
    }

    /// Every object: (hash, size in bytes), sorted by hash. Temp files are not listed.
    pub fn list(&self) -> Result<Vec<(String, u64)>, StoreError> {
        let mut out = Vec::new();
        let rd = match fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(io_err("list", &self.dir)(e)),
        };
        for entry in rd {
            let entry = entry.map_err(io_err("list", &self.dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_sha256_hex(&name) {
                let len = entry.metadata().map(|m| m.len()).unwrap_or(0);
                out.push((name, len));
            }
        }
        out.sort();
        Ok(out)
    }

    /// Remove object `hash` (no error if absent).
    pub fn remove(&self, hash: &str) -> Result<(), StoreError> {
        let p = self.path(hash)?;
        match fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err("remove", &p)(e)),
        }
    }

    /// Remove leftovers of interrupted puts (anything in the directory that is not an object).
    /// Only call while holding the run mutex.
    pub fn remove_temp_files(&self) -> Result<usize, StoreError> {
        let mut n = 0;
        let rd = match fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(io_err("list", &self.dir)(e)),
        };
        for entry in rd {
            let entry = entry.map_err(io_err("list", &self.dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !is_sha256_hex(&name) {
                let p = entry.path();
                fs::remove_file(&p).map_err(io_err("remove", &p))?;
                n += 1;
            }
        }
        Ok(n)
    }
}

fn set_read_only(p: &Path) -> io::Result<()> {
    let mut perm = fs::metadata(p)?.permissions();
    perm.set_readonly(true);
    fs::set_permissions(p, perm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn put_verify_corrupt_remove() {
        let dir = tempfile::tempdir().unwrap();
        let store = ContentStore::new(dir.path().join("objects"));
        let src = dir.path().join("x");
        fs::write(&src, b"hello").unwrap();
        let h = store.put_file(&src).unwrap();
        assert_eq!(h, sha256_hex(b"hello"));
        assert!(!src.exists());
        assert_eq!(store.verify(&h).unwrap(), ObjectState::Ok);
        assert_eq!(store.list().unwrap(), vec![(h.clone(), 5)]);
        // flip a byte
        let p = store.path(&h).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o644)).unwrap();
        fs::write(&p, b"hellp").unwrap();
        assert!(matches!(
            store.verify(&h).unwrap(),
            ObjectState::Corrupt { .. }
        ));
        store.remove(&h).unwrap();
        assert_eq!(store.verify(&h).unwrap(), ObjectState::Missing);
        assert!(store.path("../etc").is_err());
    }

    #[test]
    fn sha256_known_value() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
