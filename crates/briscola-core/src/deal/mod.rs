//! Where games' decks come from: the paper's shared .NET `System.Random` stream (with its jump
//! ahead) and ChaCha8 per game; and the keys of the seats' own random streams.
//!
//! Invariant: game `j` of a stream always receives the same deck, however the games are split
//! into chunks or threads, on every machine.

mod chacha_lanes;
mod deal_seed;
mod deal_source;
mod dotnet_random;
mod dotnet_round;
mod round_jump;
mod seat_streams;

pub use deal_seed::{DealSeed, GeneratorSeed, SeedError};
pub use deal_source::{DRAWS_PER_GAME, DealSourceKind, DealStream, chacha_deck, chacha_decks_into};
pub use dotnet_random::DotNetRandom;
pub use seat_streams::{seat_key, seat_keys, table_seat_key};
