//! Standard normal tails and quantiles: `Phi`, ln P(Z > z), two-sided normal p-values and
//! critical values, built on the accurate [`erfc`] / [`ln_erfc`] of [`crate::stats::erfc`].
//!
//! Invariant: tail p-values go through [`ln_erfc`], finite for every finite argument, so a
//! p-value never underflows to 0 and keeps a finite log10.

use std::f64::consts::{LN_2, SQRT_2};

use statrs::function::erf::erfc_inv;

pub use crate::stats::erfc::{erfc, ln_erfc};

use crate::stats::error::StatsError;
use crate::stats::p_value::PValue;

/// Standard normal distribution function Phi(z) = P(Z <= z).
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / SQRT_2)
}

/// ln P(Z > z) for a standard normal Z, accurate far into the upper tail.
pub fn ln_normal_sf(z: f64) -> f64 {
    ln_erfc(z / SQRT_2) - LN_2
}

/// Two-sided p-value of a standard normal statistic: P(|Z| >= |z|) = erfc(|z| / sqrt 2),
/// computed in log space so that it stays meaningful below 1e-300.
pub fn two_sided_normal_p(z: f64) -> PValue {
    if z.is_nan() {
        return PValue::from_value(f64::NAN);
    }
    PValue::from_ln(ln_erfc(z.abs() / SQRT_2))
}

/// The two-sided critical value z_{1 - alpha/2} = Phi^{-1}(1 - alpha/2), computed as
/// sqrt(2) erfc^{-1}(alpha) so that small alphas lose no precision.
/// Example: alpha = 0.05 gives 1.959964; alpha = 0.05/8 gives 2.734369.
pub fn z_critical(alpha_two_sided: f64) -> Result<f64, StatsError> {
    if !(alpha_two_sided > 0.0 && alpha_two_sided < 1.0) {
        return Err(StatsError::InvalidParameter {
            what: "z_critical",
            name: "alpha",
            value: alpha_two_sided,
            domain: "the open interval (0, 1)",
        });
    }
    Ok(SQRT_2 * erfc_inv(alpha_two_sided))
}

/// z of a two-sided normal test whose p-value is 10^`l` (the inverse of
/// [`two_sided_normal_p`]); 0 for l >= 0. Above 1e-300 it is [`z_critical`]; below, where the
/// p-value is not a double, Newton's method on ln p = -z^2/2 + ln(sqrt(2/pi)) - ln z (the
/// leading term of the tail), which is exact to double precision there.
pub fn z_from_log10_p(l: f64) -> f64 {
    if l >= 0.0 {
        return 0.0;
    }
    if l > -300.0 {
        return z_critical(10f64.powf(l)).unwrap_or(0.0);
    }
    let ln_p = l * std::f64::consts::LN_10;
    let c = (2.0 / std::f64::consts::PI).sqrt().ln();
    let mut z = (-2.0 * ln_p).sqrt();
    for _ in 0..50 {
        let f = -z * z / 2.0 + c - z.ln() - ln_p;
        let d = -z - 1.0 / z;
        z -= f / d;
    }
    z
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    #[test]
    fn ln_erfc_matches_scipy_across_the_switch() {
        // scipy 1.17.1: float(np.log(scipy.special.erfc(x))) for x = 0.5, 3, 20;
        // float(scipy.special.log_ndtr(-x * np.sqrt(2)) + np.log(2)) for x = 25.9, 26.1, 30, 100
        // (mpmath 1.4.1 at 50 digits, mpmath.log(mpmath.erfc(x)), agrees to 15 digits)
        let cases = [
            (0.5, -0.7350111298370844),
            (3.0, -10.720363041981113),
            (20.0, -403.56934333410425),
            (25.9, -674.6373518953194),
            (26.1, -685.0450329033097),
            (30.0, -903.9741171106442),
            (100.0, -10005.177585122668),
        ];
        for (x, want) in cases {
            assert!(
                rel(ln_erfc(x), want) < 1e-13,
                "x = {x}: {} vs {want}",
                ln_erfc(x)
            );
        }
    }

    #[test]
    fn two_sided_p_values() {
        // scipy 1.17.1: 2 * scipy.stats.norm.sf(1.959963984540054) and 2 * norm.sf(8.0)
        let p = two_sided_normal_p(-1.959963984540054);
        assert!(rel(p.value.unwrap(), 0.05) < 1e-12);
        assert!(
            rel(
                two_sided_normal_p(8.0).value.unwrap(),
                1.244192114854348e-15
            ) < 1e-12
        );
        // scipy 1.17.1: (scipy.special.log_ndtr(-40) + np.log(2)) / np.log(10)
        let q = two_sided_normal_p(40.0);
        assert!(q.is_bound());
        assert!(rel(q.log10, -349.1359764636819) < 1e-13, "{}", q.log10);
    }

    #[test]
    fn critical_values() {
        // scipy 1.17.1: scipy.stats.norm.isf(0.025), norm.isf(0.05 / 16)
        assert!(rel(z_critical(0.05).unwrap(), 1.9599639845400545) < 1e-14);
        assert!(rel(z_critical(0.05 / 8.0).unwrap(), 2.734368786533181) < 1e-13);
        assert!(z_critical(0.0).is_err());
        assert!(z_critical(1.0).is_err());
        assert!(z_critical(f64::NAN).is_err());
    }

    #[test]
    fn normal_cdf_values() {
        // scipy 1.17.1: scipy.stats.norm.cdf(-3.0), norm.cdf(1.0)
        assert!(rel(normal_cdf(-3.0), 0.0013498980316300933) < 1e-13);
        assert!(rel(normal_cdf(1.0), 0.8413447460685429) < 1e-15);
    }
}
