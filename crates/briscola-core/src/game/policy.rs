//! The interface a seat decides through: the engine asks a [`Policy`] for a card and gives it a
//! [`SeatView`]; the `policy` module holds the implementations.
//!
//! Invariant: a policy decides from a [`SeatView`] only, which holds exactly what its seat may
//! see; it returns an index into its own hand, so it can never play a card it does not hold.

use super::seat_rng::SeatRng;
use super::seat_view::SeatView;

/// A card-playing rule, as the engine calls it.
pub trait Policy: Send + Sync {
    /// Index into `view.hand` of the card to play. Must be `< view.hand.len()`. A randomised
    /// policy draws from `rng`, its seat's stream for this game; a deterministic one ignores it.
    fn choose(&self, view: &SeatView<'_>, rng: &mut SeatRng) -> usize;
}
