//! Which report files the render stage writes.
//!
//! Invariant: the serialised names (`html`, `md`) are the ones `pipeline.toml` accepts.

use serde::{Deserialize, Serialize};

/// Report formats.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    /// `report.html`, self-contained.
    Html,
    /// `report.md` with PNG figures.
    Md,
}
