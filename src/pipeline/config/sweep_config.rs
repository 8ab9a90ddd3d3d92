//! Sweeps: a `[sweeps.NAME]` section expands a template policy over a one-parameter grid into
//! named policies, each played against chosen opponents in both seats ([`Sweep`]).
//!
//! ```toml
//! [sweeps.switch-stock]
//! label = "greedy, then counter once the stock holds at most k cards"
//! policy = { kind = "switch", play = "greedy", while = "stock > {k}", otherwise = "counter" }
//! grid = { k = { from = 0, to = 34, step = 1 } }   # or k = [0, 5, 10]
//! opponents = ["greedy"]
//! seed = 2026
//! games_per_matchup = 10_000
//! ```
//!
//! `{k}` in any string of the template is replaced by the grid value; a string that is exactly
//! `"{k}"` becomes the number itself (`eps = "{eps}"`, `threshold = "{t}"`). Each point is a
//! policy named `<sweep>-<param><value>` (`-` written `m`, `.` written `p`: `eps0p05`).
//!
//! Invariant: a point's policy, and so its shards' specs, depend only on the template and its
//! own value, never on the other grid values: widening a sweep re-runs only the new points.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::study_names::check_name;
use crate::pipeline::round_sig::round_sig;
use crate::policy::PolicySection;
use crate::policy::PolicySpec;
use crate::policy::{PolicyDefError, PolicyResolver};
use crate::report::answers::SWEEP_QUESTIONS;
use crate::tournament::{DealSourceKind, MAX_GAMES};

/// Most points one sweep may have.
pub const MAX_POINTS: usize = 1000;

/// `[sweeps.NAME]`, as written.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SweepSection {
    /// Shown in the report.
    pub label: String,
    /// Which question of the report's "Beyond the paper" part the sweep answers (e.g. "q1",
    /// "q3"); sweeps without one are listed after the questions.
    #[serde(default)]
    pub question: Option<String>,
    /// The template policy: a `[policies.NAME]` table whose strings may hold `{param}`.
    pub policy: toml::Table,
    /// The grid: exactly one parameter and its values.
    pub grid: BTreeMap<String, GridValues>,
    /// The policies every point plays, in both seats.
    pub opponents: Vec<String>,
    /// The ChaCha seed of the sweep's deals.
    pub seed: i64,
    /// Games per ordered matchup (point vs opponent, and opponent vs point).
    pub games_per_matchup: u64,
    /// A grid value every other point is compared with on the same deals (e.g. `0` for an
    /// exploration sweep: the policy itself).
    #[serde(default)]
    pub baseline: Option<f64>,
}

/// A grid parameter's values: a list, or an inclusive range.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum GridValues {
    /// `k = [0, 5, 10]`
    List(Vec<f64>),
    /// `k = { from = 0, to = 34, step = 1 }` (inclusive).
    Range {
        /// First value.
        from: f64,
        /// Last value (included when reached by whole steps).
        to: f64,
        /// Increment, > 0.
        step: f64,
    },
}

/// One point of a sweep: the template at one grid value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The parameter's value.
    pub value: f64,
    /// The point's policy (named `<sweep>-<param><value>`).
    pub policy: PolicySpec,
}

/// A validated, expanded sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sweep {
    /// The section's name (job ids, `outputs/tables/<name>/`, figures).
    pub name: String,
    /// Human label.
    pub label: String,
    /// The report question it answers, if any.
    pub question: Option<String>,
    /// The swept parameter's name.
    pub parameter: String,
    /// The points, in grid order.
    pub points: Vec<SweepPoint>,
    /// The opponents, fully specified.
    pub opponents: Vec<PolicySpec>,
    /// Deals: always ChaCha.
    pub deal_source: DealSourceKind,
    /// The seed.
    pub seed: i64,
    /// Games per ordered matchup.
    pub games_per_matchup: u64,
    /// The grid value the other points are compared with, if any.
    pub baseline: Option<f64>,
}

/// (dotted field, what is wrong and what is valid).
type FieldError = (String, String);

