//! The six stages as jobs: each file builds its stage's jobs (params, deps, body) from the
//! validated configuration.
//!
//! Invariant: a job's params hold everything from the configuration that its body reads; the
//! body reads nothing else but its inputs (so the cache key covers every cause of change).

pub mod aggregate;
pub mod plot;
pub mod regress;
pub mod render;
pub mod simulate;
pub mod test;

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::job::{JobInputs, JobResult};

/// Write `value` as pretty JSON with a trailing newline (byte-stable: struct field order).
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> JobResult {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// Read JSON output `name` of dependency `job`.
pub fn read_json<T: DeserializeOwned>(
    inputs: &JobInputs,
    job: &str,
    name: &str,
) -> Result<T, Box<dyn std::error::Error + Send + Sync>> {
    let path = inputs
        .get(job, name)
        .ok_or_else(|| format!("input {name} of {job} is missing"))?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// The aggregate jobs of `study`, in matchup order: the inputs of its test and regress jobs.
pub fn shard_count_deps(study: &crate::pipeline::config::Study) -> Vec<String> {
    crate::tournament::Matchup::all(&study.policies)
        .iter()
        .map(|m| aggregate::job_id(&study.name, m))
        .collect()
}

/// Read the shard counts of the aggregate jobs `order`, in that order.
pub fn read_shard_counts(
    inputs: &JobInputs,
    order: &[String],
) -> Result<Vec<crate::analysis::shard_counts::ShardCounts>, Box<dyn std::error::Error + Send + Sync>>
{
    order
        .iter()
        .map(|d| read_json(inputs, d, aggregate::COUNTS_FILE))
        .collect()
}

/// Write rows as CSV (comma-separated, header first, `\n` line ends). Fields must not contain
/// commas or quotes except policy names, which are quoted when needed.
pub fn write_csv(path: &Path, header: &[&str], rows: &[Vec<String>]) -> JobResult {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = header.join(",");
    out.push('\n');
    for r in rows {
        out.push_str(&r.iter().map(|f| quote(f)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// Shortest round-trip text of a float (stable across platforms).
pub fn num(x: f64) -> String {
    format!("{x}")
}
