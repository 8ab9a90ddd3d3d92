//! Deciding one job: [`decide`] computes a job's cache key from its settled upstream jobs
//! ([`Settled`]) and says whether its cached result is reused, it must run, or (dry run) it
//! would run, with the reasons. The dry run and the real run share this one decision; so does
//! `briscola job run`, which rebuilds the settled upstream from the job records
//! ([`settled_from_records`]) and so computes the very key the orchestrating run computed.
//!
//! Invariant: a job is decided [`Verdict::Cached`] only if the run-cache has its exact key and
//! every object that record names hashes to its name.

use std::collections::BTreeMap;

use super::cache_key::{CacheKey, InputHashes, KeyComponents, Reason};
use super::job::{AncestorInfo, Job, JobInputs, StageName};
use super::run_error::RunError;
use crate::pipeline::store::content_store::ContentStore;
use crate::pipeline::store::run_cache::{JobRecord, RunCache};
use crate::pipeline::store::stat_cache::StatCache;

/// What downstream jobs know of an upstream job once it is settled (cached, ran, or, in a dry
/// run, decided).
#[derive(Debug, Clone)]
pub struct Settled {
    /// Its stage.
    pub stage: StageName,
    /// Its direct dependencies.
    pub deps: Vec<String>,
    /// Its cache key (`None`: dry run, unknown because an upstream job never completed).
    pub key: Option<String>,
    /// Its outputs; in a dry run, for a job that would re-run, its last outputs (a guess).
    pub outputs: Option<BTreeMap<String, String>>,
    /// Dry run: it would re-run.
    pub reruns: bool,
}

/// The verdict on one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Its cached result is intact: reuse it.
    Cached,
    /// It must run (a real run hands it to the executor).
    Run,
    /// Dry run: it would run (or may, if upstream bytes change).
    WouldRun,
}

/// A job's decision, computed once per run.
#[derive(Debug, Clone)]
pub struct Decision {
    /// Cached, run or would-run.
    pub verdict: Verdict,
    /// Why (never empty).
    pub reasons: Vec<Reason>,
    /// Its key and components (`None` only for a dry run's job below a never-completed one).
    pub key: Option<KeyComponents>,
    /// Cached: its outputs. Would-run: the outputs it is guessed to produce (its last ones).
    pub outputs: Option<BTreeMap<String, String>>,
    /// Whether the run-cache holds this key with every object intact.
    pub hit: bool,
    /// The job's record from its last completed run.
    pub prev: Option<JobRecord>,
}

/// The state of a key's cached result.
enum CacheCheck {
    /// Record present and every object intact.
    Hit(BTreeMap<String, String>),
    /// No record for the key.
    NoRecord,
    /// Record present but objects missing or corrupt.
    Damaged {
        missing: Vec<String>,
        corrupt: Vec<String>,
    },
}

/// The stores a decision reads.
pub struct DecideEnv<'a> {
    /// The run-cache.
    pub runs: &'a RunCache,
    /// The content store.
    pub store: &'a ContentStore,
    /// Stat hints for hashing objects.
    pub stat: &'a mut StatCache,
    /// Dry run: nothing is removed (a real run removes corrupt objects it finds).
    pub dry_run: bool,
}

/// Every transitive ancestor of `job` among the settled jobs: stage, key and outputs.
pub fn ancestors(job: &Job, settled: &BTreeMap<String, Settled>) -> BTreeMap<String, AncestorInfo> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<String> = job.deps.clone();
    while let Some(id) = stack.pop() {
        if out.contains_key(&id) {
            continue;
        }
        let Some(d) = settled.get(&id) else { continue };
        out.insert(
            id.clone(),
            AncestorInfo {
                stage: d.stage,
                key: d.key.clone().unwrap_or_default(),
                outputs: d.outputs.clone().unwrap_or_default(),
            },
        );
        stack.extend(d.deps.iter().cloned());
    }
    out
}

/// The job's inputs: store paths of its deps' outputs and every ancestor's provenance.
pub fn job_inputs(
    job: &Job,
    settled: &BTreeMap<String, Settled>,
    store: &ContentStore,
) -> Result<JobInputs, RunError> {
    let mut inputs = JobInputs::default();
    for dep in &job.deps {
        let Some(outs) = settled.get(dep).and_then(|d| d.outputs.as_ref()) else {
            continue;
        };
        let mut m = BTreeMap::new();
        for (name, hash) in outs {
            m.insert(name.clone(), store.path(hash)?);
        }
        inputs.files.insert(dep.clone(), m);
    }
    inputs.ancestors = ancestors(job, settled);
    Ok(inputs)
}

/// The cache key of `job` given its settled deps' outputs (`inputs`).
pub fn job_key(
    job: &Job,
    mut inputs: InputHashes,
    settled: &BTreeMap<String, Settled>,
) -> CacheKey {
    if job.stage == StageName::Render {
        // The report's provenance prints every ancestor's cache key, so render's key must
        // cover those keys, not only its inputs' bytes: an upstream code change that re-runs a
        // job with identical bytes still changes what render writes.
        for (id, a) in ancestors(job, settled) {
            inputs.insert(
                format!("key of {id}"),
                BTreeMap::from([("key".to_string(), a.key)]),
            );
        }
    }
    CacheKey::new(job.stage, &job.id, &job.params, &job.code, inputs)
}

