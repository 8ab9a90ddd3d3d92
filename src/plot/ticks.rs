//! [`Ticks`]: a linear f64 axis whose tick marks (and grid lines) are exactly the given values:
//! one per category row, or "nice" steps (1, 2, 5 × 10^k) over a range fitted to the data.
//!
//! Kept instead of plotters' own key points (issue 8 asked): those are chosen from the axis'
//! pixel length, so a test cannot know them from the data alone, and a category axis needs ticks
//! at exactly its rows.
//!
//! Invariant: the ticks drawn are a function of the data range alone (never of pixel sizes), so
//! the SVG and the 2x PNG carry the same ticks and a test can predict them.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;

use super::number::fixed;

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

    /// An axis covering `lo..=hi` with a margin of `pad` on each side, ticked at multiples of
    /// a nice step (1, 2 or 5 × 10^k, at least `min_step`) giving at most `max_ticks` ticks.
    /// An empty or non-finite range falls back to `0..1`.
    pub fn fitted(lo: f64, hi: f64, pad: f64, max_ticks: usize, min_step: f64) -> Ticks {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let (r0, r1) = (lo - pad, hi + pad);
        let step = nice_step((r1 - r0) / max_ticks.max(2) as f64, min_step);
        let first = (r0 / step).ceil() as i64;
        let last = (r1 / step).floor() as i64;
        let ticks = (first..=last).map(|i| clean(i as f64 * step)).collect();
        Ticks::new(r0..r1, ticks)
    }

    /// The tick values.
    pub fn values(&self) -> &[f64] {
        &self.ticks
    }

    /// A tick's label: as many decimals as the step needs, Unicode minus.
    pub fn label(&self, v: f64) -> String {
        let step = self.step();
        let decimals = (0..4)
            .find(|d| {
                let m = step * 10f64.powi(*d);
                (m - m.round()).abs() < 1e-9
            })
            .unwrap_or(4);
        fixed(v, decimals as usize)
    }

    /// The step between ticks (0 with fewer than two ticks).
    pub fn step(&self) -> f64 {
        match self.ticks.as_slice() {
            [a, b, ..] => b - a,
            _ => 0.0,
        }
    }
}

/// The smallest of 1, 2, 5 × 10^k that is at least `raw` and `min_step`.
fn nice_step(raw: f64, min_step: f64) -> f64 {
    let raw = raw.max(min_step).max(f64::MIN_POSITIVE);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag)
}

/// Round away binary noise (0.30000000000000004 -> 0.3) so tick labels and tests see clean values.
fn clean(v: f64) -> f64 {
    let r = (v * 1e9).round() / 1e9;
    if r == 0.0 { 0.0 } else { r }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitted_ticks_cover_the_data_with_nice_steps() {
        // Figure 2's data in -8..8: ticks every 2 from -8 to 8, range -8.6..8.6.
        let t = Ticks::fitted(-8.0, 8.0, 0.6, 10, 1.0);
        assert_eq!(
            t.values(),
            &[-8.0, -6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
        );
        assert_eq!(t.range(), -8.6..8.6);
        // break-even values in -1.3..1.9 (and 0): half-unit steps, never -10..10.
        let t = Ticks::fitted(-1.3, 1.9, 0.3, 8, 0.0);
        assert_eq!(t.step(), 0.5);
        assert_eq!(t.values().first(), Some(&-1.5));
        assert_eq!(t.values().last(), Some(&2.0));
        // rates: steps of 0.1 or 0.2 with clean values
        let t = Ticks::fitted(0.2, 0.9, 0.0, 8, 0.0);
        assert_eq!(t.values(), &[0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
        assert_eq!(Ticks::fitted(f64::NAN, 1.0, 0.0, 5, 0.0).range(), 0.0..1.0);
    }

    #[test]
    fn labels_use_the_step_decimals_and_a_unicode_minus() {
        let t = Ticks::fitted(-1.3, 1.9, 0.3, 8, 0.0);
        assert_eq!(t.label(-1.5), "−1.5");
        assert_eq!(t.label(0.0), "0.0");
        assert_eq!(Ticks::fitted(-8.0, 8.0, 0.6, 10, 1.0).label(-8.0), "−8");
    }
}
