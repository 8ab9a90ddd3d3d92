//! The two-sided exact binomial test, exactly as R's `binom.test(x, n, p)` (and
//! scipy's `binomtest`), with its Bonferroni correction; both in log space.
//!
//! Invariant: probabilities are summed in log space from log-pmf terms evaluated directly
//! (Loader's saddle-point form, as R's `dbinom`), never from a running product, so the result
//! keeps full relative precision at n ~ 1e6 and a finite log10 far below 1e-300.

use crate::stats::error::StatsError;
use crate::stats::p_value::PValue;

/// R's tolerance for "as or less likely than the observed count".
const REL_ERR: f64 = 1.0 + 1e-7;

/// Two-sided exact binomial test of `x` successes in `n` trials against success probability
/// `p`, as R's `binom.test(x, n, p)$p.value`:
/// d = dbinom(x); if x = np the p-value is 1; if x < np, with y = #{i >= ceil(np) :
/// dbinom(i) <= d (1 + 1e-7)}, p = P(X <= x) + P(X > n - y); if x > np, with
/// y = #{i <= floor(np) : dbinom(i) <= d (1 + 1e-7)}, p = P(X < y) + P(X >= x); min(1, p).
///
/// The count y is found by binary search on the two monotone sides of the mode and the tails
/// are summed from their largest term outward, so the cost is O(sqrt(n)) pmf evaluations.
///
/// Errors: n = 0, x > n, p outside [0, 1]. As in R, p = 0 or 1 gives 1 if x matches it, else 0.
pub fn binom_test(x: u64, n: u64, p: f64) -> Result<PValue, StatsError> {
    let what = "binom_test";
    StatsError::check_counts(what, x, n)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(StatsError::InvalidParameter {
            what,
            name: "p",
            value: p,
            domain: "the closed interval [0, 1]",
        });
    }
    // R: `if (p == 0) (x == 0) else if (p == 1) (x == n)`: a degenerate null is either matched
    // exactly (p-value 1) or impossible (p-value 0, reported as a bound).
    if p == 0.0 || p == 1.0 {
        let matched = if p == 0.0 { x == 0 } else { x == n };
        return Ok(PValue::from_value(if matched { 1.0 } else { 0.0 }));
    }
    let b = Binomial::new(n, p);
    let m = n as f64 * p;
    let xf = x as f64;
    if xf == m {
        return Ok(PValue::from_value(1.0));
    }
    let threshold = b.ln_pmf(x) + REL_ERR.ln();
    let ln_p = if xf < m {
        let from = (m.ceil() as u64).min(n);
        let y = b.count_at_most(from, n, threshold);
        let upper = if y == 0 {
            f64::NEG_INFINITY
        } else {
            b.ln_sf_from(n - y + 1)
        };
        log_add_exp(b.ln_cdf(x), upper)
    } else {
        let to = (m.floor() as u64).min(n);
        let y = b.count_at_most(0, to, threshold);
        let lower = if y == 0 {
            f64::NEG_INFINITY
        } else {
            b.ln_cdf(y - 1)
        };
        log_add_exp(lower, b.ln_sf_from(x))
    };
    Ok(PValue::from_ln(ln_p.min(0.0)))
}

/// Bonferroni correction over a family of `m` tests: min(1, m p), in log space so that bounds
/// (p below 1e-300) stay bounds with the right log10. A family of `m` = 0 is read as 1 (p
/// unchanged).
pub fn bonferroni(p: PValue, m: u64) -> PValue {
    let m = m.max(1) as f64;
    match p.value {
        Some(v) if v * m >= PValue::FLOOR => {
            let adjusted = (v * m).min(1.0);
            PValue {
                value: Some(adjusted),
                log10: (p.log10 + m.log10()).min(0.0),
            }
        }
        _ => PValue::from_log10(p.log10 + m.log10()),
    }
}

