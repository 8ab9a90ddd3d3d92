//! Policies defined as data in `pipeline.toml`: resolving a `[policies.NAME]` section into a
//! fully specified [`PolicySpec`]. The resolver owns what every kind shares (names, references
//! and their cycles, the fields each kind takes, `tie_break`, `deals_as`); the kind's own fields
//! and checks are its seam's ([`super::KindSeam::resolve`]).
//!
//! Invariant: a name resolves to the same spec wherever it is named (a study, a sweep point, a
//! command), because every path goes through [`PolicyResolver::resolve`].

use std::collections::BTreeMap;
use std::path::Path;

use super::PolicySection;
use super::kind_seam::KindContext;
use super::policy_def_error::PolicyDefError;
use crate::policy::{PolicyKind, PolicySpec, TieBreak};

fn err(field: String, message: String) -> PolicyDefError {
    PolicyDefError::new(field, message)
}

/// Resolves names in one config's `[policies]`.
pub struct PolicyResolver<'a> {
    sections: &'a BTreeMap<String, PolicySection>,
    base_dir: &'a Path,
}

impl<'a> PolicyResolver<'a> {
    /// A resolver over the config's policy sections; files they name (models) are relative to
    /// `base_dir`, the study file's directory.
    pub fn new(
        sections: &'a BTreeMap<String, PolicySection>,
        base_dir: &'a Path,
    ) -> PolicyResolver<'a> {
        PolicyResolver { sections, base_dir }
    }

    /// A name no study file defines: a built-in kind ([`PolicyKind::builtin_names`]) under
    /// `tie` (default: as released), or the default search agent; `None` for any other name.
    pub fn builtin(name: &str, tie: Option<TieBreak>) -> Option<PolicySpec> {
        PolicyResolver::new(&BTreeMap::new(), Path::new("."))
            .resolve(name, tie)
            .ok()
    }

    /// Check every defined policy (fields for its kind, rules, references, cycles).
    pub fn check_all(&self) -> Result<(), PolicyDefError> {
        for name in self.sections.keys() {
            self.resolve(name, None)?;
        }
        Ok(())
    }

    /// The fully specified policy `name` with an optional tie-break override (applied to every
    /// policy it is built from).
    pub fn resolve(&self, name: &str, tie: Option<TieBreak>) -> Result<PolicySpec, PolicyDefError> {
        self.resolve_in(name, tie, &mut Vec::new(), None)
    }

    fn resolve_in(
        &self,
        name: &str,
        tie: Option<TieBreak>,
        stack: &mut Vec<String>,
        from_field: Option<&str>,
    ) -> Result<PolicySpec, PolicyDefError> {
        let Some(p) = self.sections.get(name) else {
            if let Some(k) = PolicyKind::parse(name) {
                return Ok(PolicySpec::paper(k, tie.unwrap_or_default()));
            }
            if name == PolicyKind::Search.as_str() {
                return Ok(PolicySpec::search_default());
            }
            let defined: Vec<&str> = self.sections.keys().map(String::as_str).collect();
            let builtins = format!("a built-in ({}, search)", PolicyKind::builtin_names());
            let choices = if defined.is_empty() {
                builtins
            } else {
                format!("a defined policy ({}) or {builtins}", defined.join(", "))
            };
            return Err(err(
                from_field.unwrap_or("policies").to_string(),
                format!("unknown policy `{name}`; use {choices}"),
            ));
        };
        if let Some(pos) = stack.iter().position(|s| s == name) {
            let mut cycle: Vec<&str> = stack[pos..].iter().map(String::as_str).collect();
            cycle.push(name);
            return Err(err(
                from_field.unwrap_or("policies").to_string(),
                format!(
                    "the policies refer to each other in a cycle ({}); every chain of policies built on others (switch, epsilon, mixture, exploit) must end in rules or a built-in",
                    cycle.join(" -> ")
                ),
            ));
        }
        stack.push(name.to_string());
        let out = self.resolve_section(name, p, tie, stack);
        stack.pop();
        out
    }

    fn resolve_section(
        &self,
        name: &str,
        p: &PolicySection,
        tie: Option<TieBreak>,
        stack: &mut Vec<String>,
    ) -> Result<PolicySpec, PolicyDefError> {
        let f = |field: &str| format!("policies.{name}.{field}");
        check_fields(name, p)?;
        let tie_break = tie.or(p.tie_break).unwrap_or_default();
        let mut spec = PolicySpec {
            name: name.to_string(),
            kind: p.kind,
            threshold: 0,
            tie_break,
            def: None,
            stream: p.deals_as.clone(),
        };
        if let Some(d) = &p.deals_as {
            let ok = !d.is_empty()
                && d.len() <= 40
                && d.starts_with(|c: char| c.is_ascii_lowercase())
                && d.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
            if !ok {
                return Err(err(
                    f("deals_as"),
                    format!(
                        "`{d}` is not a policy name; use 1-40 characters a-z, 0-9, '-' or '_', starting with a letter"
                    ),
                ));
            }
        }
        let mut refer =
            |other: &str, field: String| self.resolve_in(other, tie, stack, Some(&field));
        let seam = p.kind.seam();
        let mut cx = KindContext::new(name, seam.fields(), &p.fields, self.base_dir, &mut refer);
        seam.resolve(&mut cx, &mut spec)?;
        Ok(spec)
    }
}

/// Every field of the section is its kind's ([`super::KindSeam::fields`]), and every field
/// its kind requires is there: errors name the kinds that do take a misplaced field, or the
/// valid keys for an unknown one.
fn check_fields(name: &str, p: &PolicySection) -> Result<(), PolicyDefError> {
    let own = p.kind.seam().fields();
    for key in p.fields.keys() {
        if own.iter().any(|f| f.name == key) {
            continue;
        }
        let takers: Vec<String> = PolicyKind::ALL
            .iter()
            .filter(|k| k.seam().fields().iter().any(|f| f.name == key))
            .map(|k| format!("\"{}\"", k.as_str()))
            .collect();
        let message = if takers.is_empty() {
            let valid: Vec<String> = ["kind", "tie_break", "deals_as"]
                .into_iter()
                .chain(own.iter().map(|f| f.name))
                .map(|k| format!("`{k}`"))
                .collect();
            format!(
                "unknown key `{key}` (misspelt or misplaced?); valid keys for a {} policy: {}",
                p.kind.as_str(),
                valid.join(", ")
            )
        } else {
            format!(
                "a {} policy has no `{key}`; remove the field (it applies to kind = {})",
                p.kind.as_str(),
                takers.join(" or ")
            )
        };
        return Err(err(format!("policies.{name}.{key}"), message));
    }
    for f in own.iter().filter(|f| f.required) {
        if !p.fields.contains_key(f.name) {
            return Err(err(
                format!("policies.{name}"),
                format!(
                    "a {} policy needs `{}`: {}",
                    p.kind.as_str(),
                    f.name,
                    f.valid
                ),
            ));
        }
    }
    Ok(())
}
