//! What changed between a job's previous params and its current ones, as short lines such as
//! `policies.hoarder.threshold 10 -> 11` or `template report.html.j2` (for `status` and `run`).
//!
//! Invariant: the diff names every changed leaf of the canonical params (long or multi-line
//! values by name only) and nothing that is equal; a policy spec (an object with `name` and
//! `kind`) is named `policies.<name>` whatever its place in the params.

use serde_json::Value;

/// Longest value printed in full; longer ones are named as "changed".
const SHORT: usize = 40;

/// The changed leaves from `old` to `new`, in key order.
pub fn params_diff(old: &Value, new: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk("", old, new, &mut out);
    // the same policy in both seats changes once
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|line| seen.insert(line.clone()));
    out
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The path under which an object's fields are named: a policy spec under `policies.<name>`.
fn object_path(path: &str, v: &Value) -> String {
    match (v.get("name").and_then(Value::as_str), v.get("kind")) {
        (Some(name), Some(_)) => format!("policies.{name}"),
        _ => path.to_string(),
    }
}

fn show(v: &Value) -> Option<String> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Null => "(none)".into(),
        other => other.to_string(),
    };
    (text.len() <= SHORT && !text.contains('\n')).then_some(text)
}

/// How a changed leaf is named: templates as `template NAME`, the config text as `config text`.
fn leaf(path: &str, old: Option<&Value>, new: Option<&Value>) -> String {
    if let Some(name) = path.strip_prefix("templates.") {
        return match (old, new) {
            (None, _) => format!("template {name} added"),
            (_, None) => format!("template {name} removed"),
            _ => format!("template {name}"),
        };
    }
    match (old.map(show), new.map(show)) {
        (None, Some(Some(n))) => format!("{path} added: {n}"),
        (None, _) => format!("{path} added"),
        (Some(Some(o)), None) => format!("{path} removed (was {o})"),
        (_, None) => format!("{path} removed"),
        (Some(Some(o)), Some(Some(n))) => format!("{path} {o} -> {n}"),
        _ => format!("{path} changed"),
    }
}

fn walk(path: &str, old: &Value, new: &Value, out: &mut Vec<String>) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            // A renamed policy is one change, not a change of every field.
            let (pa, pb) = (object_path(path, old), object_path(path, new));
            if pa != pb {
                out.push(leaf(path, Some(old), Some(new)));
                return;
            }
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let p = join(&pa, k);
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => walk(&p, x, y, out),
                    (x, y) => out.push(leaf(&p, x, y)),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                // Elements that are named objects (studies, policies) are named, not numbered.
                let named = x.get("name").and_then(Value::as_str).filter(|n| {
                    y.get("name").and_then(Value::as_str) == Some(*n) && x.get("kind").is_none()
                });
                let p = match named {
                    Some(n) => join(path, n),
                    None => format!("{path}[{i}]"),
                };
                walk(&p, x, y, out);
            }
        }
        _ => out.push(leaf(path, Some(old), Some(new))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_threshold_edit_names_the_policy_and_both_values() {
        let old = json!({"seed": 7, "g1": {"name": "hoarder", "kind": "hoarder", "threshold": 10}});
        let new = json!({"seed": 7, "g1": {"name": "hoarder", "kind": "hoarder", "threshold": 11}});
        assert_eq!(
            params_diff(&old, &new),
            ["policies.hoarder.threshold 10 -> 11"]
        );
    }

    #[test]
    fn a_template_edit_is_named_by_file_and_long_text_is_not_printed() {
        let old =
            json!({"templates": {"report.html.j2": "a\nb", "report.md.j2": "x"}, "title": "T"});
        let new =
            json!({"templates": {"report.html.j2": "a\nc", "report.md.j2": "x"}, "title": "T2"});
        assert_eq!(
            params_diff(&old, &new),
            ["template report.html.j2", "title T -> T2"]
        );
        let long = "x".repeat(100);
        assert_eq!(
            params_diff(&json!({"c": {"text": "a"}}), &json!({"c": {"text": long}})),
            ["c.text changed"]
        );
    }

    #[test]
    fn studies_in_lists_are_named_and_additions_are_said() {
        let old = json!({"studies": [{"name": "paper", "seed": 42}]});
        let new = json!({"studies": [{"name": "paper", "seed": 43}], "x": 1});
        assert_eq!(
            params_diff(&old, &new),
            ["studies.paper.seed 42 -> 43", "x added: 1"]
        );
        assert!(params_diff(&old, &old).is_empty());
    }
}
