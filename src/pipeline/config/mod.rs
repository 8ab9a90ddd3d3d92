//! The study file: `pipeline.toml` read once ([`config_input`]: capped, UTF-8) and validated
//! into a [`Config`] ([`pipeline_config`]) whose typed plan ([`resolved_config`]: policies,
//! [`study`]s, sweeps, leagues) is built once at load, with its sections' own files: the
//! `[executor]` ([`executor_config`]), leagues ([`league_config`]), sweeps ([`sweep_config`]),
//! the rules each study plays ([`study_rules`]) and the naming rule ([`study_names`]); errors
//! are placed by the locator and say what is valid through the field hints.
//!
//! Invariant: nothing here runs a job or touches `outputs/`: this part only reads the study
//! file and says, with the file, line, column and field, what is wrong in it.

pub mod config_error;
pub mod config_input;
pub mod executor_config;
mod field_hints;
pub mod league_config;
mod locator;
pub mod pipeline_config;
pub mod resolved_config;
pub mod study;
pub mod study_names;
pub mod study_rules;
pub mod sweep_config;

pub use pipeline_config::*;
