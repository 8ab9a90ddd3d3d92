//! Policies defined as data in `pipeline.toml`: resolving a `[policies.NAME]` section (a
//! built-in kind, rules, a switch or an epsilon policy) into a fully specified
//! [`PolicySpec`], and every check that goes with it (rules compile, names resolve, no cycles,
//! eps in [0, 1]).
//!
//! Invariant: a rules policy that compiles to one of the paper's shipped definitions resolves
//! to that built-in kind (same spec, same cache keys, same shards, the built-in's fast path).

use std::collections::BTreeMap;
use std::path::Path;

use super::PolicySection;
use crate::policy::builtin_defs::as_builtin;
use crate::policy::lang::{RuleProgram, parse_condition};
use crate::policy::onnx::{Encoding, OnnxModel};
use crate::policy::{
    DEFAULT_HORIZON, DEFAULT_THRESHOLD, DEFAULT_WORLDS, MAX_HORIZON, MAX_THRESHOLD, MAX_WORLDS,
    PolicyDef, PolicyKind, PolicySpec, Prob, TieBreak, threshold_problem,
};

/// A policy error: the dotted field, what is wrong and what is valid, and (for an error inside
/// a rule's or condition's text) the byte offset in that string.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyDefError {
    /// e.g. `policies.mine.follow[1]`
    pub field: String,
    /// What is wrong and what would be valid.
    pub message: String,
    /// Byte offset inside the field's string value, when the error is in the text.
    pub offset: Option<usize>,
}

