//! Mode `Every`, exact: for every completion of the unknown cards, is there a line reaching
//! the goal? The line may depend on the whole completion, so the question is "for all
//! completions, there exists a line", answered by covering the completions with templates,
//! guided by counterexamples: a SAT solver ([`CoverSat`]) proposes a completion that no
//! template found so far covers; the line search on that completion alone ([`OpenSearch`])
//! either finds none, which refutes, or finds a line, generalised into a [`Template`] whose
//! completions the solver then excludes. When the solver proves that no completion is left,
//! the templates cover them all: "yes".
//!
//! Invariant: "yes" is answered only on the solver's proof that every completion realises a
//! template, and "no" only with a completion the exact search found no line for; the order
//! of work is fixed (the solver is deterministic, slots and cards in order), so the answer
//! and its evidence are the same every run.

use super::answer::Answer;
use super::cover::{CoverSat, Uncovered};
use super::open::{Found, OpenSearch};
use super::position::Position;
use super::slots::Layout;
use super::template::Template;
use crate::game::Card;

/// What [`every`] found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EveryReport {
    /// `Yes(None)` proved for every completion, `No(Some(c))` refuted by `c` (`No(None)`: the
    /// position has no unknown card and no line), or `OutOfBudget`.
    pub answer: Answer,
    /// Line-search nodes visited, over all the completions searched.
    pub nodes: u64,
    /// Conflicts of the SAT solver that proposed the completions.
    pub conflicts: u64,
    /// Completions searched, each giving a template (or the refutation).
    pub searches: u64,
}

impl EveryReport {
    /// What the answer cost against a node budget: the search nodes and [`CONFLICT_NODES`]
    /// per conflict.
    pub fn cost(&self) -> u64 {
        self.nodes
            .saturating_add(self.conflicts.saturating_mul(CONFLICT_NODES))
    }
}

/// What one SAT conflict counts for against the node budget: about the time of this many
/// search nodes on the logic model's seed.
pub const CONFLICT_NODES: u64 = 250;

/// Answer "for every completion" on `pos` exactly, spending at most `max_nodes` (search
/// nodes, and [`CONFLICT_NODES`] per SAT conflict).
pub fn every(pos: &Position, max_nodes: u64) -> EveryReport {
    let lay = Layout::of(pos);
    let mut report = EveryReport {
        answer: Answer::Yes(None),
        nodes: 0,
        conflicts: 0,
        searches: 0,
    };
    let mut sat = CoverSat::new(&lay);
    let out_of_budget = Answer::OutOfBudget { nodes: max_nodes };
    loop {
        let left = max_nodes.saturating_sub(report.cost());
        if left == 0 {
            report.answer = out_of_budget;
            break;
        }
        let proposed = sat.solve(left.div_ceil(CONFLICT_NODES));
        report.conflicts = sat.conflicts();
        let cards = match proposed {
            Uncovered::None => break,
            Uncovered::Budget => {
                report.answer = out_of_budget;
                break;
            }
            Uncovered::Completion(cards) => cards,
        };
        let fixed: Vec<u64> = cards.iter().map(|&id| 1u64 << id).collect();
        let mut search = OpenSearch::new(&lay, &fixed, max_nodes.saturating_sub(report.cost()));
        let found = search.run();
        report.nodes += search.nodes;
        report.searches += 1;
        match found {
            Found::Line(line) => sat.exclude(&Template::of(&lay, &line)),
            Found::Not => {
                report.answer = refutation(&lay, &cards);
                break;
            }
            Found::Budget => {
                report.answer = out_of_budget;
                break;
            }
        }
    }
    report
}

/// The answer for a completion with no line (`No(None)` when the position has no unknown
/// card).
fn refutation(lay: &Layout, cards: &[u8]) -> Answer {
    if lay.slots == 0 {
        return Answer::No(None);
    }
    let cards: Vec<Card> = cards
        .iter()
        .map(|&id| Card::from_id(id).expect("a pool card id"))
        .collect();
    Answer::No(Some(lay.completion(&cards)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RulesSpec, Suit};
    use crate::solve::{CardSet, Target};

    /// Two players, one unknown card each: the Ace and the Two of the trump suit. Player 1
    /// takes the only trick only if it holds the Ace, so not for every completion.
    #[test]
    fn two_unknown_trumps_are_refuted_by_giving_the_ace_away() {
        let rules = RulesSpec {
            players: 2,
            ..RulesSpec::default()
        }
        .validate()
        .unwrap();
        let pos = Position {
            rules,
            trump: Some(Suit::Oro),
            leader: 0,
            hands: vec![CardSet::EMPTY; 2],
            unknown: vec![1, 1],
            played: CardSet(CardSet::ALL.0 & !0b11),
            stock: vec![],
            player: 0,
            target: Target::Tricks(1),
        };
        for budget in [5, 40, 300, u64::MAX] {
            let r = every(&pos, budget);
            assert!(!matches!(r.answer, Answer::Yes(_)), "{r:?}");
        }
    }
}
