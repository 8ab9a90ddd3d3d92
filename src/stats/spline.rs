//! R's interpolation primitives, ported for `confint` on a glm: `spline(x, y, n, method = "fmm")`
//! (Forsythe, Malcolm and Moler's cubic spline, R's `splines.c`) and `approx(x, y, xout)`
//! (linear interpolation, `rule = 1`), with R's `regularize.values` (sort by x, average ties).
//!
//! Invariant: for the same inputs the outputs follow R 4.2.2's arithmetic step by step (same
//! operation order), so values agree with R's to the last few bits, not merely to a tolerance.

/// `(x, y)` sorted by x with tied x values collapsed to the mean of their y (R's
/// `regularize.values(x, y, mean)`). Non-finite pairs are dropped, as R drops NAs.
pub fn regularize(x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut pairs: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(|(&a, &b)| (a, b))
        .collect();
    // R's order() is stable: ties keep their input order.
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut xs, mut ys) = (
        Vec::with_capacity(pairs.len()),
        Vec::with_capacity(pairs.len()),
    );
    let mut i = 0;
    while i < pairs.len() {
        let mut j = i + 1;
        while j < pairs.len() && pairs[j].0 == pairs[i].0 {
            j += 1;
        }
        let sum: f64 = pairs[i..j].iter().map(|p| p.1).sum();
        xs.push(pairs[i].0);
        ys.push(if j - i == 1 {
            pairs[i].1
        } else {
            sum / (j - i) as f64
        });
        i = j;
    }
    (xs, ys)
}

/// The coefficients of R's "fmm" spline through sorted, distinct `x`: on [x_i, x_{i+1}] the
/// spline is y_i + dx (b_i + dx (c_i + dx d_i)).
struct FmmSpline {
    x: Vec<f64>,
    y: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    d: Vec<f64>,
}

impl FmmSpline {
    /// R's `fmm_spline` (splines.c), 0-based.
    fn new(x: Vec<f64>, y: Vec<f64>) -> FmmSpline {
        let n = x.len();
        let (mut b, mut c, mut d) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        if n < 2 {
            return FmmSpline { x, y, b, c, d };
        }
        if n < 3 {
            let t = y[1] - y[0];
            b[0] = t / (x[1] - x[0]);
            b[1] = b[0];
            return FmmSpline { x, y, b, c, d };
        }
        let nm1 = n - 1;
        // Tridiagonal system: b = diagonal, d = off-diagonal, c = right-hand side.
        d[0] = x[1] - x[0];
        c[1] = (y[1] - y[0]) / d[0];
        for i in 1..nm1 {
            d[i] = x[i + 1] - x[i];
            b[i] = 2.0 * (d[i - 1] + d[i]);
            c[i + 1] = (y[i + 1] - y[i]) / d[i];
            c[i] = c[i + 1] - c[i];
        }
        // End conditions: third derivatives at the ends from divided differences.
        b[0] = -d[0];
        b[nm1] = -d[n - 2];
        c[0] = 0.0;
        c[nm1] = 0.0;
        if n > 3 {
            c[0] = c[2] / (x[3] - x[1]) - c[1] / (x[2] - x[0]);
            c[nm1] = c[n - 2] / (x[nm1] - x[n - 3]) - c[n - 3] / (x[n - 2] - x[n - 4]);
            c[0] = c[0] * d[0] * d[0] / (x[3] - x[0]);
            c[nm1] = -c[nm1] * d[n - 2] * d[n - 2] / (x[nm1] - x[n - 4]);
        }
        // Gaussian elimination.
        for i in 1..n {
            let t = d[i - 1] / b[i - 1];
            b[i] -= t * d[i - 1];
            c[i] -= t * c[i - 1];
        }
        // Backward substitution.
        c[nm1] /= b[nm1];
        for i in (0..nm1).rev() {
            c[i] = (c[i] - d[i] * c[i + 1]) / b[i];
        }
        // Polynomial coefficients.
        b[nm1] = (y[nm1] - y[n - 2]) / d[n - 2] + d[n - 2] * (c[n - 2] + 2.0 * c[nm1]);
        for i in 0..nm1 {
            b[i] = (y[i + 1] - y[i]) / d[i] - d[i] * (c[i + 1] + 2.0 * c[i]);
            d[i] = (c[i + 1] - c[i]) / d[i];
            c[i] *= 3.0;
        }
        c[nm1] *= 3.0;
        d[nm1] = d[n - 2];
        FmmSpline { x, y, b, c, d }
    }

    /// R's `spline_eval` for the fmm method at `u`.
    fn eval(&self, u: f64) -> f64 {
        let n = self.x.len();
        if n == 0 {
            return f64::NAN;
        }
        // Find i with x[i] <= u <= x[i+1] (binary search as R does; extrapolates at the ends).
        let (mut i, mut j) = (0usize, n);
        if !(u < self.x[0] || (n > 1 && self.x[1] < u)) {
            j = 1;
        }
        while j > i + 1 {
            let k = (i + j) / 2;
            if u < self.x[k] {
                j = k;
            } else {
                i = k;
            }
        }
        let dx = u - self.x[i];
        self.y[i] + dx * (self.b[i] + dx * (self.c[i] + dx * self.d[i]))
    }
}

