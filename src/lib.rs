//! briscola: the Giacomelli (2026) Monte Carlo study of two-player Briscola as a reproducible,
//! cached stage pipeline.
//!
//! Code map (core pure, edges thin). Each module may use only the modules listed after it;
//! dependencies point one way, from the edges to the core:
//! - [`game`], [`deal`], [`solve`], [`policy`]: re-exported from the core crate
//!   `briscola-core` (`crates/briscola-core`): cards, rules, engines, deal streams, the solver
//!   and the policies, pure and free of polars, tract, plotters and minijinja (its own code map
//!   says which of them uses which). Each module below names the ones it uses.
//! - [`files`]: user-named files: reads capped on the bytes actually read (devices and FIFOs
//!   refused) and the check of a path before a command writes it. Uses nothing else.
//! - [`stats`]: Wilson intervals, chi-square, exact binomial tests, power, correlations,
//!   logistic regression and its cluster-robust covariance. Uses nothing else (pure numerics).
//! - [`tournament`]: matchups, deal sources (the paper's .NET stream, ChaCha), parallel play,
//!   the shard tables (Parquet: two-player and team studies, and the seat tables of a rules
//!   league's seatings) and their CSV export. Uses `game`, `deal`, `policy`.
//! - [`table`]: one game step by step: traced decisions with the rule that fired (two players
//!   and tables of three to six), game records, a study's, sweep's or league's game found again,
//!   the interactive games (terminal and web). Uses `game`, `policy`, `tournament`, `files`.
//! - [`results`]: the analysis results contract (what `results.json` holds and what figures and
//!   the report read). Uses `game` (a league's rules), `policy`, `stats`.
//! - [`analysis`]: shard counts (polars), study tests and the regression, league pairs, fits and
//!   three-player standings, assembled into [`results`]. Uses `game`, `stats`, `results`.
//! - [`plot`]: the figures (plotters). Uses `results` only.
//! - [`report`]: the paper's published figures, the scorecard, findings, provenance, the
//!   templates' context and rendering. Uses `results`, `plot`, `policy`, `stats`; never
//!   `pipeline` (the render stage adapts pipeline records into report types).
//! - [`pipeline`]: `pipeline.toml` ([`pipeline::config::Config`]), jobs and stages, cache keys,
//!   the content store, the lock file, the runner, in four parts (`config`, `store`,
//!   `execution`, `stages`); no file of the crate imports a module that imports it back
//!   (`tests/it/code_map.rs`). Uses `game`, `policy`, `stats`,
//!   `tournament`, `results`, `analysis`, `plot`, `report`; nothing uses it (but the edges).
//! - [`serve`]: the web table (`briscola serve`): HTTP routes, sessions and the page, over
//!   `table`'s seat game. Uses `game`, `deal`, `policy`, `table`, `tournament`.
//! - `cli` (in the binary): argument parsing and exit codes. Uses the library only.
//!
//! Invariant of the whole crate: the same `pipeline.toml` gives byte-identical hashed outputs on
//! any machine and any thread count.

pub mod analysis;
pub mod files;
pub mod pipeline;
pub mod plot;
pub mod report;
pub mod results;
pub mod serve;
pub mod stats;
pub mod table;
pub mod tournament;

pub use briscola_core::{deal, game, policy, solve};
