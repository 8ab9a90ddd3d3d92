//! Sweep stage: one job per `[sweeps.NAME]`, reading the summaries of the sweep's shards and
//! writing its curve (win rates in each seat and pooled, Wilson intervals, Holm-adjusted exact
//! tests) as `sweep.json` and `sweep.csv`.
//!
//! Invariant: the job reads its shards in its `deps` order (points in grid order, then
//! opponents, point first then opponent first), so its output is byte-stable.

use crate::analysis::league_pair::point_columns;
use crate::analysis::sweep_baseline::{PairGames, compare_with_baseline};
use crate::analysis::sweep_curve::{PairOutcome, ShardOutcome, SweepSettings, sweep_curve};
use crate::pipeline::config::pipeline_config::Config;
use crate::pipeline::config::sweep_config::Sweep;
use crate::pipeline::execution::job::{Job, JobInputs, StageName};
use crate::results::sweep::SweepResults;
use crate::tournament::{GAMES_FILE, SHARD_FILE, ShardSummary};

use super::simulate::sweep_job_id;
use super::{num, read_json, write_csv, write_json};

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_SWEEP");
/// Output: the sweep's results.
pub const SWEEP_FILE: &str = "sweep.json";

/// Job id of a sweep's analysis.
pub fn job_id(sweep: &str) -> String {
    format!("sweep/{sweep}")
}

/// The analysis settings of `sweep` under `cfg`'s `[test]` section.
pub fn settings(cfg: &Config, sweep: &Sweep) -> SweepSettings {
    SweepSettings {
        name: sweep.name.clone(),
        label: sweep.label.clone(),
        question: sweep.question.clone(),
        parameter: sweep.parameter.clone(),
        kind: sweep
            .points
            .first()
            .map(|p| p.policy.kind.as_str().to_string())
            .unwrap_or_default(),
        seed: sweep.seed,
        games_per_matchup: sweep.games_per_matchup,
        confidence: cfg.test.confidence,
        family_alpha: cfg.test.family_alpha,
        opponents: sweep.opponents.iter().map(|o| o.name.clone()).collect(),
        baseline: sweep.baseline,
    }
}

/// (value, point, opponent, point-first shard job, opponent-first shard job), in grid order.
fn pairs(sweep: &Sweep) -> Vec<(f64, String, String, String, String)> {
    let mut out = Vec::new();
    for p in &sweep.points {
        for o in &sweep.opponents {
            let (pn, on) = (&p.policy.name, &o.name);
            out.push((
                p.value,
                pn.clone(),
                on.clone(),
                sweep_job_id(&sweep.name, pn, on),
                sweep_job_id(&sweep.name, on, pn),
            ));
        }
    }
    out
}

/// The simulate jobs and the analysis job of `sweep`.
pub fn jobs(cfg: &Config, sweep: &Sweep) -> Vec<Job> {
    let mut jobs = super::simulate::sweep_jobs(sweep);
    let pairs = pairs(sweep);
    let deps = pairs
        .iter()
        .flat_map(|(_, _, _, a, b)| [a.clone(), b.clone()])
        .collect();
    let settings = settings(cfg, sweep);
    jobs.push(Job {
        id: job_id(&sweep.name),
        stage: StageName::Test,
        deps,
        params: serde_json::to_value(&settings).expect("settings serialise"),
        code: CODE.to_string(),
        publish: Some(crate::pipeline::store::layout::Layout::tables_publish(
            &sweep.name,
        )),
        note: None,
        body: Box::new(move |inputs, out| {
            let outcome =
                |job: &str| -> Result<ShardOutcome, Box<dyn std::error::Error + Send + Sync>> {
                    let s: ShardSummary = read_json(inputs, job, SHARD_FILE)?;
                    Ok(ShardOutcome {
                        g1_wins: s.g1_wins,
                        non_tied: s.non_tied,
                        ties: s.ties,
                    })
                };
            let mut outcomes = Vec::with_capacity(pairs.len());
            for (value, policy, opponent, a, b) in &pairs {
                outcomes.push(PairOutcome {
                    value: *value,
                    policy: policy.clone(),
                    opponent: opponent.clone(),
                    point_first: outcome(a)?,
                    point_second: outcome(b)?,
                });
            }
            let mut r = sweep_curve(&outcomes, &settings)?;
            if let Some(b) = settings.baseline {
                let games = pairs
                    .iter()
                    .map(|(value, _, opponent, a, b)| pair_games(inputs, *value, opponent, a, b))
                    .collect::<Result<Vec<_>, _>>()?;
                compare_with_baseline(&mut r, &games, b)?;
            }
            write_json(&out.join(SWEEP_FILE), &r)?;
            write_table(&r, out)
        }),
    });
    jobs
}

