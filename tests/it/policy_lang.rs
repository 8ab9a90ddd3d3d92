//! The policy language through the real binary: the paper's three policies written as rules
//! give the built-ins' outputs (both tie-break readings, both deal sources), a data-only policy
//! runs end to end, epsilon policies keep their twin's deals, thread counts do not matter, and
//! 30+ malformed definitions each exit 2 naming file, line:column, the rule and what is valid.

use std::collections::BTreeMap;

use crate::common::{
    BASE_CONFIG, assert_exit, briscola, briscola_env, lock_entries, stderr, stdout, study,
};

/// BASE_CONFIG with the main study on the paper's .NET stream and two variants (ChaCha deals;
/// the as-written reading), so one run covers both deal sources and both readings.
fn three_studies(policies: &str) -> String {
    let base = BASE_CONFIG.replace(
        "deal_source = \"chacha\"\nseed = 7",
        "deal_source = \"dotnet-replay\"\nseed = 42",
    );
    let start = base.find("[policies.greedy]").unwrap();
    let end = base.find("[test]").unwrap();
    format!(
        "{}{policies}\n[variants.replication]\nlabel = \"chacha\"\ndeal_source = \"chacha\"\nseed = 2026\n\n[variants.as-written]\nlabel = \"prose\"\ntie_break = \"as-written\"\n\n{}",
        &base[..start],
        &base[end..]
    )
}

const BUILTINS: &str = r#"
[policies.greedy]
kind = "greedy"

[policies.hoarder]
kind = "hoarder"
threshold = 10

[policies.counter]
kind = "counter"
threshold = 10
"#;

/// The shipped definitions, respelled (`non-trump` for `!trump`, other spacing): they must be
/// recognised as the built-ins.
const AS_RULES: &str = r#"
[policies.greedy]
kind = "rules"
lead = ["cheapest of non-trump", "cheapest"]
follow = ["cheapest-by-points of led-suit&wins", "cheapest-by-points of trump & wins", "cheapest"]

[policies.hoarder]
kind = "rules"
lead = ["cheapest of non-trump", "cheapest"]
follow = ["cheapest-by-points of led-suit & wins", "if led.points >= 10 then cheapest-by-points of trump & wins", "cheapest of non-trump", "cheapest"]

[policies.counter]
kind = "rules"
lead = ["dearest of carico & non-trump & sibling-seen", "cheapest of non-trump", "cheapest"]
follow = ["cheapest-by-points of led-suit & wins", "if led.points >= 10 then cheapest-by-points of trump & wins", "cheapest of non-trump", "cheapest"]
"#;

/// Output hashes of every job of `stages`, by job id.
fn hashes(dir: &std::path::Path, stages: &[&str]) -> BTreeMap<String, BTreeMap<String, String>> {
    lock_entries(dir)
        .into_iter()
        .filter(|(id, _)| stages.iter().any(|s| id.starts_with(&format!("{s}/"))))
        .map(|(id, (_, o))| (id, o))
        .collect()
}

fn run(text: &str) -> tempfile::TempDir {
    let dir = study(text);
    let out = briscola(&["run", "--config", "pipeline.toml"], dir.path());
    assert_exit(&out, 0);
    dir
}

#[test]
fn the_paper_policies_written_as_rules_give_the_builtins_outputs_and_keys() {
    let a = run(&three_studies(BUILTINS));
    let b = run(&three_studies(AS_RULES));
    let stages = ["simulate", "aggregate", "test", "regress"];
    let (ha, hb) = (hashes(a.path(), &stages), hashes(b.path(), &stages));
    assert_eq!(ha.len(), 3 * 9 * 2 + 3 * 2, "jobs of three studies");
    assert_eq!(ha, hb);
    // Same specs, so the same simulate keys: the lock does not move whichever way they are named.
    let keys = |d: &std::path::Path| -> BTreeMap<String, String> {
        lock_entries(d)
            .into_iter()
            .filter(|(id, _)| id.starts_with("simulate/"))
            .map(|(id, (k, _))| (id, k))
            .collect()
    };
    assert_eq!(keys(a.path()), keys(b.path()));
}

