//! The ONNX runtime behind the crate's `onnx` feature: a model file parsed, cut at a named
//! node, given a symbolic batch dimension and optimised once with `tract-onnx`.
//!
//! Invariant: a [`Plan`] that loaded takes `[N, input_len]` float inputs and gave `[1, 40]`
//! outputs, none NaN, on a probe observation; every tract type stays inside this file.

use std::path::Path;
use std::sync::Arc;

use tract_onnx::prelude::*;
use tract_onnx::tract_hir::infer::Factoid;
use tract_onnx::tract_hir::internal::DimLike;

use super::encoding::Encoding;
use super::onnx_error::OnnxError;
use crate::game::{Deck, Rules, TableState};

/// The first seat's observation before the first card of the standard game on the ordered
/// deck, in `encoding` (a real position: a row of zeros has no card in hand, and a graph that
/// normalises by its mask would give NaN there and numbers in play).
fn first_observation(encoding: Encoding) -> Vec<f32> {
    let state = TableState::new(&Rules::default(), &Deck::ordered());
    let mut row = vec![0.0; encoding.input_len()];
    if let Some(view) = state.view() {
        encoding.encode(&view, &mut row);
    }
    row
}

/// A loaded, optimised graph.
pub(super) struct Plan(Arc<TypedRunnableModel>);

impl Plan {
    /// Parse `bytes` (the file at `path`), check its input against `encoding`, cut it at
    /// `output`, optimise it and probe it with one real observation.
    pub(super) fn load(
        path: &Path,
        bytes: &[u8],
        encoding: Encoding,
        output: &str,
    ) -> Result<Plan, OnnxError> {
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
        let plan = Plan(
            model
                .into_optimized()
                .and_then(|m| m.into_runnable())
                .map_err(run_err)?,
        );
        // A real observation (the first seat's first decision on the ordered deck) must give
        // one row of 40 outputs, numbers all.
        let probe = plan
            .run(&first_observation(encoding), 1, encoding.input_len())
            .map_err(|message| OnnxError::Run { path: p(), message })?;
        if probe.1 != [1, encoding.output_len()] {
            return Err(OnnxError::OutputShape {
                path: p(),
                node: output.to_string(),
                found: format!("{:?}", probe.1),
            });
        }
        let bad = probe.0.iter().filter(|x| x.is_nan()).count();
        if bad > 0 {
            return Err(OnnxError::NotANumber {
                path: p(),
                node: output.to_string(),
                bad,
                total: probe.0.len(),
            });
        }
        Ok(plan)
    }

    /// The outputs of `rows` rows of `input_len` values each, and their shape; the error is the
    /// runtime's first line.
    pub(super) fn run(
        &self,
        inputs: &[f32],
        rows: usize,
        input_len: usize,
    ) -> Result<(Vec<f32>, Vec<usize>), String> {
        let go = || -> TractResult<(Vec<f32>, Vec<usize>)> {
            let t = Tensor::from_shape(&[rows, input_len], inputs)?;
            let out = self.0.run(tvec!(t.into()))?;
            let view = out[0].to_plain_array_view::<f32>()?;
            Ok((view.iter().copied().collect(), view.shape().to_vec()))
        };
        go().map_err(|e| first_line(&e))
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
