//! Profile-likelihood confidence intervals as R 4.2.2 computes them for `confint()` on a glm
//! (MASS's `profile.glm` then `confint.profile.glm`): for each coefficient, the signed root
//! deviance z is evaluated on a grid of steps of `zmax / 5` Wald standard errors either side of
//! the estimate (at most 9 steps a side, stopping once |z| >= zmax, where
//! zmax = Phi^{-1}(1 - alpha/2) with alpha = (1 - level) / 4), an fmm spline of z against the
//! coefficient is drawn through those points and evaluated at `3 n` grid points, and the interval
//! is where linear interpolation of that curve crosses the normal quantiles of the level.
//!
//! Invariant: the grid, the spline and the interpolation follow R's code step by step, so the
//! bounds agree with R's printed digits (they are R's approximation of the exact profile roots,
//! not the roots themselves); a profile that finds a better optimum than the fit is an error,
//! as in R.

use super::error::StatsError;
use super::normal_tail::z_critical;
use super::spline::{r_approx, r_spline};

/// MASS's `maxsteps`: at most `MAX_STEPS - 1` grid points each side.
const MAX_STEPS: usize = 10;

/// The profile of one coefficient: (value, signed root deviance z) pairs, sorted by z.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Coefficient values, in the order of `z`.
    pub values: Vec<f64>,
    /// Signed root deviance, ascending.
    pub z: Vec<f64>,
}

/// Profile coefficient `index` of a fit: `estimate` and `std_error` from the fit,
/// `deviance_rise(value)` the rise in deviance (2 (ll_hat - ll)) when the coefficient is held at
/// `value` and the others re-fitted. `level` is the interval's level (0.95).
pub fn profile<F>(
    estimate: f64,
    std_error: f64,
    level: f64,
    mut deviance_rise: F,
) -> Result<Profile, StatsError>
where
    F: FnMut(f64) -> Result<f64, StatsError>,
{
    let alpha = (1.0 - level) / 4.0;
    let zmax = z_critical(alpha)?;
    let del = zmax / 5.0;
    let mut points = vec![(0.0, estimate)];
    for sgn in [-1.0, 1.0] {
        let mut step = 0;
        let mut z: f64 = 0.0;
        loop {
            step += 1;
            if step >= MAX_STEPS || z.abs() >= zmax {
                break;
            }
            let bi = estimate + sgn * step as f64 * del * std_error;
            let mut zz = deviance_rise(bi)?;
            if zz > -1e-3 {
                zz = zz.max(0.0);
            } else {
                return Err(StatsError::NotConverged {
                    what: "profile",
                    iterations: step,
                    max_score: -zz,
                });
            }
            z = sgn * zz.sqrt();
            points.push((z, bi));
        }
    }
    // R: order(zi), a stable sort.
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(Profile {
        values: points.iter().map(|p| p.1).collect(),
        z: points.iter().map(|p| p.0).collect(),
    })
}

/// R's `confint.profile.glm` for one profile: (lower, upper) on the coefficient's scale, NaN
/// where the profile does not reach the cutoff (R's NA).
pub fn profile_interval(p: &Profile, level: f64) -> Result<(f64, f64), StatsError> {
    let a = (1.0 - level) / 2.0;
    let upper_cut = z_critical(2.0 * a)?;
    let (sx, sy) = r_spline(&p.values, &p.z);
    Ok((
        r_approx(&sy, &sx, -upper_cut),
        r_approx(&sy, &sx, upper_cut),
    ))
}
