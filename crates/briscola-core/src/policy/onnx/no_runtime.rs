//! The stand-in for the ONNX runtime when the crate's `onnx` feature is off: loading any model
//! is an error that says so.
//!
//! Invariant: no [`Plan`] value can exist, so nothing can run a network in such a build.

use std::path::Path;

use super::encoding::Encoding;
use super::onnx_error::OnnxError;

/// No plan can be made without a runtime (an uninhabited type).
pub(super) enum Plan {}

impl Plan {
    /// Always [`OnnxError::NoRuntime`].
    pub(super) fn load(
        path: &Path,
        _bytes: &[u8],
        _encoding: Encoding,
        _output: &str,
    ) -> Result<Plan, OnnxError> {
        Err(OnnxError::NoRuntime {
            path: path.to_path_buf(),
        })
    }

    /// Unreachable: there is no plan to run.
    pub(super) fn run(
        &self,
        _inputs: &[f32],
        _rows: usize,
        _input_len: usize,
    ) -> Result<(Vec<f32>, Vec<usize>), String> {
        match *self {}
    }
}
