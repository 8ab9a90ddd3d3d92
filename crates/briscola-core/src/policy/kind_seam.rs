//! The seam every policy kind implements: what the rest of the crate may ask of a kind beyond
//! its name — its study-file fields and their checks, its behaviour, its description, whether it
//! is deterministic and which tables it can play. Each kind implements [`KindSeam`] in its own
//! file and is registered by one line in [`super::kinds`].
//!
//! Invariant: nothing outside a kind's file matches on that kind to decide how to resolve,
//! build, describe or seat it; those questions go through this trait.

use std::collections::BTreeMap;
use std::path::Path;

use serde::de::DeserializeOwned;

use super::field_value::FieldValue;
use super::policy_def_error::PolicyDefError;
use super::policy_description::Describer;
use super::table_policy::VariantFitError;
use super::{AnyPolicy, Explanation, PolicyBuildError, PolicySpec};
use crate::game::{Policy, Rules, SeatRng, SeatView};

/// One field a kind takes in `[policies.NAME]` (beside `kind`, `tie_break` and `deals_as`,
/// which every kind takes): its config schema, one entry per field.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The key.
    pub name: &'static str,
    /// Whether a section of the kind must give it.
    pub required: bool,
    /// What is valid, with an example ("a probability from 0 to 1, e.g. 0.05"): said with
    /// every error about the field.
    pub valid: &'static str,
}

/// What a policy kind provides. Only [`KindSeam::summary`] and [`KindSeam::build`] have no
/// default: a kind without fields, parameters or randomness needs nothing else.
pub trait KindSeam: Sync {
    /// What the kind is, in a few words (the first line of `briscola policies NAME`).
    fn summary(&self, spec: &PolicySpec) -> String;

    /// The fields its `[policies.NAME]` section takes (a field of no kind's, or of another
    /// kind's, is an error naming the kinds that take it).
    fn fields(&self) -> &'static [Field] {
        &[]
    }

    /// Fill `spec` (the threshold, the definition; a kind may resolve to another, as rules that
    /// are a built-in's do) from the section's fields, with every check; an error names the
    /// field. Runs after the required fields are known present.
    fn resolve(
        &self,
        cx: &mut KindContext<'_>,
        spec: &mut PolicySpec,
    ) -> Result<(), PolicyDefError> {
        let _ = (cx, spec);
        Ok(())
    }

    /// The behaviour of a resolved spec (a hand-edited one may be refused, saying why).
    fn build(&self, spec: &PolicySpec) -> Result<AnyPolicy, PolicyBuildError>;

    /// The lines under the summary: its rules, parameters, or the policies it is built from.
    fn describe(&self, spec: &PolicySpec, d: &mut Describer<'_>) {
        let _ = (spec, d);
    }

    /// Whether its card is a function of its view alone (it never draws from its stream): an
    /// exploit agent's target must be.
    fn is_deterministic(&self, spec: &PolicySpec) -> bool {
        let _ = spec;
        false
    }

    /// Whether its rule ranks cards against a trump suit (a table without one refuses it).
    fn needs_trump(&self) -> bool {
        true
    }

    /// Whether it has a partner-aware reading (four- and six-player tables).
    fn partner_aware(&self) -> bool {
        false
    }

    /// Whether it can play a table of `rules` (beyond the trump and the reading), else why not.
    fn fits(&self, spec: &PolicySpec, rules: &Rules) -> Result<(), VariantFitError> {
        let _ = (spec, rules);
        Ok(())
    }
}

/// A built policy of a kind with no [`AnyPolicy`] variant of its own (dispatched per decision,
/// through [`AnyPolicy::Dyn`]).
pub trait KindPolicy: Policy + std::fmt::Debug + Send + Sync {
    /// [`Policy::choose`], with the reason in words.
    fn explain(&self, view: &SeatView<'_>, rng: &mut SeatRng) -> Explanation;
}

/// The resolver's link for a policy a section names (a switch's branches, an epsilon's base):
/// the name and the dotted field it was written in.
pub type Refer<'r> = dyn FnMut(&str, String) -> Result<PolicySpec, PolicyDefError> + 'r;

/// What a kind's [`KindSeam::resolve`] reads: its section's fields, typed on request, the
/// policies they name, and the study file's directory.
pub struct KindContext<'r> {
    name: &'r str,
    schema: &'static [Field],
    fields: &'r BTreeMap<String, FieldValue>,
    base_dir: &'r Path,
    refer: &'r mut Refer<'r>,
}

impl<'r> KindContext<'r> {
    /// The context of policy `name`'s section `fields`, of a kind taking `schema`.
    pub(super) fn new(
        name: &'r str,
        schema: &'static [Field],
        fields: &'r BTreeMap<String, FieldValue>,
        base_dir: &'r Path,
        refer: &'r mut Refer<'r>,
    ) -> KindContext<'r> {
        KindContext {
            name,
            schema,
            fields,
            base_dir,
            refer,
        }
    }

    /// The policy's name.
    pub fn name(&self) -> &str {
        self.name
    }

    /// The dotted path of one of its fields (`policies.NAME.field`).
    pub fn path(&self, field: &str) -> String {
        format!("policies.{}.{field}", self.name)
    }

    /// An error about `field`.
    pub fn error(&self, field: &str, message: String) -> PolicyDefError {
        PolicyDefError::new(self.path(field), message)
    }

    /// Field `field` as a `T` (`None` when the section does not give it); a value of the
    /// wrong type or range is an error at the value, saying what is valid.
    pub fn get<T: DeserializeOwned>(&self, field: &str) -> Result<Option<T>, PolicyDefError> {
        match self.fields.get(field) {
            None => Ok(None),
            Some(v) => v.read().map(Some).map_err(|m| {
                let message = match self.schema.iter().find(|f| f.name == field) {
                    Some(f) => super::field_value::with_valid(&m, f.valid),
                    None => m,
                };
                PolicyDefError::in_value(self.path(field), message)
            }),
        }
    }

    /// The policy named by the string field `field`, resolved (cycles and unknown names are
    /// errors at that field).
    pub fn policy(&mut self, field: &str) -> Result<PolicySpec, PolicyDefError> {
        let name: String = self.get(field)?.unwrap_or_default();
        let path = self.path(field);
        (self.refer)(&name, path)
    }

    /// The policies named by the list field `field`, resolved in order (`field[i]` in errors).
    pub fn policies(&mut self, field: &str) -> Result<Vec<PolicySpec>, PolicyDefError> {
        let names: Vec<String> = self.get(field)?.unwrap_or_default();
        let mut out = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            let path = format!("{}[{i}]", self.path(field));
            out.push((self.refer)(name, path)?);
        }
        Ok(out)
    }

    /// The study file's directory (files a section names are relative to it).
    pub fn base_dir(&self) -> &Path {
        self.base_dir
    }
}
