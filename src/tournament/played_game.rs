//! [`PlayedGame`]: one two-player game's outcome with its 20 tricks, as the batch players return
//! it and the trick tables are built from.
//!
//! Invariant: `tricks[i]` is trick `i + 1` of the game whose outcome is `outcome`.

use crate::game::{GameOutcome, TrickRecord};

/// One game's outcome and its 20 tricks.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame {
    /// The outcome.
    pub outcome: GameOutcome,
    /// The tricks, in order.
    pub tricks: [TrickRecord; 20],
}
