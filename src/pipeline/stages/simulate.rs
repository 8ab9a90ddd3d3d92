//! Simulate stage: one job per (study, ordered matchup), each writing that matchup's game table
//! and summary (with the trick counts the analysis needs), and its trick table when the study
//! asks for it (`simulate.trick_log`).
//!
//! Invariant: a chacha shard's params mention only its own two policies, seed and game count, so
//! adding a policy or changing another policy never re-runs it.

use crate::pipeline::config::Study;
use crate::pipeline::job::{Job, StageName};
use crate::pipeline::layout::Layout;
use crate::tournament::{DealSourceKind, Matchup, ShardSpec};

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_SIMULATE");

/// Job id of a study's matchup.
pub fn job_id(study: &str, m: &Matchup) -> String {
    format!("simulate/{study}/{}", m.slug())
}

/// The shard spec of matchup `m` of `study`.
pub fn shard_spec(study: &Study, m: &Matchup) -> ShardSpec {
    ShardSpec {
        trick_log: study.trick_log,
        ..ShardSpec::for_matchup(
            study.deal_source,
            study.seed,
            study.rules,
            study.games_per_matchup(),
            m,
        )
    }
}

/// One job per matchup.
pub fn jobs(study: &Study) -> Vec<Job> {
    Matchup::all(&study.policies)
        .into_iter()
        .map(|m| {
            let spec = shard_spec(study, &m);
            let note = match study.deal_source {
                DealSourceKind::DotnetReplay => Some(
                    "dotnet-replay: one System.Random stream runs through every matchup in order, so this shard's deals depend on its position (first_game); changing the policy list or game count re-simulates every shard".to_string(),
                ),
                DealSourceKind::Chacha => None,
            };
            Job {
                id: job_id(&study.name, &m),
                stage: StageName::Simulate,
                deps: vec![],
                params: serde_json::to_value(&spec).expect("shard spec serialises"),
                code: CODE.to_string(),
                publish: Some(Layout::shard_publish(&study.name, &m.slug())),
                note,
                body: Box::new(move |_inputs, out| {
                    spec.run(out, &|_| {})?;
                    Ok(())
                }),
            }
        })
        .collect()
}
