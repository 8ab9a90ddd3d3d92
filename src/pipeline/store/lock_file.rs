//! The committed lock: [`LockFile`] is `outputs/pipeline.lock`, per job its cache key and the
//! sha256 of each output, as sorted, stable TOML.
//!
//! Invariant: the text is a pure function of the entries (sorted by job id and output name, no
//! times, no paths outside `outputs/`), so the same study always produces byte-identical locks;
//! it is replaced atomically and only when its text changes.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::atomic_file::write_atomic;
use crate::pipeline::line_col::line_col;

/// Current lock format version.
pub const LOCK_VERSION: u32 = 1;

/// Errors reading or writing the lock, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// The file could not be read or written.
    #[error("lock file {path}: {source}")]
    Io {
        /// the file
        path: PathBuf,
        /// the I/O error
        source: io::Error,
    },
    /// The file is not a valid lock.
    #[error(
        "lock file {path}:{line}:{column}: {message}; fix the entry, or delete the file to re-create it from the next run"
    )]
    Parse {
        /// the file
        path: PathBuf,
        /// 1-based line
        line: usize,
        /// 1-based column
        column: usize,
        /// what is wrong
        message: String,
    },
}

/// One job's entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockEntry {
    /// The job's stage.
    pub stage: String,
    /// Its cache key (hex sha256).
    pub key: String,
    /// output name -> hex sha256.
    #[serde(default)]
    pub outputs: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    version: u32,
    #[serde(default)]
    jobs: BTreeMap<String, LockEntry>,
}

/// The lock's content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockFile {
    /// job id -> entry.
    pub jobs: BTreeMap<String, LockEntry>,
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl LockFile {
    /// Read `path`; a missing file is an empty lock.
    pub fn load(path: &Path) -> Result<LockFile, LockError> {
        let text = match fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(LockFile::default()),
            // Binary garbage is a damaged lock, not an I/O failure: say so, with the remedy.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                return Err(LockError::Parse {
                    path: path.to_path_buf(),
                    line: 1,
                    column: 1,
                    message: "not UTF-8 text, so not a lock briscola wrote (restore the committed one with `git checkout outputs/pipeline.lock`)".into(),
                });
            }
            Err(source) => {
                return Err(LockError::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        LockFile::parse(&text, path)
    }

    /// Parse lock text, naming `path` in errors.
    pub fn parse(text: &str, path: &Path) -> Result<LockFile, LockError> {
        let doc: Doc = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((1, 1));
            LockError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: e.message().to_string(),
            }
        })?;
        if doc.version != LOCK_VERSION {
            return Err(LockError::Parse {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                message: format!(
                    "version {} is not supported; this briscola writes version {LOCK_VERSION}",
                    doc.version
                ),
            });
        }
        Ok(LockFile { jobs: doc.jobs })
    }

    /// The canonical text.
    pub fn render(&self) -> String {
        let mut s = String::new();
        s.push_str("# outputs/pipeline.lock: written by `briscola run`; commit it.\n");
        s.push_str("# Per job: its cache key and the sha256 of each output it produced.\n");
        s.push_str("# A job whose key is unchanged must reproduce these bytes exactly;\n");
        s.push_str("# `briscola verify` re-hashes the published outputs against it.\n");
        s.push_str(&format!("version = {LOCK_VERSION}\n"));
        for (id, e) in &self.jobs {
            s.push_str(&format!("\n[jobs.{}]\n", quote(id)));
            s.push_str(&format!("stage = {}\n", quote(&e.stage)));
            s.push_str(&format!("key = {}\n", quote(&e.key)));
            s.push_str(&format!("\n[jobs.{}.outputs]\n", quote(id)));
            for (name, h) in &e.outputs {
                s.push_str(&format!("{} = {}\n", quote(name), quote(h)));
            }
        }
        s
    }

    /// Write to `path` atomically if the text differs from what is there. Returns whether it
    /// wrote.
    pub fn save(&self, path: &Path) -> Result<bool, LockError> {
        let text = self.render();
        if fs::read_to_string(path).ok().as_deref() == Some(text.as_str()) {
            return Ok(false);
        }
        write_atomic(path, text.as_bytes()).map_err(|e| LockError::Io {
            path: e.path,
            source: e.source,
        })?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_parse_round_trip_is_stable() {
        let mut lock = LockFile::default();
        lock.jobs.insert(
            "simulate/paper/a-vs-b".into(),
            LockEntry {
                stage: "simulate".into(),
                key: "k".repeat(64),
                outputs: BTreeMap::from([
                    ("z.parquet".to_string(), "1".repeat(64)),
                    ("a.csv".to_string(), "2".repeat(64)),
                ]),
            },
        );
        lock.jobs.insert(
            "render".into(),
            LockEntry {
                stage: "render".into(),
                key: "r".repeat(64),
                outputs: BTreeMap::new(),
            },
        );
        let text = lock.render();
        let back = LockFile::parse(&text, Path::new("x.lock")).unwrap();
        assert_eq!(back, lock);
        assert_eq!(back.render(), text);
        assert!(text.find("render").unwrap() < text.find("simulate/paper").unwrap());
        let err = LockFile::parse("version = 1\n[jobs.x]\nkey = 3\n", Path::new("x.lock"));
        assert!(err.unwrap_err().to_string().contains("x.lock:3:"));
    }
}
