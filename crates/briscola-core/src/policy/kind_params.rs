//! The parameters of a kind that has no [`super::PolicyDef`] variant of its own: named values
//! (numbers, texts, the policies it is built from), stored in the spec as
//! `{"params": {...}}`, so they enter its cache keys and `shard.json` like any definition.
//!
//! Invariant: parameters are kept in name order and numbers compare and hash by their bits, so
//! one definition has one serialised form (one key).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{PolicySpec, Prob};

/// One parameter's value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Param {
    /// A whole number.
    Whole(i64),
    /// A number.
    Number(Prob),
    /// A text (canonical, e.g. a condition's printed form).
    Text(String),
    /// Numbers (e.g. weights).
    Numbers(Vec<Prob>),
    /// The policies it is built from, fully specified.
    Policies(Vec<PolicySpec>),
}

/// A kind's parameters by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KindParams(pub BTreeMap<String, Param>);

impl KindParams {
    /// Parameter `name`.
    pub fn get(&self, name: &str) -> Option<&Param> {
        self.0.get(name)
    }

    /// Set parameter `name`.
    pub fn with(mut self, name: &str, value: Param) -> KindParams {
        self.0.insert(name.to_string(), value);
        self
    }
}
