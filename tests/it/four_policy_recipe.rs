//! The README's four-policy recipe, followed as a new researcher would: the committed
//! `pipeline.toml` edited with the README's own TOML blocks (read from README.md, so the recipe
//! cannot drift from what is tested), run through the real binary.
//!
//! What it must show (issue 11): the duplicate study is refused naming both, not simulated
//! twice; adding the policy simulates exactly the 7 new matchups; the study of its own design
//! is never called a replay and is not scored against the paper unless `compare_to_paper`
//! asks, which re-runs render only. Game counts are scaled down (111,111 per matchup -> 60,
//! 1,000,000 in all -> 900) so the test runs in seconds; nothing else is changed.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::*;

const README_SECTION: &str = "### Adding a policy and re-running only what it touches";

/// The ```toml blocks of the README's recipe section, in order.
fn recipe_blocks() -> Vec<String> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let section = readme
        .split(README_SECTION)
        .nth(1)
        .expect("the recipe section is in README.md");
    let section = section.split("\n### ").next().unwrap_or(section);
    section
        .split("```toml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap_or("").to_string())
        .collect()
}

/// `config` split into its header-less preamble and `(header line, body)` sections.
fn sections(config: &str) -> (String, Vec<(String, String)>) {
    let mut pre = String::new();
    let mut out: Vec<(String, String)> = Vec::new();
    for line in config.lines() {
        if line.starts_with('[') {
            out.push((
                line.split('#').next().unwrap().trim().to_string(),
                String::new(),
            ));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        } else {
            pre.push_str(line);
            pre.push('\n');
        }
    }
    (pre, out)
}

fn join(pre: &str, secs: &[(String, String)]) -> String {
    let mut s = pre.to_string();
    for (h, b) in secs {
        s.push_str(h);
        s.push('\n');
        s.push_str(b);
    }
    s
}

/// `config` with every section of `block` replacing the section of the same header (or added).
fn apply(config: &str, block: &str) -> String {
    let (pre, mut secs) = sections(config);
    let (_, new) = sections(block);
    for (h, b) in new {
        match secs.iter_mut().find(|(x, _)| *x == h) {
            Some(slot) => slot.1 = b,
            None => secs.push((h, b)),
        }
    }
    join(&pre, &secs)
}

fn without(config: &str, header: &str) -> String {
    let (pre, secs) = sections(config);
    let kept: Vec<_> = secs.into_iter().filter(|(h, _)| h != header).collect();
    join(&pre, &kept)
}

/// The recipe at test size: a few games per matchup, and the leagues (whose search agent costs
/// ~20 ms a game) at 4 deals per pair.
fn scaled(text: &str) -> String {
    text.replace("111_111", "60")
        .replace("games = 1_000_000", "games = 900")
        .lines()
        .map(|l| {
            if l.starts_with("games_per_pair = ") {
                "games_per_pair = 4"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

fn committed_config() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("pipeline.toml"))
        .expect("pipeline.toml")
}

fn ran(out: &str, prefix: &str) -> BTreeSet<String> {
    with_outcome(out, "ran")
        .into_iter()
        .filter(|id| id.starts_with(prefix))
        .collect()
}

#[test]
fn the_readme_four_policy_recipe_works_as_written() {
    let blocks = recipe_blocks();
    assert_eq!(blocks.len(), 2, "the recipe has two TOML blocks");
    let four = apply(&scaled(&committed_config()), &scaled(&blocks[0]));
    assert!(four.contains("\"cautious\"]") && four.contains("name = \"four\""));

    // As the README warns: without deleting `replication`, the main study and it are the same
    // study; the config is refused naming both, and nothing is simulated.
    let dir = study(&four);
    let o = briscola(&["run"], dir.path());
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("replication") && err.contains("four"),
        "the duplicate error names both studies: {err}"
    );
    assert!(!dir.path().join("outputs/pipeline.lock").exists());

    // Delete it and pin the other variants, as the README says; start from three policies.
    let recipe = apply(
        &without(&four, "[variants.replication]"),
        &scaled(&blocks[1]),
    );
    let three = recipe.replace(
        "policies = [\"greedy\", \"hoarder\", \"counter\", \"cautious\"]",
        "policies = [\"greedy\", \"hoarder\", \"counter\"]",
    );
    let three = without(&three, "[policies.cautious]");
    write_config(dir.path(), &three);
    let first = briscola(&["run"], dir.path());
    assert_exit(&first, 0);
    assert_eq!(ran(&stdout(&first), "simulate/four/").len(), 9);

    // The fourth policy: exactly its 7 new matchups are simulated, nothing of the variants.
    write_config(dir.path(), &recipe);
    let second = briscola(&["run"], dir.path());
    assert_exit(&second, 0);
    let out = stdout(&second);
    let sims = ran(&out, "simulate/");
    assert_eq!(sims.len(), 7, "{out}");
    assert!(
        sims.iter()
            .all(|id| id.starts_with("simulate/four/") && id.contains("cautious")),
        "{sims:?}"
    );
    for v in ["as-written", "loser-first"] {
        assert!(
            with_outcome(&out, "ran")
                .iter()
                .all(|id| !id.contains(&format!("/{v}"))),
            "{v} re-ran: {out}"
        );
    }
    let lock = lock_entries(dir.path());
    assert_eq!(
        lock.keys()
            .filter(|k| k.starts_with("simulate/four/"))
            .count(),
        16
    );

    // Never called a replay, and not scored against the paper.
    let html = std::fs::read_to_string(dir.path().join("outputs/report.html")).unwrap();
    let md = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    let verdict = html
        .split("id=\"verdict-four\"")
        .nth(1)
        .and_then(|r| r.split("</div>").next())
        .expect("a verdict for study four");
    assert!(
        !verdict.to_lowercase().contains("replay"),
        "study four called a replay: {verdict}"
    );
    assert!(verdict.contains("its own design"), "{verdict}");
    assert!(!html.contains("id=\"scorecard-four\""));
    let md_verdict = md
        .lines()
        .find(|l| l.contains("**`four`**"))
        .expect("a Markdown verdict line for four");
    assert!(
        !md_verdict.to_lowercase().contains("replay"),
        "{md_verdict}"
    );

    // Asked for, the comparison appears, and only render re-runs.
    let asked = recipe.replace(
        "name = \"four\"",
        "name = \"four\"\ncompare_to_paper = true",
    );
    write_config(dir.path(), &asked);
    let third = briscola(&["run"], dir.path());
    assert_exit(&third, 0);
    let out = stdout(&third);
    assert_eq!(
        with_outcome(&out, "ran"),
        BTreeSet::from(["render".to_string()]),
        "{out}"
    );
    let html = std::fs::read_to_string(dir.path().join("outputs/report.html")).unwrap();
    assert!(html.contains("id=\"scorecard-four\""));
    assert!(html.contains("compared with the paper on request"));
}
