//! Statistics of the paper's section 4, checked against R's algorithms through scipy and
//! statsmodels: Wilson intervals, the Yates chi-square, exact binomial tests with Bonferroni,
//! power, one-sided Clopper-Pearson bounds, correlations, and logistic regression (with profile intervals, and a cluster-robust
//! covariance checked against R's `sandwich`).
//!
//! Invariant: every function here is pure and deterministic (parallel sums are chunked and added
//! in a fixed order), and bad input is an [`StatsError`], never a panic.

pub mod binom_test;
pub mod chi_square;
pub mod cholesky;
pub mod clopper_pearson;
pub mod cluster_covariance;
pub mod correlation;
pub mod erfc;
pub mod error;
pub mod holm;
pub mod interval;
pub mod logistic;
pub mod normal_tail;
pub mod p_value;
pub mod paired_t;
pub mod power;
pub mod profile;
pub mod spline;
pub mod wilson;

pub use binom_test::{binom_test, bonferroni};
pub use chi_square::{ChiSquareTest, chi_square_1df_p, chi_square_sf, chi_square_yates};
pub use clopper_pearson::clopper_pearson_upper;
pub use cluster_covariance::{Cluster, cluster_covariance};
pub use correlation::{average_ranks, pearson, pearson_runs, spearman, spearman_runs};
pub use error::StatsError;
pub use holm::holm;
pub use interval::Interval;
pub use logistic::{
    Coefficient, LogisticFit, LogisticOptions, WarmStart, fit_grouped, fit_logistic,
    profile_grouped,
};
pub use normal_tail::{ln_erfc, normal_cdf, two_sided_normal_p, z_critical};
pub use p_value::PValue;
pub use paired_t::{PairedT, paired_t};
pub use power::{cohens_h, power_cohens_h, power_normal_approx};
pub use wilson::wilson;
