//! Test stage: one job per study, running H0(1), H0(2), the power analysis and Tables 3 and 5
//! over the study's aggregated shards.
//!
//! Invariant: shards are read in matchup order, the order of `deps`.

use crate::analysis::study_tests::{StudyTests, TestSettings, study_tests};
use crate::pipeline::config::pipeline_config::{Config, Study};
use crate::pipeline::execution::job::{Job, StageName};

use super::{num, write_csv, write_json};

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_TEST");
/// Output: every test as JSON.
pub const TESTS_FILE: &str = "tests.json";

/// Job id of a study's test job.
pub fn job_id(study: &str) -> String {
    format!("test/{study}")
}

/// The test job of `study`.
pub fn job(cfg: &Config, study: &Study) -> Job {
    let deps = super::shard_count_deps(study);
    let settings = TestSettings {
        confidence: cfg.test.confidence,
        family_alpha: cfg.test.family_alpha,
        baseline: cfg.test.baseline.clone(),
        power_delta: cfg.test.power_delta,
        power_n: cfg.test.power_n,
        policies: study.policies().iter().map(|p| p.name.clone()).collect(),
    };
    let order = deps.clone();
    Job {
        id: job_id(&study.name),
        stage: StageName::Test,
        deps,
        params: serde_json::to_value(&settings).expect("settings serialise"),
        code: CODE.to_string(),
        publish: Some(crate::pipeline::store::layout::Layout::tables_publish(
            &study.name,
        )),
        note: None,
        body: Box::new(move |inputs, out| {
            let shards = super::read_shard_counts(inputs, &order)?;
            let t = study_tests(&shards, &settings)?;
            write_json(&out.join(TESTS_FILE), &t)?;
            write_tables(&t, out)
        }),
    }
}

fn write_tables(
    t: &StudyTests,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    write_table3(t, out)?;
    write_table5(t, out)?;
    write_pairwise(t, out)?;
    write_breakeven(t, out)
}

/// `table3.csv`: each matchup's G1 win rate with its Wilson interval (the paper's Table 3).
fn write_table3(
    t: &StudyTests,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    let rows: Vec<Vec<String>> = t
        .table3
        .iter()
        .map(|c| {
            vec![
                c.match_id.to_string(),
                c.g1_policy.clone(),
                c.g2_policy.clone(),
                c.games.to_string(),
                c.ties.to_string(),
                c.non_tied.to_string(),
                c.g1_wins.to_string(),
                num(c.rate),
                num(c.lo),
                num(c.hi),
            ]
        })
        .collect();
    write_csv(
        &out.join("table3.csv"),
        &[
            "match_id",
            "g1_policy",
            "g2_policy",
            "games",
            "ties",
            "non_tied",
            "g1_wins",
            "rate",
            "lo",
            "hi",
        ],
        &rows,
    )
}

/// `table5.csv`: each policy's wins, points per win and wasted trumps (the paper's Table 5).
fn write_table5(
    t: &StudyTests,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    let rows: Vec<Vec<String>> = t
        .table5
        .iter()
        .map(|r| {
            vec![
                r.policy.clone(),
                r.n_played.to_string(),
                r.wins.to_string(),
                num(r.win_rate),
                r.points_won.to_string(),
                num(r.mean_points_per_win),
                r.wasted.to_string(),
                num(r.wasted_fraction),
            ]
        })
        .collect();
    write_csv(
        &out.join("table5.csv"),
        &[
            "policy",
            "n_played",
            "wins",
            "win_rate",
            "points_won",
            "mean_points_per_win",
            "wasted",
            "wasted_fraction",
        ],
        &rows,
    )
}

/// `pairwise.csv`: the pairwise tests with their Bonferroni-adjusted p-values.
fn write_pairwise(
    t: &StudyTests,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    let rows: Vec<Vec<String>> = t
        .pairwise
        .cells
        .iter()
        .map(|c| {
            vec![
                c.g1_policy.clone(),
                c.g2_policy.clone(),
                c.non_tied.to_string(),
                c.g1_wins.to_string(),
                num(c.rate),
                num(c.p_value.log10),
                num(c.p_bonferroni.log10),
                c.reject.to_string(),
            ]
        })
        .collect();
    write_csv(
        &out.join("pairwise.csv"),
        &[
            "g1_policy",
            "g2_policy",
            "non_tied",
            "g1_wins",
            "rate",
            "log10_p",
            "log10_p_bonferroni",
            "reject",
        ],
        &rows,
    )
}

/// `breakeven_by_delta.csv`: Figure 2's bins (G1's win rate per delta, its interval, whether kept).
fn write_breakeven(
    t: &StudyTests,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    let rows: Vec<Vec<String>> = t
        .figure2
        .iter()
        .flat_map(|p| {
            p.bins.iter().map(move |b| {
                vec![
                    p.g1_policy.clone(),
                    p.g2_policy.clone(),
                    b.delta.to_string(),
                    b.n.to_string(),
                    b.wins.to_string(),
                    num(b.rate),
                    num(b.lo),
                    num(b.hi),
                    b.kept.to_string(),
                ]
            })
        })
        .collect();
    write_csv(
        &out.join("breakeven_by_delta.csv"),
        &[
            "g1_policy",
            "g2_policy",
            "delta",
            "n",
            "g1_wins",
            "rate",
            "lo",
            "hi",
            "kept",
        ],
        &rows,
    )
}