/// R's `seq.int(from, to, length.out = n)` (filled from both ends, as R's C code does).
pub fn seq_length_out(from: f64, to: f64, n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    if n > 0 {
        v[0] = from;
    }
    if n > 1 {
        v[n - 1] = to;
    }
    if n > 2 {
        let by = (to - from) / (n - 1) as f64;
        for (i, slot) in v.iter_mut().enumerate().take(n - 1).skip(1) {
            *slot = if i < n / 2 {
                from + i as f64 * by
            } else {
                to - (n - 1 - i) as f64 * by
            };
        }
    }
    v
}

/// R's `spline(x, y)` with its defaults (`n = 3 * length(x)`, `method = "fmm"`, from min(x) to
/// max(x)): the evaluation grid and the spline's values on it.
///
/// ```
/// use briscola::stats::spline::r_spline;
/// // A cubic through four points is reproduced exactly by the fmm spline.
/// let x = [0.0, 1.0, 2.0, 3.0];
/// let y: Vec<f64> = x.iter().map(|v: &f64| v * v * v - v).collect();
/// let (gx, gy) = r_spline(&x, &y);
/// assert_eq!(gx.len(), 12);
/// for (a, b) in gx.iter().zip(&gy) {
///     assert!((a * a * a - a - b).abs() < 1e-12);
/// }
/// ```
pub fn r_spline(x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n_out = 3 * x.len();
    let (xs, ys) = regularize(x, y);
    if xs.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let (lo, hi) = (xs[0], xs[xs.len() - 1]);
    let spline = FmmSpline::new(xs, ys);
    let grid = seq_length_out(lo, hi, n_out);
    let values = grid.iter().map(|&u| spline.eval(u)).collect();
    (grid, values)
}

/// R's `approx(x, y, xout)$y` (linear, `rule = 1`: NaN outside the range of x, where R gives NA).
pub fn r_approx(x: &[f64], y: &[f64], xout: f64) -> f64 {
    let (xs, ys) = regularize(x, y);
    let n = xs.len();
    if n == 0 || !xout.is_finite() || xout < xs[0] || xout > xs[n - 1] {
        return f64::NAN;
    }
    // R's approx1: bisection for x[i] <= v <= x[j], j = i + 1.
    let (mut i, mut j) = (0usize, n - 1);
    while i < j - 1 {
        let ij = (i + j) / 2;
        if xout < xs[ij] {
            j = ij;
        } else {
            i = ij;
        }
    }
    if n == 1 || xout == xs[j] {
        return ys[j];
    }
    if xout == xs[i] {
        return ys[i];
    }
    ys[i] + (ys[j] - ys[i]) * ((xout - xs[i]) / (xs[j] - xs[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regularize_sorts_and_averages_ties() {
        let (x, y) = regularize(&[3.0, 1.0, 3.0, 2.0], &[1.0, 5.0, 3.0, 7.0]);
        assert_eq!(x, vec![1.0, 2.0, 3.0]);
        assert_eq!(y, vec![5.0, 7.0, 2.0]);
    }

    #[test]
    fn seq_ends_exactly_and_is_even() {
        let s = seq_length_out(-1.0, 2.0, 7);
        assert_eq!(s[0], -1.0);
        assert_eq!(s[6], 2.0);
        for w in s.windows(2) {
            assert!((w[1] - w[0] - 0.5).abs() < 1e-15);
        }
    }

    /// R 4.2.2: `spline(c(0, 1, 2.5, 4, 5), c(0, 0.8, 2, 1.5, 3))` at its 15 grid points.
    #[test]
    fn fmm_spline_matches_r() {
        let (gx, gy) = r_spline(&[0.0, 1.0, 2.5, 4.0, 5.0], &[0.0, 0.8, 2.0, 1.5, 3.0]);
        assert_eq!(gx.len(), 15);
        let r = R_FMM_EXAMPLE;
        for (a, b) in gy.iter().zip(r) {
            assert!((a - b).abs() <= 1e-14 * b.abs().max(1.0), "{a} vs R {b}");
        }
    }

    /// R 4.2.2 Patched (2022-11-10 r83330), `sprintf("%.17g", sp$y)`.
    #[allow(clippy::excessive_precision)]
    const R_FMM_EXAMPLE: [f64; 15] = [
        0.0,
        0.21178024781341112,
        0.51259313249109173,
        0.87657631079642739,
        1.2675968346522284,
        1.6266066800870007,
        1.8914572631773798,
        2.0,
        1.9191540561802951,
        1.7321095955388959,
        1.5511245314452311,
        1.4884567772687305,
        1.6532636864269517,
        2.1317875364431496,
        3.0,
    ];

    #[test]
    fn approx_interpolates_linearly_and_refuses_to_extrapolate() {
        assert_eq!(r_approx(&[0.0, 2.0], &[1.0, 5.0], 0.5), 2.0);
        assert!(r_approx(&[0.0, 2.0], &[1.0, 5.0], 2.5).is_nan());
        assert_eq!(r_approx(&[2.0, 0.0], &[5.0, 1.0], 2.0), 5.0);
    }
}