impl GridValues {
    /// The values in order, or what is wrong with them.
    fn values(&self) -> Result<Vec<f64>, String> {
        let v = match self {
            GridValues::List(v) => v.clone(),
            GridValues::Range { from, to, step } => {
                if !(step.is_finite() && *step > 0.0 && from.is_finite() && to.is_finite()) {
                    return Err(format!(
                        "step {step} from {from} to {to} is not a range; use finite numbers with step > 0, e.g. {{ from = 0, to = 34, step = 1 }}"
                    ));
                }
                if to < from {
                    return Err(format!(
                        "the range runs from {from} down to {to}; give from <= to"
                    ));
                }
                let n = ((to - from) / step + 1e-9).floor() as usize + 1;
                if n > MAX_POINTS {
                    return Err(format!(
                        "{n} points is more than {MAX_POINTS}; use a larger step"
                    ));
                }
                (0..n).map(|i| round_sig(from + i as f64 * step)).collect()
            }
        };
        if v.is_empty() {
            return Err(
                "the grid is empty; give at least one value, e.g. [0, 5, 10] or { from = 0, to = 34, step = 1 }"
                    .into(),
            );
        }
        if v.len() > MAX_POINTS {
            return Err(format!(
                "{} points is more than {MAX_POINTS}; sweep fewer values",
                v.len()
            ));
        }
        let mut seen = BTreeSet::new();
        for x in &v {
            if !x.is_finite() {
                return Err(format!("{x} is not a number; use finite values"));
            }
            if !seen.insert(x.to_bits()) {
                return Err(format!("{x} is listed twice; list each value once"));
            }
        }
        Ok(v)
    }
}

/// `5` -> "5", `-5` -> "m5", `0.05` -> "0p05": a value as it appears in a point's name.
pub fn value_slug(v: f64) -> String {
    format!("{v}").replace('-', "m").replace('.', "p")
}

/// The template with every `{param}` replaced by `value`; the error names the offending
/// placeholder.
fn substitute(table: &toml::Table, param: &str, value: f64) -> Result<toml::Table, String> {
    fn walk(v: &toml::Value, param: &str, value: f64) -> Result<toml::Value, String> {
        Ok(match v {
            toml::Value::String(s) => {
                if s.trim() == format!("{{{param}}}") {
                    if value.fract() == 0.0 && value.abs() < 9e15 {
                        toml::Value::Integer(value as i64)
                    } else {
                        toml::Value::Float(value)
                    }
                } else {
                    toml::Value::String(substitute_text(s, param, value)?)
                }
            }
            toml::Value::Array(a) => toml::Value::Array(
                a.iter()
                    .map(|e| walk(e, param, value))
                    .collect::<Result<_, _>>()?,
            ),
            toml::Value::Table(t) => toml::Value::Table(
                t.iter()
                    .map(|(k, e)| Ok((k.clone(), walk(e, param, value)?)))
                    .collect::<Result<_, String>>()?,
            ),
            other => other.clone(),
        })
    }
    match walk(&toml::Value::Table(table.clone()), param, value)? {
        toml::Value::Table(t) => Ok(t),
        _ => unreachable!("a table maps to a table"),
    }
}

/// `text` with `{param}` replaced by `value`; any other `{name}` is an unknown parameter.
fn substitute_text(text: &str, param: &str, value: f64) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(format!(
                "`{{` without a closing `}}` in \"{text}\"; write the parameter as {{{param}}}"
            ));
        };
        let name = after[..close].trim();
        if name != param {
            return Err(format!(
                "unknown template parameter `{{{name}}}` in \"{text}\"; the grid defines only `{param}`"
            ));
        }
        out.push_str(&format!("{value}"));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Whether any string of the template mentions `{param}`.
fn uses(v: &toml::Value, param: &str) -> bool {
    match v {
        toml::Value::String(s) => s.contains(&format!("{{{param}}}")),
        toml::Value::Array(a) => a.iter().any(|e| uses(e, param)),
        toml::Value::Table(t) => t.values().any(|e| uses(e, param)),
        _ => false,
    }
}

fn check_ident(p: &str) -> bool {
    p.starts_with(|c: char| c.is_ascii_lowercase())
        && p.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// What expanding the sweeps needs of the configuration (the config builds it: a sweep never
/// reads the configuration itself).
pub struct SweepContext<'a> {
    /// The names of the studies (a sweep may not take one).
    pub studies: BTreeSet<String>,
    /// The `[policies]` sections (a point's policy may name them).
    pub policies: &'a BTreeMap<String, PolicySection>,
    /// The configuration file's directory (model paths are relative to it).
    pub base_dir: &'a Path,
}

/// Every sweep of `sections`, expanded in `cfg`'s context, or the first error as (field,
/// message).
pub fn sweeps(
    cfg: &SweepContext<'_>,
    sections: &BTreeMap<String, SweepSection>,
) -> Result<Vec<Sweep>, FieldError> {
    let studies = &cfg.studies;
    let mut taken: BTreeSet<String> = cfg.policies.keys().cloned().collect();
    let mut out = Vec::new();
    for (name, s) in sections {
        let sweep = expand(cfg, name, s, studies, &taken)?;
        for p in &sweep.points {
            taken.insert(p.policy.name.clone());
        }
        out.push(sweep);
    }
    Ok(out)
}

