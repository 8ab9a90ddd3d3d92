//! Leagues through the real binary and the public API: paired (seat-swapped) deals, a league
//! run end to end into the report, adding a policy re-running only its own seatings and pairs,
//! bad league sections refused with exit 2, and the Bradley-Terry fit checked against R 4.2.2's
//! `glm` on the counts in `tests/data/league_counts.csv` (script `tests/data/league_bt.R`,
//! expected values `tests/data/league_bt_r.csv`).

use std::collections::BTreeMap;

use briscola::analysis::league_fit::league_results;
use briscola::policy::{PolicyKind, PolicySpec, TieBreak};
use briscola::results::league::{Estimate, LeagueSettings, PairResult, SeatingCounts};
use briscola::tournament::{DealSourceKind, Matchup, ShardSpec};

use crate::common::{BASE_CONFIG, assert_exit, briscola, stderr, stdout, study, with_outcome};

fn league_config(policies: &str, extra: &str) -> String {
    format!(
        "{BASE_CONFIG}\n[leagues.lg]\nlabel = \"a league\"\npolicies = {policies}\ngames_per_pair = 400\nseed = 5\n{extra}"
    )
}

/// Expected values as R printed them: term -> (estimate, std_error text).
fn r_expected() -> BTreeMap<String, (f64, String)> {
    let text = include_str!("../data/league_bt_r.csv");
    assert!(
        text.starts_with("# R version 4.2.2"),
        "the expected values say which R produced them"
    );
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), (f[1].parse().unwrap(), f[2].to_string()))
        })
        .collect()
}

fn spec(name: &str, kind: PolicyKind) -> PolicySpec {
    PolicySpec {
        name: name.to_string(),
        ..PolicySpec::paper(kind, TieBreak::AsReleased)
    }
}

fn zero() -> Estimate {
    Estimate {
        value: 0.5,
        std_error: 0.01,
        lo: 0.48,
        hi: 0.52,
    }
}

/// A pair with these seating counts; the estimates are placeholders (the fit reads the counts).
fn pair(a: &str, b: &str, a_first: SeatingCounts, b_first: SeatingCounts) -> PairResult {
    let v = briscola::results::league::VarianceComparison::from_variances(1.0, 2.0);
    PairResult {
        a: a.to_string(),
        b: b.to_string(),
        a_first,
        b_first,
        a_points: zero(),
        b_points: None,
        a_score: zero(),
        a_win: zero(),
        b_win: zero(),
        points_variance: v,
        score_variance: v,
        deal_outcomes: None,
    }
}

/// The pairs of `tests/data/league_counts.csv` (G1's wins and G2's wins per seating, no draws).
fn pairs_from_counts() -> Vec<PairResult> {
    let text = include_str!("../data/league_counts.csv");
    let rows: Vec<(String, String, u64, u64)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect();
    rows.chunks(2)
        .map(|c| {
            let ((a, b, aw, bl), (b2, a2, bw, al)) = (&c[0], &c[1]);
            assert_eq!((a, b), (a2, b2), "rows come in seat-swapped pairs");
            pair(
                a,
                b,
                SeatingCounts {
                    games: aw + bl,
                    a_wins: *aw,
                    b_wins: *bl,
                    draws: 0,
                },
                SeatingCounts {
                    games: bw + al,
                    a_wins: *al,
                    b_wins: *bw,
                    draws: 0,
                },
            )
        })
        .collect()
}

