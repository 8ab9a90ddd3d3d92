//! The six stages as jobs: each file builds its stage's jobs (params, deps, body) from the
//! validated configuration.
//!
//! Invariant: a job's params hold everything from the configuration that its body reads; the
//! body reads nothing else but its inputs (so the cache key covers every cause of change).

pub mod aggregate;
pub mod league;
pub mod plot;
pub mod regress;
pub mod render;
pub mod simulate;
pub mod sweep;
pub mod test;

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::job::{JobInputs, JobResult};

/// Significant digits kept for every float in a hashed JSON or CSV output.
///
pub use super::round_sig::{SIGNIFICANT_DIGITS, round_sig};

/// Round every float in a JSON value (see [`round_sig`]).
fn round_floats(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) if n.is_f64() => {
            if let Some(r) = n
                .as_f64()
                .map(round_sig)
                .and_then(serde_json::Number::from_f64)
            {
                *n = r;
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(round_floats),
        serde_json::Value::Object(m) => m.values_mut().for_each(round_floats),
        _ => {}
    }
}

/// Write `value` as pretty JSON with a trailing newline (byte-stable: struct field order;
/// floats rounded to [`SIGNIFICANT_DIGITS`]).
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> JobResult {
    let mut v = serde_json::to_value(value)?;
    round_floats(&mut v);
    let mut text = serde_json::to_string_pretty(&v)?;
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
pub fn shard_count_deps(study: &crate::pipeline::config::pipeline_config::Study) -> Vec<String> {
    crate::tournament::Matchup::all(study.policies())
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

/// Text of a float for CSV: rounded to [`SIGNIFICANT_DIGITS`], then its shortest round-trip form.
pub fn num(x: f64) -> String {
    format!("{}", round_sig(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_keep_twelve_significant_digits() {
        assert_eq!(round_sig(0.490_458_314_502_070_6), 0.490_458_314_502);
        assert_eq!(round_sig(46_542.147_647_133_45), 46_542.147_647_1);
        assert_eq!(round_sig(1.234_567_890_123_456e-300), 1.234_567_890_12e-300);
        assert_eq!(round_sig(0.0), 0.0);
        // A last-bit difference disappears.
        let a = 0.1 + 0.2;
        assert_eq!(round_sig(a), round_sig(0.3));
        assert_eq!(num(0.5), "0.5");
        let mut v = serde_json::json!({"a": [1.000_000_000_000_2, 3], "b": {"c": -2.5}});
        round_floats(&mut v);
        assert_eq!(v.to_string(), r#"{"a":[1.0,3],"b":{"c":-2.5}}"#);
    }
}
