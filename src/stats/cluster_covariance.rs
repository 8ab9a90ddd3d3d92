//! The cluster-robust ("sandwich") covariance of a grouped logistic fit, for data whose rows are
//! not independent within a cluster (a three-player league's comparisons: the three of one
//! game, and the six seatings of one deal, share the deal).
//!
//! With `C = (X'WX)^{-1}` the fit's model-based covariance and, for cluster `g`, the score
//! `u_g = sum_r x_r (s_gr - t_gr p_r)` (row `r`'s successes and trials within the cluster,
//! `x_r` with its leading 1, `p_r` the fitted probability), the covariance is
//! `G / (G - 1) * C (sum_g u_g u_g') C` over `G` clusters: R's `sandwich::vcovCL(fit, cluster)`
//! on the ungrouped data (its defaults for a glm: type "HC0", `cadjust = TRUE`).
//!
//! Invariant: the clusters are summed one after another in the order given, so the result does
//! not depend on the thread count; bad input is a [`StatsError`], never a panic.

use ndarray::Array2;

use super::error::StatsError;
use super::logistic::LogisticFit;

/// Clusters that share their counts: `weight` clusters each with `counts[r] = [successes,
/// trials]` of design row `r` (every row listed, 0 trials for a row the cluster lacks).
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    /// Per design row: successes and trials within the cluster.
    pub counts: Vec<[u64; 2]>,
    /// How many clusters have exactly these counts.
    pub weight: u64,
}

impl Cluster {
    /// How many clusters `clusters` stands for (`G`): a cluster with no trials has no rows in
    /// the ungrouped data, so it is not counted.
    pub fn counted(clusters: &[Cluster]) -> u64 {
        clusters
            .iter()
            .filter(|c| c.counts.iter().any(|&[_, t]| t > 0))
            .map(|c| c.weight)
            .sum()
    }
}

