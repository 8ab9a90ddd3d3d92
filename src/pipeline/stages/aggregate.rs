//! Aggregate stage: one job per simulate shard, counting what the analysis needs.
//!
//! Invariant: an aggregate job depends on exactly one shard, so it re-runs only when that
//! shard's bytes change.

use crate::analysis::seat_trump_use::count_seat_trump_use;
use crate::analysis::shard_counts::count_shard;
use crate::pipeline::config::pipeline_config::Study;
use crate::pipeline::execution::job::{Job, StageName};
use crate::tournament::{GAMES_FILE, Matchup, SHARD_FILE, ShardSummary, TRICKS_FILE};

use super::write_json;

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_AGGREGATE");

/// Output file name.
pub const COUNTS_FILE: &str = "counts.json";

/// Job id of a study's matchup.
pub fn job_id(study: &str, m: &Matchup) -> String {
    format!("aggregate/{study}/{}", m.slug())
}

/// Pearson and Spearman, `None` where undefined (e.g. a constant column).
fn correlate(runs: &[(f64, f64, u64)]) -> (Option<f64>, Option<f64>) {
    (
        crate::stats::pearson_runs(runs).ok(),
        crate::stats::spearman_runs(runs).ok(),
    )
}

/// One job per matchup.
pub fn jobs(study: &Study) -> Vec<Job> {
    Matchup::all(study.policies())
        .into_iter()
        .map(|m| {
            let sim = super::simulate::job_id(&study.name, &m);
            let dep = sim.clone();
            Job {
                id: job_id(&study.name, &m),
                stage: StageName::Aggregate,
                deps: vec![sim],
                params: serde_json::json!({}),
                code: CODE.to_string(),
                publish: Some(format!("{}/aggregate/{}", study.name, m.slug())),
                note: None,
                body: Box::new(move |inputs, out| {
                    let games = inputs.get(&dep, GAMES_FILE).ok_or("games table missing")?;
                    let shard = inputs
                        .get(&dep, SHARD_FILE)
                        .ok_or("shard summary missing")?;
                    let text = std::fs::read_to_string(shard)
                        .map_err(|e| format!("cannot read {}: {e}", shard.display()))?;
                    let summary: ShardSummary = serde_json::from_str(&text)
                        .map_err(|e| format!("cannot read {}: {e}", shard.display()))?;
                    // Team shards always keep their trick table; Table 5 per side is counted
                    // from it. Two-player shards tallied it while playing.
                    let trump_use = if summary.spec.rules.players > 2 {
                        let tricks = inputs.get(&dep, TRICKS_FILE).ok_or("trick table missing")?;
                        count_seat_trump_use(tricks)?
                    } else {
                        summary.trump_use
                    };
                    let counts = count_shard(games, trump_use, &correlate)?;
                    write_json(&out.join(COUNTS_FILE), &counts)
                }),
            }
        })
        .collect()
}
