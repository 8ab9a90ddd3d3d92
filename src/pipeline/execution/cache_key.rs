//! Cache keys: [`CacheKey`] is everything that can change a job's output, and its sha256 over
//! canonical JSON names the job's result in the run-cache.
//!
//! Invariant: two jobs get the same key exactly when their stage, id, canonical params, code
//! fingerprint and input bytes (by hash) are equal; key order in params and formatting of the
//! config never matter, because params are canonicalised (recursively sorted keys) first.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::job::StageName;
use crate::pipeline::store::content_store::sha256_hex;

/// Input hashes: dependency job id -> output name -> hex sha256.
pub type InputHashes = BTreeMap<String, BTreeMap<String, String>>;

/// Everything that determines a job's output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CacheKey {
    /// The stage.
    pub stage: StageName,
    /// The job id.
    pub job: String,
    /// The job's params, canonicalised.
    pub params: Value,
    /// Fingerprint of the code.
    pub code: String,
    /// The hashes of the dependencies' outputs.
    pub inputs: InputHashes,
}

/// The parts of a key, hashed separately, so a later run can say what changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyComponents {
    /// The full key (hex sha256).
    pub key: String,
    /// sha256 of the canonical params.
    pub params: String,
    /// The code fingerprint itself (short, human-readable).
    pub code: String,
    /// dependency id -> sha256 of that dependency's canonical output map.
    pub inputs: BTreeMap<String, String>,
    /// The canonical params themselves, so a later run can say which value changed, old ->
    /// new (absent in records written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params_value: Option<Value>,
}

/// Why a job runs, would run, or is cached.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "reason", content = "detail", rename_all = "kebab-case")]
pub enum Reason {
    /// Key equal to the job's last key and outputs intact.
    Unchanged,
    /// The key differs from the job's last one but an earlier run had it (e.g. a revert).
    SeenBefore,
    /// The job has never completed here.
    NewJob,
    /// Its params changed: what changed, old -> new, where the previous params are known
    /// (empty when they are not).
    ConfigChanged(Vec<String>),
    /// Its code fingerprint changed.
    CodeChanged,
    /// These dependencies' outputs changed.
    InputChanged(Vec<String>),
    /// These recorded outputs are missing from the store.
    OutputMissing(Vec<String>),
    /// These recorded outputs no longer hash to their names.
    OutputCorrupt(Vec<String>),
    /// `--force` named its stage.
    Forced,
    /// Dry run: these upstream jobs would re-run; this one re-runs only if their bytes change.
    UpstreamReruns(Vec<String>),
    /// These published files were missing or differed and were restored from the store.
    Republished(Vec<String>),
    /// Dry run: these published files are missing or differ; a run would restore them.
    WouldRepublish(Vec<String>),
    /// The key changed in a way none of the components explain (e.g. the job's stage).
    KeyChanged,
    /// The run record of the job's key names other objects for these outputs than the lock
    /// does for the same key (a forged or stale record): not trusted, the job runs again.
    RecordContradictsLock(Vec<String>),
}

/// `a, b, c` or, beyond three, `a, b, c and 6 more`.
fn short_list(items: &[String]) -> String {
    if items.len() <= 3 {
        items.join(", ")
    } else {
        format!("{} and {} more", items[..3].join(", "), items.len() - 3)
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Unchanged => f.write_str("unchanged"),
            Reason::SeenBefore => f.write_str("restored from an earlier run with the same key"),
            Reason::NewJob => f.write_str("new job"),
            Reason::ConfigChanged(what) if what.is_empty() => f.write_str("config changed"),
            Reason::ConfigChanged(what) => write!(f, "config changed: {}", short_list(what)),
            Reason::CodeChanged => f.write_str("code changed"),
            Reason::InputChanged(d) => write!(f, "input changed: {}", short_list(d)),
            Reason::OutputMissing(o) => write!(f, "output missing: {}", short_list(o)),
            Reason::OutputCorrupt(o) => write!(f, "output corrupt: {}", short_list(o)),
            Reason::Forced => f.write_str("forced"),
            Reason::UpstreamReruns(u) => write!(
                f,
                "would re-run if upstream changes its bytes (upstream {} re-run{})",
                short_list(u),
                if u.len() == 1 { "s" } else { "" }
            ),
            Reason::Republished(o) => write!(f, "republished: {}", short_list(o)),
            Reason::WouldRepublish(o) => write!(f, "would republish: {}", short_list(o)),
            Reason::KeyChanged => f.write_str("key changed"),
            Reason::RecordContradictsLock(o) => write!(
                f,
                "run record contradicts the lock for the same key ({}): ran again",
                short_list(o)
            ),
        }
    }
}

