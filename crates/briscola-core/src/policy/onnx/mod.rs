//! Policies driven by a neural network in an ONNX file (BriscolaBot-v3 first): the named
//! observation encodings, the model loaded once per process with `tract-onnx`
//! (behind the crate's `onnx` feature; without it, loading a model is an error that says so), the sampling
//! rule and the policy itself. Batching across games is the tournament's (lockstep blocks);
//! this module evaluates whatever rows it is given.
//!
//! Invariant: a network decision depends only on the seat's view, the model file's bytes (its
//! sha256 is in the policy's spec, so in every cache key) and the seat's own stream.

mod encoding;
#[cfg(not(feature = "onnx"))]
mod no_runtime;
mod onnx_error;
mod onnx_kind;
mod onnx_model;
mod onnx_policy;
mod sampling;
#[cfg(feature = "onnx")]
mod tract_runtime;

pub use encoding::{CARDS, Encoding, V1_OBS, encode_v1};
pub use onnx_kind::MAX_BATCH;
pub(crate) use onnx_kind::OnnxKind;
pub use onnx_model::{OnnxError, OnnxModel, sha256_hex};
pub use onnx_policy::{DEFAULT_BATCH, OnnxPolicy};
pub use sampling::Sampling;