/// The interpreter itself (not the built-in fast path): a greedy with a redundant rule is not
/// recognised as the built-in, yet plays the same tricks in every shard.
#[test]
fn the_rule_interpreter_plays_the_builtins_tricks_byte_for_byte() {
    let redundant = AS_RULES.replace(
        "follow = [\"cheapest-by-points of led-suit&wins\",",
        "follow = [\"cheapest-by-points of led-suit&wins\", \"cheapest-by-points of led-suit & wins\",",
    )
    .replace(
        "lead = [\"dearest of carico & non-trump & sibling-seen\",",
        "lead = [\"dearest of carico & non-trump & sibling-seen\", \"dearest of carico & !trump & sibling-seen\",",
    )
    .replace(
        "follow = [\"cheapest-by-points of led-suit & wins\", \"if led.points >= 10",
        "follow = [\"cheapest-by-points of led-suit & wins\", \"cheapest-by-points of wins & led-suit\", \"if led.points >= 10",
    );
    let a = run(&three_studies(BUILTINS));
    let b = run(&three_studies(&redundant));
    let out = briscola(&["policies", "greedy"], b.path());
    assert_exit(&out, 0);
    assert!(
        stdout(&out).starts_with("greedy: rules"),
        "{}",
        stdout(&out)
    );
    let tables = |d: &std::path::Path| -> BTreeMap<String, BTreeMap<String, String>> {
        hashes(d, &["simulate", "aggregate"])
            .into_iter()
            .map(|(id, o)| {
                (
                    id,
                    o.into_iter().filter(|(n, _)| n != "shard.json").collect(),
                )
            })
            .collect()
    };
    let (ta, tb) = (tables(a.path()), tables(b.path()));
    assert_eq!(ta.len(), 54);
    assert_eq!(ta, tb);
}

const EPS_CONFIG: &str = r#"
[policies.greedy]
kind = "greedy"

[policies.hoarder]
kind = "hoarder"

[policies.counter]
kind = "epsilon"
base = "greedy"
eps = 0.0
deals_as = "greedy"
"#;

/// eps = 0 plays exactly as its base (same tricks), on the base's deals; a policy defined only
/// in pipeline.toml runs end to end and reaches the report.
#[test]
fn eps_zero_plays_exactly_as_its_base_on_the_same_deals() {
    // With the trick tables written (`trick_log`), so the two runs' tricks compare byte for byte.
    let cfg = |p: &str| {
        BASE_CONFIG
            .replace(
                &BASE_CONFIG[BASE_CONFIG.find("[policies.greedy]").unwrap()
                    ..BASE_CONFIG.find("[test]").unwrap()],
                &format!("{p}\n"),
            )
            .replace("seed = 7\n", "seed = 7\ntrick_log = true\n")
    };
    let base = run(&cfg(BUILTINS));
    let eps = run(&cfg(EPS_CONFIG));
    let tricks = |d: &std::path::Path, id: &str| lock_entries(d)[id].1["tricks.parquet"].clone();
    // counter (eps 0 over greedy, dealing as greedy) vs greedy = greedy vs greedy.
    assert_eq!(
        tricks(eps.path(), "simulate/paper/counter-vs-greedy"),
        tricks(base.path(), "simulate/paper/greedy-vs-greedy")
    );
    assert_eq!(
        tricks(eps.path(), "simulate/paper/hoarder-vs-counter"),
        tricks(base.path(), "simulate/paper/hoarder-vs-greedy")
    );
    // provenance, on its own page beside the report, names the epsilon policy
    let provenance = std::fs::read_to_string(eps.path().join("outputs/provenance.md")).unwrap();
    assert!(
        provenance.contains("counter (epsilon"),
        "provenance names the epsilon policy"
    );
}

