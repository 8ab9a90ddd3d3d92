//! [`round_sig`]: the rounding every stage applies to the floats it writes, and sweeps to their
//! grid values, so outputs do not depend on a libm's last bit.
//!
//! Invariant: the same float in gives the same float out on every machine; non-finite values
//! pass unchanged.

/// Floats computed through the platform's libm (`exp`, `ln`, ...) may differ in the last bit
/// between C libraries or CPUs; keeping 12 significant digits (far beyond any printed figure)
/// makes the outputs' bytes the same wherever such a last-bit difference occurs.
pub const SIGNIFICANT_DIGITS: usize = 12;

/// `x` rounded to [`SIGNIFICANT_DIGITS`] significant digits (non-finite values unchanged).
pub fn round_sig(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{:.*e}", SIGNIFICANT_DIGITS - 1, x)
        .parse()
        .unwrap_or(x)
}
