//! briscola: the Giacomelli (2026) Monte Carlo study of two-player Briscola as a reproducible,
//! cached stage pipeline.
//!
//! Code map (core pure, edges thin). Each module may use only the modules listed after it;
//! dependencies point one way, from the edges to the core:
//! - [`game`]: cards, deck, Proposition 1, one game's play, and the interface a seat decides
//!   through ([`game::Policy`], [`game::SeatView`]). Uses nothing else. No I/O, no clock, no
//!   global RNG. The crate's only `unsafe` is here, in the batch path's AVX-512 kernel
//!   ([`game::play_keyed_batch`]: gathers and loads from tables whose bounds its indices keep),
//!   chosen at run time and equal to [`game::play_keyed`] game for game.
//! - [`solve`]: exact search over open positions: the two-player minimax solver (alpha-beta
//!   with a transposition table) and the N-player trick-feasibility search (`briscola solve`).
//!   Uses `game`.
//! - [`stats`]: Wilson intervals, chi-square, exact binomial tests, power, correlations,
//!   logistic regression and its cluster-robust covariance. Uses nothing else (pure numerics).
//! - [`policy`]: implementations of [`game::Policy`] (greedy, hoarder, counter, the `search`
//!   agent, the `onnx` policy networks run by tract) and their serialisable specifications.
//!   Uses `game`, `solve`.
//! - [`tournament`]: matchups, deal sources (the paper's .NET stream, ChaCha), parallel play,
//!   the shard tables (Parquet: two-player and team studies, and the seat tables of a rules
//!   league's seatings) and their CSV export. Uses `game`, `policy`.
//! - [`table`]: one game step by step: traced decisions with the rule that fired, game
//!   records, a study's game found again, the interactive game. Uses `game`, `policy`,
//!   `tournament`.
//! - [`results`]: the analysis results contract (what `results.json` holds and what figures and
//!   the report read). Uses `game` (a league's rules), `policy`, `stats`.
//! - [`analysis`]: shard counts (polars), study tests and the regression, league pairs, fits and
//!   three-player standings, assembled into [`results`]. Uses `game`, `stats`, `results`.
//! - [`plot`]: the figures (plotters). Uses `results`.
//! - [`report`]: the paper's published figures, the scorecard, findings, provenance, the
//!   templates' context and rendering. Uses `results`, `plot`, `policy`, `stats`; never
//!   `pipeline` (the render stage adapts pipeline records into report types).
//! - [`pipeline`]: `pipeline.toml` ([`pipeline::config::Config`]), jobs and stages, cache keys,
//!   the content store, the lock file, the runner. Uses everything above; nothing uses it.
//! - `cli` (in the binary): argument parsing and exit codes. Uses the library only.
//!
//! Invariant of the whole crate: the same `pipeline.toml` gives byte-identical hashed outputs on
//! any machine and any thread count.

pub mod analysis;
pub mod game;
pub mod pipeline;
pub mod plot;
pub mod policy;
pub mod report;
pub mod results;
pub mod solve;
pub mod stats;
pub mod table;
pub mod tournament;

#[cfg(test)]
mod code_map;
