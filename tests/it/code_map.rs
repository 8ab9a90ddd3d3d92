//! The code maps of both crates' `lib.rs` (and the binary's commands) as a test: which top-level module may name which,
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
    /// How its files name a module they use (`crate::x`, `briscola_core::x`, `briscola::x`).
    patterns: &'static [&'static str],
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
    patterns: &["crate::", "briscola_core::"],
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
    patterns: &["crate::", "briscola_core::"],
};

/// The binary (`src/main.rs` and its commands in `src/cli`): the edge over both crates, which
/// it names as `briscola::` (the study crate re-exports the core's modules).
const BINARY: CrateMap = CrateMap {
    src: "src",
    prefix: "briscola::",
    allowed: &[(
        "cli",
        &[
            "analysis",
            "files",
            "game",
            "pipeline",
            "plot",
            "policy",
            "report",
            "results",
            "serve",
            "solve",
            "stats",
            "table",
            "tournament",
        ],
    )],
    patterns: &["briscola::", "briscola_core::"],
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
fn named_modules(
    text: &str,
    own_prefix: &str,
    patterns: &[&str],
) -> std::collections::BTreeSet<String> {
    let mut found = std::collections::BTreeSet::new();
    for &pat in patterns {
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
            for dep in named_modules(&text, map.prefix, map.patterns) {
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
    all.extend(violations(&BINARY));
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

/// A source file's module path under its crate's `src` (`pipeline::runner`; `mod.rs` is its
/// folder's module, `lib.rs` the crate's root).
fn module_path(src: &std::path::Path, file: &std::path::Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let parts = match parts.last().map(String::as_str) {
        Some("mod") | Some("lib") | Some("main") => &parts[..parts.len() - 1],
        _ => &parts[..],
    };
    parts.join("::")
}

/// The modules a file's code (not its comments, not its tests) names through `super::x`,
/// `self::x` or `crate::x::y`, as module paths; `parent` is the file's parent module.
fn code_uses(text: &str, module: &str) -> std::collections::BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let code: String = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
    let join = |a: &str, b: &str| {
        if a.is_empty() {
            b.to_string()
        } else {
            format!("{a}::{b}")
        }
    };
    let ident = |rest: &str| -> String {
        rest.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = std::collections::BTreeSet::new();
    for (pat, base) in [("super::", parent), ("self::", module)] {
        for (i, _) in code.match_indices(pat) {
            let before = code[..i].chars().last();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let name = ident(&code[i + pat.len()..]);
            if !name.is_empty() {
                out.insert(join(base, &name));
            }
        }
    }
    // `crate::a::b::c`: every prefix (`a`, `a::b`, `a::b::c`); the ones that are modules count.
    for (i, _) in code.match_indices("crate::") {
        let mut rest = &code[i + "crate::".len()..];
        let mut path = String::new();
        loop {
            let name = ident(rest);
            if name.is_empty() {
                break;
            }
            path = join(&path, &name);
            out.insert(path.clone());
            match rest[name.len()..].strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
    }
    out
}

/// The import circles among a crate's files: groups of modules each reachable from the others
/// (Tarjan's strongly connected components). A module naming its own child is not an edge.
fn circles(src: &std::path::Path) -> Vec<Vec<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let m = module_path(src, f);
        let text = std::fs::read_to_string(f).unwrap();
        edges
            .entry(m.clone())
            .or_default()
            .extend(code_uses(&text, &m));
    }
    let mods: Vec<String> = edges.keys().cloned().collect();
    let adj: Vec<Vec<usize>> = mods
        .iter()
        .map(|m| {
            edges[m]
                .iter()
                .filter(|d| *d != m && !d.starts_with(&format!("{m}::")))
                .filter_map(|d| mods.iter().position(|x| x == d))
                .collect()
        })
        .collect();
    struct T<'a> {
        adj: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on: Vec<bool>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T<'_>, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &t.adj[v] {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let n = mods.len();
    let mut t = T {
        adj: &adj,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on: vec![false; n],
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out
        .into_iter()
        .map(|c| {
            let mut names: Vec<String> = c.into_iter().map(|i| mods[i].clone()).collect();
            names.sort();
            names
        })
        .collect()
}

/// No file of either crate (the binary's `src/cli` included) imports a module that imports it
/// back, directly or around a longer circle: shared types live in their own file below both.
#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let mut found = Vec::new();
    for src in [CORE.src, STUDY.src] {
        for c in circles(&root().join(src)) {
            found.push(format!("{src}: {}", c.join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// The circle finder finds a circle (so the test above can fail): two modules naming each
/// other, and a longer one through `crate::`.
#[test]
fn the_circle_finder_sees_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("p")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod p;\npub mod q;\n").unwrap();
    std::fs::write(src.join("p/mod.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(src.join("p/a.rs"), "use super::b::B;\n").unwrap();
    std::fs::write(
        src.join("p/b.rs"),
        "use crate::q::Q;\n// super::a is a comment\n",
    )
    .unwrap();
    std::fs::write(src.join("q.rs"), "use crate::p::a::A;\n").unwrap();
    let c = circles(src);
    assert_eq!(c.len(), 1, "{c:?}");
    assert!(
        c[0].contains(&"p::a".to_string()) && c[0].contains(&"q".to_string()),
        "{c:?}"
    );
    std::fs::write(
        src.join("q.rs"),
        "pub struct Q;\n#[cfg(test)]\nuse crate::p::a::A;\n",
    )
    .unwrap();
    assert!(circles(src).is_empty());
}
