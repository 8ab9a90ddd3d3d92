//! The model files a saved game's policies name (a network seat, or one nested in a switch or
//! epsilon policy), kept relative to the record: written relative to the record's directory
//! when it is saved and read relative to it when it is replayed, so a record replays from any
//! working directory (the model's sha256, also in the record, is checked when it loads).
//!
//! Invariant: an absolute path is never rewritten; a relative one that does not lead to a file
//! after the rewrite is left as it was (records saved before this rule still replay from the
//! directory they were played in).

use std::path::{Component, Path, PathBuf};

use crate::policy::{PolicyDef, PolicySpec};

/// Apply `f` to every model path in `spec`, nested definitions included.
fn map_models(spec: &mut PolicySpec, f: &dyn Fn(&str) -> Option<String>) {
    match &mut spec.def {
        Some(PolicyDef::Onnx { model, .. }) => {
            if let Some(m) = f(model) {
                *model = m;
            }
        }
        Some(PolicyDef::Switch {
            play, otherwise, ..
        }) => {
            map_models(play, f);
            map_models(otherwise, f);
        }
        Some(PolicyDef::Epsilon { base, .. }) => map_models(base, f),
        _ => {}
    }
}

/// `to` relative to the directory `from` (both made absolute), e.g. `../models/x.onnx`.
fn relative(to: &Path, from: &Path) -> Option<PathBuf> {
    let (to, from) = (to.canonicalize().ok()?, from.canonicalize().ok()?);
    let (t, f): (Vec<Component>, Vec<Component>) =
        (to.components().collect(), from.components().collect());
    let common = t.iter().zip(&f).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    Some(out)
}

/// Before saving a record in `record_dir`: every relative model path (relative to the working
/// directory, as the study file's policies resolve them) made relative to `record_dir`.
pub fn models_for_record(spec: &mut PolicySpec, record_dir: &Path) {
    let dir = if record_dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        record_dir
    };
    map_models(spec, &|m| {
        let p = Path::new(m);
        if p.is_absolute() {
            return None;
        }
        relative(p, dir).map(|r| r.to_string_lossy().into_owned())
    });
}

/// When replaying a record read from `record_dir`: every relative model path taken relative to
/// it (when the file is there).
pub fn models_from_record(spec: &mut PolicySpec, record_dir: &Path) {
    map_models(spec, &|m| {
        let p = Path::new(m);
        if p.is_absolute() {
            return None;
        }
        let joined = record_dir.join(p);
        joined
            .is_file()
            .then(|| joined.to_string_lossy().into_owned())
    });
}
