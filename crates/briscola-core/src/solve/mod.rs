//! Exact search over open card positions: the two-player minimax solver ([`DuelSolver`], alpha-beta
//! with a transposition table, used by the `search` policy on each sampled world) and the
//! N-player trick-feasibility search of the four-player logic model ([`Feasibility`]: can a
//! player win at least k tricks or p points over some line of everybody's play, with the stock
//! known or unknown, for some or for every completion); and [`reduced`], a reduced two-player
//! Briscola solved exactly (CFR+, exact best responses and exploitability, the policies'
//! exploitability and the sampled PIMC bound beside it).
//!
//! Invariant: trick resolution is the engine's ([`crate::game::beats`]) and drawing follows the
//! engine's [`crate::game::DrawOrder`]; nothing here has I/O, a clock or a random generator (the
//! reduced game's sampled bound draws its worlds, and [`sample_completions`] its completions,
//! from a seed it is given), so every answer is a pure function of its input.

mod answer;
mod cards;
mod cover;
mod duel;
mod every;
mod feasibility;
mod open;
mod position;
pub mod reduced;
mod sampled;
mod slots;
mod template;
#[cfg(test)]
mod test_positions;

pub use cards::CardSet;
pub use duel::{Duel, DuelSolver};
pub use every::{CONFLICT_NODES, EveryReport};
pub use feasibility::{
    Answer, Completion, DEFAULT_MAX_NODES, Feasibility, Goal, Mode, Witness, WitnessTrick,
};
pub use position::{
    GoalSpec, Position, PositionError, PositionSpec, Target, card_name, parse_card, suit_name,
};
pub use sampled::{SampledCompletions, sample_completions};
