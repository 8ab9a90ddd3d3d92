//! What each field of the study file accepts, said with every error about it: the hints of the
//! sections' own fields (a policy kind's come from the kind's schema, [`PolicyKind::field_valid`])
//! and serde's terse messages turned into sentences that name the field.
//!
//! Invariant: a limit a hint states is the limit its check uses (`{MAX_THRESHOLD}` is filled in
//! from the constant; the kinds' hints are tested against theirs in the core).

use crate::policy::{MAX_THRESHOLD, PolicyKind};

/// What each field accepts, for error messages (`*` matches any one table name). The text
/// `{MAX_THRESHOLD}` is replaced by [`MAX_THRESHOLD`]'s value, so the hint cannot drift from the
/// check.
const FIELD_HINTS: &[(&str, &str)] = &[
    (
        "study",
        "a [study] section with title = \"...\", optional name, label and published = \"templates/published.toml\"",
    ),
    ("study.title", "a string"),
    (
        "study.templates",
        "a directory relative to this file holding the report templates, e.g. \"../templates\"",
    ),
    ("sweeps", "one [sweeps.NAME] section per sweep"),
    (
        "sweeps.*",
        "a table with label, policy (a template policy table using {param}), grid = { param = [values] or { from, to, step } }, opponents, seed and games_per_matchup, and an optional question",
    ),
    ("sweeps.*.label", "a string"),
    (
        "sweeps.*.question",
        "a string naming the report question, e.g. \"q1\" or \"q3\"",
    ),
    (
        "sweeps.*.policy",
        "a policy table as [policies.NAME] takes, with {param} where the grid value goes, e.g. { kind = \"epsilon\", base = \"greedy\", eps = \"{eps}\" }",
    ),
    (
        "sweeps.*.grid",
        "one parameter and its values, e.g. { k = [0, 5, 10] } or { k = { from = 0, to = 34, step = 1 } }",
    ),
    (
        "sweeps.*.grid.*",
        "a list of numbers, e.g. [0, 0.01, 0.05], or { from = 0, to = 34, step = 1 }",
    ),
    (
        "sweeps.*.opponents",
        "a list of policy names (defined or built-in), e.g. [\"greedy\"]",
    ),
    ("sweeps.*.seed", "a whole number >= 0 (the ChaCha seed)"),
    (
        "sweeps.*.baseline",
        "one of the sweep's grid values, e.g. 0 (every other point is compared with it)",
    ),
    (
        "sweeps.*.games_per_matchup",
        "a whole number >= 1 (games per ordered matchup)",
    ),
    (
        "study.name",
        "a name of 1-40 characters a-z, 0-9, '-' or '_'",
    ),
    ("study.label", "a string"),
    (
        "study.compare_to_paper",
        "true or false: score the main study against the published figures even when its design is not the paper's",
    ),
    (
        "study.published",
        "a path relative to this file, as a string",
    ),
    (
        "simulate",
        "a [simulate] section with deal_source, seed, games (or games_per_matchup) and policies",
    ),
    ("simulate.deal_source", "\"dotnet-replay\" or \"chacha\""),
    (
        "simulate.seed",
        "an integer (a .NET int for dotnet-replay, >= 0 for chacha)",
    ),
    (
        "simulate.games",
        "a whole number from k*k (k = number of policies) up to 1000000000",
    ),
    (
        "simulate.games_per_matchup",
        "a whole number >= 1 (games per ordered matchup)",
    ),
    (
        "simulate.policies",
        "a list of policy names defined as [policies.NAME], e.g. [\"greedy\", \"hoarder\"]",
    ),
    (
        "simulate.trick_log",
        "true or false (write each shard's trick table, tricks.parquet)",
    ),
    ("policies", "one [policies.NAME] section per policy"),
    ("policies.*.deals_as", "a policy name, e.g. \"greedy\""),
    ("policies.*.tie_break", "\"as-released\" or \"as-written\""),
    ("variants", "one [variants.NAME] section per further study"),
    (
        "variants.*",
        "a table with label and any of deal_source, seed, games, tie_break, policies, rules, compare_to_paper, [variants.NAME.policy.POLICY]",
    ),
    (
        "variants.*.policies",
        "a list of policy names defined as [policies.NAME]",
    ),
    (
        "variants.*.policy.*",
        "a table with threshold and/or tie_break",
    ),
    (
        "variants.*.policy.*.threshold",
        "a whole number of points from 0 to {MAX_THRESHOLD} (hoarder and counter only)",
    ),
    ("variants.*.label", "a string"),
    (
        "variants.*.compare_to_paper",
        "true or false: score this study against the published figures even when its design is not the paper's",
    ),
    ("variants.*.deal_source", "\"dotnet-replay\" or \"chacha\""),
    (
        "variants.*.seed",
        "an integer (a .NET int for dotnet-replay, >= 0 for chacha)",
    ),
    (
        "variants.*.games",
        "a whole number from k*k up to 1000000000",
    ),
    (
        "variants.*.games_per_matchup",
        "a whole number >= 1 (games per ordered matchup)",
    ),
    ("variants.*.tie_break", "\"as-released\" or \"as-written\""),
    ("variants.*.rules", super::study_rules::RULES_HINT),
    (
        "test",
        "a [test] section with confidence, family_alpha, baseline, power_delta and power_n",
    ),
    (
        "test.confidence",
        "a number strictly between 0 and 1, e.g. 0.95",
    ),
    (
        "test.family_alpha",
        "a number strictly between 0 and 1, e.g. 0.05",
    ),
    (
        "test.baseline",
        "a list of exactly two simulated policy names, e.g. [\"greedy\", \"greedy\"]",
    ),
    (
        "test.power_delta",
        "a number strictly between 0 and 0.5, e.g. 0.01",
    ),
    ("test.power_n", "a whole number >= 1, e.g. 110000"),
    (
        "regress",
        "a [regress] section with reference_policy and confidence",
    ),
    (
        "regress.reference_policy",
        "the name of a simulated policy, e.g. \"greedy\"",
    ),
    (
        "regress.confidence",
        "a number strictly between 0 and 1, e.g. 0.95",
    ),
    ("plot", "a [plot] section with min_games_per_bin"),
    ("plot.min_games_per_bin", "a whole number >= 0, e.g. 50"),
    ("render", "a [render] section with formats"),
    (
        "render.formats",
        "a non-empty list drawn from \"html\" and \"md\"",
    ),
];

