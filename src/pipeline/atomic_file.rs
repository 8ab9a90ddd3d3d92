//! Whole-file replacement that is never seen half-written: [`AtomicFile`] writes to a temp file
//! in the destination's directory, fsyncs it, and renames it over the destination.
//!
//! Invariant: at every moment the destination path holds either its previous complete content
//! or the complete new content; a crash leaves at most a `*.tmp-<pid>-<n>` file beside it, which
//! no reader ever mistakes for the destination.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Errors creating, writing or committing an atomic file.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct AtomicFileError {
    /// The destination (or the temp file beside it) that failed.
    pub path: PathBuf,
    /// The I/O error.
    pub source: io::Error,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A temp-file name beside `dest`, unique within this process and across processes (the pid).
/// Deterministic per process (no clock, no randomness).
pub fn temp_path_beside(dest: &Path) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = dest
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    dest.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

/// A file being written; becomes `dest` on [`AtomicFile::commit`], vanishes if dropped.
pub struct AtomicFile {
    dest: PathBuf,
    temp: PathBuf,
    file: Option<File>,
}

impl AtomicFile {
    /// Start writing `dest` (its parent directory is created if needed).
    pub fn create(dest: &Path) -> Result<AtomicFile, AtomicFileError> {
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent).map_err(|source| AtomicFileError {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        let temp = temp_path_beside(dest);
        let file = File::create(&temp).map_err(|source| AtomicFileError {
            path: temp.clone(),
            source,
        })?;
        Ok(AtomicFile {
            dest: dest.to_path_buf(),
            temp,
            file: Some(file),
        })
    }

    /// The temp file's path (for callers that write through another handle, e.g. `io::copy`).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Append bytes.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), AtomicFileError> {
        let temp = self.temp.clone();
        match self.file.as_mut() {
            Some(f) => f
                .write_all(bytes)
                .map_err(|source| AtomicFileError { path: temp, source }),
            None => Err(AtomicFileError {
                path: temp,
                source: io::Error::other("file already committed"),
            }),
        }
    }

    /// The open handle, for streaming writers.
    pub fn file_mut(&mut self) -> Option<&mut File> {
        self.file.as_mut()
    }

    /// fsync the temp file, rename it over the destination, fsync the directory.
    pub fn commit(mut self) -> Result<(), AtomicFileError> {
        let err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| AtomicFileError { path, source }
        };
        if let Some(f) = self.file.take() {
            f.sync_all().map_err(err(&self.temp))?;
        }
        fs::rename(&self.temp, &self.dest).map_err(err(&self.dest))?;
        sync_parent(&self.dest);
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.is_some() {
            self.file = None;
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Write `bytes` to `dest` atomically.
pub fn write_atomic(dest: &Path, bytes: &[u8]) -> Result<(), AtomicFileError> {
    let mut f = AtomicFile::create(dest)?;
    f.write_all(bytes)?;
    f.commit()
}

/// Best-effort fsync of `path`'s directory so a completed rename survives a power cut.
pub fn sync_parent(path: &Path) {
    if let Some(parent) = path.parent()
        && let Ok(d) = File::open(parent)
    {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_replaces_and_drop_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("a.txt");
        write_atomic(&dest, b"one").unwrap();
        assert_eq!(fs::read(&dest).unwrap(), b"one");
        {
            let mut f = AtomicFile::create(&dest).unwrap();
            f.write_all(b"half").unwrap();
            // dropped without commit
        }
        assert_eq!(fs::read(&dest).unwrap(), b"one");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "temp file left behind: {names:?}");
    }
}
