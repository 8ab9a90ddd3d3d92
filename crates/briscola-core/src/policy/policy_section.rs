//! `[policies.NAME]`: one policy definition as the study file spells it: its kind, the two
//! fields every kind takes (`tie_break`, `deals_as`), and the kind's own fields as written,
//! which the kind reads and checks itself ([`super::KindSeam::fields`], through the resolver).
//!
//! Invariant: a field that is not the kind's is refused by the resolver with the kinds that
//! take it named ([`super::PolicyResolver::check_all`]), before any study uses the policy.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{FieldValue, PolicyKind, TieBreak};

/// `[policies.NAME]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PolicySection {
    /// Which kind of policy (its seam reads the rest).
    pub kind: PolicyKind,
    /// Tie-break reading. Defaults to as-released.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_break: Option<TieBreak>,
    /// Key this policy's chacha deals and seat streams by another policy's name (e.g. an
    /// epsilon policy by its base's), so it plays exactly the deals of its twin: common random
    /// numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals_as: Option<String>,
    /// The kind's own fields (e.g. `threshold`, `lead`, `worlds`), as written.
    #[serde(flatten)]
    pub fields: BTreeMap<String, FieldValue>,
}
