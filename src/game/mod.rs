//! The rules of two-player Briscola: cards, the deck, the trick rule, one game's play and the
//! interface a seat decides through ([`Policy`], [`SeatView`]).
//!
//! Invariant: everything here is pure: no I/O, no clock, no global random generator. A game is a
//! function of its deck, the two policies and the two seats' random streams ([`SeatRng`]).

mod card;
mod deck;
mod play;
mod policy;
mod seat_rng;
mod seat_view;
mod trick;

pub use card::{Card, Suit};
pub use deck::Deck;
pub use play::{GameOutcome, NoTricks, Seat, TrickRecord, TrickSink, play_game};
pub use policy::Policy;
pub use seat_rng::SeatRng;
pub use seat_view::SeatView;
pub use trick::leader_wins;
