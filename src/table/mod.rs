//! One game at the table, step by step: games traced decision by decision (each seat's view,
//! its card and the rule that fired), game records (two players, and tables of three to six),
//! games of a study, sweep or league found again, and the interactive games of `briscola play`.
//!
//! Invariant: every game here is played by the engine's own [`crate::game::play_game`] (or
//! [`crate::game::TableState`], for tables of any size) with
//! the engine's own policies; this module observes and drives seats, it never re-implements
//! a rule of the game or of a policy.

mod game_record;
mod model_paths;
mod play_session;
mod replay_error;
mod replay_view;
mod seat_game;
mod study_game;
mod table_game;
mod table_record;
mod table_replay_view;
mod table_session;

pub use game_record::{
    DealRecord, GameRecord, RECORD_FORMAT, RECORD_VERSION, SeatName, SeatRecord, TrickEntry,
};
pub use model_paths::{models_for_record, models_from_record};
pub use play_session::{SessionEnd, SessionSetup, run_session};
pub use replay_error::ReplayError;
pub use replay_view::Replay;
pub use seat_game::{SeatGame, SeatGameSetup, SeatPlayError, card_json, hide};
pub use study_game::StudyGame;
pub use table_game::{StoredShard, TableGame, open_shard};
pub use table_record::{
    AnyRecord, TABLE_RECORD_FORMAT, TABLE_RECORD_VERSION, TableRecord, TableSeatRecord,
    TableTrickEntry, load_record,
};
pub use table_replay_view::TableReplay;
pub use table_session::{
    TableGameDone, TableSessionEnd, TableSetup, count_line, run_table_session,
};

// The traced and live games live in the core crate (`briscola_core::table`).
pub use briscola_core::table::card_text;
pub use briscola_core::table::{
    Decision, LiveEvent, LiveGame, ScriptFault, SeatActor, SeatPrompt, TableActor, TableDecision,
    TableDraw, TableScriptFault, TableTraced, TracedGame, ViewSnapshot, trace_game,
    trace_game_with, trace_table,
};
