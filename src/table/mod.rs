//! One game at the table, step by step: games traced decision by decision (each seat's view,
//! its card and the rule that fired), game records, games of a study found again, and the
//! interactive game of `briscola play`.
//!
//! Invariant: every game here is played by the engine's own [`crate::game::play_game`] with
//! the engine's own policies; this module observes and drives seats, it never re-implements
//! a rule of the game or of a policy.

pub mod card_text;
mod game_record;
mod live_game;
mod play_session;
mod replay_error;
mod replay_view;
mod study_game;
mod traced_game;

pub use game_record::{
    DealRecord, GameRecord, RECORD_FORMAT, RECORD_VERSION, SeatName, SeatRecord, TrickEntry,
};
pub use live_game::{LiveEvent, LiveGame};
pub use play_session::{SessionEnd, SessionSetup, run_session};
pub use replay_error::ReplayError;
pub use replay_view::Replay;
pub use study_game::StudyGame;
pub use traced_game::{
    Decision, ScriptFault, SeatActor, SeatPrompt, TracedGame, ViewSnapshot, trace_game,
    trace_game_with,
};
