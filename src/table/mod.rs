//! One game at the table, step by step: games traced decision by decision (each seat's view,
//! its card and the rule that fired), game records, games of a study found again, and the
//! interactive game of `briscola play`.
//!
//! Invariant: every game here is played by the engine's own [`crate::game::play_game`] with
//! the engine's own policies; this module observes and drives seats, it never re-implements
//! a rule of the game or of a policy.

mod game_record;
mod play_session;
mod replay_error;
mod replay_view;
mod study_game;

pub use game_record::{
    DealRecord, GameRecord, RECORD_FORMAT, RECORD_VERSION, SeatName, SeatRecord, TrickEntry,
};
pub use play_session::{SessionEnd, SessionSetup, run_session};
pub use replay_error::ReplayError;
pub use replay_view::Replay;
pub use study_game::StudyGame;

// The traced and live games live in the core crate (`briscola_core::table`).
pub use briscola_core::table::card_text;
pub use briscola_core::table::{
    Decision, LiveEvent, LiveGame, ScriptFault, SeatActor, SeatPrompt, TracedGame, ViewSnapshot,
    trace_game, trace_game_with,
};
