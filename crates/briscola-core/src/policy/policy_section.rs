//! `[policies.NAME]`: one policy definition as the study file spells it, every kind's fields
//! side by side (the resolver, [`super::PolicyResolver`], checks that a section holds only its
//! kind's fields).
//!
//! Invariant: unknown fields are refused at parse time (`deny_unknown_fields`).

use serde::{Deserialize, Serialize};

use super::{PolicyKind, TieBreak};

/// `[policies.NAME]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PolicySection {
    /// Which rule.
    pub kind: PolicyKind,
    /// Overtrump threshold (hoarder, counter). Defaults to 10.
    #[serde(default)]
    pub threshold: Option<u8>,
    /// Tie-break reading. Defaults to as-released.
    #[serde(default)]
    pub tie_break: Option<TieBreak>,
    /// kind = "rules": the lead rules (see `crate::policy::lang`).
    #[serde(default)]
    pub lead: Option<Vec<String>>,
    /// kind = "rules": the follow rules.
    #[serde(default)]
    pub follow: Option<Vec<String>>,
    /// kind = "switch": the policy played while `while` holds.
    #[serde(default)]
    pub play: Option<String>,
    /// kind = "switch": the condition.
    #[serde(default, rename = "while")]
    pub r#while: Option<String>,
    /// kind = "switch": the policy played otherwise.
    #[serde(default)]
    pub otherwise: Option<String>,
    /// kind = "epsilon": the base policy.
    #[serde(default)]
    pub base: Option<String>,
    /// kind = "epsilon": the exploration probability, in [0, 1].
    #[serde(default)]
    pub eps: Option<f64>,
    /// kind = "epsilon": which moves may explore ("lead", the default, or "all").
    #[serde(default)]
    pub moves: Option<super::EpsMoves>,
    /// kind = "exploit": the deterministic policy it knows and exploits (e.g. "greedy").
    #[serde(default)]
    pub target: Option<String>,
    /// kind = "search" or "exploit": worlds sampled per decision (1 to 100,000; default 16).
    #[serde(default)]
    pub worlds: Option<u32>,
    /// kind = "search" or "exploit": tricks searched ahead in each world (1 to 20; default 4).
    #[serde(default)]
    pub horizon: Option<u8>,
    /// kind = "onnx": the model file, relative to the study file's directory.
    #[serde(default)]
    pub model: Option<String>,
    /// kind = "onnx": the observation encoding's name (e.g. "briscolabot-v3").
    #[serde(default)]
    pub encoding: Option<String>,
    /// kind = "onnx": the node whose output is the card scores, logits before any softmax
    /// (default: the encoding's, "/Where_output_0" for briscolabot-v3).
    #[serde(default)]
    pub output: Option<String>,
    /// kind = "onnx": "argmax" (the default) or "sample" (from the seat's stream).
    #[serde(default)]
    pub sampling: Option<super::Sampling>,
    /// kind = "onnx": games per lockstep block, each block's decisions one batch (default 64;
    /// 1 evaluates every decision alone). Never changes a decision.
    #[serde(default)]
    pub batch: Option<u32>,
    /// Key this policy's chacha deals and seat streams by another policy's name (e.g. an
    /// epsilon policy by its base's), so it plays exactly the deals of its twin: common random
    /// numbers.
    #[serde(default)]
    pub deals_as: Option<String>,
}
