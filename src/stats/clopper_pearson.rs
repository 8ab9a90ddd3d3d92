//! The one-sided Clopper-Pearson upper confidence bound on a binomial proportion (R's
//! `binom.test(x, n, alternative = "less")$conf.int[2]`): what `solve` says of the share of
//! completions without a line when every sampled one has one.
//!
//! Invariant: the bound lies in [x / n, 1], is 1 exactly at x = n, and equals
//! 1 - (1 - level)^(1/n) at x = 0.

use statrs::distribution::{Beta, ContinuousCDF};

use crate::stats::error::StatsError;

/// The upper bound at one-sided `level` (e.g. 0.95) on the proportion behind `x` successes in
/// `n` trials: the `level` quantile of Beta(x + 1, n - x), and 1 when x = n.
///
/// Errors: n = 0, x > n, level outside (0, 1).
pub fn clopper_pearson_upper(x: u64, n: u64, level: f64) -> Result<f64, StatsError> {
    let what = "clopper_pearson_upper";
    StatsError::check_counts(what, x, n)?;
    if !(level > 0.0 && level < 1.0) {
        return Err(StatsError::InvalidParameter {
            what,
            name: "level",
            value: level,
            domain: "the open interval (0, 1)",
        });
    }
    if x == n {
        return Ok(1.0);
    }
    if x == 0 {
        // Closed form of the Beta(1, n) quantile, exact where the general inverse iterates.
        return Ok(-((1.0 - level).ln() / n as f64).exp_m1());
    }
    let beta =
        Beta::new(x as f64 + 1.0, (n - x) as f64).map_err(|_| StatsError::InvalidParameter {
            what,
            name: "n - x",
            value: (n - x) as f64,
            domain: "positive numbers",
        })?;
    Ok(beta.inverse_cdf(level))
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from R
mod tests {
    use super::*;

    /// R 4.2.2: `binom.test(x, n, alternative = "less", conf.level = level)$conf.int[2]`,
    /// printed with `options(digits = 15)`.
    #[test]
    fn agrees_with_r_binom_test() {
        for (x, n, level, r) in [
            (0, 1000, 0.95, 2.9912495450953e-03),
            (3, 1000, 0.95, 7.73524471847942e-03),
            (0, 2000, 0.95, 1.49674489518828e-03),
            (7, 20, 0.95, 0.558034511315489),
            (19, 20, 0.95, 0.99743862122347),
            (2, 50, 0.99, 0.157704047614795),
        ] {
            let b = clopper_pearson_upper(x, n, level).unwrap();
            assert!(
                (b - r).abs() <= 1e-9 * r,
                "{x}/{n} at {level}: {b} vs R {r}"
            );
        }
        assert_eq!(clopper_pearson_upper(20, 20, 0.95), Ok(1.0));
    }

    #[test]
    fn bad_input_is_an_error_naming_the_routine() {
        for (x, n, level) in [(0, 0, 0.95), (3, 2, 0.95), (0, 10, 1.0), (0, 10, f64::NAN)] {
            let e = clopper_pearson_upper(x, n, level).unwrap_err().to_string();
            assert!(e.starts_with("clopper_pearson_upper: "), "{e}");
        }
    }
}
