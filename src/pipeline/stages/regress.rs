//! Regress stage: one job per study, fitting Table 4 from the study's aggregated shards.
//!
//! Invariant: shards are read in matchup order, the order of `deps`.

use crate::analysis::study_regression::{RegressSettings, study_regression};
use crate::pipeline::config::pipeline_config::{Config, Study};
use crate::pipeline::execution::job::{Job, StageName};

use super::{num, write_csv, write_json};

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_REGRESS");
/// Output: Table 4 as JSON.
pub const TABLE4_FILE: &str = "table4.json";

/// Job id of a study's regress job.
pub fn job_id(study: &str) -> String {
    format!("regress/{study}")
}

/// The regress job of `study`.
pub fn job(cfg: &Config, study: &Study) -> Job {
    let deps = super::shard_count_deps(study);
    let settings = RegressSettings {
        reference_policy: cfg.regress.reference_policy.clone(),
        confidence: cfg.regress.confidence,
        policies: study.policies().iter().map(|p| p.name.clone()).collect(),
    };
    let order = deps.clone();
    Job {
        id: job_id(&study.name),
        stage: StageName::Regress,
        deps,
        params: serde_json::to_value(&settings).expect("settings serialise"),
        code: CODE.to_string(),
        publish: Some(crate::pipeline::store::layout::Layout::tables_publish(
            &study.name,
        )),
        note: None,
        body: Box::new(move |inputs, out| {
            let shards = super::read_shard_counts(inputs, &order)?;
            let t = study_regression(&shards, &settings)?;
            write_json(&out.join(TABLE4_FILE), &t)?;
            let rows: Vec<Vec<String>> = t
                .terms
                .iter()
                .map(|r| {
                    vec![
                        r.term.clone(),
                        num(r.estimate),
                        num(r.std_error),
                        num(r.z),
                        num(r.p_value.log10),
                        num(r.odds_ratio),
                        num(r.profile_lo),
                        num(r.profile_hi),
                        num(r.lo),
                        num(r.hi),
                    ]
                })
                .collect();
            write_csv(
                &out.join("table4.csv"),
                &[
                    "term",
                    "estimate",
                    "std_error",
                    "z",
                    "log10_p",
                    "odds_ratio",
                    "profile_lo",
                    "profile_hi",
                    "wald_lo",
                    "wald_hi",
                ],
                &rows,
            )
        }),
    }
}
