//! TEMPORARY stand-ins until the stats branch lands (not committed).
#![allow(missing_docs, unused_variables)]
use super::p_value::PValue;
use crate::report::results::Interval;
#[derive(Debug, thiserror::Error)]
pub enum StatsError { #[error("pending")] Pending }
pub fn wilson(s: u64, n: u64, conf: f64) -> Result<Interval, StatsError> { let p = s as f64 / n as f64; Ok(Interval{rate:p, lo:p, hi:p}) }
pub struct Chi { pub statistic: f64, pub p_value: PValue }
pub fn chi_square_yates(t: [[u64;2];2]) -> Result<Chi, StatsError> { Ok(Chi{statistic:0.0, p_value: PValue::from_value(1.0)}) }
pub fn z_critical(a: f64) -> f64 { 0.0 }
pub fn binom_test(s: u64, n: u64, p: f64) -> Result<PValue, StatsError> { Ok(PValue::from_value(1.0)) }
pub fn bonferroni(p: PValue, m: u64) -> PValue { p }
pub fn power_normal_approx(d: f64, n: u64, a: f64) -> f64 { 0.0 }
pub fn cohens_h(a: f64, b: f64) -> f64 { 0.0 }
pub fn power_cohens_h(h: f64, n: u64, a: f64) -> f64 { 0.0 }
pub fn pearson(x: &[f64], y: &[f64]) -> Result<f64, StatsError> { Ok(0.0) }
pub fn spearman(x: &[f64], y: &[f64]) -> Result<f64, StatsError> { Ok(0.0) }
pub struct Fit { pub coefficients: Vec<f64>, pub std_errors: Vec<f64>, pub z: Vec<f64>, pub p_values: Vec<PValue>, pub odds_ratios: Vec<f64>, pub ci_lo: Vec<f64>, pub ci_hi: Vec<f64>, pub log_likelihood: f64, pub iterations: u64, pub max_abs_gradient: f64 }
pub fn fit_logistic(x: &ndarray::Array2<f64>, y: &[bool], c: f64) -> Result<Fit, StatsError> { Err(StatsError::Pending) }