/// One pair's games from its two shards' game tables: the point's score (win 1, tie ½) and
/// the face-up card per game, point first (`a`) and opponent first (`b`).
fn pair_games(
    inputs: &JobInputs,
    value: f64,
    opponent: &str,
    a: &str,
    b: &str,
) -> Result<PairGames, Box<dyn std::error::Error + Send + Sync>> {
    let read = |job: &str,
                point_col: usize|
     -> Result<Vec<(f64, u8)>, Box<dyn std::error::Error + Send + Sync>> {
        let path = inputs
            .get(job, GAMES_FILE)
            .ok_or_else(|| format!("games table of {job} missing"))?;
        let c = point_columns(path, &["points_g1", "points_g2", "face_up"])?;
        Ok((0..c[0].len())
            .map(|i| {
                let (mine, theirs) = (c[point_col][i], c[1 - point_col][i]);
                let score = if mine > theirs {
                    1.0
                } else if mine == theirs {
                    0.5
                } else {
                    0.0
                };
                (score, c[2][i] as u8)
            })
            .collect())
    };
    Ok(PairGames {
        value,
        opponent: opponent.to_string(),
        first: read(a, 0)?,
        second: read(b, 1)?,
    })
}

/// Every sweep's results, from the sweep jobs' outputs, in `names` order.
pub fn load(
    inputs: &JobInputs,
    names: &[String],
) -> Result<Vec<SweepResults>, Box<dyn std::error::Error + Send + Sync>> {
    names
        .iter()
        .map(|n| read_json(inputs, &job_id(n), SWEEP_FILE))
        .collect()
}

fn write_table(
    r: &SweepResults,
    out: &std::path::Path,
) -> crate::pipeline::execution::job::JobResult {
    let rate = |s: &crate::results::sweep::SeatRate| {
        [
            s.wins.to_string(),
            s.non_tied.to_string(),
            num(s.rate),
            num(s.lo),
            num(s.hi),
        ]
    };
    let rows: Vec<Vec<String>> = r
        .points
        .iter()
        .map(|c| {
            let mut row = vec![num(c.value), c.policy.clone(), c.opponent.clone()];
            row.extend(rate(&c.as_g1));
            row.extend(rate(&c.as_g2));
            row.extend(rate(&c.both));
            row.push(num(c.p_value.log10));
            row.push(num(c.p_holm.log10));
            row.push(c.beats.to_string());
            row.push(c.loses.to_string());
            row
        })
        .collect();
    let seat_columns: Vec<String> = ["g1", "g2", "both"]
        .iter()
        .flat_map(|seat| {
            ["wins", "non_tied", "rate", "lo", "hi"]
                .iter()
                .map(move |f| format!("{seat}_{f}"))
        })
        .collect();
    let mut header = vec![r.parameter.as_str(), "policy", "opponent"];
    header.extend(seat_columns.iter().map(String::as_str));
    header.extend(["log10_p", "log10_p_holm", "beats", "loses"]);
    write_csv(&out.join("sweep.csv"), &header, &rows)
}
