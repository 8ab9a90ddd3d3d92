//! A policy network loaded from an ONNX file with the pure-Rust runtime `tract-onnx`: cut at a
//! named node (e.g. BriscolaBot-v3's masked logits `/Where_output_0`, before its in-graph softmax
//! and sampler), given a
//! symbolic batch dimension, optimised once and shared by every thread of the process.
//!
//! Invariant: a loaded [`OnnxModel`] has been checked to take `[N, input_len]` float inputs and
//! give `[N, 40]` outputs (a score, or logit, per card id) for its encoding; each row of a batch is
//! computed from that row's input only (tested: a row's output does not depend on the batch
//! it shares, bit for bit). A file is parsed once per process (the store is keyed by the file's
//! sha256, the encoding and the cut).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use sha2::{Digest, Sha256};
use tract_onnx::prelude::*;
use tract_onnx::tract_hir::infer::Factoid;
use tract_onnx::tract_hir::internal::DimLike;

use super::encoding::Encoding;

/// Why a model cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OnnxError {
    /// The file cannot be read.
    #[error("cannot read the model file {path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// The file is not an ONNX model the runtime can load.
    #[error(
        "{path} is not an ONNX model the runtime can load ({message}); give the path of a .onnx file exported with opset 9 or later"
    )]
    NotOnnx {
        /// The file.
        path: PathBuf,
        /// The runtime's reason.
        message: String,
    },
    /// The node to cut the graph at does not exist.
    #[error(
        "the model {path} has no node `{node}` to take the policy's output from; name the node whose output is the score (logit) of each card (e.g. output = \"/Where_output_0\")"
    )]
    NoNode {
        /// The file.
        path: PathBuf,
        /// The node.
        node: String,
    },
    /// The model's input does not fit the encoding.
    #[error(
        "the model {path} takes an input of shape {found}, but encoding `{encoding}` gives {want} values per observation; use a model trained on that encoding or the encoding the model was trained on ({valid})"
    )]
    InputShape {
        /// The file.
        path: PathBuf,
        /// The model's declared input.
        found: String,
        /// The encoding.
        encoding: &'static str,
        /// Values per observation of the encoding.
        want: usize,
        /// Known encodings.
        valid: String,
    },
    /// The model's output (at the cut) is not one value per card.
    #[error(
        "the model {path} gives an output of shape {found} at `{node}`; a policy network must give one score (logit) per card ([N, 40])"
    )]
    OutputShape {
        /// The file.
        path: PathBuf,
        /// The node.
        node: String,
        /// The output's shape.
        found: String,
    },
    /// The runtime failed to prepare or run the graph.
    #[error("the model {path} cannot be run: {message}")]
    Run {
        /// The file.
        path: PathBuf,
        /// The runtime's reason.
        message: String,
    },
}

/// A loaded, optimised network.
pub struct OnnxModel {
    plan: Arc<TypedRunnableModel>,
    encoding: Encoding,
    sha256: String,
    path: PathBuf,
}

impl std::fmt::Debug for OnnxModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxModel")
            .field("path", &self.path)
            .field("sha256", &self.sha256)
            .field("encoding", &self.encoding)
            .finish()
    }
}

type StoreKey = (String, Encoding, String);

fn store() -> &'static Mutex<HashMap<StoreKey, Arc<OnnxModel>>> {
    static STORE: OnceLock<Mutex<HashMap<StoreKey, Arc<OnnxModel>>>> = OnceLock::new();
    STORE.get_or_init(Default::default)
}

/// The hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

