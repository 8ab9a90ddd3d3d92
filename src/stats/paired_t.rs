//! The one-sample t test and interval on paired differences: R's `t.test(x, y, paired = TRUE)`
//! (equivalently `t.test(x - y)`), two-sided.
//!
//! Invariant: the interval and the p-value come from the same Student t distribution with
//! n - 1 degrees of freedom, so the interval excludes 0 exactly when p < 1 - confidence.

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::StatsError;
use super::p_value::PValue;

/// A paired mean difference with its t interval and two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedT {
    /// Pairs.
    pub n: u64,
    /// Mean difference.
    pub mean: f64,
    /// Interval bounds.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// The t statistic (0 when every difference is equal to the mean).
    pub t: f64,
    /// Two-sided p-value of mean = 0.
    pub p: PValue,
}

/// The paired t test of the differences `d` at `confidence` (two-sided).
///
/// When every difference is the same the standard error is 0: R stops ("data are essentially
/// constant"); here the interval is that value and p is 1 if it is 0, else the smallest p.
///
/// ```
/// use briscola::stats::paired_t;
/// // R 4.2.2: t.test(c(1, 0, 0.5, 1, 0, 1, 0.5, 1)) -> t = 3.9886, df = 7,
/// // p-value = 0.005266, 95 percent confidence interval 0.2544733 0.9955267
/// let r = paired_t(&[1.0, 0.0, 0.5, 1.0, 0.0, 1.0, 0.5, 1.0], 0.95).unwrap();
/// assert!((r.t - 3.9886).abs() < 5e-5);
/// assert!((r.p.value.unwrap() - 0.005266).abs() < 5e-7);
/// assert!((r.lo - 0.2544733).abs() < 5e-8 && (r.hi - 0.9955267).abs() < 5e-8);
/// ```
pub fn paired_t(d: &[f64], confidence: f64) -> Result<PairedT, StatsError> {
    const WHAT: &str = "paired t test";
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::InvalidParameter {
            what: WHAT,
            name: "confidence",
            value: confidence,
            domain: "(0, 1)",
        });
    }
    if d.len() < 2 {
        return Err(StatsError::Empty { what: WHAT });
    }
    let n = d.len() as f64;
    let mean = d.iter().sum::<f64>() / n;
    let ss: f64 = d.iter().map(|x| (x - mean) * (x - mean)).sum();
    let se = (ss / (n - 1.0) / n).sqrt();
    if se == 0.0 || !se.is_finite() {
        let p = if mean == 0.0 {
            PValue::from_value(1.0)
        } else {
            PValue::from_value(0.0)
        };
        return Ok(PairedT {
            n: d.len() as u64,
            mean,
            lo: mean,
            hi: mean,
            t: 0.0,
            p,
        });
    }
    let dist = StudentsT::new(0.0, 1.0, n - 1.0).map_err(|_| StatsError::Empty { what: WHAT })?;
    let q = dist.inverse_cdf(0.5 + confidence / 2.0);
    let t = mean / se;
    let p = PValue::from_value(2.0 * dist.cdf(-t.abs()));
    Ok(PairedT {
        n: d.len() as u64,
        mean,
        lo: mean - q * se,
        hi: mean + q * se,
        t,
        p,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values from R 4.2.2 (`print(..., digits = 10)` of the fields):
    /// `t.test(c(0.5, -1, 0, 0, 1, -0.5, -1, 0, -1, -0.5), conf.level = 0.9)`.
    #[test]
    fn agrees_with_r_t_test() {
        let d = [0.5, -1.0, 0.0, 0.0, 1.0, -0.5, -1.0, 0.0, -1.0, -0.5];
        let r = paired_t(&d, 0.9).unwrap();
        assert_eq!(r.n, 10);
        assert!((r.mean - -0.25).abs() < 1e-15);
        assert!((r.t - -1.167748416).abs() < 5e-10, "{}", r.t);
        assert!(
            (r.p.value.unwrap() - 0.2729122151).abs() < 5e-10,
            "{:?}",
            r.p
        );
        assert!((r.lo - -0.6424460327).abs() < 5e-10, "{}", r.lo);
        assert!((r.hi - 0.1424460327).abs() < 5e-10, "{}", r.hi);
    }

    #[test]
    fn constant_differences_and_bad_input() {
        let zero = paired_t(&[0.0; 5], 0.95).unwrap();
        assert_eq!((zero.lo, zero.hi, zero.p.value), (0.0, 0.0, Some(1.0)));
        assert!(paired_t(&[1.0], 0.95).is_err());
        assert!(paired_t(&[1.0, 2.0], 1.0).is_err());
    }
}
