//! The paper's study at full scale through the real CLI: the committed `pipeline.toml` without
//! its `[variants.*]` sections (1,000,000 games requested, dotnet-replay, seed 42) is run with
//! `briscola run`, and every published figure is checked in `outputs/results.json` to the
//! digits the paper prints. Then `briscola verify` passes and a second run runs nothing.
//!
//! Every expected number is copied from /work/shared/reference/published.toml (the paper's
//! figures as data; identical to the repository's templates/published.toml), section named at
//! each table. Run in release: `cargo test --release --test paper_study`.

use crate::common::*;
use serde_json::Value;

/// The committed study file with every `[variants.*]` section removed.
fn paper_only_config() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pipeline.toml");
    let text = std::fs::read_to_string(&path).expect("committed pipeline.toml");
    let mut out = String::new();
    let mut in_variant = false;
    for line in text.lines() {
        if line.trim_start().starts_with('[') {
            // The further studies, the sweeps and the leagues are not the paper's.
            let l = line.trim_start();
            in_variant = l.starts_with("[variants.")
                || l.starts_with("[sweeps.")
                || l.starts_with("[leagues.");
        }
        if !in_variant {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(
        text.contains("[variants."),
        "the committed study has variants to strip"
    );
    assert!(
        !out.contains("[variants") && !out.contains("[sweeps"),
        "{out}"
    );
    out
}

/// `x` printed with `d` decimals, as the paper prints it.
fn dec(x: &Value, d: usize) -> String {
    let x = x.as_f64().unwrap_or_else(|| panic!("not a number: {x}"));
    format!("{x:.d$}")
}

/// A p-value object's value with two significant digits, e.g. `7.7e-29`.
fn sig2(p: &Value) -> String {
    let v = p["value"]
        .as_f64()
        .unwrap_or_else(|| panic!("no value: {p}"));
    format!("{v:.1e}")
}

/// published.toml [table3]: (G1, G2, rate, lo, hi), 3 decimals, row-major.
const TABLE3: [(&str, &str, &str, &str, &str); 9] = [
    ("greedy", "greedy", "0.490", "0.487", "0.493"),
    ("greedy", "hoarder", "0.508", "0.505", "0.511"),
    ("greedy", "counter", "0.547", "0.544", "0.550"),
    ("hoarder", "greedy", "0.456", "0.453", "0.459"),
    ("hoarder", "hoarder", "0.483", "0.480", "0.486"),
    ("hoarder", "counter", "0.520", "0.517", "0.523"),
    ("counter", "greedy", "0.427", "0.424", "0.430"),
    ("counter", "hoarder", "0.449", "0.446", "0.452"),
    ("counter", "counter", "0.488", "0.485", "0.491"),
];

/// published.toml [table4]: (term, or, lo, hi, p with 2 significant digits or None for
/// `p_below = 1e-300`).
const TABLE4: [(&str, &str, &str, &str, Option<&str>); 6] = [
    ("intercept", "0.949", "0.940", "0.958", Some("7.7e-29")),
    ("g1_hoarder", "0.853", "0.844", "0.862", Some("2.9e-210")),
    ("g1_counter", "0.740", "0.732", "0.747", None),
    ("g2_hoarder", "1.139", "1.128", "1.151", Some("9.3e-142")),
    ("g2_counter", "1.349", "1.335", "1.363", None),
    ("delta_briscola", "1.217", "1.215", "1.219", None),
];

/// published.toml [table5]: (policy, n_played, win_rate 3 dp, mean_points_per_win 2 dp,
/// wasted_fraction 3 dp).
const TABLE5: [(&str, u64, &str, &str, &str); 3] = [
    ("greedy", 3_289_145, "0.881", "5.91", "0.492"),
    ("hoarder", 3_349_881, "0.805", "7.97", "0.337"),
    ("counter", 3_360_964, "0.808", "8.04", "0.333"),
];

fn check_results(r: &Value) {
    assert_eq!(r["name"], "paper");
    // published.toml [design].
    let s = &r["settings"];
    assert_eq!(s["deal_source"], "dotnet-replay");
    assert_eq!(s["seed"], 42);
    assert_eq!(s["games_per_matchup"], 111_111);
    assert_eq!(s["games_total"], 999_999);

    // Table 3.
    let t3 = r["table3"].as_array().unwrap();
    assert_eq!(t3.len(), 9);
    for (cell, (g1, g2, rate, lo, hi)) in t3.iter().zip(TABLE3) {
        let name = format!("table3 {g1}-{g2}");
        assert_eq!(
            (cell["g1_policy"].as_str(), cell["g2_policy"].as_str()),
            (Some(g1), Some(g2))
        );
        assert_eq!(
            (
                dec(&cell["rate"], 3),
                dec(&cell["lo"], 3),
                dec(&cell["hi"], 3)
            ),
            (rate.to_string(), lo.to_string(), hi.to_string()),
            "{name}"
        );
    }
    // [design] non_tied_games = 975,263 = Table 4's N.
    let non_tied: u64 = t3.iter().map(|c| c["non_tied"].as_u64().unwrap()).sum();
    assert_eq!(non_tied, 975_263);

    // H0(1), [folk_theorem].
    let f = &r["folk_theorem"];
    assert_eq!(f["games"], 693_633);
    assert_eq!(f["majority_wins"], 436_627);
    assert_eq!(
        (dec(&f["rate"], 4), dec(&f["lo"], 4), dec(&f["hi"], 4)),
        ("0.6295".into(), "0.6283".into(), "0.6306".into())
    );
    assert_eq!(f["chi2_yates"].as_f64().unwrap().round(), 46_542.0);
    // p_value_below = 2.2e-16 (R's printing floor): far below it, reported through log10.
    assert!(
        f["p_value"]["log10"].as_f64().unwrap() < (2.2e-16f64).log10(),
        "{}",
        f["p_value"]
    );

    // H0(2), [pairwise]: every non-baseline cell but counter-counter rejects with p < 1e-5;
    // counter-counter's Bonferroni p is 0.65.
    let pw = &r["pairwise"];
    assert_eq!(pw["tests"], 8);
    let cells = pw["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 8);
    for c in cells {
        let name = format!("{}-{}", c["g1_policy"], c["g2_policy"]);
        if c["g1_policy"] == "counter" && c["g2_policy"] == "counter" {
            assert_eq!(dec(&c["p_bonferroni"]["value"], 2), "0.65", "{c}");
            assert_eq!(c["reject"], false, "{name}");
        } else {
            assert!(
                c["p_value"]["log10"].as_f64().unwrap() < -5.0,
                "{name}: {c}"
            );
            assert_eq!(c["reject"], true, "{name}");
        }
    }

    // Table 4, [table4].
    let t4 = &r["table4"];
    assert_eq!(t4["n"], 975_263);
    let terms = t4["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 6);
    for (t, (term, or, lo, hi, p)) in terms.iter().zip(TABLE4) {
        assert_eq!(t["term"], term);
        assert_eq!(
            (dec(&t["odds_ratio"], 3), dec(&t["lo"], 3), dec(&t["hi"], 3)),
            (or.to_string(), lo.to_string(), hi.to_string()),
            "table4 {term}"
        );
        match p {
            Some(p) => assert_eq!(sig2(&t["p_value"]), p, "table4 {term}"),
            None => {
                // "< 1e-300": reported as a bound, the value itself null.
                assert!(
                    t["p_value"]["value"].is_null(),
                    "table4 {term}: {}",
                    t["p_value"]
                );
                assert!(
                    t["p_value"]["log10"].as_f64().unwrap() < -300.0,
                    "table4 {term}"
                );
            }
        }
    }

    // Table 5, [table5].
    let t5 = r["table5"].as_array().unwrap();
    assert_eq!(t5.len(), 3);
    for (u, (policy, n, rate, mean, wasted)) in t5.iter().zip(TABLE5) {
        assert_eq!(u["policy"], policy);
        assert_eq!(u["n_played"], n, "table5 {policy}");
        assert_eq!(
            (
                dec(&u["win_rate"], 3),
                dec(&u["mean_points_per_win"], 2),
                dec(&u["wasted_fraction"], 3)
            ),
            (rate.to_string(), mean.to_string(), wasted.to_string()),
            "table5 {policy}"
        );
    }
}

#[test]
fn the_paper_study_reproduces_every_published_figure() {
    let dir = study(&paper_only_config());
    let p = dir.path();
    let run = briscola(&["run"], p);
    assert_exit(&run, 0);
    // 9 simulate + 9 aggregate + test + regress + plot + render, all new.
    assert_eq!(
        with_outcome(&stdout(&run), "ran").len(),
        22,
        "{}",
        stdout(&run)
    );

    let results: Value =
        serde_json::from_str(&std::fs::read_to_string(p.join("outputs/results.json")).unwrap())
            .expect("results.json is JSON");
    let studies = results["studies"].as_array().unwrap();
    assert_eq!(studies.len(), 1, "variants were stripped");
    check_results(&studies[0]);

    // Table 3 as CSV: a header and the 9 cells.
    let t3 =
        std::fs::read_to_string(p.join("outputs/tables/paper/table3.csv")).expect("table3.csv");
    assert_eq!(t3.lines().count(), 10, "{t3}");

    let verify = briscola(&["verify"], p);
    assert_exit(&verify, 0);

    let again = briscola(&["run"], p);
    assert_exit(&again, 0);
    let out = stdout(&again);
    assert!(with_outcome(&out, "ran").is_empty(), "{out}");
    assert_eq!(with_outcome(&out, "cached").len(), 22, "{out}");
}