impl OnnxModel {
    /// The model in `path` for `encoding`, cut at node `output`: from the process's store if
    /// this file (by content) was loaded before, else parsed, checked and stored.
    pub fn shared(
        path: &Path,
        encoding: Encoding,
        output: &str,
    ) -> Result<Arc<OnnxModel>, OnnxError> {
        let bytes = std::fs::read(path).map_err(|e| OnnxError::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let sha = sha256_hex(&bytes);
        let key = (sha.clone(), encoding, output.to_string());
        if let Some(m) = Self::stored(&key) {
            return Ok(m);
        }
        let m = Arc::new(Self::load(path, &bytes, sha, encoding, output)?);
        let mut s = store().lock().unwrap_or_else(|e| e.into_inner());
        Ok(s.entry(key).or_insert(m).clone())
    }

    /// A model loaded before in this process, by its file's sha256.
    pub fn by_sha256(sha256: &str, encoding: Encoding, output: &str) -> Option<Arc<OnnxModel>> {
        Self::stored(&(sha256.to_string(), encoding, output.to_string()))
    }

    fn stored(key: &StoreKey) -> Option<Arc<OnnxModel>> {
        let s = store().lock().unwrap_or_else(|e| e.into_inner());
        s.get(key).cloned()
    }

    fn load(
        path: &Path,
        bytes: &[u8],
        sha256: String,
        encoding: Encoding,
        output: &str,
    ) -> Result<OnnxModel, OnnxError> {
        let p = || path.to_path_buf();
        let mut model = tract_onnx::onnx()
            .model_for_read(&mut &bytes[..])
            .map_err(|e| OnnxError::NotOnnx {
                path: p(),
                message: first_line(&e),
            })?;
        check_input(&model, path, encoding)?;
        model
            .select_outputs_by_name([output])
            .map_err(|_| OnnxError::NoNode {
                path: p(),
                node: output.to_string(),
            })?;
        let run_err = |e: TractError| OnnxError::Run {
            path: p(),
            message: first_line(&e),
        };
        // Drop every node the cut leaves unused (BriscolaBot-v3's in-graph sampler reshapes to a
        // batch of 1, which a symbolic batch cannot pass).
        let model = model.into_compact().map_err(run_err)?;
        let n = model.sym("N");
        let model = model
            .with_input_fact(
                0,
                f32::fact(tract_onnx::tract_core::dims!(n, encoding.input_len())).into(),
            )
            .map_err(run_err)?;
        let plan = model
            .into_optimized()
            .and_then(|m| m.into_runnable())
            .map_err(run_err)?;
        let m = OnnxModel {
            plan,
            encoding,
            sha256,
            path: p(),
        };
        // One row of zeros must give one row of 40 outputs.
        let probe = m
            .run_raw(&vec![0.0; encoding.input_len()], 1)
            .map_err(run_err)?;
        if probe.1 != [1, encoding.output_len()] {
            return Err(OnnxError::OutputShape {
                path: p(),
                node: output.to_string(),
                found: format!("{:?}", probe.1),
            });
        }
        Ok(m)
    }

    /// The file's sha256 (hex).
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The encoding the model was checked against.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The outputs for `rows` observations laid end to end in `inputs` (each
    /// `encoding.input_len()` values): `rows * 40` values, row by row.
    ///
    /// # Panics
    /// If the runtime fails on an input of the checked shape (the model ran on one at load).
    pub fn run(&self, inputs: &[f32], rows: usize) -> Vec<f32> {
        match self.run_raw(inputs, rows) {
            Ok((out, _)) => out,
            Err(e) => panic!(
                "model {} failed on a {rows}-row batch: {e}",
                self.path.display()
            ),
        }
    }

    fn run_raw(&self, inputs: &[f32], rows: usize) -> TractResult<(Vec<f32>, Vec<usize>)> {
        let t = Tensor::from_shape(&[rows, self.encoding.input_len()], inputs)?;
        let out = self.plan.run(tvec!(t.into()))?;
        let view = out[0].to_plain_array_view::<f32>()?;
        Ok((view.iter().copied().collect(), view.shape().to_vec()))
    }
}

/// The first line of a runtime error (its chain can run to pages).
fn first_line(e: &TractError) -> String {
    e.to_string().lines().next().unwrap_or_default().to_string()
}

/// The model's declared input must be 2-D with `input_len` values per row (any batch).
fn check_input(model: &InferenceModel, path: &Path, encoding: Encoding) -> Result<(), OnnxError> {
    let bad = |found: String| OnnxError::InputShape {
        path: path.to_path_buf(),
        found,
        encoding: encoding.as_str(),
        want: encoding.input_len(),
        valid: Encoding::names(),
    };
    let Ok(fact) = model.input_fact(0) else {
        return Err(bad("(no input)".into()));
    };
    let dims: Vec<Option<usize>> = fact
        .shape
        .dims()
        .map(|d| d.concretize().and_then(|d| d.to_usize().ok()))
        .collect();
    let text = format!(
        "[{}]",
        dims.iter()
            .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    match dims.as_slice() {
        [_, Some(n)] if *n == encoding.input_len() => Ok(()),
        _ => Err(bad(text)),
    }
}
