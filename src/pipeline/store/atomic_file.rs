//! Whole-file replacement that is never seen half-written: [`AtomicFile`] is tempfile's
//! `NamedTempFile` created beside the destination (so the rename stays in one file system),
//! fsynced and persisted (renamed) over the destination, then the directory is fsynced.
//!
//! Invariant: at every moment the destination path holds either its previous complete content
//! or the complete new content; a crash leaves at most a `.NAME.tmp-*` file beside it, which
//! no reader ever mistakes for the destination, and a failed commit leaves nothing.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use tempfile::NamedTempFile;

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

/// The file name of `dest`, for temp names.
fn base_name(dest: &Path) -> String {
    dest.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into())
}

/// A not-yet-existing temp-file name beside `dest`, unique within this process and across
/// processes (the pid), for callers that need a path rather than an open file (a hard link or
/// a rename into place). Deterministic per process (no clock, no randomness).
pub fn temp_path_beside(dest: &Path) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dest.with_file_name(format!(
        ".{}.tmp-{}-{n}",
        base_name(dest),
        std::process::id()
    ))
}

/// A file being written; becomes `dest` on [`AtomicFile::commit`], vanishes if dropped or if
/// the commit fails.
pub struct AtomicFile {
    dest: PathBuf,
    temp: NamedTempFile,
}

impl AtomicFile {
    /// Start writing `dest` (its parent directory is created if needed). The temp file is
    /// created exclusively under an unpredictable name, with the permissions `File::create`
    /// would give.
    pub fn create(dest: &Path) -> Result<AtomicFile, AtomicFileError> {
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let err = |source| AtomicFileError {
            path: dir.to_path_buf(),
            source,
        };
        fs::create_dir_all(dir).map_err(err)?;
        let prefix = format!(".{}.tmp-", base_name(dest));
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let temp = builder.tempfile_in(dir).map_err(err)?;
        Ok(AtomicFile {
            dest: dest.to_path_buf(),
            temp,
        })
    }

    /// The temp file's path (for callers that write through another handle, e.g. `io::copy`).
    pub fn temp_path(&self) -> &Path {
        self.temp.path()
    }

    /// Append bytes.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), AtomicFileError> {
        self.temp
            .as_file_mut()
            .write_all(bytes)
            .map_err(|source| AtomicFileError {
                path: self.temp.path().to_path_buf(),
                source,
            })
    }

    /// The open handle, for streaming writers.
    pub fn file_mut(&mut self) -> &mut File {
        self.temp.as_file_mut()
    }

    /// fsync the temp file, rename it over the destination, fsync the directory. On failure
    /// the temp file is removed.
    pub fn commit(self) -> Result<(), AtomicFileError> {
        self.temp
            .as_file()
            .sync_all()
            .map_err(|source| AtomicFileError {
                path: self.temp.path().to_path_buf(),
                source,
            })?;
        // On error, the returned temp file is dropped here, which removes it.
        self.temp.persist(&self.dest).map_err(|e| AtomicFileError {
            path: self.dest.clone(),
            source: e.error,
        })?;
        sync_parent(&self.dest);
        Ok(())
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

    #[test]
    fn failed_commit_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty directory at the destination: the rename must fail.
        let dest = dir.path().join("busy");
        fs::create_dir(&dest).unwrap();
        fs::write(dest.join("inside"), b"x").unwrap();
        let err = write_atomic(&dest, b"new").unwrap_err();
        assert_eq!(err.path, dest);
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            names,
            vec![std::ffi::OsString::from("busy")],
            "temp file leaked"
        );
    }

    #[cfg(unix)]
    #[test]
    fn committed_file_has_the_permissions_file_create_gives() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        write_atomic(&a, b"x").unwrap();
        File::create(&b).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&a), mode(&b));
    }
}
