//! Pearson's chi-square test of independence on a 2x2 table with Yates' continuity correction,
//! exactly as R's `chisq.test(x, correct = TRUE)`.
//!
//! Invariant: the p-value never underflows to 0: for 1 df it is erfc(sqrt(chi2 / 2)), carried in
//! log space past double range.

use crate::stats::erfc::ln_erfc;
use crate::stats::error::StatsError;
use crate::stats::p_value::PValue;
use serde::{Deserialize, Serialize};

/// Result of [`chi_square_yates`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChiSquareTest {
    /// The corrected statistic sum((|O - E| - c)^2 / E).
    pub statistic: f64,
    /// Degrees of freedom (1 for a 2x2 table).
    pub df: u32,
    /// The continuity correction c actually applied: min(0.5, |O - E|) as R computes it.
    pub yates_correction: f64,
    /// P(chi2_1 >= statistic).
    pub p_value: PValue,
}

/// Chi-square test with Yates' correction on the 2x2 table `table[row][col]`.
///
/// As R: E = outer(row sums, col sums) / n; c = min(0.5, min |O - E|) (R's scalar
/// `min(0.5, abs(x - E))`; every cell of a 2x2 table has the same |O - E|, so this equals
/// scipy's element-wise form); statistic = sum((|O - E| - c)^2 / E); df = 1; p from the
/// chi-square(1) survival function erfc(sqrt(statistic / 2)), in log space.
///
/// Errors: an empty table, or a zero row or column total (R returns NaN there).
pub fn chi_square_yates(table: [[u64; 2]; 2]) -> Result<ChiSquareTest, StatsError> {
    let what = "chi_square_yates";
    let rows = [table[0][0] + table[0][1], table[1][0] + table[1][1]];
    let cols = [table[0][0] + table[1][0], table[0][1] + table[1][1]];
    let n = rows[0] + rows[1];
    if n == 0 {
        return Err(StatsError::Empty { what });
    }
    if rows.contains(&0) || cols.contains(&0) {
        return Err(StatsError::ZeroMargin { what, table });
    }
    let nf = n as f64;
    let mut expected = [[0.0f64; 2]; 2];
    let mut min_dev = f64::INFINITY;
    for i in 0..2 {
        for j in 0..2 {
            expected[i][j] = rows[i] as f64 * cols[j] as f64 / nf;
            min_dev = min_dev.min((table[i][j] as f64 - expected[i][j]).abs());
        }
    }
    let yates = min_dev.min(0.5);
    let mut statistic = 0.0;
    for i in 0..2 {
        for j in 0..2 {
            let dev = (table[i][j] as f64 - expected[i][j]).abs() - yates;
            statistic += dev * dev / expected[i][j];
        }
    }
    Ok(ChiSquareTest {
        statistic,
        df: 1,
        yates_correction: yates,
        p_value: chi_square_1df_p(statistic),
    })
}

/// P(chi2_df >= statistic) for `df` >= 1 degrees of freedom (statrs' regularised upper gamma;
/// 0 once it underflows), e.g. the goodness of fit of a grouped binomial model from its
/// residual deviance. `None` for `df` = 0 or a statistic that is not a number.
pub fn chi_square_sf(statistic: f64, df: u64) -> Option<f64> {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    if df == 0 || statistic.is_nan() {
        return None;
    }
    let d = ChiSquared::new(df as f64).ok()?;
    Some(d.sf(statistic.max(0.0)))
}

