//! briscola-core: the game of Briscola and its players, pure: cards, rules, the engines, the
//! policies, the solver and the deal streams. It is what every other part of briscola (the
//! study pipeline, the CLI, the Python package) builds on, and it builds in about a minute.
//!
//! Code map (each module may use only the modules listed after it; a tidy test in the
//! workspace, `tests/it/code_map.rs`, checks it over the source text):
//! - [`game`]: cards, deck, Proposition 1, one game's play (scalar, keyed and batch engines),
//!   and the interface a seat decides through ([`game::Policy`], [`game::SeatView`]). Uses
//!   nothing else. The crate's only `unsafe` is here, in the batch path's SIMD kernel (one
//!   kernel over a lane abstraction, for AVX-512 and AVX2; [`game::play_keyed_batch`]: gathers
//!   and loads from tables whose bounds its indices keep), its path ([`game::EnginePath`])
//!   chosen at run time and equal to [`game::play_keyed`] game for game.
//! - [`deal`]: the deal streams: the paper's .NET `System.Random` stream (with its jump ahead)
//!   and ChaCha8 per game. Uses `game`.
//! - [`solve`]: exact search over open positions: the two-player minimax solver (alpha-beta
//!   with a transposition table) and the N-player trick-feasibility search; and the exact
//!   solver of a reduced two-player Briscola (`solve::reduced`: CFR+, best responses,
//!   exploitability of a [`game::Policy`]). Uses `game`.
//! - [`policy`]: implementations of [`game::Policy`] (greedy, hoarder, counter, the policy
//!   language, switch, epsilon, random, the `search` agent, the `onnx` policy networks) and
//!   their serialisable specifications. Uses `game`, `solve`.
//! - [`table`]: one game step by step: traced decisions with the rule that fired, and the live
//!   game a person or a program drives seat by seat. Uses `game`, `policy`.
//!
//! No module does I/O other than reading an ONNX model file a policy definition names, reads a
//! clock or uses a global random generator. Dependencies: rand, rand_chacha, rayon (a deal
//! stream's chunks), serde, thiserror, sha2/hex (model hashes), arrayvec (the exploit agent's
//! search states on the stack) and, behind the `onnx` feature, tract.
//!
//! Invariant of the whole crate: a game is a function of its deck, its policies' definitions
//! and their seeds, the same on every machine, CPU and thread count.

pub mod deal;
pub mod game;
pub mod policy;
pub mod solve;
pub mod table;
