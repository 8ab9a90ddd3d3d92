//! The report: results assembly, the scorecard against the paper's figures, template context.
//!
//! Invariant: every number the templates print comes from the pipeline's results, never typed.

pub mod results;
