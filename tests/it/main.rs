//! The integration tests, as one test binary (one link step against polars instead of one per
//! file): each module is a feature area, driven through the real `briscola` binary or the public
//! library API.
//!
//! Invariant: every module uses the shared helpers in [`common`] to run the binary, so each test
//! works in its own temporary directory and never touches the checkout's `outputs/`.

mod common;

mod cli_safety;
mod cli_simulate;
mod cli_snapshots;
mod code_map;
mod command_safety;
mod config_errors;
mod crash_consistency;
mod exploit;
mod export_csv;
mod four_policy_recipe;
mod hostile_inputs;
mod keyed_engine;
mod league;
mod mixture_policy;
mod onnx_policy;
mod paper_study;
mod parallel_jobs;
mod pipeline_cache;
mod play_replay;
mod policy_lang;
mod random_policy;
mod record_fuzz;
mod replay_paper;
mod report_browser;
mod report_layout;
mod rules_league;
mod serve_table;
mod slurm;
mod solve_search;
mod sweeps;
mod table_games;
mod variants;
