//! [`OnnxError`]: every way a policy network cannot be used (a file that cannot be read or
//! parsed, a graph of the wrong shape for its encoding, a build without the ONNX runtime),
//! shared by the model loader and both runtimes.
//!
//! Invariant: every variant names the model file and says what would be valid.

use std::path::PathBuf;

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
    /// The model's scores on a first position are not all numbers (NaN weights, or a graph
    /// that divides by zero): its cards would be chosen by hand order, not by the network.
    #[error(
        "the model {path} gives {bad} of its {total} scores at `{node}` as NaN on the first position of a game; a policy network must give a number for every card (check the exported weights for NaN)"
    )]
    NotANumber {
        /// The file.
        path: PathBuf,
        /// The node.
        node: String,
        /// Scores that are NaN.
        bad: usize,
        /// Scores in the row.
        total: usize,
    },
    /// This build of the core crate has no ONNX runtime (its `onnx` feature is off).
    #[error(
        "the model {path} cannot be run: this build of briscola has no ONNX runtime (build briscola-core with its `onnx` feature, as the `briscola` binary is)"
    )]
    NoRuntime {
        /// The file.
        path: PathBuf,
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
