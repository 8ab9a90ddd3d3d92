//! One game at the table, step by step: games traced decision by decision (each seat's view,
//! its card and the rule that fired; two-player games and tables of any size), the live game a
//! person or a program drives seat by seat, and the cards' text.
//!
//! Invariant: every game here is played by the engine's own [`crate::game::play_game`] (or
//! [`crate::game::TableState`]) with
//! the engine's own policies; this module observes and drives seats, it never re-implements
//! a rule of the game or of a policy.

pub mod card_text;
mod live_game;
mod table_trace;
mod traced_game;

pub use live_game::{LiveEvent, LiveGame};
pub use table_trace::{
    TableActor, TableDecision, TableDraw, TableScriptFault, TableTraced, trace_table,
};
pub use traced_game::{
    Decision, ScriptFault, SeatActor, SeatPrompt, TracedGame, ViewSnapshot, trace_game,
    trace_game_with,
};
