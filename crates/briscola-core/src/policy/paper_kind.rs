//! The seam of the paper's three kinds, `greedy`, `hoarder` and `counter` (Definitions 1-3):
//! one implementation, since they differ only in their rules (the shipped definitions) and in
//! the overtrump threshold the last two take.
//!
//! Invariant: a paper kind's spec has no definition (its rules are the shipped ones, filled in
//! from its kind and threshold), so its serialised form, and its keys, are the paper's.

use super::builtin_defs::builtin_program;
use super::{
    AnyPolicy, Counter, DEFAULT_THRESHOLD, Describer, Field, Greedy, Hoarder, KindContext,
    KindSeam, MAX_THRESHOLD, PolicyBuildError, PolicyDefError, PolicyKind, PolicySpec,
    threshold_problem,
};

/// The seam of one of the paper's kinds.
pub(super) struct PaperKind(PolicyKind);

impl PaperKind {
    /// Definition 1.
    pub(super) const GREEDY: PaperKind = PaperKind(PolicyKind::Greedy);
    /// Definition 2.
    pub(super) const HOARDER: PaperKind = PaperKind(PolicyKind::Hoarder);
    /// Definition 3.
    pub(super) const COUNTER: PaperKind = PaperKind(PolicyKind::Counter);
}

/// Hoarder's and counter's one field.
const THRESHOLD: [Field; 1] = [Field {
    name: "threshold",
    required: false,
    valid: "a whole number of points from 0 to 22 (hoarder and counter only)",
}];

impl KindSeam for PaperKind {
    fn summary(&self, spec: &PolicySpec) -> String {
        match self.0 {
            PolicyKind::Greedy => "built-in greedy (Definition 1)".into(),
            PolicyKind::Hoarder => {
                format!(
                    "built-in hoarder (Definition 2), threshold {}",
                    spec.threshold
                )
            }
            _ => format!(
                "built-in counter (Definition 3), threshold {}",
                spec.threshold
            ),
        }
    }

    fn fields(&self) -> &'static [Field] {
        match self.0 {
            PolicyKind::Greedy => &[],
            _ => &THRESHOLD,
        }
    }

    /// `threshold` (default [`DEFAULT_THRESHOLD`]), checked for the kind; greedy has none.
    fn resolve(
        &self,
        cx: &mut KindContext<'_>,
        spec: &mut PolicySpec,
    ) -> Result<(), PolicyDefError> {
        if self.0 == PolicyKind::Greedy {
            return Ok(());
        }
        let t = cx.get::<u8>("threshold")?.unwrap_or(DEFAULT_THRESHOLD);
        if let Some(message) = threshold_problem(spec.kind, t) {
            return Err(cx.error("threshold", message));
        }
        spec.threshold = t;
        Ok(())
    }

    /// A threshold out of range (e.g. from an edited record) is refused, not played.
    fn build(&self, spec: &PolicySpec) -> Result<AnyPolicy, PolicyBuildError> {
        if self.0 != PolicyKind::Greedy && spec.threshold > MAX_THRESHOLD {
            return Err(PolicyBuildError::new(
                spec,
                format!(
                    "threshold {}",
                    threshold_problem(spec.kind, spec.threshold).unwrap_or_default()
                ),
            ));
        }
        let (t, tie) = (spec.threshold, spec.tie_break);
        Ok(match self.0 {
            PolicyKind::Greedy => AnyPolicy::Greedy(Greedy::new(tie)),
            PolicyKind::Hoarder => AnyPolicy::Hoarder(Hoarder::new(t, tie)),
            _ => AnyPolicy::Counter(Counter::new(t, tie)),
        })
    }

    fn describe(&self, spec: &PolicySpec, d: &mut Describer<'_>) {
        d.program(builtin_program(self.0, spec.threshold, spec.tie_break));
    }

    fn is_deterministic(&self, _: &PolicySpec) -> bool {
        true
    }

    fn partner_aware(&self) -> bool {
        true
    }
}
