//! A policy network loaded from an ONNX file with the pure-Rust runtime `tract-onnx`
//! ([`super::tract_runtime`], behind the crate's `onnx` feature): cut at a
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

use super::encoding::Encoding;
#[cfg(not(feature = "onnx"))]
use super::no_runtime::Plan;
#[cfg(feature = "onnx")]
use super::tract_runtime::Plan;

pub use super::onnx_error::OnnxError;

/// A loaded, optimised network.
pub struct OnnxModel {
    plan: Plan,
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

/// The largest model file read (BriscolaBot-v3 is 0.5 MB): a cap on the bytes actually read, so
/// a device (`/dev/zero`) or an endless FIFO named as a model is an error, not all of memory.
pub const MAX_MODEL_BYTES: u64 = 256 << 20;

/// The bytes of the regular file `path`, at most [`MAX_MODEL_BYTES`].
fn read_model(path: &Path) -> Result<Vec<u8>, OnnxError> {
    use std::io::Read;
    let err = |message: String| OnnxError::Read {
        path: path.to_path_buf(),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| err(e.to_string()))?;
    if !meta.is_file() {
        return Err(err(
            "it is not a regular file; give the path of a .onnx file".into(),
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(|e| err(e.to_string()))?
        .take(MAX_MODEL_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(e.to_string()))?;
    if bytes.len() as u64 > MAX_MODEL_BYTES {
        return Err(err(format!(
            "larger than {} MiB; a policy network's .onnx file is far smaller",
            MAX_MODEL_BYTES >> 20
        )));
    }
    Ok(bytes)
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
        let bytes = read_model(path)?;
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
        let plan = Plan::load(path, bytes, encoding, output)?;
        Ok(OnnxModel {
            plan,
            encoding,
            sha256,
            path: path.to_path_buf(),
        })
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
        match self.plan.run(inputs, rows, self.encoding.input_len()) {
            Ok((out, _)) => out,
            Err(e) => panic!(
                "model {} failed on a {rows}-row batch: {e}",
                self.path.display()
            ),
        }
    }
}
