//! A batch of games played in parallel: decks in, outcomes and tricks out, in game order.
//!
//! Invariant: the result is identical for any number of rayon threads (each game is a pure
//! function of its deck; results are collected in deck order).

use rayon::prelude::*;

use crate::game::{Deck, GameOutcome, TrickRecord, play_game};
use crate::policy::{AnyPolicy, PairWork, Policy};

/// One game's outcome and its 20 tricks.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame {
    /// The outcome.
    pub outcome: GameOutcome,
    /// The tricks, in order.
    pub tricks: [TrickRecord; 20],
}

struct Batch<'a>(&'a [Deck]);
struct Outcomes<'a>(&'a [Deck]);

impl PairWork for Batch<'_> {
    type Output = Vec<PlayedGame>;
    fn run<P1: Policy, P2: Policy>(self, p1: &P1, p2: &P2) -> Vec<PlayedGame> {
        play_batch_generic(self.0, p1, p2)
    }
}

impl PairWork for Outcomes<'_> {
    type Output = Vec<GameOutcome>;
    fn run<P1: Policy, P2: Policy>(self, p1: &P1, p2: &P2) -> Vec<GameOutcome> {
        play_outcomes_generic(self.0, p1, p2)
    }
}

/// Play every deck with `p1` as G1 and `p2` as G2, in parallel, keeping the tricks.
pub fn play_batch(decks: &[Deck], p1: &AnyPolicy, p2: &AnyPolicy) -> Vec<PlayedGame> {
    AnyPolicy::with_pair(p1, p2, Batch(decks))
}

/// Play every deck keeping only the outcomes (the bare engine).
pub fn play_outcomes(decks: &[Deck], p1: &AnyPolicy, p2: &AnyPolicy) -> Vec<GameOutcome> {
    AnyPolicy::with_pair(p1, p2, Outcomes(decks))
}

/// [`play_batch`] for any policy types.
pub fn play_batch_generic<P1: Policy, P2: Policy>(
    decks: &[Deck],
    p1: &P1,
    p2: &P2,
) -> Vec<PlayedGame> {
    decks
        .par_iter()
        .with_min_len(512)
        .map(|d| {
            let mut tricks = [None; 20];
            let mut n = 0usize;
            let outcome = play_game(d, p1, p2, &mut |t: &TrickRecord| {
                tricks[n] = Some(*t);
                n += 1;
            });
            PlayedGame {
                outcome,
                tricks: tricks.map(|t| t.expect("a game has exactly 20 tricks")),
            }
        })
        .collect()
}

/// [`play_outcomes`] for any policy types.
pub fn play_outcomes_generic<P1: Policy, P2: Policy>(
    decks: &[Deck],
    p1: &P1,
    p2: &P2,
) -> Vec<GameOutcome> {
    decks
        .par_iter()
        .with_min_len(512)
        .map(|d| play_game(d, p1, p2, &mut crate::game::NoTricks))
        .collect()
}
