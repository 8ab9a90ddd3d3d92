//! Build script: fingerprints each stage's source code so that a stage's cache key changes
//! exactly when the code that computes its output changes, and records the rustc version for
//! the report's provenance.
//!
//! Invariant: a fingerprint depends only on file contents and relative paths (sorted), never on
//! timestamps or absolute paths, so it is the same on every machine.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

include!("pipeline/stage_sources.in");

fn walk(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            walk(&e, out);
        }
    } else if p.is_file() && p.extension().is_some_and(|e| e == "rs") {
        // Rust sources only: test snapshots and other data beside them change no output.
        out.push(p.to_path_buf());
    }
}

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    // The compiler is part of every fingerprint: it can change floating-point results, and the
    // report prints its version.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .unwrap_or_default()
        .trim()
        .to_string();
    let lock = std::fs::read("Cargo.lock").unwrap_or_default();
    for (stage, paths) in STAGE_SOURCES {
        let mut files = Vec::new();
        for p in *paths {
            walk(Path::new(p), &mut files);
        }
        files.sort();
        let mut h = Sha256::new();
        h.update(version.as_bytes());
        h.update(rustc_version.as_bytes());
        h.update(&lock);
        for f in &files {
            h.update(f.to_string_lossy().replace('\\', "/").as_bytes());
            h.update([0]);
            h.update(std::fs::read(f).unwrap_or_default());
            h.update([0]);
        }
        let digest: [u8; 32] = h.finalize().into();
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        println!("cargo:rustc-env=BRISCOLA_CODE_{stage}={}", &hex[..16]);
    }
    println!("cargo:rustc-env=BRISCOLA_RUSTC_VERSION={rustc_version}");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=crates/briscola-core/src");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=src/build.rs");
}
