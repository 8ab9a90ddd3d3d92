//! Power of the two-sided test of a proportion, both ways the study states it: the paper's
//! normal approximation and the released script's Cohen's h (R's `pwr::pwr.p.test`).
//!
//! Invariant: every power returned lies in [0, 1] and is computed from the same
//! [`z_critical`], so the two analyses differ only in their formulas.

use crate::stats::error::StatsError;
use crate::stats::normal_tail::normal_cdf;
pub use crate::stats::normal_tail::z_critical;

/// The paper's section 3 approximation: 1 - beta = Phi(|delta| sqrt(N) / 0.5 - z_{1-alpha/2})
/// for the test of p = 0.5 against p = 0.5 + delta with N trials at two-sided level alpha.
///
/// Errors: alpha outside (0, 1), N = 0, a non-finite delta.
pub fn power_normal_approx(delta: f64, n: u64, alpha: f64) -> Result<f64, StatsError> {
    let what = "power_normal_approx";
    if n == 0 {
        return Err(StatsError::Empty { what });
    }
    if !delta.is_finite() {
        return Err(StatsError::InvalidParameter {
            what,
            name: "delta",
            value: delta,
            domain: "the finite numbers",
        });
    }
    let z = z_critical(alpha)?;
    Ok(normal_cdf(delta.abs() * (n as f64).sqrt() / 0.5 - z))
}

/// Cohen's effect size for two proportions, h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2))
/// (R's `pwr::ES.h(p1, p2)`).
///
/// Errors: a proportion outside [0, 1].
pub fn cohens_h(p1: f64, p2: f64) -> Result<f64, StatsError> {
    for (name, p) in [("p1", p1), ("p2", p2)] {
        if !(0.0..=1.0).contains(&p) {
            return Err(StatsError::InvalidParameter {
                what: "cohens_h",
                name,
                value: p,
                domain: "[0, 1]",
            });
        }
    }
    Ok(2.0 * p1.sqrt().asin() - 2.0 * p2.sqrt().asin())
}

/// Two-sided power of the one-proportion test with effect size `h` and `n` trials at level
/// `alpha`, exactly R's `pwr::pwr.p.test(h, n, sig.level = alpha, alternative = "two.sided")`:
/// pnorm(qnorm(alpha/2, lower = FALSE) - h sqrt(n), lower = FALSE)
///   + pnorm(qnorm(alpha/2, lower = TRUE) - h sqrt(n), lower = TRUE).
///
/// Errors: alpha outside (0, 1), n = 0, a non-finite h.
pub fn power_cohens_h(h: f64, n: u64, alpha: f64) -> Result<f64, StatsError> {
    let what = "power_cohens_h";
    if n == 0 {
        return Err(StatsError::Empty { what });
    }
    if !h.is_finite() {
        return Err(StatsError::InvalidParameter {
            what,
            name: "h",
            value: h,
            domain: "the finite numbers",
        });
    }
    let z = z_critical(alpha)?;
    let shift = h * (n as f64).sqrt();
    // pnorm(z - shift, lower = FALSE) = Phi(shift - z); pnorm(-z - shift) = Phi(-z - shift).
    Ok((normal_cdf(shift - z) + normal_cdf(-z - shift)).min(1.0))
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    #[test]
    fn published_power_claims() {
        // Paper, section 3: alpha = 0.05/8 gives z ~ 2.74 (exactly 2.7344, so "2.73" rounded);
        // N = 1.1e5 and delta = 0.01 give power > 0.99.
        let z = z_critical(0.05 / 8.0).unwrap();
        assert!((z - 2.74).abs() < 0.01, "{z}");
        let power = power_normal_approx(0.01, 110_000, 0.05 / 8.0).unwrap();
        assert!(power > 0.99, "{power}");
        // scipy 1.17.1: scipy.stats.norm.cdf(0.01 * np.sqrt(110000) / 0.5 - norm.isf(0.05 / 16))
        assert!(rel(power, 0.9999516808337237) < 1e-12, "{power}");
        // scipy 1.17.1: scipy.stats.norm.cdf(0.002 * np.sqrt(108419) / 0.5 - norm.isf(0.05 / 16))
        let small = power_normal_approx(-0.002, 108_419, 0.05 / 8.0).unwrap();
        assert!(rel(small, 0.07819949321375828) < 1e-12, "{small}");
    }

    #[test]
    fn cohens_h_matches_statsmodels() {
        // statsmodels 0.15.0: statsmodels.stats.proportion.proportion_effectsize(0.51, 0.5)
        // (= 2 asin(sqrt(0.51)) - 2 asin(sqrt(0.5)), as pwr::ES.h)
        assert!(rel(cohens_h(0.51, 0.5).unwrap(), 0.0200013335733904) < 1e-13);
        assert!(cohens_h(1.1, 0.5).is_err());
        assert_eq!(cohens_h(0.3, 0.3).unwrap(), 0.0);
    }

    #[test]
    fn pwr_p_test_matches_statsmodels() {
        // statsmodels 0.15.0: NormalIndPower().power(effect_size=h, nobs1=n, alpha=a, ratio=0,
        // alternative='two-sided') for (h, n, a) = (ES.h(0.51, 0.5), 108419, 0.05/8) and
        // (0.005, 108419, 0.05/8) and (-0.005, 108419, 0.05/8); ratio=0 is the one-sample
        // formula pwr.p.test uses.
        let h = cohens_h(0.51, 0.5).unwrap();
        assert!(
            rel(
                power_cohens_h(h, 108_419, 0.05 / 8.0).unwrap(),
                0.9999412965639677
            ) < 1e-12
        );
        assert!(
            rel(
                power_cohens_h(0.005, 108_419, 0.05 / 8.0).unwrap(),
                0.13829976903393337
            ) < 1e-12
        );
        assert!(
            rel(
                power_cohens_h(-0.005, 108_419, 0.05 / 8.0).unwrap(),
                0.13829976903393337
            ) < 1e-12
        );
        // No effect: power equals the level.
        assert!(rel(power_cohens_h(0.0, 1000, 0.05).unwrap(), 0.05) < 1e-13);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(power_cohens_h(0.1, 0, 0.05).is_err());
        assert!(power_cohens_h(f64::NAN, 10, 0.05).is_err());
        assert!(power_cohens_h(0.1, 10, 1.5).is_err());
        assert!(power_normal_approx(0.01, 0, 0.05).is_err());
        assert!(power_normal_approx(0.01, 10, 0.0).is_err());
        assert!(power_normal_approx(f64::INFINITY, 10, 0.05).is_err());
    }
}
