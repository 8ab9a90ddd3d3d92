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
            PValue {
                value: Some(p),
                log10: p.log10(),
            }
        } else if p > 0.0 {
            PValue {
                value: None,
                log10: p.log10(),
            }
        } else {
            PValue {
                value: None,
                log10: Self::FLOOR.log10(),
            }
        }
    }

    /// From log10(p).
    pub fn from_log10(l: f64) -> PValue {
        let l = l.min(0.0);
        if l >= Self::FLOOR.log10() {
            PValue {
                value: Some(10f64.powf(l)),
                log10: l,
            }
        } else {
            PValue {
                value: None,
                log10: l,
            }
        }
    }

    /// Whether the value is below the floor.
    pub fn is_bound(&self) -> bool {
        self.value.is_none()
    }

    /// From the natural logarithm of p (what log-space tail computations produce).
    pub fn from_ln(ln_p: f64) -> PValue {
        if ln_p.is_nan() {
            return PValue::from_value(f64::NAN);
        }
        PValue::from_log10(ln_p / std::f64::consts::LN_10)
    }

    /// Human form with `sig` significant digits, as R's `format(p, digits = sig)` prints one
    /// number (`scipen = 0`): trailing zeros dropped, fixed notation unless it is wider than
    /// scientific, a scientific exponent of at least two digits. `0.65`, `0.0123`, `0.00012`,
    /// `1.2e-05`, `7.7e-29`; below [`PValue::FLOOR`], `< 1e-300`. `sig` = 0 is read as 1.
    pub fn display(&self, sig: usize) -> String {
        match self.value {
            None => "< 1e-300".to_string(),
            Some(v) => format_significant(v, sig.clamp(1, 17)),
        }
    }
}

/// R's choice between fixed and scientific notation for one non-negative finite number.
fn format_significant(v: f64, sig: usize) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    // Rounded to `sig` significant digits, in scientific form: "d.ddde-x".
    let sci = format!("{:.*e}", sig - 1, v);
    let (mantissa, exponent) = match sci.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (sci.as_str(), 0),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    let nsig = mantissa.chars().filter(char::is_ascii_digit).count() as i32;
    // Width of the fixed form: digits left of the point, then the point and the decimals.
    let decimals = (nsig - 1 - exponent).max(0);
    let left = (exponent + 1).max(1);
    let width_fixed = left + if decimals > 0 { decimals + 1 } else { 0 };
    let exp_digits = exponent.unsigned_abs().to_string().len().max(2) as i32;
    let width_sci = mantissa.len() as i32 + 2 + exp_digits;
    if width_fixed <= width_sci {
        format!("{:.*}", decimals as usize, v)
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    }
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
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

    // Expected strings follow R's documented rule for format(x, digits = sig) with
    // scipen = 0 (fixed unless wider than scientific; two-digit exponents), worked by hand.
    #[test]
    fn r_like_significant_digits() {
        let d = |v: f64, sig: usize| PValue::from_value(v).display(sig);
        assert_eq!(d(0.0123, 3), "0.0123");
        assert_eq!(d(0.01234, 3), "0.0123");
        assert_eq!(d(0.5, 3), "0.5");
        assert_eq!(d(1.0, 2), "1");
        assert_eq!(d(0.9996, 3), "1");
        assert_eq!(d(0.00012, 2), "0.00012");
        assert_eq!(d(0.000123, 2), "0.00012");
        assert_eq!(d(1e-4, 2), "1e-04");
        assert_eq!(d(1.23e-5, 2), "1.2e-05");
        assert_eq!(d(2.9e-210, 2), "2.9e-210");
        assert_eq!(d(9.34e-142, 2), "9.3e-142");
        assert_eq!(d(0.65, 0), "0.7");
        assert_eq!(d(1e-300, 2), "1e-300");
        assert_eq!(PValue::from_log10(-300.5).display(2), "< 1e-300");
    }

    #[test]
    fn log_constructors_agree() {
        let a = PValue::from_ln(-2.0);
        let b = PValue::from_value((-2.0f64).exp());
        assert!((a.value.unwrap() - b.value.unwrap()).abs() < 1e-15);
        assert!((a.log10 - b.log10).abs() < 1e-14);
        let c = PValue::from_ln(-5000.0);
        assert!(c.is_bound());
        assert!((c.log10 + 5000.0 / std::f64::consts::LN_10).abs() < 1e-9);
        assert_eq!(PValue::from_ln(0.3).value, Some(1.0));
    }

    #[test]
    fn serializes_as_value_and_log10() {
        let p = serde_json::to_string(&PValue::from_value(0.5)).unwrap();
        assert!(
            p.starts_with("{\"value\":0.5,\"log10\":-0.30102999566398"),
            "{p}"
        );
        let q = serde_json::to_string(&PValue::from_log10(-400.0)).unwrap();
        assert_eq!(q, "{\"value\":null,\"log10\":-400.0}");
    }
}
