//! What a policy written as data is: rules, a switch between two policies, a policy with an
//! exploration probability, an agent's or a network's parameters, or a newer kind's named
//! parameters; the serialisable part of a [`super::PolicySpec`] (it enters cache keys and
//! `shard.json`).
//!
//! Invariant: rules are stored in their canonical printed form, so two spellings of the same
//! rules (spacing, `non-trump` vs `!trump`) have the same spec, cache keys and shards.

use serde::{Deserialize, Serialize};

use super::PolicySpec;
use super::epsilon::EpsMoves;
use super::onnx::{Encoding, OnnxError, OnnxModel, OnnxPolicy, Sampling};

/// A probability in [0, 1], compared and hashed by its bits (so a spec can be a map key).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Prob(pub f64);

impl Eq for Prob {}

impl std::hash::Hash for Prob {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.to_bits().hash(h)
    }
}

/// The definition of a data-defined policy.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyDef {
    /// Ordered rules for leading and following (canonical text).
    Rules {
        /// Lead rules.
        lead: Vec<String>,
        /// Follow rules.
        follow: Vec<String>,
    },
    /// `play` while `when` holds, else `otherwise`.
    Switch {
        /// The policy played while the condition holds.
        play: Box<PolicySpec>,
        /// The condition (canonical text).
        when: String,
        /// The policy played otherwise.
        otherwise: Box<PolicySpec>,
    },
    /// `base`, exploring with probability `eps` on `moves`.
    Epsilon {
        /// The base policy.
        base: Box<PolicySpec>,
        /// Exploration probability.
        eps: Prob,
        /// Which moves may explore.
        moves: EpsMoves,
    },
    /// The search agent's parameters.
    Search {
        /// Worlds sampled per decision.
        worlds: u32,
        /// Tricks searched ahead in each world.
        horizon: u8,
    },
    /// The exploit agent's target and search parameters.
    Exploit {
        /// The policy it knows and plays against (deterministic).
        target: Box<PolicySpec>,
        /// Worlds sampled per decision.
        worlds: u32,
        /// Tricks searched ahead in each world.
        horizon: u8,
    },
    /// A policy network in an ONNX file.
    Onnx {
        /// The model file as written in the study file (relative to its directory).
        model: String,
        /// The model file's sha256 (hex): the network itself, in every cache key.
        sha256: String,
        /// The named observation encoding.
        encoding: Encoding,
        /// The node whose output is the card scores (logits).
        output: String,
        /// How the scores pick a card.
        sampling: Sampling,
        /// Games per lockstep block (0: the default). It never changes a decision, so it is
        /// left out of the JSON (and the cache key) unless set.
        #[serde(default, skip_serializing_if = "is_zero")]
        batch: u32,
    },
    /// A registered kind's parameters, for a kind without a variant of its own above (those
    /// predate the kind seam; their serialised forms are in every existing key).
    Params(super::KindParams),
}

fn is_zero(b: &u32) -> bool {
    *b == 0
}

impl PolicyDef {
    /// The network policy of an `Onnx` definition: its model from the process's store (loaded
    /// when the study file was read), else from the `model` path (relative to the working
    /// directory) if that file has the recorded sha256.
    ///
    /// # Panics
    /// If called on another kind of definition.
    pub fn onnx_policy(&self) -> Result<OnnxPolicy, OnnxError> {
        let PolicyDef::Onnx {
            model,
            sha256,
            encoding,
            output,
            sampling,
            batch,
        } = self
        else {
            panic!("onnx_policy on a {self:?}");
        };
        let net = match OnnxModel::by_sha256(sha256, *encoding, output) {
            Some(m) => m,
            None => {
                let m = OnnxModel::shared(std::path::Path::new(model), *encoding, output)?;
                if m.sha256() != sha256 {
                    return Err(OnnxError::Read {
                        path: model.into(),
                        message: format!(
                            "its sha256 is {}, but the policy was defined with the file of sha256 {sha256}",
                            m.sha256()
                        ),
                    });
                }
                m
            }
        };
        let batch = if *batch == 0 {
            super::onnx::DEFAULT_BATCH
        } else {
            *batch
        };
        Ok(OnnxPolicy::new(net, *sampling, batch))
    }
}
