//! The `rules` kind's seam: a policy written in the policy language (`lead` and `follow` rule
//! lists), compiled at resolve time and stored in canonical form.
//!
//! Invariant: rules that compile to one of the paper's shipped definitions resolve to that
//! built-in kind (same spec, same cache keys, same shards, the built-in's fast path).

use std::sync::Arc;

use super::{Order, RuleProgram};
use crate::policy::builtin_defs::as_builtin;
use crate::policy::{
    AnyPolicy, Describer, Field, KindContext, KindSeam, MAX_THRESHOLD, PolicyBuildError, PolicyDef,
    PolicyDefError, PolicySpec,
};

/// The `rules` kind's seam.
pub(crate) struct RulesKind;

const FIELDS: [Field; 2] = [
    Field {
        name: "lead",
        required: true,
        valid: "a list of rules, e.g. [\"cheapest of !trump\", \"cheapest\"] (see `briscola policies --language`)",
    },
    Field {
        name: "follow",
        required: true,
        valid: "a list of rules, e.g. [\"cheapest-by-points of led-suit & wins\", \"cheapest\"]",
    },
];

/// A rules spec's program, compiled under its tie-break reading.
fn program(spec: &PolicySpec) -> Option<Result<RuleProgram, PolicyBuildError>> {
    let Some(PolicyDef::Rules { lead, follow }) = &spec.def else {
        return None;
    };
    Some(
        RuleProgram::compile(lead, follow, spec.tie_break).map_err(|e| {
            PolicyBuildError::new(
                spec,
                format!(
                    "{} rule {}: {}",
                    e.list.as_str(),
                    e.index.map_or(0, |i| i + 1),
                    e.error
                ),
            )
        }),
    )
}

impl KindSeam for RulesKind {
    fn summary(&self, _: &PolicySpec) -> String {
        "rules".into()
    }

    fn fields(&self) -> &'static [Field] {
        &FIELDS
    }

    fn resolve(
        &self,
        cx: &mut KindContext<'_>,
        spec: &mut PolicySpec,
    ) -> Result<(), PolicyDefError> {
        let lead: Vec<String> = cx.get("lead")?.unwrap_or_default();
        let follow: Vec<String> = cx.get("follow")?.unwrap_or_default();
        let prog = RuleProgram::compile(&lead, &follow, spec.tie_break).map_err(|e| {
            let message = e.error.message.clone();
            match e.index {
                Some(i) => PolicyDefError::in_text(
                    format!("{}[{i}]", cx.path(e.list.as_str())),
                    message,
                    e.error.at,
                ),
                None => PolicyDefError::new(cx.path(e.list.as_str()), message),
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
        Ok(())
    }

    fn build(&self, spec: &PolicySpec) -> Result<AnyPolicy, PolicyBuildError> {
        let prog = program(spec).ok_or_else(|| PolicyBuildError::missing_def(spec))??;
        Ok(AnyPolicy::Rules(Arc::new(prog)))
    }

    fn describe(&self, spec: &PolicySpec, d: &mut Describer<'_>) {
        d.program(program(spec).and_then(Result::ok));
    }

    fn is_deterministic(&self, spec: &PolicySpec) -> bool {
        program(spec).and_then(Result::ok).is_some_and(|p| {
            !p.lead_rules()
                .chain(p.follow_rules())
                .any(|r| r.order == Order::Random)
        })
    }
}
