//! A point estimate with a confidence interval, the shape every interval statistic returns.
//!
//! Invariant: `lo <= rate <= hi` for every interval this crate constructs.

use serde::{Deserialize, Serialize};

/// A proportion with its confidence interval.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Interval {
    /// Point estimate.
    pub rate: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}
