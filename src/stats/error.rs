//! The error type of every statistics routine in [`crate::stats`].
//!
//! Invariant: every variant names the routine that failed (`what`) and carries the offending
//! values, so a message is actionable without a backtrace.

use thiserror::Error;

/// Why a statistic could not be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum StatsError {
    /// No observations (n = 0, empty slice, empty design).
    #[error("{what}: no observations")]
    Empty {
        /// The routine.
        what: &'static str,
    },

    /// More successes than trials.
    #[error("{what}: {successes} successes out of {trials} trials")]
    SuccessesExceedTrials {
        /// The routine.
        what: &'static str,
        /// Successes given.
        successes: u64,
        /// Trials given.
        trials: u64,
    },

    /// A parameter outside its domain (a confidence level, a probability, a level alpha...).
    #[error("{what}: {name} = {value} is outside {domain}")]
    InvalidParameter {
        /// The routine.
        what: &'static str,
        /// The parameter's name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The allowed domain, in words.
        domain: &'static str,
    },

    /// Inputs that must have the same length do not.
    #[error("{what}: length mismatch ({left_name} has {left}, {right_name} has {right})")]
    LengthMismatch {
        /// The routine.
        what: &'static str,
        /// First input's name.
        left_name: &'static str,
        /// First input's length.
        left: usize,
        /// Second input's name.
        right_name: &'static str,
        /// Second input's length.
        right: usize,
    },

    /// Too few observations for the statistic.
    #[error("{what}: {n} observations, at least {needed} needed")]
    TooFew {
        /// The routine.
        what: &'static str,
        /// Observations given.
        n: usize,
        /// Minimum needed.
        needed: usize,
    },

    /// A NaN or infinite input value.
    #[error("{what}: non-finite value {value} in {input} at index {index}")]
    NonFinite {
        /// The routine.
        what: &'static str,
        /// Which input.
        input: &'static str,
        /// Position of the first bad value.
        index: usize,
        /// The bad value.
        value: f64,
    },

    /// A variable is constant, so the statistic is undefined.
    #[error("{what}: {input} has zero variance")]
    ZeroVariance {
        /// The routine.
        what: &'static str,
        /// Which input.
        input: &'static str,
    },

    /// A contingency table with an empty row or column: expected counts are zero.
    #[error("{what}: table {table:?} has a zero row or column total")]
    ZeroMargin {
        /// The routine.
        what: &'static str,
        /// The table, row-major.
        table: [[u64; 2]; 2],
    },

    /// The outcome takes one value only, so no logistic model is identified.
    #[error("{what}: every one of the {n} outcomes is {class}; both classes are needed")]
    OneClass {
        /// The routine.
        what: &'static str,
        /// Observations.
        n: u64,
        /// The only outcome present.
        class: bool,
    },

    /// X'X or X'WX is singular: the design (with its intercept) is rank-deficient.
    #[error("{what}: singular matrix ({detail}); the design with intercept is rank-deficient")]
    Singular {
        /// The routine.
        what: &'static str,
        /// Which pivot failed, and how.
        detail: String,
    },

    /// Perfect or quasi-complete separation: the maximum-likelihood estimate does not exist.
    #[error(
        "{what}: perfect or quasi-complete separation ({detail}); the maximum-likelihood estimate does not exist"
    )]
    Separation {
        /// The routine.
        what: &'static str,
        /// The evidence (fitted probabilities, iterations, coefficients).
        detail: String,
    },

    /// Newton-Raphson did not converge.
    #[error(
        "{what}: no convergence after {iterations} Newton iterations (max |score| {max_score:e})"
    )]
    NotConverged {
        /// The routine.
        what: &'static str,
        /// Iterations run.
        iterations: usize,
        /// The largest absolute score component at the last iterate.
        max_score: f64,
    },
}

impl StatsError {
    /// `successes` of `trials` as a binomial count: [`StatsError::Empty`] when there are no
    /// trials, [`StatsError::SuccessesExceedTrials`] when there are more successes than trials.
    pub fn check_counts(what: &'static str, successes: u64, trials: u64) -> Result<(), StatsError> {
        if trials == 0 {
            return Err(StatsError::Empty { what });
        }
        if successes > trials {
            return Err(StatsError::SuccessesExceedTrials {
                what,
                successes,
                trials,
            });
        }
        Ok(())
    }
}
