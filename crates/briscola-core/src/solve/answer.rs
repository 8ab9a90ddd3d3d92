//! [`Answer`]: what the trick-feasibility search says of a position, with its evidence: a
//! [`Witness`] line reaching the goal, or a [`Completion`] of the unknown cards with no line.
//!
//! Invariant: plain data; a `Yes` with a witness and a `No` with a completion can each be
//! checked by replaying them on the position.

use crate::game::Card;

/// One trick of a witness line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessTrick {
    /// The player who led (0-based).
    pub leader: usize,
    /// The cards in playing order, with the player and whether the card was unknown before it
    /// was played (the completion chosen for it).
    pub cards: Vec<(usize, Card, bool)>,
    /// The winner (0-based).
    pub winner: usize,
}

/// A line of play reaching the goal.
pub type Witness = Vec<WitnessTrick>;

/// An answer with its evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Reachable: with a witness line (mode `Some`), or for every completion (mode `Every`).
    Yes(Option<Witness>),
    /// Not reachable (mode `Some`: for no completion; mode `Every`: this completion of the
    /// unknown cards, hand cards per player then the stock from its top, has no line).
    No(Option<Completion>),
    /// No longer given: the inexact mode `Every` of earlier versions answered it when its lazy
    /// adversary won and none of the completions it tried refuted. Kept for callers' matches.
    Undetermined {
        /// Completions tried.
        tried: usize,
    },
    /// The search stopped at its node budget before it could answer.
    OutOfBudget {
        /// The budget (search nodes).
        nodes: u64,
    },
}

/// A full placement of the unknown cards: each hand's unknown cards, then the stock's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The unknown cards of each hand.
    pub hands: Vec<Vec<Card>>,
    /// The unknown stock cards, from the top.
    pub stock: Vec<Card>,
}