/// The settled state of every ancestor of `job`, read from the job records of the last
/// completed runs (what the orchestrating run wrote before it handed `job` to an executor).
pub fn settled_from_records(
    plan: &[Job],
    job: &Job,
    runs: &RunCache,
) -> Result<BTreeMap<String, Settled>, RunError> {
    let by_id: BTreeMap<&str, &Job> = plan.iter().map(|j| (j.id.as_str(), j)).collect();
    let mut out = BTreeMap::new();
    let mut stack: Vec<String> = job.deps.clone();
    while let Some(id) = stack.pop() {
        if out.contains_key(&id) {
            continue;
        }
        let Some(j) = by_id.get(id.as_str()) else {
            continue;
        };
        let rec = runs.get_job(&id)?;
        out.insert(
            id.clone(),
            Settled {
                stage: j.stage,
                deps: j.deps.clone(),
                key: rec.as_ref().map(|r| r.components.key.clone()),
                outputs: rec.map(|r| r.outputs),
                reruns: false,
            },
        );
        stack.extend(j.deps.iter().cloned());
    }
    Ok(out)
}

/// Is `key` cached with every object intact? Corrupt objects are removed (not dry).
fn check_cached(env: &mut DecideEnv<'_>, key: &str) -> Result<CacheCheck, RunError> {
    let Some(rec) = env.runs.get_run(key)? else {
        return Ok(CacheCheck::NoRecord);
    };
    let mut missing = Vec::new();
    let mut corrupt = Vec::new();
    for (name, hash) in &rec.outputs {
        let path = env.store.path(hash)?;
        let found = env.stat.hash(&path).map_err(|source| RunError::Io {
            action: "hash",
            path: path.clone(),
            source,
        })?;
        match found {
            None => missing.push(name.clone()),
            Some(h) if h == *hash => {}
            Some(_) => {
                corrupt.push(name.clone());
                if !env.dry_run {
                    env.store.remove(hash)?;
                    env.stat.forget(&path);
                }
            }
        }
    }
    if missing.is_empty() && corrupt.is_empty() {
        Ok(CacheCheck::Hit(rec.outputs))
    } else {
        Ok(CacheCheck::Damaged { missing, corrupt })
    }
}

/// The outputs of `key` if its run record exists and every object is intact (used to accept
/// a job an external executor ran: its record is written last, so its presence means done).
pub fn completed_outputs(
    env: &mut DecideEnv<'_>,
    key: &str,
) -> Result<Option<BTreeMap<String, String>>, RunError> {
    Ok(match check_cached(env, key)? {
        CacheCheck::Hit(outputs) => Some(outputs),
        _ => None,
    })
}

/// Decide `job`, whose deps are all settled. `forced`: `--force` named its stage.
pub fn decide(
    env: &mut DecideEnv<'_>,
    job: &Job,
    settled: &BTreeMap<String, Settled>,
    forced: bool,
) -> Result<Decision, RunError> {
    let prev = env.runs.get_job(&job.id)?;

    // Inputs: what the dependencies produced (or, dry, are guessed to produce).
    let mut inputs = InputHashes::new();
    let mut upstream_reruns = Vec::new();
    let mut unknown = Vec::new();
    for dep in &job.deps {
        let Some(d) = settled.get(dep) else { continue };
        if d.reruns {
            upstream_reruns.push(dep.clone());
        }
        match &d.outputs {
            Some(o) => {
                inputs.insert(dep.clone(), o.clone());
            }
            None => unknown.push(dep.clone()),
        }
    }
    if !unknown.is_empty() {
        // Dry run only: an upstream job that never completed would run first.
        return Ok(Decision {
            verdict: Verdict::WouldRun,
            reasons: if prev.is_none() {
                vec![Reason::NewJob]
            } else {
                vec![Reason::InputChanged(unknown)]
            },
            key: None,
            outputs: prev.as_ref().map(|p| p.outputs.clone()),
            hit: false,
            prev,
        });
    }

    let comps = job_key(job, inputs, settled).components();
    let diff = match &prev {
        None => vec![Reason::NewJob],
        Some(p) => comps.diff(&p.components),
    };
    let check = if forced {
        CacheCheck::NoRecord
    } else {
        check_cached(env, &comps.key)?
    };
    let mut reasons = Vec::new();
    let hit = match check {
        CacheCheck::Hit(outputs) => Some(outputs),
        CacheCheck::NoRecord => {
            if forced {
                reasons.push(Reason::Forced);
            }
            if diff.is_empty() && !forced {
                reasons.push(Reason::OutputMissing(vec!["(run record)".into()]));
            }
            reasons.extend(diff.iter().cloned());
            None
        }
        CacheCheck::Damaged { missing, corrupt } => {
            if !corrupt.is_empty() {
                reasons.push(Reason::OutputCorrupt(corrupt));
            }
            if !missing.is_empty() {
                reasons.push(Reason::OutputMissing(missing));
            }
            reasons.extend(diff.iter().cloned());
            None
        }
    };

    let hit_found = hit.is_some();
    // Upstream jobs only ever "re-run" in a dry run; a real run settles them first.
    let (verdict, reasons, outputs) = match hit {
        Some(outputs) if !upstream_reruns.is_empty() => (
            Verdict::WouldRun,
            vec![Reason::UpstreamReruns(upstream_reruns)],
            Some(outputs),
        ),
        Some(outputs) => {
            let reasons = if diff.is_empty() {
                vec![Reason::Unchanged]
            } else {
                let mut r = diff;
                r.push(Reason::SeenBefore);
                r
            };
            (Verdict::Cached, reasons, Some(outputs))
        }
        None if env.dry_run => {
            if !upstream_reruns.is_empty()
                && !reasons.iter().any(|r| matches!(r, Reason::InputChanged(_)))
            {
                reasons.push(Reason::UpstreamReruns(upstream_reruns));
            }
            let guess = prev.as_ref().map(|p| p.outputs.clone());
            (Verdict::WouldRun, reasons, guess)
        }
        None => (Verdict::Run, reasons, None),
    };
    Ok(Decision {
        verdict,
        reasons,
        key: Some(comps),
        outputs,
        hit: hit_found,
        prev,
    })
}
