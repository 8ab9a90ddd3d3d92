//! Statistics of the paper's section 4, checked against R, scipy and statsmodels.
//!
//! Invariant: every function here is pure and deterministic.

pub mod p_value;
mod pending;
pub use pending::*;
