//! briscola: the Giacomelli (2026) Monte Carlo study of two-player Briscola as a reproducible,
//! cached stage pipeline.
//!
//! Code map (core pure, edges thin):
//! - [`game`]: cards, deck, Proposition 1, one game's play. No I/O, no clock, no global RNG.
//! - [`policy`]: the [`policy::Policy`] trait and one file per policy (greedy, hoarder, counter).
//! - [`tournament`]: matchups, deal sources (the paper's .NET stream, ChaCha), parallel play,
//!   the shard tables (Parquet) and their CSV export.
//! - [`pipeline`]: `pipeline.toml` ([`pipeline::config::Config`]), jobs and stages, cache keys,
//!   the content store, the lock file, the runner.
//! - [`stats`]: Wilson intervals, chi-square, exact binomial tests, power, logistic regression.
//! - [`plot`]: the figures (plotters).
//! - [`report`]: results assembly, the scorecard against the paper, the templates' context.
//! - `cli` (in the binary): argument parsing and exit codes.
//!
//! Invariant of the whole crate: the same `pipeline.toml` gives byte-identical hashed outputs on
//! any machine and any thread count.

pub mod analysis;
pub mod game;
pub mod pipeline;
pub mod plot;
pub mod policy;
pub mod report;
pub mod stats;
pub mod tournament;