fn expand(
    cfg: &SweepContext<'_>,
    name: &str,
    s: &SweepSection,
    studies: &BTreeSet<String>,
    taken: &BTreeSet<String>,
) -> Result<Sweep, FieldError> {
    check_name(name).map_err(|m| (format!("sweeps.{name}"), m))?;
    if studies.contains(name) {
        return Err((
            format!("sweeps.{name}"),
            format!(
                "`{name}` is already a study's name; sweeps and studies share job ids and output directories, so rename the sweep"
            ),
        ));
    }
    let (param, grid) = grid_parameter(name, s)?;
    let values = grid
        .values()
        .map_err(|m| (format!("sweeps.{name}.grid.{param}"), m))?;
    check_settings(name, s, param, &values)?;
    let opponents = resolve_opponents(cfg, name, s)?;
    let mut points = Vec::with_capacity(values.len());
    for (i, &v) in values.iter().enumerate() {
        points.push(expand_point(cfg, name, s, (param, grid), (i, v), taken)?);
    }
    Ok(Sweep {
        name: name.to_string(),
        label: s.label.clone(),
        question: s.question.clone(),
        parameter: param.clone(),
        points,
        opponents,
        deal_source: DealSourceKind::Chacha,
        seed: s.seed,
        games_per_matchup: s.games_per_matchup,
        baseline: s.baseline,
    })
}