#[test]
fn bradley_terry_ratings_match_r_glm() {
    let want = r_expected();
    let settings = LeagueSettings {
        rules: Default::default(),
        seed: 1,
        games_per_pair: 1,
        paired: true,
        policies: vec![
            spec("greedy", PolicyKind::Greedy),
            spec("hoarder", PolicyKind::Hoarder),
            spec("counter", PolicyKind::Counter),
            spec("random", PolicyKind::Greedy),
        ],
        reference: "greedy".into(),
        confidence: 0.95,
        anchors: vec!["random".into()],
        agents: vec!["counter".into(), "random".into()],
    };
    let r = league_results("t", "t", &settings, pairs_from_counts(), None).unwrap();
    // R prints 15 significant digits; Newton stops within 1e-10 relative of the optimum.
    let close = |ours: f64, theirs: f64, what: &str| {
        assert!(
            (ours - theirs).abs() <= 1e-9 * theirs.abs().max(1e-3),
            "{what}: ours {ours:e}, R {theirs:e}"
        );
    };
    let (seat, seat_se) = &want["(Intercept)"];
    close(r.fit.seat_advantage.value, *seat, "seat advantage");
    close(
        r.fit.seat_advantage.std_error,
        seat_se.parse().unwrap(),
        "seat advantage se",
    );
    for x in &r.ratings {
        if x.policy == "greedy" {
            assert_eq!(x.rating.value, 0.0, "the reference is fixed at 0");
            continue;
        }
        let (est, se) = &want[&x.policy];
        close(x.rating.value, *est, &x.policy);
        close(x.rating.std_error, se.parse().unwrap(), &x.policy);
        let z = 1.959_963_984_540_054;
        close(x.rating.lo, est - z * se.parse::<f64>().unwrap(), "lo");
    }
    let (dev, df) = &want["deviance"];
    close(r.fit.deviance, *dev, "deviance");
    assert_eq!(r.fit.df_residual.to_string(), *df);
    // The gap's interval uses the covariance: var(r_c - r_h) = var_c + var_h - 2 cov(h, c).
    let (cov_hc, _) = &want["cov_hoarder_counter"];
    let g = r
        .gaps
        .iter()
        .find(|g| g.policy == "hoarder" && g.agent == "counter")
        .expect("counter is an agent here");
    let se = |p: &str| want[p].1.parse::<f64>().unwrap();
    close(
        g.rating_gap.value,
        want["counter"].0 - want["hoarder"].0,
        "rating gap",
    );
    let var = se("counter").powi(2) + se("hoarder").powi(2) - 2.0 * cov_hc;
    close(g.rating_gap.std_error, var.sqrt(), "rating gap se");
    let ranks: Vec<(String, usize)> = r
        .ratings
        .iter()
        .map(|x| (x.policy.clone(), x.rank))
        .collect();
    assert_eq!(
        ranks,
        [("greedy", 1), ("hoarder", 2), ("counter", 3), ("random", 4)]
            .map(|(p, k)| (p.to_string(), k))
    );
}

/// The pairs of `tests/data/league_paired_deals.csv`: per pair, how each deal's two games went.
fn pairs_from_deals() -> Vec<PairResult> {
    let mut tables: Vec<(String, String, [[u64; 3]; 3])> = Vec::new();
    for l in include_str!("../data/league_paired_deals.csv")
        .lines()
        .skip(1)
    {
        let f: Vec<&str> = l.split(',').collect();
        let (x, y, n): (usize, usize, u64) = (
            f[2].parse().unwrap(),
            f[3].parse().unwrap(),
            f[4].parse().unwrap(),
        );
        if tables
            .last()
            .is_none_or(|(a, b, _)| (a.as_str(), b.as_str()) != (f[0], f[1]))
        {
            tables.push((f[0].to_string(), f[1].to_string(), [[0; 3]; 3]));
        }
        tables.last_mut().unwrap().2[x][y] += n;
    }
    tables
        .into_iter()
        .map(|(a, b, t)| {
            let row = |x: usize| t[x].iter().sum::<u64>();
            let col = |y: usize| (0..3).map(|x| t[x][y]).sum::<u64>();
            let deals = (0..3).map(row).sum();
            let a_first = SeatingCounts {
                games: deals,
                a_wins: row(0),
                b_wins: row(1),
                draws: row(2),
            };
            let b_first = SeatingCounts {
                games: deals,
                b_wins: col(0),
                a_wins: col(1),
                draws: col(2),
            };
            PairResult {
                deal_outcomes: Some(t),
                ..pair(&a, &b, a_first, b_first)
            }
        })
        .collect()
}