fn err(field: String, message: String) -> PolicyDefError {
    PolicyDefError {
        field,
        message,
        offset: None,
    }
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
            return Err(err(
                from_field.unwrap_or("policies").to_string(),
                format!(
                    "unknown policy `{name}`; use a defined policy ({}) or a built-in ({})",
                    defined.join(", "),
                    PolicyKind::builtin_names()
                ),
            ));
        };
        if let Some(pos) = stack.iter().position(|s| s == name) {
            let mut cycle: Vec<&str> = stack[pos..].iter().map(String::as_str).collect();
            cycle.push(name);
            return Err(err(
                from_field.unwrap_or("policies").to_string(),
                format!(
                    "the policies refer to each other in a cycle ({}); a switch or epsilon policy must end in rules or a built-in",
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
        match p.kind {
            PolicyKind::Greedy | PolicyKind::Random => {}
            PolicyKind::Hoarder | PolicyKind::Counter => {
                let t = p.threshold.unwrap_or(DEFAULT_THRESHOLD);
                if let Some(message) = threshold_problem(p.kind, t) {
                    return Err(err(f("threshold"), message));
                }
                spec.threshold = t;
            }
            PolicyKind::Rules => {
                let lead = p.lead.clone().unwrap_or_default();
                let follow = p.follow.clone().unwrap_or_default();
                let prog = RuleProgram::compile(&lead, &follow, tie_break).map_err(|e| {
                    PolicyDefError {
                        field: match e.index {
                            Some(i) => format!("policies.{name}.{}[{i}]", e.list.as_str()),
                            None => format!("policies.{name}.{}", e.list.as_str()),
                        },
                        message: e.error.message.clone(),
                        offset: e.index.map(|_| e.error.at),
                    }
                })?;
                if let Some((kind, t)) = as_builtin(&prog, MAX_THRESHOLD) {
                    spec.kind = kind;
                    spec.threshold = t;
                } else {
                    spec.def = Some(PolicyDef::Rules {
                        lead: prog.lead_rules().map(|r| r.to_string()).collect(),
                        follow: prog.follow_rules().map(|r| r.to_string()).collect(),
                    });
                }
            }
            PolicyKind::Switch => {
                let when_text = p.r#while.as_deref().unwrap_or_default();
                let when = parse_condition(when_text).map_err(|e| PolicyDefError {
                    field: f("while"),
                    message: e.message,
                    offset: Some(e.at),
                })?;
                let play = p.play.as_deref().unwrap_or_default();
                let otherwise = p.otherwise.as_deref().unwrap_or_default();
                let play = self.resolve_in(play, tie, stack, Some(&f("play")))?;
                let otherwise = self.resolve_in(otherwise, tie, stack, Some(&f("otherwise")))?;
                spec.def = Some(PolicyDef::Switch {
                    play: Box::new(play),
                    when: when.to_string(),
                    otherwise: Box::new(otherwise),
                });
            }
            PolicyKind::Epsilon => {
                let eps = p.eps.unwrap_or(f64::NAN);
                if !(0.0..=1.0).contains(&eps) {
                    return Err(err(
                        f("eps"),
                        format!(
                            "{eps} is not a probability; use a number from 0 (never explore) to 1 (always play a uniformly random card), e.g. 0.05"
                        ),
                    ));
                }
                let base = p.base.as_deref().unwrap_or_default();
                let base = self.resolve_in(base, tie, stack, Some(&f("base")))?;
                spec.def = Some(PolicyDef::Epsilon {
                    base: Box::new(base),
                    eps: Prob(eps),
                    moves: p.moves.unwrap_or_default(),
                });
            }
            PolicyKind::Search | PolicyKind::Exploit => {
                let worlds = p.worlds.unwrap_or(DEFAULT_WORLDS);
                if !(1..=MAX_WORLDS).contains(&worlds) {
                    return Err(err(
                        f("worlds"),
                        format!(
                            "{worlds} worlds is out of range; use 1 to {MAX_WORLDS} (the worlds sampled and solved per decision; default {DEFAULT_WORLDS})"
                        ),
                    ));
                }
                let horizon = p.horizon.unwrap_or(DEFAULT_HORIZON);
                if !(1..=MAX_HORIZON).contains(&horizon) {
                    return Err(err(
                        f("horizon"),
                        format!(
                            "{horizon} tricks is out of range; use 1 to {MAX_HORIZON} (tricks searched ahead in each world, {MAX_HORIZON} = to the end; default {DEFAULT_HORIZON})"
                        ),
                    ));
                }
                spec.def = Some(if p.kind == PolicyKind::Exploit {
                    let target = p.target.as_deref().unwrap_or_default();
                    let target = self.resolve_in(target, tie, stack, Some(&f("target")))?;
                    if !target.is_deterministic() {
                        return Err(err(
                            f("target"),
                            format!(
                                "`{}` is a {} policy, which may play differently from the same view; an exploit agent needs a deterministic target: greedy, hoarder, counter, a rules policy without a random rule, an onnx network with sampling = \"argmax\", or a switch between such",
                                target.name,
                                target.kind.as_str()
                            ),
                        ));
                    }
                    PolicyDef::Exploit {
                        target: Box::new(target),
                        worlds,
                        horizon,
                    }
                } else {
                    PolicyDef::Search { worlds, horizon }
                });
            }
            PolicyKind::Onnx => spec.def = Some(self.onnx_def(name, p)?),
        }
        Ok(spec)
    }

    /// An onnx policy's definition: the encoding known, the model loaded (once per process)
    /// and checked against it; its sha256 recorded.
    fn onnx_def(&self, name: &str, p: &PolicySection) -> Result<PolicyDef, PolicyDefError> {
        let f = |field: &str| format!("policies.{name}.{field}");
        let enc_name = p.encoding.as_deref().unwrap_or_default();
        let encoding = Encoding::parse(enc_name).ok_or_else(|| {
            err(
                f("encoding"),
                format!(
                    "unknown encoding `{enc_name}`; use one of: {}",
                    Encoding::names()
                ),
            )
        })?;
        let output = p
            .output
            .clone()
            .unwrap_or_else(|| encoding.default_output().to_string());
        let batch = p.batch.unwrap_or(0);
        if p.batch.is_some() && !(1..=MAX_BATCH).contains(&batch) {
            return Err(err(
                f("batch"),
                format!(
                    "{batch} games is out of range; use 1 (every decision alone) to {MAX_BATCH}, e.g. 64"
                ),
            ));
        }
        let model = p.model.clone().unwrap_or_default();
        let path = self.base_dir.join(&model);
        let net = OnnxModel::shared(&path, encoding, &output).map_err(|e| {
            let field = match e {
                crate::policy::OnnxError::NoNode { .. }
                | crate::policy::OnnxError::OutputShape { .. }
                    if p.output.is_some() =>
                {
                    "output"
                }
                _ => "model",
            };
            err(f(field), e.to_string())
        })?;
        Ok(PolicyDef::Onnx {
            model,
            sha256: net.sha256().to_string(),
            encoding,
            output,
            sampling: p.sampling.unwrap_or_default(),
            batch,
        })
    }
}

/// Largest lockstep block of an onnx policy, in games.
pub const MAX_BATCH: u32 = 4096;

/// The fields each kind takes, for "field X applies to kind Y" errors.
fn check_fields(name: &str, p: &PolicySection) -> Result<(), PolicyDefError> {
    let present: [(&str, bool, &[PolicyKind]); 17] = [
        (
            "threshold",
            p.threshold.is_some(),
            &[PolicyKind::Hoarder, PolicyKind::Counter],
        ),
        ("lead", p.lead.is_some(), &[PolicyKind::Rules]),
        ("follow", p.follow.is_some(), &[PolicyKind::Rules]),
        ("play", p.play.is_some(), &[PolicyKind::Switch]),
        ("while", p.r#while.is_some(), &[PolicyKind::Switch]),
        ("otherwise", p.otherwise.is_some(), &[PolicyKind::Switch]),
        ("base", p.base.is_some(), &[PolicyKind::Epsilon]),
        ("eps", p.eps.is_some(), &[PolicyKind::Epsilon]),
        ("moves", p.moves.is_some(), &[PolicyKind::Epsilon]),
        ("target", p.target.is_some(), &[PolicyKind::Exploit]),
        (
            "worlds",
            p.worlds.is_some(),
            &[PolicyKind::Search, PolicyKind::Exploit],
        ),
        (
            "horizon",
            p.horizon.is_some(),
            &[PolicyKind::Search, PolicyKind::Exploit],
        ),
        ("model", p.model.is_some(), &[PolicyKind::Onnx]),
        ("encoding", p.encoding.is_some(), &[PolicyKind::Onnx]),
        ("output", p.output.is_some(), &[PolicyKind::Onnx]),
        ("sampling", p.sampling.is_some(), &[PolicyKind::Onnx]),
        ("batch", p.batch.is_some(), &[PolicyKind::Onnx]),
    ];
    for (field, set, kinds) in present {
        if set && !kinds.contains(&p.kind) {
            let names: Vec<String> = kinds
                .iter()
                .map(|k| format!("\"{}\"", k.as_str()))
                .collect();
            return Err(err(
                format!("policies.{name}.{field}"),
                format!(
                    "a {} policy has no `{field}`; remove the field (it applies to kind = {})",
                    p.kind.as_str(),
                    names.join(" or ")
                ),
            ));
        }
    }
    let required: &[(&str, bool)] = match p.kind {
        PolicyKind::Rules => &[("lead", p.lead.is_some()), ("follow", p.follow.is_some())],
        PolicyKind::Switch => &[
            ("play", p.play.is_some()),
            ("while", p.r#while.is_some()),
            ("otherwise", p.otherwise.is_some()),
        ],
        PolicyKind::Epsilon => &[("base", p.base.is_some()), ("eps", p.eps.is_some())],
        PolicyKind::Exploit => &[("target", p.target.is_some())],
        PolicyKind::Onnx => &[
            ("model", p.model.is_some()),
            ("encoding", p.encoding.is_some()),
        ],
        _ => &[],
    };
    for (field, set) in required {
        if !set {
            let example = match *field {
                "lead" => "lead = [\"cheapest of !trump\", \"cheapest\"]",
                "follow" => "follow = [\"cheapest-by-points of led-suit & wins\", \"cheapest\"]",
                "play" => "play = \"greedy\"",
                "while" => "while = \"stock > 10\"",
                "otherwise" => "otherwise = \"counter\"",
                "base" => "base = \"greedy\"",
                "target" => "target = \"greedy\"",
                "model" => "model = \"models/briscolabot-v3/briscola-bot-v3.onnx\"",
                "encoding" => "encoding = \"briscolabot-v3\"",
                _ => "eps = 0.05",
            };
            return Err(err(
                format!("policies.{name}"),
                format!(
                    "a {} policy needs `{field}`, e.g. {example}",
                    p.kind.as_str()
                ),
            ));
        }
    }
    Ok(())
}