/// The cluster-robust covariance (intercept first, as [`LogisticFit::covariance`]) of `fit`,
/// fitted to `x_rows` (no intercept column) on grouped data whose counts split into
/// `clusters` (summed over clusters, weights included, they are the counts the fit saw). A
/// cluster with no trials is not counted in `G` (ungrouped, it has no rows).
///
/// ```
/// use briscola::stats::{Cluster, LogisticOptions, cluster_covariance, fit_grouped};
/// let x = ndarray::array![[1.0], [-1.0]];
/// // Clusters whose rows agree: the robust variance exceeds the model-based one.
/// let cluster = |a, b| Cluster { counts: vec![[a, 4], [b, 4]], weight: 1 };
/// let clusters = [cluster(3, 1), cluster(2, 2), cluster(4, 0)];
/// let fit = fit_grouped(&x, &[9, 3], &[12, 12], &LogisticOptions::default()).unwrap();
/// let v = cluster_covariance(&x, &fit, &clusters).unwrap();
/// assert!(v[1][1] > fit.covariance[1][1]);
/// ```
pub fn cluster_covariance(
    x_rows: &Array2<f64>,
    fit: &LogisticFit,
    clusters: &[Cluster],
) -> Result<Vec<Vec<f64>>, StatsError> {
    let what = "cluster_covariance";
    let k = fit.coefficients.len();
    if x_rows.ncols() + 1 != k {
        return Err(StatsError::LengthMismatch {
            what,
            left_name: "design columns + intercept",
            left: x_rows.ncols() + 1,
            right_name: "coefficients",
            right: k,
        });
    }
    let g = Cluster::counted(clusters);
    if g < 2 {
        return Err(StatsError::TooFew {
            what,
            n: g as usize,
            needed: 2,
        });
    }
    let rows: Vec<Vec<f64>> = x_rows
        .rows()
        .into_iter()
        .map(|r| std::iter::once(1.0).chain(r.iter().copied()).collect())
        .collect();
    let p: Vec<f64> = rows
        .iter()
        .map(|x| {
            let eta: f64 = x
                .iter()
                .zip(&fit.coefficients)
                .map(|(a, c)| a * c.estimate)
                .sum();
            1.0 / (1.0 + (-eta).exp())
        })
        .collect();
    let mut meat = vec![vec![0.0; k]; k];
    for Cluster { counts, weight } in clusters {
        if counts.len() != rows.len() {
            return Err(StatsError::LengthMismatch {
                what,
                left_name: "x rows",
                left: rows.len(),
                right_name: "a cluster's rows",
                right: counts.len(),
            });
        }
        let mut u = vec![0.0; k];
        for ((x, &[s, t]), p) in rows.iter().zip(counts).zip(&p) {
            if s > t {
                return Err(StatsError::SuccessesExceedTrials {
                    what,
                    successes: s,
                    trials: t,
                });
            }
            let resid = s as f64 - t as f64 * p;
            for (uj, xj) in u.iter_mut().zip(x) {
                *uj += xj * resid;
            }
        }
        for (i, row) in meat.iter_mut().enumerate() {
            for (j, m) in row.iter_mut().enumerate() {
                *m += *weight as f64 * u[i] * u[j];
            }
        }
    }
    let g = g as f64;
    let c = &fit.covariance;
    let product = |a: &[Vec<f64>], b: &[Vec<f64>]| -> Vec<Vec<f64>> {
        (0..k)
            .map(|i| {
                (0..k)
                    .map(|j| (0..k).map(|l| a[i][l] * b[l][j]).sum())
                    .collect()
            })
            .collect()
    };
    let sandwich = product(&product(c, &meat), c);
    Ok(sandwich
        .into_iter()
        .map(|row| row.into_iter().map(|v| v * g / (g - 1.0)).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{LogisticOptions, fit_grouped};

    /// Ten clusters (deals) of a three-policy Bradley-Terry design (reference `a`; rows a-b,
    /// b-a, a-c, c-a, b-c, c-b), up to three comparisons per row and deal.
    const S: [[u64; 6]; 10] = [
        [2, 2, 3, 1, 0, 0],
        [2, 3, 3, 2, 2, 1],
        [1, 0, 2, 1, 1, 1],
        [0, 1, 1, 1, 3, 2],
        [3, 1, 1, 3, 2, 1],
        [3, 1, 3, 3, 2, 0],
        [2, 1, 0, 1, 0, 1],
        [1, 1, 2, 0, 0, 1],
        [3, 1, 3, 2, 2, 1],
        [2, 1, 1, 1, 1, 1],
    ];
    const T: [[u64; 6]; 10] = [
        [3, 2, 3, 2, 2, 2],
        [2, 3, 3, 2, 2, 3],
        [3, 3, 3, 3, 2, 3],
        [2, 3, 3, 3, 3, 3],
        [3, 3, 3, 3, 3, 3],
        [3, 2, 3, 3, 3, 3],
        [3, 3, 3, 2, 3, 3],
        [2, 2, 3, 3, 3, 3],
        [3, 3, 3, 3, 2, 2],
        [3, 3, 3, 3, 3, 3],
    ];

    fn design() -> Array2<f64> {
        ndarray::array![
            [-1.0, 0.0],
            [1.0, 0.0],
            [0.0, -1.0],
            [0.0, 1.0],
            [1.0, -1.0],
            [-1.0, 1.0]
        ]
    }

    fn clusters() -> Vec<Cluster> {
        S.iter()
            .zip(&T)
            .map(|(s, t)| Cluster {
                counts: s.iter().zip(t).map(|(&s, &t)| [s, t]).collect(),
                weight: 1,
            })
            .collect()
    }

    fn fitted() -> LogisticFit {
        let sum = |m: &[[u64; 6]; 10]| -> Vec<u64> {
            (0..6).map(|r| m.iter().map(|row| row[r]).sum()).collect()
        };
        fit_grouped(&design(), &sum(&S), &sum(&T), &LogisticOptions::default()).unwrap()
    }

    /// Expected values (`tests/data/league_cluster_vcov.R`), R 4.2.2 on the same data ungrouped
    /// to one row per comparison with its deal, `fit <- glm(y ~ x1 + x2, family = binomial,
    /// control = glm.control(epsilon = 1e-14, maxit = 100))`, printed with
    /// `options(digits = 17)` (here to 15 significant digits):
    /// - `exact`: the formula by hand at the optimum, `B <- solve(t(X) %*% (X * p * (1 - p)))`,
    ///   `u_g <- colSums(X[deal == g, ] * (y - p)[deal == g])`,
    ///   `G / (G - 1) * B %*% (sum_g u_g u_g') %*% B`;
    /// - `vcov_cl`: sandwich 3.0-2's `vcovCL(fit, cluster = deal, type = "HC0")` (Debian's
    ///   r-cran-sandwich), whose bread is `vcov(fit)`: R's weights of the last IRLS step, one
    ///   iterate behind the optimum, so it agrees to about 8 digits (as `vcov(fit)[2, 2]` =
    ///   0.050088211497 does with the exact 0.050088211897).
    #[test]
    fn equals_the_sandwich_by_hand_and_r_vcov_cl() {
        let fit = fitted();
        let want_coef = [0.105746531964806, -0.27704891461656, -0.407882986484233];
        for (c, w) in fit.coefficients.iter().zip(want_coef) {
            assert!((c.estimate - w).abs() < 1e-9, "{} vs {w}", c.estimate);
        }
        let exact = [
            [0.0647750268845308, 0.0137913109202012, -0.0187341459663194],
            [0.0137913109202012, 0.0231210884159388, 0.00884810495950386],
            [-0.0187341459663193, 0.00884810495950385, 0.0345019847930459],
        ];
        let vcov_cl = [
            [0.064775027066873, 0.0137913108174048, -0.0187341460317685],
            [0.0137913108174048, 0.0231210884957192, 0.00884810503221553],
            [-0.0187341460317685, 0.00884810503221553, 0.034501985090052],
        ];
        let v = cluster_covariance(&design(), &fit, &clusters()).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let rel = |w: f64| (v[i][j] - w).abs() / w.abs();
                assert!(rel(exact[i][j]) < 1e-10, "[{i}][{j}]: {}", v[i][j]);
                assert!(rel(vcov_cl[i][j]) < 1e-7, "[{i}][{j}]: {}", v[i][j]);
            }
        }
        let m = fit.covariance[1][1];
        assert!((m - 0.0500882118974418).abs() < 1e-12, "{m}");
    }

    /// A weight of 2 is the cluster listed twice.
    #[test]
    fn a_weight_counts_identical_clusters() {
        let fit = fitted();
        let mut listed = clusters();
        listed.push(listed[4].clone());
        let mut weighted = clusters();
        weighted[4].weight = 2;
        let (a, b) = (
            cluster_covariance(&design(), &fit, &listed).unwrap(),
            cluster_covariance(&design(), &fit, &weighted).unwrap(),
        );
        for i in 0..3 {
            for j in 0..3 {
                assert!(
                    (a[i][j] - b[i][j]).abs() <= 1e-15 * a[i][j].abs(),
                    "[{i}][{j}]"
                );
            }
        }
    }

    #[test]
    fn one_cluster_or_a_ragged_cluster_is_an_error() {
        let fit = fitted();
        let c = clusters();
        assert!(matches!(
            cluster_covariance(&design(), &fit, &c[..1]),
            Err(StatsError::TooFew { n: 1, .. })
        ));
        let mut ragged = c.clone();
        ragged[3].counts.pop();
        assert!(matches!(
            cluster_covariance(&design(), &fit, &ragged),
            Err(StatsError::LengthMismatch { .. })
        ));
        let mut bad = c;
        bad[0].counts[0] = [4, 3];
        assert!(matches!(
            cluster_covariance(&design(), &fit, &bad),
            Err(StatsError::SuccessesExceedTrials { .. })
        ));
    }
}