/// On paired deals a deal's two games are correlated, so the fit's standard errors are
/// clustered by deal. Expected values: `tests/data/league_paired_r.csv`, from R 4.2.2 and
/// sandwich 3.0-2 (`tests/data/league_paired_vcov.R`: the sandwich by hand at the optimum,
/// and `vcovCL(fit, cluster = deal, type = "HC0")`, on the games ungrouped).
#[test]
fn paired_league_errors_are_clustered_by_deal() {
    let text = include_str!("../data/league_paired_r.csv");
    assert!(text.starts_with("# R version 4.2.2"), "names its R");
    let want: BTreeMap<&str, Vec<f64>> = text
        .lines()
        .skip(2)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0], f[1..].iter().filter_map(|x| x.parse().ok()).collect())
        })
        .collect();
    let settings = LeagueSettings {
        rules: Default::default(),
        seed: 1,
        games_per_pair: 60,
        paired: true,
        policies: vec![
            spec("greedy", PolicyKind::Greedy),
            spec("hoarder", PolicyKind::Hoarder),
            spec("counter", PolicyKind::Counter),
        ],
        reference: "greedy".into(),
        confidence: 0.95,
        anchors: vec![],
        agents: vec![],
    };
    let r = league_results("t", "t", &settings, pairs_from_deals(), None).unwrap();
    let close = |ours: f64, theirs: f64, rel: f64, what: &str| {
        assert!(
            (ours - theirs).abs() <= rel * theirs.abs(),
            "{what}: ours {ours:e}, R {theirs:e}"
        );
    };
    let c = r
        .fit
        .clustered
        .as_ref()
        .expect("paired deals are clustered");
    assert_eq!(c.deals as f64, want["clusters"][0]);
    let ours = [
        (
            "(Intercept)",
            r.fit.seat_advantage.value,
            r.fit.seat_advantage.std_error,
        ),
        (
            "hoarder",
            r.ratings[1].rating.value,
            r.ratings[1].rating.std_error,
        ),
        (
            "counter",
            r.ratings[2].rating.value,
            r.ratings[2].rating.std_error,
        ),
    ];
    for (i, (term, value, se)) in ours.into_iter().enumerate() {
        let w = &want[term];
        close(value, w[0], 1e-9, term);
        close(se, w[1], 1e-9, term);
        close(se, w[2], 1e-7, term);
        close(c.robust_std_errors[i], w[1], 1e-9, term);
        close(c.model_std_errors[i], w[3], 1e-9, term);
    }
    // Pairing narrows the ratings' errors and widens the seat advantage's.
    assert!(c.ratio_range[1] < 0.95, "{:?}", c.ratio_range);
    assert!(c.seat_ratio > 1.05, "{}", c.seat_ratio);
    let seat = want["(Intercept)"][1] / want["(Intercept)"][3];
    close(c.seat_ratio, seat, 1e-9, "seat ratio");
    // Unpaired (no deal outcomes): the model-based errors.
    let mut unpaired = pairs_from_deals();
    unpaired.iter_mut().for_each(|p| p.deal_outcomes = None);
    let m = league_results("t", "t", &settings, unpaired, None).unwrap();
    assert!(m.fit.clustered.is_none());
    close(
        m.ratings[1].rating.std_error,
        want["hoarder"][3],
        1e-9,
        "model se",
    );
}

#[test]
fn paired_seatings_play_the_same_deals() {
    let g = spec("greedy", PolicyKind::Greedy);
    let h = spec("hoarder", PolicyKind::Hoarder);
    let ms = Matchup::all(&[g, h]);
    let spec_of = |m: &Matchup, paired: bool| {
        let mut s = ShardSpec::for_matchup(DealSourceKind::Chacha, 3, Default::default(), 50, m);
        s.paired = paired;
        s
    };
    let (gh, hg) = (&ms[1], &ms[2]);
    assert_eq!(gh.slug(), "greedy-vs-hoarder");
    let face_ups = |s: &ShardSpec| {
        let dir = tempfile::tempdir().unwrap();
        s.run(dir.path(), &|_| {}).unwrap();
        let df = polars::prelude::ParquetReader::new(
            std::fs::File::open(dir.path().join("games.parquet")).unwrap(),
        );
        use polars::prelude::SerReader;
        let df = df.finish().unwrap();
        let c = df.column("face_up").unwrap().u8().unwrap().clone();
        c.iter().map(|v| v.unwrap_or(u8::MAX)).collect::<Vec<_>>()
    };
    let paired = (face_ups(&spec_of(gh, true)), face_ups(&spec_of(hg, true)));
    assert_eq!(paired.0, paired.1, "paired seatings share every deal");
    let unpaired = (face_ups(&spec_of(gh, false)), face_ups(&spec_of(hg, false)));
    assert_ne!(
        unpaired.0, unpaired.1,
        "unpaired seatings have their own deals"
    );
    // An unpaired spec's JSON (its cache key) has no `paired` field: existing shards keep
    // their keys and bytes.
    let json = serde_json::to_string(&spec_of(gh, false)).unwrap();
    assert!(!json.contains("paired"), "{json}");
    // Paired dotnet-replay deals are refused, not silently unpaired.
    let mut bad = spec_of(gh, true);
    bad.deal_source = DealSourceKind::DotnetReplay;
    let dir = tempfile::tempdir().unwrap();
    let err = bad.run(dir.path(), &|_| {}).unwrap_err().to_string();
    assert!(err.contains("chacha"), "{err}");
}

