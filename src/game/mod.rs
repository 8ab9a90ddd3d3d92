//! The rules of two-player Briscola: cards, the deck, the trick rule and one game's play.
//!
//! Invariant: everything here is pure: no I/O, no clock, no global random generator. A game is a
//! function of its deck and the two policies.

mod card;
mod deck;
mod play;
mod props;
mod trick;

pub use card::{Card, Suit};
pub use deck::Deck;
pub use play::{GameOutcome, NoTricks, Seat, TrickRecord, TrickSink, play_game};
pub use trick::leader_wins;
