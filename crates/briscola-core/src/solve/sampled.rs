//! Evidence for "for every completion" when the exact search of [`super::every`] runs out of
//! budget: completions of the unknown cards drawn uniformly at random from a given seed, each
//! searched exactly for a line reaching the goal ([`SampledCompletions`]). A drawn completion
//! with no line is an exact refutation; completions that all have a line bound the share of
//! completions without one, never prove there is none.
//!
//! Invariant: a pure function of the position, the number of draws, the seed and the budget
//! (the draws come from ChaCha8 seeded with `seed`, the work is in a fixed order); a
//! `refutation` is a completion the exact search proved has no line.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::answer::Completion;
use super::feasibility::Feasibility;
use super::position::Position;
use super::slots::Layout;
use crate::game::Card;

/// No one draw may spend more than this fraction of the budget (1/20), so a hard completion
/// leaves the others their turn (it is then counted as undecided)...
const DRAW_SHARE: u64 = 20;
/// ... nor, on a small budget, fewer nodes than this (or the whole budget when it is smaller):
/// refuting one completion of a small position takes a few thousand.
const DRAW_FLOOR: u64 = 10_000;

/// What the drawn completions showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampledCompletions {
    /// Completions drawn and searched (fewer than asked when the budget ran out or one refuted).
    pub drawn: u32,
    /// Drawn completions proved to have a line reaching the goal.
    pub with_line: u32,
    /// Drawn completions whose search ran out of budget (neither proved nor refuted).
    pub undecided: u32,
    /// The first drawn completion proved to have no line: the answer for every completion is
    /// then "no", exactly.
    pub refutation: Option<Completion>,
    /// Search nodes visited, over all the draws.
    pub nodes: u64,
}

/// Draw up to `draws` completions of `pos`'s unknown cards uniformly at random (ChaCha8 from
/// `seed`) and search each exactly, visiting at most `max_nodes` nodes in all (and on any one
/// draw a twentieth of them, or 10,000 if that is more); stop at the first completion with no
/// line. A position with no unknown card draws nothing.
pub fn sample_completions(
    pos: &Position,
    draws: u32,
    seed: u64,
    max_nodes: u64,
) -> SampledCompletions {
    let lay = Layout::of(pos);
    let mut out = SampledCompletions {
        drawn: 0,
        with_line: 0,
        undecided: 0,
        refutation: None,
        nodes: 0,
    };
    if lay.slots == 0 {
        return out;
    }
    let each = (max_nodes / DRAW_SHARE).max(DRAW_FLOOR.min(max_nodes));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cards: Vec<Card> = pos.pool().iter().collect();
    while out.drawn < draws && out.nodes < max_nodes {
        shuffle(&mut cards, &mut rng);
        let completion = lay.completion(&cards);
        let full = filled(pos, &completion);
        let (reached, exhausted, nodes) = search(&full, (max_nodes - out.nodes).min(each));
        out.nodes += nodes;
        out.drawn += 1;
        if reached {
            out.with_line += 1;
        } else if exhausted {
            out.undecided += 1;
        } else {
            out.refutation = Some(completion);
            break;
        }
    }
    out
}

/// Whether the fully known `pos` has a line reaching its goal, whether the search ran out of
/// its `budget`, and the nodes it visited (by deadlines: [`Feasibility::earliest`]).
fn search(pos: &Position, budget: u64) -> (bool, bool, u64) {
    let (f, reached, nodes) = Feasibility::earliest(pos, budget);
    (reached, f.exhausted, nodes)
}

/// Fisher-Yates from the end, each index by a multiply-shift of 64 random bits (bias below
/// 2^-58 for a 40-card pool), so the draws depend on ChaCha8's stream only.
fn shuffle(cards: &mut [Card], rng: &mut ChaCha8Rng) {
    for i in (1..cards.len()).rev() {
        let j = ((u128::from(rng.next_u64()) * (i as u128 + 1)) >> 64) as usize;
        cards.swap(i, j);
    }
}

/// `pos` with `c`'s cards in its unknown places: nothing unknown is left.
fn filled(pos: &Position, c: &Completion) -> Position {
    let mut full = pos.clone();
    for (p, cards) in c.hands.iter().enumerate() {
        for &card in cards {
            full.hands[p] = full.hands[p].with(card);
        }
        full.unknown[p] = 0;
    }
    let mut stock = c.stock.iter();
    for place in full.stock.iter_mut().filter(|p| p.is_none()) {
        *place = stock.next().copied();
    }
    full
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Answer;

    fn seed_position() -> Position {
        crate::solve::test_positions::seed(4)
    }

    #[test]
    fn the_draws_are_a_function_of_the_seed_and_every_drawn_completion_is_searched() {
        let pos = seed_position();
        let a = sample_completions(&pos, 20, 7, u64::MAX);
        assert_eq!(a, sample_completions(&pos, 20, 7, u64::MAX));
        assert_eq!((a.drawn, a.with_line, a.undecided), (20, 20, 0));
        assert!(a.refutation.is_none() && a.nodes > 0);
        // A tiny budget leaves the first draw undecided and stops there.
        let b = sample_completions(&pos, 20, 7, 3);
        assert_eq!((b.drawn, b.with_line, b.undecided), (1, 0, 1));
    }

    #[test]
    fn a_completion_with_no_line_is_a_refutation_the_plain_exact_search_agrees_with() {
        let pos = crate::solve::test_positions::three_low_cups();
        let s = sample_completions(&pos, 1000, 1, u64::MAX);
        let c = s
            .refutation
            .expect("some drawn completion has no line to 3 tricks");
        assert_eq!((s.with_line + 1, s.undecided), (s.drawn, 0));
        assert!(s.drawn > 1, "the first draws have lines");
        assert_eq!(
            Feasibility::some(&filled(&pos, &c), u64::MAX),
            Answer::No(None)
        );
    }

    /// Asking by trick k, k + 1, ... finds a line exactly when the plain search does.
    #[test]
    fn deadlines_find_a_line_exactly_when_one_exists() {
        let pos = crate::solve::test_positions::three_low_cups();
        let lay = Layout::of(&pos);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut cards: Vec<Card> = pos.pool().iter().collect();
        let (mut yes, mut no) = (0, 0);
        for _ in 0..60 {
            shuffle(&mut cards, &mut rng);
            let full = filled(&pos, &lay.completion(&cards));
            let plain = matches!(Feasibility::some(&full, u64::MAX), Answer::Yes(_));
            let (reached, exhausted, _) = search(&full, u64::MAX);
            assert_eq!((reached, exhausted), (plain, false));
            if plain { yes += 1 } else { no += 1 }
        }
        assert!(yes > 0 && no > 0, "both answers met: {yes} yes, {no} no");
    }
}
