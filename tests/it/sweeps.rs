//! Sweeps and policies as data through the real binary: a widened sweep runs only its new
//! points, bad grids exit 2 naming file, line:column and field, an eps sweep deals its base's
//! games, a policy defined only in pipeline.toml reaches every table of the report, editing one
//! rule re-runs only that policy's matchups, and thread counts do not change a sweep's lock.

use std::collections::BTreeSet;

use polars::prelude::*;

use crate::common::{
    BASE_CONFIG, assert_exit, briscola, briscola_env, lock_entries, stderr, stdout, study,
    with_outcome,
};

/// BASE_CONFIG (ChaCha seed 7, 100 games per matchup) with `extra` appended before `[test]`.
fn config(extra: &str) -> String {
    let base = BASE_CONFIG.replace("games = 900", "games_per_matchup = 100");
    let at = base.find("[test]").unwrap();
    format!("{}{extra}\n{}", &base[..at], &base[at..])
}

fn eps_sweep(values: &str) -> String {
    format!(
        r#"
[sweeps.sw]
label = "greedy with exploration"
question = "q1"
policy = {{ kind = "epsilon", base = "greedy", eps = "{{eps}}", moves = "all", deals_as = "greedy" }}
grid = {{ eps = {values} }}
opponents = ["greedy"]
seed = 7
games_per_matchup = 100
"#
    )
}

fn run(dir: &std::path::Path) -> String {
    let out = briscola(&["run", "--config", "pipeline.toml"], dir);
    assert_exit(&out, 0);
    stdout(&out)
}

fn ids(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Adding a grid value runs only that point's two shards, then the sweep's curve, the figures
/// and the report: `status` says so before the run and the run does exactly that.
#[test]
fn a_widened_sweep_runs_only_its_new_points() {
    let dir = study(&config(&eps_sweep("[0, 0.5]")));
    run(dir.path());
    std::fs::write(
        dir.path().join("pipeline.toml"),
        config(&eps_sweep("[0, 0.5, 1]")),
    )
    .unwrap();
    let expected = ids(&[
        "simulate/sw/sw-eps1-vs-greedy",
        "simulate/sw/greedy-vs-sw-eps1",
        "sweep/sw",
        "plot",
        "render",
    ]);
    let status = briscola(&["status", "--config", "pipeline.toml"], dir.path());
    assert_exit(&status, 0);
    assert_eq!(with_outcome(&stdout(&status), "would-run"), expected);
    let ran = run(dir.path());
    assert_eq!(with_outcome(&ran, "ran"), expected);
    assert!(with_outcome(&ran, "cached").contains("simulate/sw/sw-eps0p5-vs-greedy"));
    // The sweep's results and its figure reach results.json and both reports.
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("outputs/results.json")).unwrap(),
    )
    .unwrap();
    let sweep = &results["sweeps"][0];
    assert_eq!(sweep["name"], "sw");
    assert_eq!(sweep["correction"], "holm");
    assert_eq!(sweep["points"].as_array().unwrap().len(), 3);
    let md = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    assert!(md.contains("### Q1: does a little exploration"), "{md}");
    assert!(md.contains("Against `greedy`: "), "{md}");
    assert!(md.contains("](figures/sw/sweep.png)"), "{md}");
    let html = std::fs::read_to_string(dir.path().join("outputs/report.html")).unwrap();
    assert!(html.contains("id=\"fig-sw-sweep\""));
    assert!(dir.path().join("outputs/figures/sw/sweep.svg").is_file());
}

/// eps = 0 paired with its base on the base's deals: both seat orders replay greedy vs greedy,
/// so the pooled rate is exactly one half; and every eps point deals exactly the main study's
/// greedy-vs-greedy games (same seed, same stream names): the game table's deal columns (the
/// face-up card and trump suit of each game; the briscola counts depend on the play) are equal.
#[test]
fn an_eps_sweep_deals_its_base_studys_games() {
    let dir = study(&config(&eps_sweep("[0, 0.2, 1]")));
    run(dir.path());
    let deals = |rel: &str| -> DataFrame {
        let f = std::fs::File::open(dir.path().join("outputs").join(rel)).unwrap();
        ParquetReader::new(f)
            .finish()
            .unwrap()
            .select(["game_id", "trump_suit", "face_up"])
            .unwrap()
    };
    let base = deals("paper/simulate/greedy-vs-greedy/games.parquet");
    assert_eq!(base.height(), 100);
    for point in ["sw-eps0", "sw-eps0p2", "sw-eps1"] {
        for slug in [format!("{point}-vs-greedy"), format!("greedy-vs-{point}")] {
            let d = deals(&format!("sw/simulate/{slug}/games.parquet"));
            assert!(d.equals(&base), "{slug} deals differ from greedy-vs-greedy");
        }
    }
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("outputs/results.json")).unwrap(),
    )
    .unwrap();
    let p0 = &results["sweeps"][0]["points"][0];
    assert_eq!(p0["value"], 0.0);
    assert_eq!(p0["both"]["rate"], 0.5);
    // Random play against greedy loses clearly.
    let p1 = &results["sweeps"][0]["points"][2];
    assert!(p1["both"]["rate"].as_f64().unwrap() < 0.4, "{p1}");
}