/// ln(e^a + e^b) without overflow; -inf stands for a zero term.
fn log_add_exp(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if hi == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// ln(1 - e^a) for a <= 0, accurate at both ends (Maechler's log1mexp).
fn ln_1m_exp(a: f64) -> f64 {
    if a > -std::f64::consts::LN_2 {
        (-a.exp_m1()).ln()
    } else {
        (-a.exp()).ln_1p()
    }
}

/// A binomial distribution with the log-space pieces the test needs.
struct Binomial {
    n: u64,
    p: f64,
    q: f64,
    /// floor((n + 1) p): the pmf is non-decreasing up to it and non-increasing after it.
    mode: u64,
}

impl Binomial {
    fn new(n: u64, p: f64) -> Binomial {
        let mode = (((n + 1) as f64 * p).floor() as u64).min(n);
        Binomial {
            n,
            p,
            q: 1.0 - p,
            mode,
        }
    }

    /// ln dbinom(k), R's `dbinom_raw` (Loader 2000) in log form.
    fn ln_pmf(&self, k: u64) -> f64 {
        let (n, p, q) = (self.n as f64, self.p, self.q);
        if k > self.n {
            return f64::NEG_INFINITY;
        }
        if k == 0 {
            return if p < 0.1 {
                -bd0(n, n * q) - n * p
            } else {
                n * q.ln()
            };
        }
        if k == self.n {
            return if q < 0.1 {
                -bd0(n, n * p) - n * q
            } else {
                n * p.ln()
            };
        }
        let x = k as f64;
        let lc = stirlerr(self.n)
            - stirlerr(k)
            - stirlerr(self.n - k)
            - bd0(x, n * p)
            - bd0(n - x, n * q);
        let lf = (2.0 * std::f64::consts::PI).ln() + x.ln() + (-x / n).ln_1p();
        lc - 0.5 * lf
    }

    /// How many i in lo..=hi have ln pmf(i) <= t, by binary search on each monotone side.
    fn count_at_most(&self, lo: u64, hi: u64, t: f64) -> u64 {
        if lo > hi {
            return 0;
        }
        let mut count = 0;
        // Rising side lo..=min(hi, mode): the qualifying indices are a prefix.
        let rise_hi = hi.min(self.mode);
        if lo <= rise_hi {
            let (mut a, mut b) = (lo, rise_hi + 1);
            while a < b {
                let mid = a + (b - a) / 2;
                if self.ln_pmf(mid) <= t {
                    a = mid + 1;
                } else {
                    b = mid;
                }
            }
            count += a - lo;
        }
        // Falling side max(lo, mode + 1)..=hi: the qualifying indices are a suffix.
        let fall_lo = lo.max(self.mode + 1);
        if fall_lo <= hi {
            let (mut a, mut b) = (fall_lo, hi + 1);
            while a < b {
                let mid = a + (b - a) / 2;
                if self.ln_pmf(mid) <= t {
                    b = mid;
                } else {
                    a = mid + 1;
                }
            }
            count += hi + 1 - a;
        }
        count
    }

    /// ln P(X <= k).
    fn ln_cdf(&self, k: u64) -> f64 {
        if k >= self.n {
            0.0
        } else if k <= self.mode {
            self.ln_sum_down(k)
        } else {
            ln_1m_exp(self.ln_sum_up(k + 1))
        }
    }

    /// ln P(X >= k).
    fn ln_sf_from(&self, k: u64) -> f64 {
        if k == 0 {
            0.0
        } else if k > self.n {
            f64::NEG_INFINITY
        } else if k >= self.mode {
            self.ln_sum_up(k)
        } else {
            ln_1m_exp(self.ln_sum_down(k - 1))
        }
    }

    /// ln sum_{i <= from} pmf(i), for from <= mode (terms shrink as i decreases).
    fn ln_sum_down(&self, from: u64) -> f64 {
        let l0 = self.ln_pmf(from);
        let mut sum = 1.0;
        let mut prev = 1.0;
        let mut i = from;
        while i > 0 {
            i -= 1;
            let t = (self.ln_pmf(i) - l0).exp();
            sum += t;
            if tail_is_negligible(t, prev, sum) {
                break;
            }
            prev = t;
        }
        l0 + sum.ln()
    }

    /// ln sum_{i >= from} pmf(i), for from >= mode (terms shrink as i increases).
    fn ln_sum_up(&self, from: u64) -> f64 {
        let l0 = self.ln_pmf(from);
        let mut sum = 1.0;
        let mut prev = 1.0;
        for i in from + 1..=self.n {
            let t = (self.ln_pmf(i) - l0).exp();
            sum += t;
            if tail_is_negligible(t, prev, sum) {
                break;
            }
            prev = t;
        }
        l0 + sum.ln()
    }
}

/// Whether the rest of a tail whose term ratios only shrink from here (r = t / prev) is below
/// 1e-17 of the running sum: rest <= t r / (1 - r).
fn tail_is_negligible(t: f64, prev: f64, sum: f64) -> bool {
    if t == 0.0 {
        return true;
    }
    let r = t / prev;
    r < 1.0 && t * r / (1.0 - r) < 1e-17 * sum
}

/// ln(n!) - ((n + 1/2) ln n - n + ln sqrt(2 pi)), the Stirling-formula error, as R's `stirlerr`
/// for integer n.
fn stirlerr(n: u64) -> f64 {
    // mpmath 1.4.1 at 40 digits: loggamma(k+1) - (k+0.5)*log(k) + k - log(sqrt(2*pi)), k = 1..15
    #[allow(clippy::excessive_precision)]
    const TABLE: [f64; 16] = [
        0.0,
        0.081_061_466_795_327_258_219_670_26,
        0.041_340_695_955_409_294_093_822_08,
        0.027_677_925_684_998_339_148_789_29,
        0.020_790_672_103_765_093_111_522_77,
        0.016_644_691_189_821_192_163_194_87,
        0.013_876_128_823_070_747_998_745_73,
        0.011_896_709_945_891_770_095_055_72,
        0.010_411_265_261_972_096_497_478_57,
        0.009_255_462_182_712_732_917_728_637,
        0.008_330_563_433_362_871_256_469_319,
        0.007_573_675_487_951_840_794_972_024,
        0.006_942_840_107_209_529_865_664_153,
        0.006_408_994_188_004_207_068_439_631,
        0.005_951_370_112_758_847_735_624_416,
        0.005_554_733_551_962_801_371_038_690,
    ];
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    if n <= 15 {
        return TABLE[n as usize];
    }
    let nf = n as f64;
    let nn = nf * nf;
    if nf > 500.0 {
        (S0 - S1 / nn) / nf
    } else if nf > 80.0 {
        (S0 - (S1 - S2 / nn) / nn) / nf
    } else if nf > 35.0 {
        (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / nf
    } else {
        (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / nf
    }
}

/// The deviance term x ln(x / np) + np - x, with R's series for x close to np.
fn bd0(x: f64, np: f64) -> f64 {
    if (x - np).abs() < 0.1 * (x + np) {
        let mut v = (x - np) / (x + np);
        let mut s = (x - np) * v;
        if s.abs() < f64::MIN_POSITIVE {
            return s;
        }
        let mut ej = 2.0 * x * v;
        v *= v;
        for j in 1..1000 {
            ej *= v;
            let s1 = s + ej / f64::from(2 * j + 1);
            if s1 == s {
                return s1;
            }
            s = s1;
        }
    }
    x * (x / np).ln() + np - x
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    fn check(x: u64, n: u64, p: f64, want: f64) {
        let got = binom_test(x, n, p).unwrap();
        let v = got.value.unwrap();
        assert!(
            rel(v, want) < 1e-9,
            "binom_test({x}, {n}, {p}) = {v}, want {want}"
        );
    }

    #[test]
    fn matches_scipy_small() {
        // scipy 1.17.1: scipy.stats.binomtest(k, n, p, alternative='two-sided').pvalue for
        // (7, 10, 0.3), (3, 10, 0.3), (2, 20, 0.4905), (15, 20, 0.4905), (0, 10, 0.3),
        // (10, 10, 0.3), (0, 1, 0.3), (1, 1, 0.3), (3, 10, 0.5), (7, 10, 0.5)
        check(7, 10, 0.3, 0.010592078399999996);
        check(2, 20, 0.4905, 0.00042020237336775235);
        check(15, 20, 0.4905, 0.024294963751945422);
        check(0, 10, 0.3, 0.0388396033);
        check(10, 10, 0.3, 5.9048999999999975e-06);
        check(0, 1, 0.3, 1.0);
        check(1, 1, 0.3, 0.3);
        check(3, 10, 0.5, 0.34375);
        check(7, 10, 0.5, 0.34375);
        // scipy 1.17.1: binomtest(3, 10, 0.3) and binomtest(2, 8, 0.25) give 1.0 (10 * 0.3 is not
        // exactly 3 in floating point, 8 * 0.25 is exactly 2)
        assert_eq!(binom_test(3, 10, 0.3).unwrap().value, Some(1.0));
        assert_eq!(binom_test(2, 8, 0.25).unwrap().value, Some(1.0));
    }

    #[test]
    fn matches_scipy_big_n() {
        // scipy 1.17.1: scipy.stats.binomtest(k, n, p, alternative='two-sided').pvalue for
        // (53000, 108000, 0.4905), (52900, 108000, 0.4905), (54000, 108000, 0.4905),
        // (490_000, 1_000_000, 0.4905), (52250, 108000, 0.4905)
        check(53_000, 108_000, 0.4905, 0.8742529466241549);
        check(52_900, 108_000, 0.4905, 0.6545954873909019);
        check(54_000, 108_000, 0.4905, 4.3117607999625263e-10);
        check(490_000, 1_000_000, 0.4905, 0.31770732419000747);
        check(52_250, 108_000, 0.4905, 1.0482888568774728e-05);
    }

    #[test]
    fn matches_mpmath_big_n() {
        // mpmath 1.4.1, mp.dps = 40: R's algorithm with log-gamma pmfs, every term summed,
        // p = mpf(0.4905) (the double) and q = 1 - p exactly, for (54000, 108000, 0.4905),
        // (52250, 108000, 0.4905), (53000, 108000, 0.4905). (With q rounded to a double,
        // p + q = 1 + 6e-17 and the pmf total drifts by 6e-12 at this n, which is the size of
        // scipy's and R's own disagreement with these values.)
        let tight = |x: u64, want: f64| {
            let got = binom_test(x, 108_000, 0.4905).unwrap().value.unwrap();
            assert!(rel(got, want) < 1e-12, "{x}: {got} vs {want}");
        };
        tight(54_000, 4.3117607999624819e-10);
        tight(52_250, 1.0482888568775311e-5);
        tight(53_000, 0.87425294662415689);
    }

    #[test]
    fn matches_exact_rational_arithmetic() {
        // Python 3 fractions.Fraction: R's binom.test algorithm evaluated in exact rational
        // arithmetic (p = 4905/10000), printed with float(); scipy 1.17.1 binomtest agrees to
        // 1e-15 relative.
        check(40, 100, 0.4905, 0.07242978538512249);
        check(61, 100, 0.4905, 0.02096368598227916);
        check(700, 1200, 0.4905, 1.2990586597600246e-10);
    }

    #[test]
    fn far_tail_is_a_bound_with_exact_log10() {
        // Python 3 integers: exact two-sided p for x = 1900, n = 2000, p = 1/2 is
        // 2 * sum(comb(2000, i) for i in range(1900, 2001)) / 2**2000; log10 printed via
        // mpmath 1.4.1 at 50 digits.
        let p = binom_test(1900, 2000, 0.5).unwrap();
        assert!(p.is_bound());
        assert!(rel(p.log10, -430.69567207856398973) < 1e-12, "{}", p.log10);
        let q = binom_test(100, 2000, 0.5).unwrap();
        assert!(rel(q.log10, -430.69567207856398973) < 1e-12, "{}", q.log10);
    }

    #[test]
    fn far_tail_at_a_million_trials() {
        // mpmath 1.4.1, mp.dps = 50: R's algorithm for (600000, 1_000_000, 0.4905) with
        // log-gamma pmfs (q = 1 - p exactly), y by bisection on the rising side (y = 381307),
        // tails summed until terms fall below 1e-30 of the sum: log10 p = -10476.0904980432.
        let p = binom_test(600_000, 1_000_000, 0.4905).unwrap();
        assert!(p.is_bound());
        assert!(rel(p.log10, -10476.090498043198539) < 1e-13, "{}", p.log10);
    }

    #[test]
    fn bonferroni_in_both_spaces() {
        let p = bonferroni(PValue::from_value(0.08125), 8);
        assert!(rel(p.value.unwrap(), 0.65) < 1e-15);
        assert_eq!(bonferroni(PValue::from_value(0.2), 8).value, Some(1.0));
        assert_eq!(bonferroni(PValue::from_value(0.2), 8).log10, 0.0);
        let bound = bonferroni(PValue::from_log10(-400.0), 8);
        assert!(bound.is_bound());
        assert!((bound.log10 - (-400.0 + 8f64.log10())).abs() < 1e-12);
        // A bound lifted above the floor becomes a number again.
        let lifted = bonferroni(PValue::from_log10(-300.5), 8);
        assert!(!lifted.is_bound());
        assert!(rel(lifted.value.unwrap(), 8.0 * 10f64.powf(-300.5)) < 1e-12);
        assert_eq!(bonferroni(PValue::from_value(0.01), 0).value, Some(0.01));
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(
            binom_test(0, 0, 0.5),
            Err(StatsError::Empty { .. })
        ));
        assert!(matches!(
            binom_test(11, 10, 0.5),
            Err(StatsError::SuccessesExceedTrials { .. })
        ));
        for p in [1.5, -0.1, f64::NAN] {
            assert!(binom_test(1, 10, p).is_err(), "{p}");
        }
    }

    #[test]
    fn pmf_matches_scipy() {
        // mpmath 1.4.1, mp.dps = 60, p = mpf(0.4905) (the double), q = 1 - p:
        // log(binomial(n, k)) + k log(p) + (n - k) log(q) for (53000, 108000), (3, 10, p = 0.3),
        // (0, 1_000_000); scipy 1.17.1's binom.logpmf(53000, 108000, 0.4905) is 1.6e-11 off.
        let b = Binomial::new(108_000, 0.4905);
        assert!(
            rel(b.ln_pmf(53_000), -6.0330883878173285473) < 1e-14,
            "{}",
            b.ln_pmf(53_000)
        );
        assert!(rel(Binomial::new(10, 0.3).ln_pmf(3), -1.321151277766888636) < 1e-14);
        assert!(
            rel(
                Binomial::new(1_000_000, 0.4905).ln_pmf(0),
                -674325.4263193575
            ) < 1e-14
        );
    }

    #[test]
    fn degenerate_null_follows_r() {
        // R 4.x source of binom.test: `if (p == 0) (x == 0) else if (p == 1) (x == n)`.
        assert_eq!(binom_test(0, 10, 0.0).unwrap().value, Some(1.0));
        assert!(binom_test(1, 10, 0.0).unwrap().is_bound());
        assert_eq!(binom_test(10, 10, 1.0).unwrap().value, Some(1.0));
        assert!(binom_test(9, 10, 1.0).unwrap().is_bound());
        assert!(binom_test(3, 10, 1.5).is_err());
        assert!(binom_test(3, 10, -0.1).is_err());
    }
}
