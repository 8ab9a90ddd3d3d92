//! The code maps of both crates' `lib.rs` as a test: which top-level module may name which,
//! checked over the source text (a tidy check, in the manner of rust-analyzer's `tidy.rs`).
//!
//! Invariant: dependencies point one way, from the edges (`pipeline`, the binary) to the core
//! (`game`, `stats`); a `use crate::x` that breaks the map fails `make test`.

/// A crate's map: its source folder (from the workspace root) and each top-level module with
/// the modules it may use (test code included: a test that needs a higher module lives in that
/// module). A module of another crate is named by its name here too: the binary crate
/// re-exports the core's modules, so `crate::game` there is the core's `game`.
struct CrateMap {
    src: &'static str,
    prefix: &'static str,
    allowed: &'static [(&'static str, &'static [&'static str])],
}

/// The core crate: pure, and nothing in it may name the crates above it.
const CORE: CrateMap = CrateMap {
    src: "crates/briscola-core/src",
    prefix: "briscola_core::",
    allowed: &[
        ("game", &[]),
        ("deal", &["game"]),
        // The search policy solves each sampled world with the solver.
        ("solve", &["game"]),
        ("policy", &["game", "solve"]),
        ("table", &["game", "policy"]),
    ],
};

/// The study crate (`briscola`): every module lists the core modules it uses too.
const STUDY: CrateMap = CrateMap {
    src: "src",
    prefix: "briscola::",
    allowed: &[
        ("stats", &[]),
        ("files", &[]),
        ("tournament", &["game", "deal", "policy", "files"]),
        ("table", &["game", "policy", "tournament", "files"]),
        ("results", &["game", "policy", "stats"]),
        ("analysis", &["game", "stats", "results", "policy", "solve"]),
        ("plot", &["results"]),
        (
            "report",
            &["results", "plot", "policy", "stats", "game", "analysis"],
        ),
        ("serve", &["game", "deal", "policy", "table", "tournament"]),
        (
            "pipeline",
            &[
                "game",
                "stats",
                "policy",
                "tournament",
                "files",
                "results",
                "analysis",
                "plot",
                "report",
            ],
        ),
    ],
};

/// The module names either crate's map knows.
fn known(name: &str) -> bool {
    [&CORE, &STUDY]
        .iter()
        .any(|m| m.allowed.iter().any(|(x, _)| *x == name))
}

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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

/// Every module a file names through `crate::<module>` or `briscola_core::<module>` (comments
/// included: a doc link is a dependency too). The crate's own name in a doctest is not a use.
fn named_modules(text: &str, own_prefix: &str) -> std::collections::BTreeSet<String> {
    let mut found = std::collections::BTreeSet::new();
    for pat in ["crate::", "briscola_core::"] {
        for (i, _) in text.match_indices(pat) {
            let rest = &text[i + pat.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            let doctest_path = pat == "crate::" && text[..i].ends_with(own_prefix);
            if !name.is_empty() && !doctest_path && !text[..i].ends_with("briscola_") {
                found.insert(name);
            }
        }
    }
    found
}

/// The uses in `map`'s crate that its map does not allow.
fn violations(map: &CrateMap) -> Vec<String> {
    let src = root().join(map.src);
    let mut out = Vec::new();
    for (module, allowed) in map.allowed {
        let mut files = Vec::new();
        rust_files(&src.join(module), &mut files);
        assert!(!files.is_empty(), "module {module} has no files");
        let mut used = std::collections::BTreeSet::new();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for dep in named_modules(&text, map.prefix) {
                if dep != *module && known(&dep) && !allowed.contains(&dep.as_str()) {
                    out.push(format!("{} uses {dep}", f.display()));
                }
                used.insert(dep);
            }
        }
        // The map is as tight as the code: an allowance nothing uses lets drift pass unseen.
        for dep in allowed.iter().filter(|d| !used.contains(**d)) {
            out.push(format!(
                "{}/{module} may use {dep} but does not: narrow the map",
                map.src
            ));
        }
    }
    out
}

#[test]
fn modules_depend_only_in_the_directions_of_the_code_maps() {
    let mut all = violations(&CORE);
    all.extend(violations(&STUDY));
    assert!(all.is_empty(), "layering violations:\n{}", all.join("\n"));
}

#[test]
fn the_core_crate_names_no_module_of_the_study_crate() {
    let mut files = Vec::new();
    rust_files(&root().join(CORE.src), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        // Doc comments too: a doctest naming the study crate cannot build in the core.
        for line in text.lines() {
            assert!(
                !line.contains("briscola::"),
                "{} names the study crate: {line}",
                f.display()
            );
        }
    }
}

#[test]
fn every_top_level_module_is_in_its_map() {
    for map in [&CORE, &STUDY] {
        let lib = std::fs::read_to_string(root().join(map.src).join("lib.rs")).unwrap();
        for line in lib.lines().filter(|l| l.starts_with("pub mod ")) {
            let m = line.trim_start_matches("pub mod ").trim_end_matches(';');
            assert!(
                map.allowed.iter().any(|(x, _)| *x == m),
                "{}/lib.rs declares {m}, the map omits it",
                map.src
            );
            assert!(
                lib.contains(&format!("[`{m}`]")),
                "{}/lib.rs's code map does not describe {m}",
                map.src
            );
        }
    }
}
