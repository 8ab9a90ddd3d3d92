//! A p-value that stays meaningful below what a double can hold.
//!
//! Invariant: a [`PValue`] is never reported as 0 or NaN: below [`PValue::FLOOR`] it carries
//! its base-10 logarithm and displays as a bound ("< 1e-300").

use serde::{Deserialize, Serialize};

/// A p-value with its logarithm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PValue {
    /// The p-value, or `None` when it is below [`PValue::FLOOR`].
    pub value: Option<f64>,
    /// log10 of the p-value (finite; computed in log space where the value underflows).
    pub log10: f64,
}

impl PValue {
    /// Smallest value reported as a number.
    pub const FLOOR: f64 = 1e-300;

    /// From a probability computed directly (clamped to [0, 1]). A 0 (underflow) becomes a
    /// bound with log10 = -inf replaced by the floor's exponent; prefer [`PValue::from_log10`]
    /// when a log-space value is available.
    pub fn from_value(p: f64) -> PValue {
        let p = if p.is_nan() { 1.0 } else { p.clamp(0.0, 1.0) };
        if p >= Self::FLOOR {
            PValue { value: Some(p), log10: p.log10() }
        } else if p > 0.0 {
            PValue { value: None, log10: p.log10() }
        } else {
            PValue { value: None, log10: Self::FLOOR.log10() }
        }
    }

    /// From log10(p).
    pub fn from_log10(l: f64) -> PValue {
        let l = l.min(0.0);
        if l >= Self::FLOOR.log10() {
            PValue { value: Some(10f64.powf(l)), log10: l }
        } else {
            PValue { value: None, log10: l }
        }
    }

    /// Whether the value is below the floor.
    pub fn is_bound(&self) -> bool {
        self.value.is_none()
    }

    /// Human form with `sig` significant digits: `0.65`, `7.7e-29`, `< 1e-300`.
    pub fn display(&self, sig: usize) -> String {
        match self.value {
            None => "< 1e-300".to_string(),
            Some(v) if v >= 1e-3 => {
                let digits = sig.saturating_sub(1 + v.log10().floor() as isize as usize).max(0);
                let d = if v >= 1.0 { sig.saturating_sub(1) } else { digits + 0 };
                format!("{:.*}", d.max(sig.saturating_sub(1)).min(6), v)
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            }
            Some(v) => {
                let s = format!("{:.*e}", sig.saturating_sub(1), v);
                s
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn underflow_is_a_bound_not_zero() {
        let p = PValue::from_value(0.0);
        assert!(p.is_bound());
        assert_eq!(p.display(2), "< 1e-300");
        let q = PValue::from_log10(-1234.5);
        assert!(q.is_bound());
        assert_eq!(q.log10, -1234.5);
    }

    #[test]
    fn ordinary_values_display() {
        assert_eq!(PValue::from_value(7.7e-29).display(2), "7.7e-29");
        assert_eq!(PValue::from_value(0.65).display(2), "0.65");
        assert_eq!(PValue::from_value(f64::NAN).value, Some(1.0));
    }
}