/// The hint for a dotted field, matching `*` against any one table name and ignoring `[i]`.
pub(super) fn field_hint(field: &str) -> Option<String> {
    let base = match field.find('[') {
        Some(i) => &field[..i],
        None => field,
    };
    let parts: Vec<&str> = base.split('.').collect();
    // A policy's kind and its kind's fields: from the kinds' own schemas.
    match parts[..] {
        ["policies", _] => {
            return Some(format!(
                "a table with kind = {} and that kind's fields (see `briscola policies NAME`), and an optional tie_break",
                PolicyKind::names()
            ));
        }
        ["policies", _, "kind"] => return Some(PolicyKind::names()),
        ["policies", _, field] => {
            if let Some(valid) = PolicyKind::field_valid(field) {
                return Some(valid.to_string());
            }
        }
        _ => {}
    }
    FIELD_HINTS
        .iter()
        .chain(super::league_config::FIELD_HINTS)
        .find_map(|(pat, hint)| {
            let pp: Vec<&str> = pat.split('.').collect();
            (pp.len() == parts.len() && pp.iter().zip(&parts).all(|(a, b)| *a == "*" || a == b))
                .then(|| hint.replace("{MAX_THRESHOLD}", &MAX_THRESHOLD.to_string()))
        })
}

/// Turn serde's terse message into one that names the field and says what is valid.
/// `at` is the field at the error's position; returns (field, message).
pub(super) fn explain_serde_error(message: &str, at: Option<String>) -> (String, String) {
    let at = at.unwrap_or_default();
    let join = |table: &str, key: &str| {
        if table.is_empty() {
            key.to_string()
        } else {
            format!("{table}.{key}")
        }
    };
    let backticked = |m: &str, prefix: &str| -> Option<String> {
        let rest = m.strip_prefix(prefix)?;
        let end = rest.find('`')?;
        Some(rest[..end].to_string())
    };
    if let Some(key) = backticked(message, "missing field `") {
        let field = join(&at, &key);
        let what = if at.is_empty() {
            format!("the [{key}] section is missing")
        } else {
            format!("the required field `{key}` is missing")
        };
        let msg = match field_hint(&field) {
            Some(h) => format!("{what}; expected {h}"),
            None => what,
        };
        return (field, msg);
    }
    if let Some(key) = backticked(message, "unknown field `") {
        // `at` already ends with the unknown key (the span is the key itself).
        let field = if at.ends_with(&key) {
            at.clone()
        } else {
            join(&at, &key)
        };
        let valid = message
            .split_once(", expected ")
            .map(|(_, e)| e.to_string())
            .unwrap_or_else(|| "no other keys".into());
        return (
            field,
            format!("unknown key `{key}` (misspelt or misplaced?); valid keys here: {valid}"),
        );
    }
    let plain = crate::policy::plain_message(message);
    let msg = match field_hint(&at) {
        Some(h) => crate::policy::with_valid(&plain, &h),
        None => plain,
    };
    (at, msg)
}
