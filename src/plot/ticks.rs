//! [`Ticks`]: a linear f64 axis whose tick marks (and grid lines) are exactly the given values,
//! e.g. every 2 from −10 to 10, or one per category row.
//!
//! Invariant: the ticks drawn are the given list, never an automatic choice, so axes look the
//! same whatever the data range.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;

/// A linear axis over `range` with ticks exactly at `ticks`.
#[derive(Clone)]
pub struct Ticks {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ticks {
    /// The axis over `range` with ticks at `ticks`.
    pub fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticks {
        Ticks {
            inner: range.into(),
            ticks,
        }
    }

    /// Ticks at every integer of `0..n` over `-0.5..n-0.5`: one per category.
    pub fn categories(n: usize) -> Ticks {
        let n = n.max(1);
        Ticks::new(-0.5..n as f64 - 0.5, (0..n).map(|i| i as f64).collect())
    }

    /// Ticks every 2 from −10 to 10 over −11..11: the Δ_briscola axis.
    pub fn delta() -> Ticks {
        Ticks::new(-11.0..11.0, (-5..=5).map(|i| f64::from(2 * i)).collect())
    }
}

impl Ranged for Ticks {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}