#[test]
fn an_epsilon_study_is_identical_on_one_and_two_threads() {
    let text = BASE_CONFIG.replace(
        "[policies.counter]\nkind = \"counter\"\nthreshold = 10\n",
        "[policies.counter]\nkind = \"epsilon\"\nbase = \"greedy\"\neps = 0.3\nmoves = \"all\"\n",
    );
    let locks: Vec<_> = ["1", "2"]
        .iter()
        .map(|n| {
            let dir = study(&text);
            let out = briscola_env(
                &["run", "--config", "pipeline.toml"],
                dir.path(),
                &[("RAYON_NUM_THREADS", n)],
            );
            assert_exit(&out, 0);
            hashes(
                dir.path(),
                &["simulate", "aggregate", "test", "regress", "plot", "render"],
            )
        })
        .collect();
    assert_eq!(locks[0], locks[1]);
}

/// One malformed definition: the policy block appended to BASE_CONFIG, the field the error
/// must name, a marker whose first occurrence in the block is where line:column must point,
/// and a phrase of the message (what is valid).
struct Bad {
    block: &'static str,
    field: &'static str,
    at: &'static str,
    says: &'static str,
}

fn bad_cases() -> Vec<Bad> {
    let b = |block, field, at, says| Bad {
        block,
        field,
        at,
        says,
    };
    vec![
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if stack > 3 then cheapest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "stack",
            "unknown condition `stack`",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest\"]\nfollow = [\"priciest\"]",
            "policies.bad.follow[0]",
            "priciest",
            "ORDER one of cheapest",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest of queen\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "queen",
            "valid card classes",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest of trump & wins\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "wins",
            "needs a led card",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest of led-suit\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "led-suit",
            "needs a led card",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if led.trump then cheapest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "led.trump",
            "lead rule has none",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if led.points >= 10 then cheapest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "led.points",
            "lead rule has none",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest of !trump\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "cheapest of !trump\"]",
            "end the list with a rule that always chooses",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest\"]\nfollow = [\"if stock > 3 then cheapest\"]",
            "policies.bad.follow[0]",
            "if stock > 3 then cheapest\"]",
            "end the list with a rule that always chooses",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = []\nfollow = [\"cheapest\"]",
            "policies.bad.lead",
            "lead = []",
            "has no rules",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest\"]",
            "policies.bad",
            "bad]",
            "needs `follow`",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest\"]\nfollow = [\"if led.points >= 30 then cheapest of trump\", \"cheapest\"]",
            "policies.bad.follow[0]",
            "30",
            "out of range",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if stock > 35 then first\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "35",
            "takes values 0 to 34",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest of !briscolina\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "briscolina",
            "cannot be negated",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest of trump | carico\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "|",
            "unexpected character",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest dearest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "dearest",
            "unexpected `dearest`",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if stock > 3 cheapest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "cheapest\", \"cheapest\"]",
            "expected `and` or `then`",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "\", \"cheapest\"]",
            "the rule is empty",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"cheapest of trump & !trump\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "of trump",
            "can never hold a card",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if seen(trump-queen) then cheapest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "trump-queen",
            "SUIT-RANK",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if stock > then cheapest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "then",
            "expected a whole number",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = [\"if count(trump) >= 6 then cheapest\", \"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.lead[0]",
            "6 then",
            "takes values 0 to 5",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nlead = \"cheapest\"\nfollow = [\"cheapest\"]",
            "policies.bad.lead",
            "\"cheapest\"",
            "a list of rules",
        ),
        b(
            "[policies.bad]\nkind = \"rules\"\nthreshold = 4\nlead = [\"cheapest\"]\nfollow = [\"cheapest\"]",
            "policies.bad.threshold",
            "threshold",
            "applies to kind = \"hoarder\" or \"counter\"",
        ),
        b(
            "[policies.bad]\nkind = \"magic\"",
            "policies.bad.kind",
            "\"magic\"",
            "\"rules\"",
        ),
        b(
            "[policies.bad]\nkind = \"switch\"\nplay = \"bad2\"\nwhile = \"stock > 10\"\notherwise = \"greedy\"\n\n[policies.bad2]\nkind = \"switch\"\nplay = \"bad\"\nwhile = \"stock > 4\"\notherwise = \"counter\"",
            "policies.bad2.play",
            "play = \"bad\"",
            "cycle (bad -> bad2 -> bad)",
        ),
        b(
            "[policies.bad]\nkind = \"epsilon\"\nbase = \"bad\"\neps = 0.1",
            "policies.bad.base",
            "base",
            "cycle (bad -> bad)",
        ),
        b(
            "[policies.bad]\nkind = \"switch\"\nplay = \"greedy\"\nwhile = \"led.trump\"\notherwise = \"counter\"",
            "policies.bad.while",
            "led.trump",
            "consulted when leading too",
        ),
        b(
            "[policies.bad]\nkind = \"switch\"\nplay = \"greedy\"\nwhile = \"stock >> 3\"\notherwise = \"counter\"",
            "policies.bad.while",
            "> 3",
            "expected a whole number",
        ),
        b(
            "[policies.bad]\nkind = \"switch\"\nplay = \"greedy\"\nwhile = \"stock > 40\"\notherwise = \"counter\"",
            "policies.bad.while",
            "40",
            "takes values 0 to 34",
        ),
        b(
            "[policies.bad]\nkind = \"switch\"\nplay = \"gready\"\nwhile = \"stock > 10\"\notherwise = \"counter\"",
            "policies.bad.play",
            "play",
            "unknown policy `gready`",
        ),
        b(
            "[policies.bad]\nkind = \"switch\"\nplay = \"greedy\"\notherwise = \"counter\"",
            "policies.bad",
            "bad]",
            "needs `while`",
        ),
        b(
            "[policies.bad]\nkind = \"epsilon\"\nbase = \"greedy\"\neps = 1.5",
            "policies.bad.eps",
            "eps =",
            "from 0 (never explore) to 1",
        ),
        b(
            "[policies.bad]\nkind = \"epsilon\"\nbase = \"greedy\"\neps = -0.1",
            "policies.bad.eps",
            "eps =",
            "is not a probability",
        ),
        b(
            "[policies.bad]\nkind = \"epsilon\"\nbase = \"nobody\"\neps = 0.1",
            "policies.bad.base",
            "base",
            "unknown policy `nobody`",
        ),
        b(
            "[policies.bad]\nkind = \"epsilon\"\nbase = \"greedy\"\neps = 0.1\nmoves = \"sometimes\"",
            "policies.bad.moves",
            "\"sometimes\"",
            "\"lead\" (leader moves only) or \"all\"",
        ),
        b(
            "[policies.bad]\nkind = \"epsilon\"\nbase = \"greedy\"\neps = 0.1\nlead = [\"cheapest\"]",
            "policies.bad.lead",
            "lead",
            "applies to kind = \"rules\"",
        ),
        b(
            "[policies.bad]\nkind = \"epsilon\"\nbase = \"greedy\"\neps = 0.1\ndeals_as = \"Greedy!\"",
            "policies.bad.deals_as",
            "deals_as",
            "is not a policy name",
        ),
    ]
}

/// 1-based (line, column) of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    (
        before.matches('\n').count() + 1,
        before.rsplit('\n').next().unwrap().chars().count() + 1,
    )
}

