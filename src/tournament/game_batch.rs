//! A batch of games played in parallel: decks in, outcomes and tricks out, in game order.
//!
//! Invariant: the result is identical for any number of rayon threads (each game is a pure
//! function of its deck and its seats' streams, keyed by the game's index; results are
//! collected in deck order).

use rayon::prelude::*;

use super::batch_streams::BatchStreams;
use super::played_game::PlayedGame;
use super::trick_log::TrickLog;
use crate::game::{Deck, GameOutcome, Policy, play_game};
use crate::policy::{AnyPolicy, PairWork};

/// Games per parallel task when playing policy by policy. Small enough that a few hundred
/// games of a costly policy (the search agent: milliseconds a game) spread over every core,
/// large enough that scheduling stays negligible for the cheap ones (the paper's policies
/// mostly play through `play_keyed`, see [`super::outcome_chunk`]).
pub(super) const MIN_TASK: usize = 16;

struct Batch<'a>(&'a [Deck], BatchStreams<'a>);
struct Outcomes<'a>(&'a [Deck], BatchStreams<'a>);

impl PairWork for Batch<'_> {
    type Output = Vec<PlayedGame>;
    fn run<P1: Policy, P2: Policy>(self, p1: &P1, p2: &P2) -> Vec<PlayedGame> {
        play_batch_generic(self.0, self.1, p1, p2)
    }
}

impl PairWork for Outcomes<'_> {
    type Output = Vec<GameOutcome>;
    fn run<P1: Policy, P2: Policy>(self, p1: &P1, p2: &P2) -> Vec<GameOutcome> {
        play_outcomes_generic(self.0, self.1, p1, p2)
    }
}

/// Play every deck with `p1` as G1 and `p2` as G2, in parallel, keeping the tricks (a network
/// seat's decisions are batched across games: [`super::lockstep_batch`]).
pub fn play_batch(
    decks: &[Deck],
    streams: BatchStreams<'_>,
    p1: &AnyPolicy,
    p2: &AnyPolicy,
) -> Vec<PlayedGame> {
    if let Some(batch) = super::lockstep_batch::lockstep_batch(p1, p2) {
        return super::lockstep_batch::play_lockstep(decks, streams, p1, p2, batch);
    }
    AnyPolicy::with_pair(p1, p2, Batch(decks, streams))
}

/// Play every deck keeping only the outcomes (the bare engine).
pub fn play_outcomes(
    decks: &[Deck],
    streams: BatchStreams<'_>,
    p1: &AnyPolicy,
    p2: &AnyPolicy,
) -> Vec<GameOutcome> {
    if let Some(batch) = super::lockstep_batch::lockstep_batch(p1, p2) {
        let played = super::lockstep_batch::play_lockstep(decks, streams, p1, p2, batch);
        return played.into_iter().map(|g| g.outcome).collect();
    }
    AnyPolicy::with_pair(p1, p2, Outcomes(decks, streams))
}

/// [`play_batch`] for any policy types.
pub fn play_batch_generic<P1: Policy, P2: Policy>(
    decks: &[Deck],
    streams: BatchStreams<'_>,
    p1: &P1,
    p2: &P2,
) -> Vec<PlayedGame> {
    decks
        .par_iter()
        .enumerate()
        .with_min_len(MIN_TASK)
        .map(|(i, d)| {
            let (outcome, tricks) =
                TrickLog::record(|log| play_game(d, p1, p2, &mut streams.rngs(i), log));
            PlayedGame { outcome, tricks }
        })
        .collect()
}

/// [`play_outcomes`] for any policy types.
pub fn play_outcomes_generic<P1: Policy, P2: Policy>(
    decks: &[Deck],
    streams: BatchStreams<'_>,
    p1: &P1,
    p2: &P2,
) -> Vec<GameOutcome> {
    decks
        .par_iter()
        .enumerate()
        .with_min_len(MIN_TASK)
        .map(|(i, d)| play_game(d, p1, p2, &mut streams.rngs(i), &mut crate::game::NoTricks))
        .collect()
}
