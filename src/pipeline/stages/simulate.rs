//! Simulate stage: one job per (study, ordered matchup), each writing that matchup's game table
//! and summary (with the trick counts the analysis needs), and its trick table when the study
//! asks for it (`simulate.trick_log`).
//!
//! Invariant: a chacha shard's params mention only its own two policies, seed and game count, so
//! adding a policy or changing another policy never re-runs it.

use crate::pipeline::config::pipeline_config::Study;
use crate::pipeline::execution::job::{Job, StageName};
use crate::pipeline::store::layout::Layout;
use crate::tournament::{DealSourceKind, Matchup, ShardSpec};

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_SIMULATE");

/// Job id of a study's matchup.
pub fn job_id(study: &str, m: &Matchup) -> String {
    format!("simulate/{study}/{}", m.slug())
}

/// One job per matchup, its shard from the study's tournament
/// ([`crate::tournament::TournamentSpec::shard_specs`], as `briscola simulate` builds them).
pub fn jobs(study: &Study) -> Vec<Job> {
    study
        .tournament
        .shard_specs()
        .into_iter()
        .map(|(m, spec)| {
            let note = match study.deal_source() {
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

/// The shard spec of `g1` against `g2` in `sweep` (ChaCha: the deals depend only on the seed
/// and the two policies' stream names, never on the grid).
pub fn sweep_shard_spec(
    sweep: &crate::pipeline::config::sweep_config::Sweep,
    g1: &crate::policy::PolicySpec,
    g2: &crate::policy::PolicySpec,
) -> ShardSpec {
    ShardSpec {
        deal_source: sweep.deal_source,
        seed: sweep.seed,
        rules: Default::default(),
        games: sweep.games_per_matchup,
        g1: g1.clone(),
        g2: g2.clone(),
        first_game: 0,
        trick_log: false,
        paired: false,
        reading: Default::default(),
    }
}

/// Job id of a sweep's shard.
pub fn sweep_job_id(sweep: &str, g1: &str, g2: &str) -> String {
    format!("simulate/{sweep}/{g1}-vs-{g2}")
}

/// One job per ordered (point, opponent) pair of `sweep`: each point's shards are its own, so
/// adding a point runs only its shards.
pub fn sweep_jobs(sweep: &crate::pipeline::config::sweep_config::Sweep) -> Vec<Job> {
    let mut out = Vec::new();
    for p in &sweep.points {
        for o in &sweep.opponents {
            for (g1, g2) in [(&p.policy, o), (o, &p.policy)] {
                let spec = sweep_shard_spec(sweep, g1, g2);
                let slug = format!("{}-vs-{}", g1.name, g2.name);
                out.push(Job {
                    id: sweep_job_id(&sweep.name, &g1.name, &g2.name),
                    stage: StageName::Simulate,
                    deps: vec![],
                    params: serde_json::to_value(&spec).expect("shard spec serialises"),
                    code: CODE.to_string(),
                    publish: Some(Layout::shard_publish(&sweep.name, &slug)),
                    note: None,
                    body: Box::new(move |_inputs, out| {
                        spec.run(out, &|_| {})?;
                        Ok(())
                    }),
                });
            }
        }
    }
    out
}
