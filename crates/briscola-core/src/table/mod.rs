//! One game at the table, step by step: games traced decision by decision (each seat's view,
//! its card and the rule that fired), the live game a person or a program drives seat by seat,
//! and the cards' text.
//!
//! Invariant: every game here is played by the engine's own [`crate::game::play_game`] with
//! the engine's own policies; this module observes and drives seats, it never re-implements
//! a rule of the game or of a policy.

pub mod card_text;
mod live_game;
mod traced_game;

pub use live_game::{LiveEvent, LiveGame};
pub use traced_game::{
    Decision, ScriptFault, SeatActor, SeatPrompt, TracedGame, ViewSnapshot, trace_game,
    trace_game_with,
};
