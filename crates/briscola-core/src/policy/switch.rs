//! `switch`: play one policy while a condition on the public state holds, another otherwise
//! (e.g. greedy while the stock is large, counter once it runs low).
//!
//! Invariant: the condition reads only the seat's view and is consulted afresh at every move;
//! the switch adds no randomness of its own (each branch draws from the seat's stream as it
//! would alone).

use super::lang::Condition;
use super::{AnyPolicy, Explanation};
use crate::game::{Policy, SeatRng, SeatView};

/// Plays `first` while `when` holds, else `otherwise`.
#[derive(Clone, Debug)]
pub struct Switch {
    when: Condition,
    memory: bool,
    first: AnyPolicy,
    otherwise: AnyPolicy,
}

impl Switch {
    /// A switch between two built policies.
    pub fn new(when: Condition, first: AnyPolicy, otherwise: AnyPolicy) -> Switch {
        Switch {
            memory: when.needs_memory(),
            when,
            first,
            otherwise,
        }
    }
}

impl Switch {
    /// [`Policy::choose`], saying which branch played and why that branch chose its card.
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let holds = self.when.holds_in(v, self.memory);
        let (branch, inner) = if holds {
            ("first", self.first.explain(v, rng))
        } else {
            ("otherwise", self.otherwise.explain(v, rng))
        };
        Explanation {
            because: format!(
                "switch: `{}` {}, so the {branch} policy plays; {}",
                self.when,
                if holds { "holds" } else { "does not hold" },
                inner.line()
            ),
            rule: None,
            ..inner
        }
    }
}

impl Policy for Switch {
    #[inline]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        if self.when.holds_in(v, self.memory) {
            self.first.choose(v, rng)
        } else {
            self.otherwise.choose(v, rng)
        }
    }
}

/// The `switch` kind's seam: `play` while `while` holds, else `otherwise`.
pub(super) struct SwitchKind;

const FIELDS: [super::Field; 3] = [
    super::Field {
        name: "play",
        required: true,
        valid: "the name of a policy, e.g. \"greedy\"",
    },
    super::Field {
        name: "while",
        required: true,
        valid: "a condition, e.g. \"stock > 10\"",
    },
    super::Field {
        name: "otherwise",
        required: true,
        valid: "the name of a policy, e.g. \"counter\"",
    },
];

impl super::KindSeam for SwitchKind {
    fn summary(&self, _: &super::PolicySpec) -> String {
        "switch".into()
    }

    fn fields(&self) -> &'static [super::Field] {
        &FIELDS
    }

    fn resolve(
        &self,
        cx: &mut super::KindContext<'_>,
        spec: &mut super::PolicySpec,
    ) -> Result<(), super::PolicyDefError> {
        let text: String = cx.get("while")?.unwrap_or_default();
        let when = super::lang::parse_condition(&text)
            .map_err(|e| super::PolicyDefError::in_text(cx.path("while"), e.message, e.at))?;
        let play = cx.policy("play")?;
        let otherwise = cx.policy("otherwise")?;
        spec.def = Some(super::PolicyDef::Switch {
            play: Box::new(play),
            when: when.to_string(),
            otherwise: Box::new(otherwise),
        });
        Ok(())
    }

    fn build(&self, spec: &super::PolicySpec) -> Result<AnyPolicy, super::PolicyBuildError> {
        let Some(super::PolicyDef::Switch {
            play,
            when,
            otherwise,
        }) = &spec.def
        else {
            return Err(super::PolicyBuildError::missing_def(spec));
        };
        let when = super::lang::parse_condition(when)
            .map_err(|e| super::PolicyBuildError::new(spec, e.to_string()))?;
        Ok(AnyPolicy::Switch(std::sync::Arc::new(Switch::new(
            when,
            play.try_build()?,
            otherwise.try_build()?,
        ))))
    }

    fn describe(&self, spec: &super::PolicySpec, d: &mut super::Describer<'_>) {
        if let Some(super::PolicyDef::Switch {
            play,
            when,
            otherwise,
        }) = &spec.def
        {
            let when = super::lang::parse_condition(when)
                .map_or_else(|e| e.to_string(), |c| c.to_string());
            d.line(&format!("while {when}:"));
            d.policy(play);
            d.line("otherwise:");
            d.policy(otherwise);
        }
    }

    fn is_deterministic(&self, spec: &super::PolicySpec) -> bool {
        matches!(&spec.def, Some(super::PolicyDef::Switch { play, otherwise, .. })
            if play.is_deterministic() && otherwise.is_deterministic())
    }

    /// Both branches play at the table, so both must fit it.
    fn fits(
        &self,
        spec: &super::PolicySpec,
        rules: &crate::game::Rules,
    ) -> Result<(), super::VariantFitError> {
        if let Some(super::PolicyDef::Switch {
            play, otherwise, ..
        }) = &spec.def
        {
            play.kind.seam().fits(play, rules)?;
            otherwise.kind.seam().fits(otherwise, rules)?;
        }
        Ok(())
    }
}