#[test]
fn malformed_policy_definitions_exit_2_naming_file_line_column_rule_and_what_is_valid() {
    let cases = bad_cases();
    assert!(cases.len() >= 25);
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let text = format!("{BASE_CONFIG}\n{}\n", case.block);
        let block_at = BASE_CONFIG.len() + 1;
        let at = block_at + case.block.find(case.at).expect("marker in block");
        let (line, col) = line_col(&text, at);
        let dir = study(&text);
        let out = briscola(&["status", "--config", "pipeline.toml"], dir.path());
        let err = stderr(&out);
        let mut problems = Vec::new();
        if out.status.code() != Some(2) {
            problems.push(format!("exit {:?}", out.status.code()));
        }
        if !err.contains(&format!("pipeline.toml:{line}:{col}:")) {
            problems.push(format!("does not point at {line}:{col}"));
        }
        if !err.contains(&format!("field `{}`", case.field)) {
            problems.push(format!("does not name {}", case.field));
        }
        if !err.contains(case.says) {
            problems.push(format!("does not say {:?}", case.says));
        }
        if err.contains("panicked") || err.trim().lines().count() != 1 {
            problems.push("panicked or is not one line".into());
        }
        if !problems.is_empty() {
            failures.push(format!(
                "case {i} ({}): {}\n    {}",
                case.field,
                problems.join("; "),
                err.trim()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn policies_prints_builtins_and_named_policies_and_rejects_unknown_names() {
    let dir = study(&BASE_CONFIG.replace(
        "[policies.counter]\nkind = \"counter\"\nthreshold = 10\n",
        "[policies.counter]\nkind = \"counter\"\nthreshold = 10\n\n[policies.late]\nkind = \"switch\"\nplay = \"greedy\"\nwhile = \"stock > 10\"\notherwise = \"counter\"\n",
    ));
    let out = briscola(&["policies"], dir.path());
    assert_exit(&out, 0);
    let s = stdout(&out);
    assert!(
        s.contains("[policies.my-counter]") && s.contains("late (switch)"),
        "{s}"
    );
    let out = briscola(&["policies", "late"], dir.path());
    assert_exit(&out, 0);
    let s = stdout(&out);
    assert!(
        s.contains("while stock > 10:")
            && s.contains("counter: built-in counter (Definition 3), threshold 10"),
        "{s}"
    );
    let out = briscola(&["policies", "nobody"], dir.path());
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("no policy named `nobody`"));
}

/// The README's three worked examples of the policy language (issue 25), read from the README
/// itself: each loads and prints as the engine understands it, and the first is the built-in
/// hoarder respelled.
#[test]
fn the_readmes_worked_examples_load() {
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let at = readme
        .find("Three worked examples:")
        .expect("the README's worked examples");
    let block = readme[at..]
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let names: Vec<&str> = block
        .lines()
        .filter_map(|l| l.strip_prefix("[policies.")?.strip_suffix(']'))
        .collect();
    assert_eq!(names, ["my-hoarder", "late-carico", "trump-keeper"]);
    let dir = study(&format!("{BASE_CONFIG}\n{block}"));
    for name in &names {
        let o = briscola(&["policies", name], dir.path());
        assert_exit(&o, 0);
        let out = stdout(&o);
        assert!(
            out.contains("lead 1: ") && out.contains("follow 1: "),
            "{name}: {out}"
        );
        // the first example is recognised as the built-in it respells
        assert_eq!(
            out.contains("built-in hoarder"),
            *name == "my-hoarder",
            "{name}: {out}"
        );
    }
}

/// A switch or an epsilon policy holding the search agent is refused at a variant the search
/// cannot play (loser-first draws), as the search agent alone is: the table asks every policy
/// that plays there, not only the top one (before, both were seated and the search played the
/// variant as if it had standard rules).
#[test]
fn a_switch_or_epsilon_holding_search_is_refused_where_search_is() {
    let holders = [
        "kind = \"switch\"\nwhile = \"stock == 0\"\nplay = \"search\"\notherwise = \"greedy\"\n",
        "kind = \"epsilon\"\nbase = \"search\"\neps = 0.1\n",
    ];
    for holder in holders {
        let config = BASE_CONFIG.to_string()
            + "\n[variants.lf]\nlabel = \"loser first\"\nrules = { draw_order = \"loser-first\" }\ngames_per_matchup = 50\npolicies = [\"greedy\", \"deep\"]\n\n[policies.deep]\n"
            + holder;
        let dir = study(&config);
        let o = briscola(&["status"], dir.path());
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(
            err.contains("variants.lf") && err.contains("standard two-player rules only"),
            "{holder}: {err}"
        );
    }
}
