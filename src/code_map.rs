//! The code map of `lib.rs` as a test: which top-level module may name which, checked over the
//! source text (a tidy check, in the manner of rust-analyzer's `tidy.rs`).
//!
//! Invariant: dependencies point one way, from the edges (`pipeline`, the binary) to the core
//! (`game`, `stats`); a `use crate::x` that breaks the map fails `make test`.

/// Each module and the modules it may use (test code included: a test that needs a higher
/// module lives in that module).
const ALLOWED: &[(&str, &[&str])] = &[
    ("game", &[]),
    ("stats", &[]),
    // The search policy solves each sampled world with the solver.
    ("solve", &["game"]),
    ("policy", &["game", "solve"]),
    ("tournament", &["game", "policy"]),
    ("table", &["game", "policy", "tournament"]),
    ("results", &["game", "policy", "stats"]),
    ("analysis", &["game", "stats", "results", "policy"]),
    ("plot", &["results", "stats", "policy"]),
    (
        "report",
        &["results", "plot", "policy", "stats", "game", "analysis"],
    ),
    (
        "pipeline",
        &[
            "game",
            "stats",
            "solve",
            "policy",
            "tournament",
            "results",
            "analysis",
            "plot",
            "report",
        ],
    ),
];

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `crate::<module>` a file names (comments included: a doc link is a dependency too).
fn named_modules(text: &str) -> std::collections::BTreeSet<String> {
    let mut found = std::collections::BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        if !name.is_empty() && !text[..i].ends_with("briscola::") {
            found.insert(name);
        }
    }
    found
}

#[test]
fn modules_depend_only_in_the_directions_of_the_code_map() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    for (module, allowed) in ALLOWED {
        let mut files = Vec::new();
        rust_files(&src.join(module), &mut files);
        assert!(!files.is_empty(), "module {module} has no files");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for dep in named_modules(&text) {
                if dep != *module
                    && ALLOWED.iter().any(|(m, _)| *m == dep)
                    && !allowed.contains(&dep.as_str())
                {
                    violations.push(format!("{} uses crate::{dep}", f.display()));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "layering violations:\n{}",
        violations.join("\n")
    );
}

#[test]
fn every_top_level_module_is_in_the_map() {
    let lib = include_str!("lib.rs");
    for line in lib.lines().filter(|l| l.starts_with("pub mod ")) {
        let m = line.trim_start_matches("pub mod ").trim_end_matches(';');
        assert!(
            ALLOWED.iter().any(|(x, _)| *x == m),
            "lib.rs declares {m}, the map omits it"
        );
        assert!(
            lib.contains(&format!("[`{m}`]")),
            "lib.rs's code map does not describe {m}"
        );
    }
}