/// The one parameter the grid varies, named as a parameter may be.
fn grid_parameter<'s>(
    name: &str,
    s: &'s SweepSection,
) -> Result<(&'s String, &'s GridValues), FieldError> {
    let f = |field: &str| format!("sweeps.{name}.{field}");
    let mut entries = s.grid.iter();
    let (param, grid) = match (entries.next(), s.grid.len()) {
        (Some(entry), 1) => entry,
        (_, 0) => {
            return Err((
                f("grid"),
                "the grid names no parameter; give one, e.g. grid = { k = [0, 5, 10] }".into(),
            ));
        }
        _ => {
            return Err((
                f("grid"),
                format!(
                    "the grid names {} parameters ({}); a sweep varies exactly one, so write one sweep per parameter",
                    s.grid.len(),
                    s.grid.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    };
    if !check_ident(param) {
        return Err((
            f(&format!("grid.{param}")),
            format!(
                "`{param}` is not a parameter name; use a-z, 0-9 and '_', starting with a letter (e.g. k, eps)"
            ),
        ));
    }
    Ok((param, grid))
}

/// The sweep's settings beside its grid: a baseline among the values, a template that uses
/// the parameter, opponents, a chacha seed and a game count within the limits.
fn check_settings(
    name: &str,
    s: &SweepSection,
    param: &str,
    values: &[f64],
) -> Result<(), FieldError> {
    let f = |field: &str| format!("sweeps.{name}.{field}");
    if let Some(b) = s.baseline
        && !values.contains(&b)
    {
        let listed: Vec<String> = values.iter().take(12).map(|v| v.to_string()).collect();
        return Err((
            f("baseline"),
            format!(
                "{b} is not a value of the grid; the baseline must be one of its points ({}{}), e.g. baseline = {}",
                listed.join(", "),
                if values.len() > 12 { ", ..." } else { "" },
                values[0]
            ),
        ));
    }
    if let Some(q) = &s.question
        && !SWEEP_QUESTIONS.iter().any(|k| k.id == q)
    {
        let known: Vec<String> = SWEEP_QUESTIONS
            .iter()
            .map(|k| format!("\"{}\" ({})", k.id, k.text))
            .collect();
        return Err((
            f("question"),
            format!(
                "\"{}\" is not a question the report answers; use {}, or leave the field out (the sweep is then listed under \"Further sweeps\")",
                crate::policy::shown_text(q),
                known.join(" or ")
            ),
        ));
    }
    if !uses(&toml::Value::Table(s.policy.clone()), param) {
        return Err((
            f("policy"),
            format!(
                "the template never mentions `{{{param}}}`, so every point would be the same policy; write it where the value goes, e.g. while = \"stock > {{{param}}}\" or eps = \"{{{param}}}\""
            ),
        ));
    }
    if s.opponents.is_empty() {
        return Err((
            f("opponents"),
            "the list is empty; name at least one policy to play against, e.g. [\"greedy\"]".into(),
        ));
    }
    if let Err(e) = crate::tournament::DealSeed::chacha_key(s.seed) {
        return Err((
            f("seed"),
            format!(
                "{} {}; a sweep deals with ChaCha, so use a seed in {}",
                s.seed,
                e.problem(),
                DealSourceKind::Chacha.seed_range_text()
            ),
        ));
    }
    let cells = 2 * values.len() as u64 * s.opponents.len() as u64;
    if s.games_per_matchup == 0 || s.games_per_matchup.saturating_mul(cells) > MAX_GAMES {
        return Err((
            f("games_per_matchup"),
            format!(
                "{} games per matchup over {cells} matchups is not allowed; use 1 to {} (at most {MAX_GAMES} games in all)",
                s.games_per_matchup,
                MAX_GAMES / cells.max(1)
            ),
        ));
    }
    Ok(())
}

/// The opponents, each listed once, resolved as the study file's policies resolve a name.
fn resolve_opponents(
    cfg: &SweepContext<'_>,
    name: &str,
    s: &SweepSection,
) -> Result<Vec<PolicySpec>, FieldError> {
    let resolver = PolicyResolver::new(cfg.policies, cfg.base_dir);
    let mut opponents = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, o) in s.opponents.iter().enumerate() {
        let field = format!("sweeps.{name}.opponents[{i}]");
        if !seen.insert(o) {
            return Err((
                field,
                format!("`{o}` is listed twice; list each opponent once"),
            ));
        }
        let spec = resolver
            .resolve(o, None)
            .map_err(|e| (field.clone(), e.message))?;
        opponents.push(spec);
    }
    Ok(opponents)
}

/// The point of value `v` (the `i`-th of the grid): its policy, named after the sweep, the
/// parameter and the value, and not a name already taken.
fn expand_point(
    cfg: &SweepContext<'_>,
    name: &str,
    s: &SweepSection,
    (param, grid): (&str, &GridValues),
    (i, v): (usize, f64),
    taken: &BTreeSet<String>,
) -> Result<SweepPoint, FieldError> {
    let pf = format!("sweeps.{name}.grid.{param}");
    let point_name = format!("{name}-{param}{}", value_slug(v));
    let value_field = match grid {
        GridValues::List(_) => format!("{pf}[{i}]"),
        GridValues::Range { .. } => pf,
    };
    check_name(&point_name).map_err(|m| {
        (
            format!("sweeps.{name}"),
            format!(
                "{param} = {v} makes the point policy `{point_name}`: {m}; shorten the sweep's name"
            ),
        )
    })?;
    if taken.contains(&point_name) || s.opponents.contains(&point_name) {
        return Err((
            format!("sweeps.{name}"),
            format!(
                "{param} = {v} makes the point policy `{point_name}`, which is already defined; rename the sweep or the policy"
            ),
        ));
    }
    let policy =
        point_policy(cfg, s, (param, v), &point_name, name).map_err(|(in_template, m)| {
            let field = if in_template || i == 0 {
                format!("sweeps.{name}.policy")
            } else {
                value_field
            };
            (field, format!("with {param} = {v}: {m}"))
        })?;
    Ok(SweepPoint { value: v, policy })
}

/// The point's fully specified policy; the error says whether it lies in the template itself
/// (true) or comes from the value.
fn point_policy(
    cfg: &SweepContext<'_>,
    s: &SweepSection,
    (param, value): (&str, f64),
    point_name: &str,
    sweep_name: &str,
) -> Result<PolicySpec, (bool, String)> {
    let table = substitute(&s.policy, param, value).map_err(|m| (true, m))?;
    let section: PolicySection = toml::Value::Table(table).try_into().map_err(|e| {
        (
            true,
            format!(
                "the template is not a policy table: {e}; write it as [policies.NAME] is written, e.g. {{ kind = \"epsilon\", base = \"greedy\", eps = \"{{eps}}\" }}"
            ),
        )
    })?;
    let mut sections = cfg.policies.clone();
    sections.insert(point_name.to_string(), section.clone());
    let mut spec = PolicyResolver::new(&sections, cfg.base_dir)
        .resolve(point_name, None)
        .map_err(|e: PolicyDefError| {
            let field = e
                .field
                .strip_prefix(&format!("policies.{point_name}"))
                .map(|rest| format!("policy{rest}"))
                .unwrap_or(e.field.clone());
            (false, format!("{field}: {}", e.message))
        })?;
    if spec.stream.is_none() {
        // Common random numbers: every point of a sweep plays the same deals (and the same
        // exploration draws), keyed by the sweep's name, unless the template keys them by
        // another name (`deals_as`, e.g. an epsilon policy's base).
        spec.stream = Some(sweep_name.to_string());
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::super::pipeline_config::Config;
    use super::*;
    use crate::policy::{PolicyDef, PolicyKind};

    const BASE: &str = r#"
[study]
title = "t"
[simulate]
deal_source = "chacha"
seed = 1
games_per_matchup = 10
policies = ["greedy", "counter"]
[policies.greedy]
kind = "greedy"
[policies.counter]
kind = "counter"
[test]
confidence = 0.95
family_alpha = 0.05
baseline = ["greedy", "greedy"]
power_delta = 0.01
power_n = 100
[regress]
reference_policy = "greedy"
confidence = 0.95
[plot]
min_games_per_bin = 5
[render]
formats = ["md"]
"#;

    fn load(sweeps: &str) -> Result<Config, super::super::pipeline_config::ConfigError> {
        Config::parse(
            &format!("{BASE}{sweeps}"),
            std::path::Path::new("pipeline.toml"),
        )
    }

    /// The questions come from the report's list (`SWEEP_QUESTIONS`); any other id was
    /// accepted and the sweep silently listed under "Further sweeps".
    #[test]
    fn a_question_the_report_does_not_head_is_refused() {
        let sweep = |q: &str| {
            format!(
                r#"
[sweeps.sw]
label = "switch"
question = "{q}"
policy = {{ kind = "switch", play = "greedy", while = "stock > {{k}}", otherwise = "counter" }}
grid = {{ k = [0, 5] }}
opponents = ["greedy"]
seed = 3
games_per_matchup = 100
"#
            )
        };
        assert!(load(&sweep("q3")).is_ok());
        let e = load(&sweep("Q1")).unwrap_err().to_string();
        assert!(
            e.contains("sweeps.sw.question")
                && e.contains("\"Q1\" is not a question")
                && e.contains("\"q1\" (Does a little exploration")
                && e.contains("\"q3\""),
            "{e}"
        );
    }

    #[test]
    fn values_are_named_without_dots_or_minus_signs() {
        assert_eq!(value_slug(5.0), "5");
        assert_eq!(value_slug(-10.0), "m10");
        assert_eq!(value_slug(0.05), "0p05");
        assert_eq!(value_slug(1.0), "1");
    }

    #[test]
    fn a_template_expands_into_one_policy_per_grid_value() {
        let cfg = load(
            r#"
[sweeps.sw]
label = "switch"
policy = { kind = "switch", play = "greedy", while = "stock > {k}", otherwise = "counter" }
grid = { k = { from = 0, to = 10, step = 5 } }
opponents = ["greedy"]
seed = 3
games_per_matchup = 100
[sweeps.ep]
label = "eps"
policy = { kind = "epsilon", base = "counter", eps = "{eps}", deals_as = "counter" }
grid = { eps = [0, 0.05, 1] }
opponents = ["greedy", "counter"]
seed = 3
games_per_matchup = 100
"#,
        )
        .unwrap();
        let sweeps = cfg.sweeps();
        let (ep, sw) = (&sweeps[0], &sweeps[1]);
        let names: Vec<&str> = sw.points.iter().map(|p| p.policy.name.as_str()).collect();
        assert_eq!(names, ["sw-k0", "sw-k5", "sw-k10"]);
        assert_eq!(sw.points[1].value, 5.0);
        match &sw.points[1].policy.def {
            Some(PolicyDef::Switch { when, .. }) => assert_eq!(when, "stock > 5"),
            other => panic!("{other:?}"),
        }
        // Common random numbers: every point deals under the sweep's name, or its deals_as.
        assert!(sw.points.iter().all(|p| p.policy.stream_name() == "sw"));
        assert!(
            ep.points
                .iter()
                .all(|p| p.policy.stream_name() == "counter")
        );
        assert_eq!(ep.points[1].policy.name, "ep-eps0p05");
        assert_eq!(ep.points[1].policy.kind, PolicyKind::Epsilon);
        assert_eq!(ep.opponents.len(), 2);
    }

    /// A point's policy does not depend on the rest of the grid: widening keeps the old
    /// points' specs (and so their shards' keys).
    #[test]
    fn widening_a_grid_keeps_the_existing_points() {
        let text = |values: &str| {
            format!(
                "[sweeps.sw]\nlabel = \"s\"\npolicy = {{ kind = \"epsilon\", base = \"greedy\", eps = \"{{e}}\" }}\ngrid = {{ e = {values} }}\nopponents = [\"greedy\"]\nseed = 1\ngames_per_matchup = 5\n"
            )
        };
        let narrow = load(&text("[0.1, 0.2]")).unwrap().sweeps().to_vec();
        let wide = load(&text("[0, 0.1, 0.2, 0.5]")).unwrap().sweeps().to_vec();
        assert_eq!(narrow[0].points[..], wide[0].points[1..3]);
    }
}