/// P(chi2_1 >= statistic) = erfc(sqrt(statistic / 2)), from [`ln_erfc`] so that it keeps a
/// finite log10 far below 1e-300. (statrs' `ChiSquared::sf` gives the same to ~1e-10 relative,
/// and 0 once the value underflows; the erfc form is exact to about an ulp.)
pub fn chi_square_1df_p(statistic: f64) -> PValue {
    if statistic.is_nan() {
        return PValue::from_value(f64::NAN);
    }
    if statistic <= 0.0 {
        return PValue::from_value(1.0);
    }
    PValue::from_ln(ln_erfc((statistic / 2.0).sqrt()))
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    #[test]
    fn matches_scipy_on_small_tables() {
        // scipy 1.17.1: r = scipy.stats.chi2_contingency(t, correction=True); (r.statistic, r.pvalue)
        // for t = [[12, 5], [7, 9]], [[3, 1], [1, 3]], [[120, 80], [95, 130]]
        let cases: [([[u64; 2]; 2], f64, f64); 3] = [
            ([[12, 5], [7, 9]], 1.455996378814684, 0.22756821457580642),
            ([[3, 1], [1, 3]], 0.5, 0.47950012218695337),
            (
                [[120, 80], [95, 130]],
                12.685710055986224,
                0.0003684606448806163,
            ),
        ];
        for (t, s, p) in cases {
            let r = chi_square_yates(t).unwrap();
            assert!(rel(r.statistic, s) < 1e-12, "{t:?}: {} vs {s}", r.statistic);
            assert!(
                rel(r.p_value.value.unwrap(), p) < 1e-10,
                "{t:?}: {:?} vs {p}",
                r.p_value
            );
            assert_eq!(r.df, 1);
        }
    }

    #[test]
    fn correction_capped_by_the_deviation() {
        // |O - E| = |5*6 - 5*5| / 21 = 0.238 < 0.5, so the correction removes it all:
        // scipy 1.17.1: scipy.stats.chi2_contingency([[5, 5], [5, 6]], correction=True) gives (0.0, 1.0)
        let r = chi_square_yates([[5, 5], [5, 6]]).unwrap();
        assert!(r.statistic.abs() < 1e-24);
        assert!((r.yates_correction - 5.0 / 21.0).abs() < 1e-15);
        assert_eq!(r.p_value.value, Some(1.0));
        let even = chi_square_yates([[10, 10], [10, 10]]).unwrap();
        assert_eq!(even.statistic, 0.0);
        assert_eq!(even.p_value.value, Some(1.0));
    }

    #[test]
    fn huge_table_goes_to_log_space() {
        // scipy 1.17.1: scipy.stats.chi2_contingency([[300000, 100000], [100000, 300000]],
        //   correction=True).statistic; log10 p from mpmath 1.4.1 at 50 digits:
        //   mpmath.log10(mpmath.erfc(mpmath.sqrt(stat / 2)))
        let r = chi_square_yates([[300_000, 100_000], [100_000, 300_000]]).unwrap();
        assert!(rel(r.statistic, 199998.000005) < 1e-12, "{}", r.statistic);
        assert!(r.p_value.is_bound());
        assert!(
            rel(r.p_value.log10, -43431.762471865353875) < 1e-12,
            "{}",
            r.p_value.log10
        );
    }

    #[test]
    fn statrs_survival_function_agrees() {
        use statrs::distribution::{ChiSquared, ContinuousCDF};
        let chi1 = ChiSquared::new(1.0).unwrap();
        for stat in [0.1, 3.0, 12.685710055986224, 200.0, 1200.0] {
            let ours = chi_square_1df_p(stat).value.unwrap();
            assert!(
                rel(ours, chi1.sf(stat)) < 1e-9,
                "{stat}: {ours} vs {}",
                chi1.sf(stat)
            );
        }
        // scipy 1.17.1: scipy.stats.chi2.sf(3.0, 1)
        assert!(rel(chi_square_1df_p(3.0).value.unwrap(), 0.08326451666355042) < 1e-14);
    }

    #[test]
    fn folk_theorem_magnitude() {
        // Not the paper's table (unpublished): a hypothetical split with the published total
        // 693 633 and 436 627 majority-holder wins, majority evenly split between seats. The
        // paper reports chi2 = 46 542; any near-even split gives about that.
        let r = chi_square_yates([[218_314, 128_503], [128_503, 218_313]]).unwrap();
        assert!(
            (r.statistic - 46_542.0).abs() / 46_542.0 < 2e-3,
            "{}",
            r.statistic
        );
        assert!(r.p_value.is_bound() || r.p_value.value.unwrap() < 2.2e-16);
    }

    #[test]
    fn degenerate_tables_are_errors() {
        assert!(matches!(
            chi_square_yates([[0, 0], [0, 0]]),
            Err(StatsError::Empty { .. })
        ));
        assert!(matches!(
            chi_square_yates([[5, 0], [7, 0]]),
            Err(StatsError::ZeroMargin { .. })
        ));
    }

    #[test]
    fn chi_square_survival_for_any_df() {
        // R: pchisq(7.81, 3, lower.tail = FALSE) = 0.05004; pchisq(3.84, 1, ...) = 0.05004
        let p = chi_square_sf(7.814728, 3).unwrap();
        assert!((p - 0.05).abs() < 1e-6, "{p}");
        let one = chi_square_sf(3.841459, 1).unwrap();
        assert!((one - 0.05).abs() < 1e-6, "{one}");
        assert!(chi_square_sf(7540.0, 3).unwrap() < 1e-300);
        assert_eq!(chi_square_sf(1.0, 0), None);
    }
}
