//! One game under any valid [`Rules`]: 2, 3, 4 or 6 players, partnerships, any deck, hand size,
//! trump rule, draw order, redraw, Scoperta, must-follow-suit and Briscola a 31. The standard
//! two-player game has its own specialised engine ([`super::play_game`]); on the standard rules
//! this one plays the same game card for card (a property test checks it). The game itself is
//! [`TableState`]'s, one card at a time; [`play_table`] asks the seats' policies for the cards.
//!
//! Invariant: every player plays exactly one card per trick, in seat order from the leader;
//! exactly one card wins each trick and its player leads the next; after a trick every player
//! draws one card (in the variant's order) while the stock lasts; each card of the variant's
//! deck is played at most once, and exactly once in a game played to the end.

use super::deck::Deck;
use super::policy::Policy;
use super::rules::Rules;
use super::seat_rng::SeatRng;
use super::table_outcome::TableOutcome;
use super::table_state::TableState;
use super::table_trick::TableSink;

/// Play one game of `rules` on `deck` (a shuffle of the 40 cards; the variant's removed cards
/// are skipped) with `seats[s]` deciding for seat `s`, reporting tricks to `sink`. `rngs[s]` is
/// seat `s`'s random stream for this game.
///
/// # Panics
/// If `seats` or `rngs` does not hold one entry per player, or a policy returns an index
/// outside its (playable) hand: both are bugs in the caller, not in the input.
pub fn play_table<P, S>(
    rules: &Rules,
    deck: &Deck,
    seats: &[&P],
    rngs: &mut [SeatRng],
    sink: &mut S,
) -> TableOutcome
where
    P: Policy + ?Sized,
    S: TableSink + ?Sized,
{
    let n = rules.players();
    assert!(
        seats.len() == n && rngs.len() == n,
        "one policy and stream per seat"
    );
    let mut state = TableState::new(rules, deck);
    // The view is built in place for the seat to play: unwrapping `state.view()`'s `Option`
    // copied it with wide loads of its narrow stores (a store-forwarding stall on every card).
    while let Some(seat) = state.to_play() {
        let view = state.view_of(seat);
        let i = seats[seat].choose(&view, &mut rngs[seat]);
        assert!(
            i < view.hand.len(),
            "policy chose card {i} of a {}-card hand",
            view.hand.len()
        );
        state.play_legal(i, sink);
    }
    *state.outcome()
}
