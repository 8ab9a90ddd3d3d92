//! One writer per outputs directory: [`RunMutex`] holds an exclusive OS lock on
//! `outputs/.cache/run.lock` for as long as it lives, and writes the holder's pid and command
//! into the file so a second run can say who holds it.
//!
//! Invariant: while a `RunMutex` exists no other process holds one on the same outputs; the OS
//! drops the lock when the process dies (even by SIGKILL), so a lock is never stale.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Errors taking the run mutex.
#[derive(Debug, thiserror::Error)]
pub enum RunMutexError {
    /// Another process holds it and we were told not to wait.
    #[error(
        "another briscola run holds {path} ({holder}); wait for it to finish, or run again without --no-wait to queue behind it"
    )]
    Held {
        /// the lock file
        path: PathBuf,
        /// what the holder wrote: pid and command
        holder: String,
    },
    /// The lock file could not be opened or locked.
    #[error("cannot lock {path}: {source}")]
    Io {
        /// the lock file
        path: PathBuf,
        /// the I/O error
        source: io::Error,
    },
}

/// What to do when another run holds the mutex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WaitPolicy {
    /// Block until it is released (calling the waiting hook once first).
    #[default]
    Wait,
    /// Fail with [`RunMutexError::Held`].
    NoWait,
}

/// The held mutex; released on drop.
#[derive(Debug)]
pub struct RunMutex {
    file: File,
    path: PathBuf,
}

fn read_holder(file: &mut File) -> String {
    let mut s = String::new();
    let _ = file.seek(SeekFrom::Start(0));
    let _ = file.read_to_string(&mut s);
    let s = s.trim();
    if s.is_empty() {
        "holder unknown".to_string()
    } else {
        s.to_string()
    }
}

impl RunMutex {
    /// Take the mutex at `path` (its directory is created). `command` describes this run for
    /// others (e.g. `briscola run`). `on_wait` is called with the holder's description before
    /// blocking under [`WaitPolicy::Wait`].
    pub fn acquire(
        path: &Path,
        command: &str,
        policy: WaitPolicy,
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<RunMutex, RunMutexError> {
        let err = |source| RunMutexError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(err)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(err)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                match policy {
                    WaitPolicy::NoWait => {
                        return Err(RunMutexError::Held {
                            path: path.to_path_buf(),
                            holder,
                        });
                    }
                    WaitPolicy::Wait => {
                        on_wait(&holder);
                        file.lock().map_err(err)?;
                    }
                }
            }
            Err(TryLockError::Error(e)) => return Err(err(e)),
        }
        file.set_len(0).map_err(err)?;
        file.seek(SeekFrom::Start(0)).map_err(err)?;
        writeln!(file, "pid {}: {command}", std::process::id()).map_err(err)?;
        file.flush().map_err(err)?;
        Ok(RunMutex {
            file,
            path: path.to_path_buf(),
        })
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunMutex {
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_is_refused_with_holder_named() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.lock");
        let first = RunMutex::acquire(&p, "briscola run", WaitPolicy::NoWait, &mut |_| {}).unwrap();
        // A second open file description in the same process conflicts under flock.
        let second = RunMutex::acquire(&p, "other", WaitPolicy::NoWait, &mut |_| {});
        match second {
            Err(RunMutexError::Held { holder, .. }) => {
                assert!(holder.contains("briscola run"), "{holder}");
                assert!(holder.contains(&std::process::id().to_string()));
            }
            other => panic!("expected Held, got {other:?}"),
        }
        drop(first);
        assert!(RunMutex::acquire(&p, "third", WaitPolicy::NoWait, &mut |_| {}).is_ok());
    }
}