#[test]
fn a_league_runs_into_the_report_and_a_new_policy_runs_only_its_pairs() {
    let dir = study(&league_config("[\"greedy\", \"hoarder\"]", ""));
    let out = briscola(&["run"], dir.path());
    assert_exit(&out, 0);
    let ran = with_outcome(&stdout(&out), "ran");
    for id in [
        "simulate/lg/greedy-vs-hoarder",
        "simulate/lg/hoarder-vs-greedy",
        "league/lg/greedy-vs-hoarder",
        "league/lg",
    ] {
        assert!(ran.contains(id), "{id} ran: {ran:?}");
    }
    assert!(
        !ran.contains("simulate/lg/greedy-vs-greedy"),
        "no self-play"
    );
    let league: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("outputs/tables/lg/league.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(league["ratings"][0]["policy"], "greedy");
    assert_eq!(league["ratings"][0]["rating"]["value"], 0.0);
    assert!(dir.path().join("outputs/figures/lg/ratings.svg").is_file());
    let report = std::fs::read_to_string(dir.path().join("outputs/report.md")).unwrap();
    assert!(
        report.contains("### League `lg`: "),
        "the league has its section, headed by what it is"
    );
    assert!(
        !report.contains("How strong are the paper's policies?"),
        "a user's league is not headed with the paper's question"
    );
    assert!(report.contains("Paired deals."), "the pairing is measured");

    // Add counter: status says only counter's seatings, its pairs and the downstream fit,
    // plot and render would run.
    std::fs::write(
        dir.path().join("pipeline.toml"),
        league_config("[\"greedy\", \"hoarder\", \"counter\"]", ""),
    )
    .unwrap();
    let st = briscola(&["status"], dir.path());
    let would = with_outcome(&stdout(&st), "would-run");
    let want: std::collections::BTreeSet<String> = [
        "simulate/lg/greedy-vs-counter",
        "simulate/lg/counter-vs-greedy",
        "simulate/lg/hoarder-vs-counter",
        "simulate/lg/counter-vs-hoarder",
        "league/lg/greedy-vs-counter",
        "league/lg/hoarder-vs-counter",
        "league/lg",
        "plot",
        "render",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(would, want, "{}", stdout(&st));
}

#[test]
fn bad_league_sections_exit_2_naming_the_field() {
    for (policies, extra, field, want) in [
        ("[\"greedy\"]", "", "leagues.lg.policies", "at least two"),
        (
            "[\"greedy\", \"nosuch\"]",
            "",
            "leagues.lg.policies[1]",
            "no [policies.nosuch]",
        ),
        (
            "[\"greedy\", \"greedy\"]",
            "",
            "leagues.lg.policies[1]",
            "listed twice",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "reference = \"counter\"",
            "leagues.lg.reference",
            "does not play",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "anchors = [\"counter\"]",
            "leagues.lg.anchors[0]",
            "does not play",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "confidence = 1.5",
            "leagues.lg.confidence",
            "between 0 and 1",
        ),
        (
            "[\"greedy\", \"hoarder\"]",
            "colour = 1",
            "leagues.lg.colour",
            "unknown key",
        ),
    ] {
        let dir = study(&league_config(policies, extra));
        let out = briscola(&["run"], dir.path());
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(
            err.contains(field),
            "{policies} {extra}: {err} should name {field}"
        );
        assert!(
            err.contains(want),
            "{policies} {extra}: {err} should say {want:?}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let zero = BASE_CONFIG.to_string()
        + "\n[leagues.lg]\nlabel = \"x\"\npolicies = [\"greedy\", \"hoarder\"]\ngames_per_pair = 1\nseed = 5\n";
    let out = briscola(&["run"], study(&zero).path());
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("leagues.lg.games_per_pair"));
    let clash = BASE_CONFIG.to_string()
        + "\n[leagues.paper]\nlabel = \"x\"\npolicies = [\"greedy\", \"hoarder\"]\ngames_per_pair = 10\nseed = 5\n";
    let out = briscola(&["run"], study(&clash).path());
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("already a study's name"),
        "{}",
        stderr(&out)
    );
}