/// Recursively sort object keys so equal data always serialises to equal bytes.
pub fn canonicalize(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let sorted: BTreeMap<&String, Value> =
                m.iter().map(|(k, v)| (k, canonicalize(v))).collect();
            let mut out = serde_json::Map::new();
            for (k, v) in sorted {
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(canonicalize).collect()),
        other => other.clone(),
    }
}

/// sha256 of a value's canonical JSON.
pub fn hash_canonical<T: Serialize>(v: &T) -> String {
    // Serialising a Value or a struct of BTreeMaps/Strings cannot fail; fall back to a
    // recognisable constant rather than panicking if it ever did.
    let value = serde_json::to_value(v).unwrap_or(Value::Null);
    let bytes = serde_json::to_vec(&canonicalize(&value)).unwrap_or_default();
    sha256_hex(&bytes)
}

impl CacheKey {
    /// Build a key; `params` are canonicalised here.
    pub fn new(
        stage: StageName,
        job: &str,
        params: &Value,
        code: &str,
        inputs: InputHashes,
    ) -> CacheKey {
        CacheKey {
            stage,
            job: job.to_string(),
            params: canonicalize(params),
            code: code.to_string(),
            inputs,
        }
    }

    /// The key: hex sha256 of this struct's canonical JSON.
    pub fn hash(&self) -> String {
        hash_canonical(self)
    }

    /// The key and its components.
    pub fn components(&self) -> KeyComponents {
        KeyComponents {
            key: self.hash(),
            params: hash_canonical(&self.params),
            code: self.code.clone(),
            inputs: self
                .inputs
                .iter()
                .map(|(dep, outs)| (dep.clone(), hash_canonical(outs)))
                .collect(),
            params_value: Some(self.params.clone()),
        }
    }
}

impl KeyComponents {
    /// Why a job whose key is `self` differs from its previous record `prev`
    /// (empty if the keys are equal).
    pub fn diff(&self, prev: &KeyComponents) -> Vec<Reason> {
        if self.key == prev.key {
            return Vec::new();
        }
        let mut reasons = Vec::new();
        if self.params != prev.params {
            let what = match (&prev.params_value, &self.params_value) {
                (Some(old), Some(new)) => super::params_diff::params_diff(old, new),
                _ => Vec::new(),
            };
            reasons.push(Reason::ConfigChanged(what));
        }
        if self.code != prev.code {
            reasons.push(Reason::CodeChanged);
        }
        let mut changed: Vec<String> = self
            .inputs
            .iter()
            .filter(|(dep, h)| prev.inputs.get(*dep) != Some(h))
            .map(|(dep, _)| dep.clone())
            .collect();
        changed.extend(
            prev.inputs
                .keys()
                .filter(|d| !self.inputs.contains_key(*d))
                .cloned(),
        );
        if !changed.is_empty() {
            reasons.push(Reason::InputChanged(changed));
        }
        if reasons.is_empty() {
            reasons.push(Reason::KeyChanged);
        }
        reasons
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter() {
        let a: Value =
            serde_json::from_str(r#"{"b": 1, "a": {"y": 2, "x": [3, {"q": 1, "p": 2}]}}"#).unwrap();
        let b: Value =
            serde_json::from_str(r#"{"a": {"x": [3, {"p": 2, "q": 1}], "y": 2}, "b": 1}"#).unwrap();
        let ka = CacheKey::new(StageName::Test, "test/paper", &a, "c1", InputHashes::new());
        let kb = CacheKey::new(StageName::Test, "test/paper", &b, "c1", InputHashes::new());
        assert_eq!(ka.hash(), kb.hash());
        let kc = CacheKey::new(
            StageName::Test,
            "test/paper",
            &json!({"b": 2}),
            "c1",
            InputHashes::new(),
        );
        assert_ne!(ka.hash(), kc.hash());
    }

    #[test]
    fn diff_names_what_changed() {
        let mut inputs = InputHashes::new();
        inputs.insert(
            "sim".into(),
            BTreeMap::from([("x".to_string(), "00".to_string())]),
        );
        let base = CacheKey::new(
            StageName::Aggregate,
            "agg",
            &json!({"a": 1}),
            "c1",
            inputs.clone(),
        );
        let mut inputs2 = inputs.clone();
        inputs2.insert(
            "sim".into(),
            BTreeMap::from([("x".to_string(), "11".to_string())]),
        );
        let changed = CacheKey::new(StageName::Aggregate, "agg", &json!({"a": 2}), "c2", inputs2);
        let d = changed.components().diff(&base.components());
        assert_eq!(
            d,
            vec![
                Reason::ConfigChanged(vec!["a 1 -> 2".into()]),
                Reason::CodeChanged,
                Reason::InputChanged(vec!["sim".into()])
            ]
        );
        assert!(base.components().diff(&base.components()).is_empty());
    }
}
