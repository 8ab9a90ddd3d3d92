//! One writer per outputs directory: [`RunMutex`] holds an exclusive OS lock on
//! `outputs/.cache/run.lock` for as long as it lives, and writes the holder's pid and command
//! into the file so a second run can say who holds it. Readers (`verify`) take the same lock
//! shared ([`RunMutex::acquire_shared`]), opening the file read-only, so they run on a
//! read-only outputs tree and beside each other, never beside a writer.
//!
//! Who holds the lock comes from the kernel's own table of locks (`/proc/locks` on Linux),
//! which changes atomically with the lock itself; the text a holder writes only adds its
//! command line. (The text alone races: it is written just after the lock is taken and
//! cleared just before it is released, which is how "holder unknown" used to appear.)
//!
//! Invariant: while an exclusive `RunMutex` exists no other process holds one on the same
//! outputs; the OS drops the lock when the process dies (even by SIGKILL), so a lock is never
//! stale.

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
    /// The locked file; `None` for a shared hold on a tree where no lock file exists and
    /// none can be created (read-only), where no writer can be running either.
    file: Option<File>,
    path: PathBuf,
    shared: bool,
}

/// How many times a contender re-tries a lock that is busy but whose holder cannot be found
/// (it was released between the attempt and the look-up) before saying "holder unknown".
const RETRIES: usize = 100;

/// The text the holder wrote, trimmed (empty if none).
fn holder_text(file: &mut File) -> String {
    let mut s = String::new();
    let _ = file.seek(SeekFrom::Start(0));
    let _ = file.read_to_string(&mut s);
    s.trim().to_string()
}

/// Who holds the lock on `file`: the kernel's holder pid with the holder's own description
/// when it names that pid (else the pid's command line); the description alone where the
/// kernel's table cannot be read. `None` when the kernel lists no holder (the lock was just
/// released): the caller tries again.
fn describe_holder(file: &mut File) -> Option<String> {
    let text = holder_text(file);
    let Some(kernel) = crate::pipeline::store::lock_holders::holder_pids(file) else {
        return (!text.is_empty()).then_some(text);
    };
    let pid = *kernel.first()?;
    if text.starts_with(&format!("pid {pid}:")) {
        return Some(text);
    }
    let command = crate::pipeline::store::lock_holders::command_line(pid)
        .unwrap_or_else(|| "command unknown".into());
    Some(format!("pid {pid}: {command}"))
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
        take(&mut file, path, false, policy, on_wait)?;
        file.set_len(0).map_err(err)?;
        file.seek(SeekFrom::Start(0)).map_err(err)?;
        writeln!(file, "pid {}: {command}", std::process::id()).map_err(err)?;
        file.flush().map_err(err)?;
        Ok(RunMutex {
            file: Some(file),
            path: path.to_path_buf(),
            shared: false,
        })
    }

    /// Take the mutex at `path` shared, for a reader that writes nothing (`verify`): the file
    /// is opened read-only and created only if missing and creatable. On a read-only tree
    /// without a lock file no writer can run, and the hold is empty.
    pub fn acquire_shared(
        path: &Path,
        policy: WaitPolicy,
        on_wait: &mut dyn FnMut(&str),
    ) -> Result<RunMutex, RunMutexError> {
        let err = |source| RunMutexError::Io {
            path: path.to_path_buf(),
            source,
        };
        let open = || OpenOptions::new().read(true).open(path);
        let file = match open() {
            Ok(f) => Some(f),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let created = path
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|()| {
                        OpenOptions::new()
                            .write(true)
                            .create(true)
                            .truncate(false)
                            .open(path)
                    });
                match created {
                    Ok(_) => Some(open().map_err(err)?),
                    Err(_) => None,
                }
            }
            Err(e) => return Err(err(e)),
        };
        let mut file = file;
        if let Some(f) = file.as_mut() {
            take(f, path, true, policy, on_wait)?;
        }
        Ok(RunMutex {
            file,
            path: path.to_path_buf(),
            shared: true,
        })
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Lock `file` (shared or exclusive) under `policy`, naming the holder when it is busy.
fn take(
    file: &mut File,
    path: &Path,
    shared: bool,
    policy: WaitPolicy,
    on_wait: &mut dyn FnMut(&str),
) -> Result<(), RunMutexError> {
    let err = |source| RunMutexError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut holder = None;
    for _ in 0..RETRIES {
        let tried = if shared {
            file.try_lock_shared()
        } else {
            file.try_lock()
        };
        match tried {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) => {
                holder = describe_holder(file);
                if holder.is_some() {
                    break;
                }
            }
            Err(TryLockError::Error(e)) => return Err(err(e)),
        }
    }
    let holder = holder.unwrap_or_else(|| "holder unknown".to_string());
    match policy {
        WaitPolicy::NoWait => Err(RunMutexError::Held {
            path: path.to_path_buf(),
            holder,
        }),
        WaitPolicy::Wait => {
            on_wait(&holder);
            if shared {
                file.lock_shared().map_err(err)
            } else {
                file.lock().map_err(err)
            }
        }
    }
}

impl Drop for RunMutex {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            if !self.shared {
                let _ = file.set_len(0);
            }
            let _ = file.unlock();
        }
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

    /// The window in which a holder has taken the lock but not yet written its description
    /// (or has cleared it and not yet unlocked): the holder is still named, from the kernel.
    #[cfg(target_os = "linux")]
    #[test]
    fn lock_holder_is_named_while_the_holder_has_not_written_its_description() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.lock");
        let raw = File::create(&p).unwrap();
        raw.lock().unwrap(); // locked, nothing written
        let second = RunMutex::acquire(&p, "other", WaitPolicy::NoWait, &mut |_| {});
        match second {
            Err(RunMutexError::Held { holder, .. }) => {
                assert!(!holder.contains("unknown"), "{holder}");
                assert!(
                    holder.starts_with(&format!("pid {}:", std::process::id())),
                    "{holder}"
                );
            }
            other => panic!("expected Held, got {other:?}"),
        }
    }

    #[test]
    fn shared_holds_coexist_and_exclude_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("run.lock");
        let a = RunMutex::acquire_shared(&p, WaitPolicy::NoWait, &mut |_| {}).unwrap();
        let b = RunMutex::acquire_shared(&p, WaitPolicy::NoWait, &mut |_| {}).unwrap();
        let w = RunMutex::acquire(&p, "briscola run", WaitPolicy::NoWait, &mut |_| {});
        assert!(matches!(w, Err(RunMutexError::Held { .. })), "{w:?}");
        drop((a, b));
        let w = RunMutex::acquire(&p, "briscola run", WaitPolicy::NoWait, &mut |_| {}).unwrap();
        let r = RunMutex::acquire_shared(&p, WaitPolicy::NoWait, &mut |_| {});
        match r {
            Err(RunMutexError::Held { holder, .. }) => assert!(holder.contains("briscola run")),
            other => panic!("expected Held, got {other:?}"),
        }
        drop(w);
    }
}