/// One sweep with epsilon points, run on one and on two threads: identical locks.
#[test]
fn a_sweep_with_epsilon_points_is_identical_on_one_and_two_threads() {
    let text = config(&eps_sweep("[0.1, 0.5]"));
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
            lock_entries(dir.path())
                .into_iter()
                .map(|(id, (_, outputs))| (id, outputs))
                .collect::<std::collections::BTreeMap<_, _>>()
        })
        .collect();
    assert!(locks[0].contains_key("sweep/sw"));
    assert_eq!(locks[0], locks[1]);
}

const MINE: &str = r#"
[policies.mine]
kind = "rules"
lead = ["dearest of !trump", "cheapest"]
follow = ["cheapest-by-points of led-suit & wins", "cheapest of !trump", "cheapest"]
"#;

/// A policy that exists only in pipeline.toml runs end to end and appears in Table 3, the
/// pairwise tests, the regression (as a level), Figure 2, Table 5 and the report; changing one
/// of its rules re-runs only its own matchups and what reads them.
#[test]
fn a_data_only_policy_reaches_every_table_and_one_rule_reruns_only_its_matchups() {
    let text = config(MINE).replace(
        "policies = [\"greedy\", \"hoarder\", \"counter\"]",
        "policies = [\"greedy\", \"hoarder\", \"counter\", \"mine\"]",
    );
    let dir = study(&text);
    run(dir.path());
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("outputs/results.json")).unwrap(),
    )
    .unwrap();
    let s = &results["studies"][0];
    let has = |list: &str, field: &str| {
        s[list]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x[field] == "mine")
            .count()
    };
    assert_eq!(has("table3", "g1_policy"), 4);
    assert_eq!(has("table3", "g2_policy"), 4);
    assert_eq!(has("figure2", "g1_policy"), 4);
    assert_eq!(has("table5", "policy"), 1);
    let pairwise = s["pairwise"]["cells"].as_array().unwrap();
    assert!(pairwise.iter().any(|c| c["g1_policy"] == "mine"));
    let terms: Vec<&str> = s["table4"]["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["term"].as_str().unwrap())
        .collect();
    assert!(
        terms.contains(&"g1_mine") && terms.contains(&"g2_mine"),
        "{terms:?}"
    );
    let md = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    let t3 = md.find("Table 3").expect("Table 3 in the report");
    assert!(
        md[t3..].contains("| mine |") || md[t3..].contains("**mine**"),
        "Table 3 row of mine"
    );
    assert!(md.matches("mine").count() >= 10);

    // Edit one rule of `mine`: only its 7 matchups (and their counts) re-run, then the
    // per-study analyses, the figures and the report.
    std::fs::write(
        dir.path().join("pipeline.toml"),
        text.replace(
            "\"dearest of !trump\", \"cheapest\"",
            "\"dearest of !trump & !carico\", \"cheapest\"",
        ),
    )
    .unwrap();
    let status = briscola(&["status", "--config", "pipeline.toml"], dir.path());
    assert_exit(&status, 0);
    let would = with_outcome(&stdout(&status), "would-run");
    let mut expected = BTreeSet::new();
    for p in ["greedy", "hoarder", "counter", "mine"] {
        for stage in ["simulate", "aggregate"] {
            expected.insert(format!("{stage}/paper/mine-vs-{p}"));
            if p != "mine" {
                expected.insert(format!("{stage}/paper/{p}-vs-mine"));
            }
        }
    }
    expected.extend(ids(&["test/paper", "regress/paper", "plot", "render"]));
    assert_eq!(would, expected);
}

/// One malformed sweep: its block, the field the error must name, a marker whose first
/// occurrence in the block is where line:column must point, and a phrase of the message.
struct Bad {
    block: &'static str,
    field: &'static str,
    at: &'static str,
    says: &'static str,
}

