//! Cholesky factorisation of a small symmetric positive-definite matrix (the p x p information
//! matrix of a regression): solve and inverse.
//!
//! Invariant: a [`Cholesky`] exists only if every pivot kept more than [`Cholesky::MIN_RELATIVE_PIVOT`]
//! of its diagonal entry, i.e. no column is (numerically) a combination of the earlier ones.

use crate::stats::error::StatsError;

/// Lower-triangular L with A = L L', stored row-major in a k x k buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Cholesky {
    k: usize,
    l: Vec<f64>,
}

impl Cholesky {
    /// A pivot below this fraction of its diagonal entry (1 - R^2 of that column on the earlier
    /// ones, in the matrix's metric) is treated as zero: the matrix is singular.
    pub const MIN_RELATIVE_PIVOT: f64 = 1e-10;

    /// Factor the symmetric k x k matrix `a` (row-major; only the lower triangle is read).
    /// `what` names the caller in the error.
    pub fn factor(a: &[f64], k: usize, what: &'static str) -> Result<Cholesky, StatsError> {
        if a.len() != k * k {
            return Err(StatsError::LengthMismatch {
                what,
                left_name: "matrix entries",
                left: a.len(),
                right_name: "k * k",
                right: k * k,
            });
        }
        let mut l = vec![0.0; k * k];
        for j in 0..k {
            let diag = a[j * k + j];
            let pivot = diag - (0..j).map(|m| l[j * k + m] * l[j * k + m]).sum::<f64>();
            if !(diag.is_finite() && pivot.is_finite() && diag > 0.0)
                || pivot <= Self::MIN_RELATIVE_PIVOT * diag
            {
                return Err(StatsError::Singular {
                    what,
                    detail: format!("pivot {j} is {pivot:e} against a diagonal entry of {diag:e}"),
                });
            }
            let root = pivot.sqrt();
            l[j * k + j] = root;
            for i in j + 1..k {
                let s = a[i * k + j] - (0..j).map(|m| l[i * k + m] * l[j * k + m]).sum::<f64>();
                l[i * k + j] = s / root;
            }
        }
        Ok(Cholesky { k, l })
    }

    /// Solve A x = b (b has length k).
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let k = self.k;
        let mut y = vec![0.0; k];
        for i in 0..k {
            let s = b.get(i).copied().unwrap_or(0.0)
                - (0..i).map(|m| self.l[i * k + m] * y[m]).sum::<f64>();
            y[i] = s / self.l[i * k + i];
        }
        let mut x = vec![0.0; k];
        for i in (0..k).rev() {
            let s = y[i] - (i + 1..k).map(|m| self.l[m * k + i] * x[m]).sum::<f64>();
            x[i] = s / self.l[i * k + i];
        }
        x
    }

    /// A^{-1}, as k rows of k.
    pub fn inverse(&self) -> Vec<Vec<f64>> {
        let k = self.k;
        let mut columns = Vec::with_capacity(k);
        for j in 0..k {
            let mut e = vec![0.0; k];
            e[j] = 1.0;
            columns.push(self.solve(&e));
        }
        // Symmetric: average the two triangles so the result is exactly symmetric.
        (0..k)
            .map(|i| {
                (0..k)
                    .map(|j| 0.5 * (columns[j][i] + columns[i][j]))
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
#[allow(clippy::excessive_precision)] // reference values pasted verbatim from the tools
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts() {
        // A = [[4, 2, 0.4], [2, 5, 1], [0.4, 1, 3]]; numpy 2.4.6: np.linalg.solve(A, [1, 2, 3])
        let a = [4.0, 2.0, 0.4, 2.0, 5.0, 1.0, 0.4, 1.0, 3.0];
        let c = Cholesky::factor(&a, 3, "test").unwrap();
        let x = c.solve(&[1.0, 2.0, 3.0]);
        let want = [0.0625, 0.18928571428571428, 0.9285714285714285];
        for (g, w) in x.iter().zip(want) {
            assert!((g - w).abs() < 1e-14, "{x:?}");
        }
        let inv = c.inverse();
        for (i, a_row) in a.chunks(3).enumerate() {
            for j in 0..inv.len() {
                let prod: f64 = a_row.iter().zip(&inv).map(|(x, r)| x * r[j]).sum();
                let id = if i == j { 1.0 } else { 0.0 };
                assert!((prod - id).abs() < 1e-14);
            }
        }
    }

    #[test]
    fn singular_is_an_error() {
        // Third column = first + second.
        let a = [1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 2.0];
        assert!(matches!(
            Cholesky::factor(&a, 3, "test"),
            Err(StatsError::Singular { .. })
        ));
        assert!(Cholesky::factor(&[f64::NAN], 1, "test").is_err());
        assert!(Cholesky::factor(&[1.0, 2.0], 2, "test").is_err());
    }
}
