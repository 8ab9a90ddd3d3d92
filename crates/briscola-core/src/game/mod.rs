//! The rules of Briscola: cards, the deck, the trick rule, the rules of a variant as a value
//! ([`Rules`]), one game's play (the specialised two-player [`play_game`], its table-driven
//! twin [`play_keyed`] for policies given as [`KeyTables`] with its batch path
//! [`play_keyed_batch`] (games in SIMD lanes, on the [`EnginePath`] chosen at run time), and
//! the general [`play_table`])
//! and the interface a seat decides through ([`Policy`], [`SeatView`]).
//!
//! Invariant: everything here is pure: no I/O, no clock, no global random generator. A game is a
//! function of its rules, its deck, the seats' policies and their random streams ([`SeatRng`]).

mod card;
mod card_list;
mod deck;
mod engine_path;
mod key_tables;
mod keyed_batch;
mod keyed_play;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod play;
mod policy;
mod rules;
mod seat_rng;
mod seat_view;
mod table_outcome;
mod table_play;
mod table_state;
mod table_trick;
mod trick;
mod trump_use;

pub use card::{Card, Suit};
pub(crate) use card_list::{CardList, remove_in_order};
pub use deck::Deck;
pub use engine_path::{EnginePath, EnginePathError, engine_path, select_engine_path};
pub use key_tables::KeyTables;
pub use keyed_batch::{BATCH_LANES, batch_lanes_available, play_keyed_batch, play_keyed_batch_on};
pub use keyed_play::play_keyed;
pub use play::{GameOutcome, NoTricks, Seat, TrickRecord, TrickSink, play_game};
pub use policy::Policy;
pub use rules::{DrawOrder, PLAYER_COUNTS, REMOVED_TWO, Rules, RulesError, RulesSpec, TrumpRule};
pub use seat_rng::SeatRng;
pub use seat_view::SeatView;
pub use table_outcome::TableOutcome;
pub use table_play::play_table;
pub use table_state::deal_order;
pub use table_state::{HandText, IllegalPlay, TableState};
pub use table_trick::{MAX_PLAYERS, TableSink, TableTrick};
pub use trick::{beats, leader_wins};
pub use trump_use::TrumpUse;
