//! Policies driven by a neural network in an ONNX file (BriscolaBot-v3 first): the named
//! observation encodings, the model loaded once per process with `tract-onnx`, the sampling
//! rule and the policy itself. Batching across games is the tournament's (lockstep blocks);
//! this module evaluates whatever rows it is given.
//!
//! Invariant: a network decision depends only on the seat's view, the model file's bytes (its
//! sha256 is in the policy's spec, so in every cache key) and the seat's own stream.

mod encoding;
mod onnx_model;
mod onnx_policy;
mod sampling;

pub use encoding::{CARDS, Encoding};
pub use onnx_model::{OnnxError, OnnxModel, sha256_hex};
pub use onnx_policy::{DEFAULT_BATCH, OnnxPolicy};
pub use sampling::Sampling;
