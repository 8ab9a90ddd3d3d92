//! The git state of the tree a run came from: [`GitProvenance`] (commit and whether the tree had
//! uncommitted changes), written after a run to `outputs/run-provenance.json`.
//!
//! Invariant: this file is never hashed into `pipeline.lock` and no hashed output reads it. The
//! report and the lock are committed together, so the report cannot know the commit that will
//! hold it; recording the commit inside a hashed output would change that output's bytes at
//! every commit. The report's provenance appendix names this file instead.

use std::path::Path;
use std::process::Command;

use serde::Serialize;

/// Where the run's code and config came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GitProvenance {
    /// `git rev-parse HEAD` of the directory holding the config, or `None` outside git (or
    /// without a `git` program).
    pub commit: Option<String>,
    /// True when `git status --porcelain` lists changed tracked files (untracked files and
    /// `outputs/` are not counted); `None` when unknown.
    pub dirty: Option<bool>,
    /// The crate version that ran.
    pub crate_version: String,
    /// The command that ran.
    pub command: String,
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

impl GitProvenance {
    /// Read the git state of `dir` (the config file's directory).
    pub fn of(dir: &Path, command: &str) -> GitProvenance {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let commit = git(dir, &["rev-parse", "HEAD"]).map(|s| s.trim().to_string());
        let dirty = commit.as_ref().and_then(|_| {
            git(
                dir,
                &[
                    "status",
                    "--porcelain",
                    "--untracked-files=no",
                    "--",
                    ".",
                    ":!outputs",
                ],
            )
            .map(|s| !s.trim().is_empty())
        });
        GitProvenance {
            commit,
            dirty,
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            command: command.to_string(),
        }
    }

    /// Write it as pretty JSON to `path` (atomically).
    pub fn write(
        &self,
        path: &Path,
    ) -> Result<(), crate::pipeline::store::atomic_file::AtomicFileError> {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        crate::pipeline::store::atomic_file::write_atomic(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_git_everything_is_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let g = GitProvenance::of(dir.path(), "briscola run");
        assert_eq!(g.commit, None);
        assert_eq!(g.dirty, None);
        let f = dir.path().join("run-provenance.json");
        g.write(&f).unwrap();
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert!(v["commit"].is_null() && v["command"] == "briscola run");
    }

    #[test]
    fn inside_git_the_commit_and_dirty_flag_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let run = |args: &[&str]| {
            Command::new("git")
                .arg("-C")
                .arg(dir.path())
                .args(args)
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
        };
        if !run(&["init", "-q"]) {
            eprintln!("skipped: no git program");
            return;
        }
        std::fs::write(dir.path().join("a.txt"), "1").unwrap();
        assert!(run(&["add", "a.txt"]));
        assert!(run(&[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "x"
        ]));
        let g = GitProvenance::of(dir.path(), "c");
        assert_eq!(g.commit.as_ref().map(String::len), Some(40));
        assert_eq!(g.dirty, Some(false));
        std::fs::write(dir.path().join("a.txt"), "2").unwrap();
        assert_eq!(GitProvenance::of(dir.path(), "c").dirty, Some(true));
    }
}
