//! The `onnx` kind's seam: a policy network in an ONNX file, its observation encoding, output
//! node, sampling rule and lockstep block; two-player standard tables only.
//!
//! Invariant: resolving loads the model (once per process) and checks it against its encoding
//! and output, and records its sha256, so the network itself is in every cache key.

use super::{Encoding, OnnxError, OnnxModel, Sampling};
use crate::game::Rules;
use crate::policy::{
    AnyPolicy, Describer, Field, KindContext, KindSeam, PolicyBuildError, PolicyDef,
    PolicyDefError, PolicySpec, VariantFitError,
};

/// Largest lockstep block of an onnx policy, in games.
pub const MAX_BATCH: u32 = 4096;

/// The `onnx` kind's seam.
pub(crate) struct OnnxKind;

const FIELDS: [Field; 5] = [
    Field {
        name: "model",
        required: true,
        valid: "the path of an .onnx file relative to the study file, e.g. \"models/briscolabot-v3/briscola-bot-v3.onnx\"",
    },
    Field {
        name: "encoding",
        required: true,
        valid: "an encoding name: \"briscolabot-v3\"",
    },
    Field {
        name: "output",
        required: false,
        valid: "the name of the graph node giving each card's score (logit, before any softmax), e.g. \"/Where_output_0\"",
    },
    Field {
        name: "sampling",
        required: false,
        valid: "\"argmax\" or \"sample\"",
    },
    Field {
        name: "batch",
        required: false,
        valid: "a whole number of games from 1 to 4096 (games evaluated together)",
    },
];

impl KindSeam for OnnxKind {
    fn summary(&self, _: &PolicySpec) -> String {
        "onnx (a policy network)".into()
    }

    fn fields(&self) -> &'static [Field] {
        &FIELDS
    }

    /// The encoding known, the model loaded (once per process) and checked against it; its
    /// sha256 recorded.
    fn resolve(
        &self,
        cx: &mut KindContext<'_>,
        spec: &mut PolicySpec,
    ) -> Result<(), PolicyDefError> {
        let sampling = cx.get::<Sampling>("sampling")?.unwrap_or_default();
        let enc_name: String = cx.get("encoding")?.unwrap_or_default();
        let encoding = Encoding::parse(&enc_name).ok_or_else(|| {
            cx.error(
                "encoding",
                format!(
                    "unknown encoding `{enc_name}`; use one of: {}",
                    Encoding::names()
                ),
            )
        })?;
        let given_output: Option<String> = cx.get("output")?;
        let output = given_output
            .clone()
            .unwrap_or_else(|| encoding.default_output().to_string());
        let given_batch: Option<u32> = cx.get("batch")?;
        let batch = given_batch.unwrap_or(0);
        if given_batch.is_some() && !(1..=MAX_BATCH).contains(&batch) {
            return Err(cx.error(
                "batch",
                format!(
                    "{batch} games is out of range; use 1 (every decision alone) to {MAX_BATCH}, e.g. 64"
                ),
            ));
        }
        let model: String = cx.get("model")?.unwrap_or_default();
        let path = cx.base_dir().join(&model);
        let net = OnnxModel::shared(&path, encoding, &output).map_err(|e| {
            let field = match e {
                OnnxError::NoNode { .. } | OnnxError::OutputShape { .. }
                    if given_output.is_some() =>
                {
                    "output"
                }
                _ => "model",
            };
            cx.error(field, e.to_string())
        })?;
        spec.def = Some(PolicyDef::Onnx {
            model,
            sha256: net.sha256().to_string(),
            encoding,
            output,
            sampling,
            batch,
        });
        Ok(())
    }

    fn build(&self, spec: &PolicySpec) -> Result<AnyPolicy, PolicyBuildError> {
        match &spec.def {
            Some(def @ PolicyDef::Onnx { .. }) => Ok(AnyPolicy::Onnx(
                def.onnx_policy()
                    .map_err(|e| PolicyBuildError::new(spec, e.to_string()))?,
            )),
            _ => Err(PolicyBuildError::missing_def(spec)),
        }
    }

    fn describe(&self, spec: &PolicySpec, d: &mut Describer<'_>) {
        if let Some(PolicyDef::Onnx {
            model,
            sha256,
            encoding,
            output,
            sampling,
            ..
        }) = &spec.def
        {
            d.line(&format!("model {model} (sha256 {sha256})"));
            d.line(&format!(
                "encoding {}, output {output}, {} over the cards in hand (seat stream)",
                encoding.as_str(),
                sampling.as_str()
            ));
        }
    }

    fn is_deterministic(&self, spec: &PolicySpec) -> bool {
        matches!(&spec.def, Some(PolicyDef::Onnx { sampling, .. }) if *sampling == Sampling::Argmax)
    }

    /// A network encoding describes the standard two-player game only.
    fn fits(&self, spec: &PolicySpec, rules: &Rules) -> Result<(), VariantFitError> {
        if !rules.is_standard_play() {
            return Err(VariantFitError::OnnxNeedsStandard {
                name: spec.name.clone(),
            });
        }
        Ok(())
    }
}