fn bad_sweeps() -> Vec<Bad> {
    let b = |block, field, at, says| Bad {
        block,
        field,
        at,
        says,
    };
    vec![
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.grid.eps",
            "eps = []",
            "the grid is empty",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"switch\", play = \"greedy\", while = \"stock > {k}\", otherwise = \"counter\" }\ngrid = { k = [0, 10, 40] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.grid.k[2]",
            "40",
            "40 is out of range for `stock`: it takes values 0 to 34",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"switch\", play = \"greedy\", while = \"stock > {j}\", otherwise = \"counter\" }\ngrid = { k = [0, 10] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.policy",
            "policy",
            "the template never mentions `{k}`",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"switch\", play = \"greedy\", while = \"stock > {k} and gap > {g}\", otherwise = \"counter\" }\ngrid = { k = [0, 10] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.policy",
            "policy",
            "unknown template parameter `{g}`",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0, 0.5, 2] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.grid.eps[2]",
            "2]",
            "use a number from 0",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1], k = [1] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.grid",
            "grid",
            "a sweep varies exactly one",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = { from = 1, to = 0, step = 0.1 } }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.grid.eps",
            "eps = {",
            "give from <= to",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1, 0.1] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.grid.eps",
            "eps = [",
            "listed twice",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"nosuch\", eps = \"{eps}\" }\ngrid = { eps = [0.1] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.policy",
            "policy",
            "unknown policy `nosuch`",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1] }\nopponents = [\"greedy\", \"nosuch\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.opponents[1]",
            "\"nosuch\"",
            "unknown policy `nosuch`",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1] }\nopponents = []\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.s.opponents",
            "opponents",
            "the list is empty",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 0\n",
            "sweeps.s.games_per_matchup",
            "games_per_matchup",
            "use 1 to",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1] }\nopponents = [\"greedy\"]\nseed = -1\ngames_per_matchup = 10\n",
            "sweeps.s.seed",
            "seed",
            "a sweep deals with ChaCha",
        ),
        b(
            "[sweeps.paper]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\n",
            "sweeps.paper",
            "paper]",
            "already a study's name",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\nsize = 3\n",
            "sweeps.s.size",
            "size",
            "unknown key `size`",
        ),
        b(
            "[sweeps.s]\nlabel = \"x\"\npolicy = { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }\ngrid = { eps = [0.1, 0.2] }\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 10\nbaseline = 0\n",
            "sweeps.s.baseline",
            "baseline",
            "0 is not a value of the grid",
        ),
    ]
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap().chars().count() + 1;
    (line, col)
}

#[test]
fn bad_grids_exit_2_naming_file_line_column_field_and_what_is_valid() {
    let mut problems = Vec::new();
    for case in bad_sweeps() {
        let text = config(case.block);
        let offset = text.find(case.block).unwrap() + case.block.find(case.at).unwrap();
        let (line, col) = line_col(&text, offset);
        let dir = study(&text);
        let out = briscola(&["status", "--config", "pipeline.toml"], dir.path());
        let err = stderr(&out);
        let want_at = format!("pipeline.toml:{line}:{col}: field `{}`", case.field);
        if out.status.code() != Some(2) || !err.contains(&want_at) || !err.contains(case.says) {
            problems.push(format!(
                "{}: exit {:?}, want `{want_at}` and `{}`, got: {err}",
                case.field,
                out.status.code(),
                case.says
            ));
        }
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A sweep with `baseline = 0` compares every eps with eps = 0 game by game: eps = 1 (uniform
/// random leads) scores less than greedy itself on the same deals, eps = 0 is the baseline, and
/// the report says both.
#[test]
fn a_baseline_sweep_compares_every_point_with_the_baseline_on_the_same_deals() {
    let dir = study(&config(&format!(
        "{}baseline = 0\n",
        eps_sweep("[0, 1]").replace("games_per_matchup = 100", "games_per_matchup = 400")
    )));
    run(dir.path());
    let json = std::fs::read_to_string(dir.path().join("outputs/tables/sw/sweep.json")).unwrap();
    let r: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(r["baseline"], 0.0);
    let cells = r["points"].as_array().unwrap();
    assert!(cells[0].get("vs_baseline").is_none(), "the baseline itself");
    let d = &cells[1]["vs_baseline"];
    assert_eq!(d["deals"], 400);
    assert!(d["mean"].as_f64().unwrap() < 0.0, "{d}");
    assert!(d["hi"].as_f64().unwrap() < 0.0, "{d}");
    assert_eq!(d["worse"], true, "{d}");
    let report = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    assert!(
        report.contains("Compared with eps = 0 on the same deals")
            && report.contains("eps = 1 scores less"),
        "{report}"
    );
}
