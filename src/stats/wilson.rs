//! The Wilson score interval for a binomial proportion, without continuity correction (R's
//! `binom::binom.confint(method = "wilson")`, statsmodels' `proportion_confint(method =
//! "wilson")`).
//!
//! Invariant: 0 <= lo <= rate <= hi <= 1, with lo = 0 exactly at 0 successes and hi = 1 exactly
//! at n successes.

use super::interval::Interval;
use crate::stats::error::StatsError;
use crate::stats::normal_tail::z_critical;

/// Wilson score interval of `successes / n` at the two-sided `confidence` level (e.g. 0.95).
///
/// With z = Phi^{-1}((1 + confidence) / 2) and p = successes / n:
/// centre = (p + z^2/(2n)) / (1 + z^2/n), half-width = z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/(4n^2)).
///
/// Errors: n = 0, successes > n, confidence outside (0, 1).
pub fn wilson(successes: u64, n: u64, confidence: f64) -> Result<Interval, StatsError> {
    StatsError::check_counts("wilson", successes, n)?;
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::InvalidParameter {
            what: "wilson",
            name: "confidence",
            value: confidence,
            domain: "the open interval (0, 1)",
        });
    }
    let z = z_critical(1.0 - confidence)?;
    let nf = n as f64;
    let p = successes as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    let lo = if successes == 0 {
        0.0
    } else {
        (centre - half).clamp(0.0, p)
    };
    let hi = if successes == n {
        1.0
    } else {
        (centre + half).clamp(p, 1.0)
    };
    Ok(Interval { rate: p, lo, hi })
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
mod tests {
    use super::*;

    fn close(got: Interval, rate: f64, lo: f64, hi: f64) {
        let ok = |a: f64, b: f64| (a - b).abs() <= 1e-13 * b.abs().max(1e-3);
        assert!(
            ok(got.rate, rate) && ok(got.lo, lo) && ok(got.hi, hi),
            "{got:?} vs ({rate}, {lo}, {hi})"
        );
    }

    #[test]
    fn published_folk_theorem_interval() {
        // Paper, section 5: 436 627 / 693 633 = 0.6295 [0.6283, 0.6306].
        let i = wilson(436_627, 693_633, 0.95).unwrap();
        assert_eq!(format!("{:.4}", i.rate), "0.6295");
        assert_eq!(format!("{:.4}", i.lo), "0.6283");
        assert_eq!(format!("{:.4}", i.hi), "0.6306");
        // statsmodels 0.15.0: proportion_confint(436627, 693633, alpha=0.05, method="wilson")
        close(
            i,
            436_627.0 / 693_633.0,
            0.62834117011622,
            0.6306142216161892,
        );
    }

    #[test]
    fn matches_statsmodels() {
        // statsmodels 0.15.0: proportion_confint(k, n, alpha=1-conf, method="wilson") for
        // (k, n, conf) = (7, 10, 0.95), (53000, 108000, 0.95), (3, 1000, 0.99)
        close(
            wilson(7, 10, 0.95).unwrap(),
            0.7,
            0.39677814746114537,
            0.8922087325936989,
        );
        close(
            wilson(53_000, 108_000, 0.95).unwrap(),
            53_000.0 / 108_000.0,
            0.4877596441963205,
            0.49372249594808765,
        );
        close(
            wilson(3, 1000, 0.99).unwrap(),
            0.003,
            0.0007581012310614674,
            0.011793516682924922,
        );
    }

    #[test]
    fn edge_cases() {
        // statsmodels 0.15.0: proportion_confint(0, 20, method="wilson"),
        // proportion_confint(20, 20, method="wilson"), proportion_confint(0, 1, method="wilson"),
        // proportion_confint(1, 1, method="wilson") (statsmodels' 0.9999999999999999 for the
        // upper bound at 20/20 is rounding; ours is exactly 1)
        close(wilson(0, 20, 0.95).unwrap(), 0.0, 0.0, 0.1611251580528194);
        close(wilson(20, 20, 0.95).unwrap(), 1.0, 0.8388748419471804, 1.0);
        close(wilson(0, 1, 0.95).unwrap(), 0.0, 0.0, 0.7934506856227627);
        close(wilson(1, 1, 0.95).unwrap(), 1.0, 0.2065493143772374, 1.0);
        let zero = wilson(0, 20, 0.95).unwrap();
        assert_eq!(zero.lo, 0.0);
        assert_eq!(wilson(20, 20, 0.95).unwrap().hi, 1.0);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(
            wilson(0, 0, 0.95),
            Err(StatsError::Empty { what: "wilson" })
        );
        assert!(matches!(
            wilson(5, 4, 0.95),
            Err(StatsError::SuccessesExceedTrials { .. })
        ));
        assert!(wilson(1, 4, 1.0).is_err());
        assert!(wilson(1, 4, 0.0).is_err());
        assert!(wilson(1, 4, f64::NAN).is_err());
    }
}
