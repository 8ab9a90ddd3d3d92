//! Mode `Every`, exact: for every completion of the unknown cards, is there a line reaching
//! the goal? The line may depend on the whole completion, so the question is "for all
//! completions, there exists a line", answered by covering the completions with templates.
//!
//! A region of completions (a domain per slot, [`Region`]) is searched existentially
//! ([`OpenSearch`]). "No" there refutes every completion of the region, so one of them (the
//! region's canonical matching) is the refuting completion. "Yes" comes with a line, which is
//! generalised into a [`Template`]; every completion realising it has a line. A region the
//! template neither covers nor misses is split on one slot's domain (the cards meeting one of
//! its conditions, and the rest: the slot whose domain fits best, the rest checked first), and
//! each part is checked again, against the same template first. Domains only shrink, so this
//! ends; a region that one of the latest templates covers is done.
//!
//! Invariant: the regions left to check always hold every completion that no template found so
//! far is known to cover; so "yes" is a proof for every completion and "no" names a completion
//! for which no line exists. The order of work is fixed (a stack, slots and cards in order), so
//! the answer and its evidence are the same every run.

use super::answer::Answer;
use super::open::{Found, OpenSearch};
use super::position::Position;
use super::slots::{Layout, Region};
use super::template::{Cover, Template};

/// What [`every`] found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EveryReport {
    /// `Yes(None)` proved for every completion, `No(Some(c))` refuted by `c` (`No(None)`: the
    /// position has no unknown card and no line), or `OutOfBudget`.
    pub answer: Answer,
    /// Search nodes visited, over all the region searches.
    pub nodes: u64,
    /// Regions searched.
    pub searches: u64,
    /// Regions checked against templates (searched or not).
    pub regions: u64,
}

/// How many of the latest templates a region is checked against before it is searched.
const RECENT: usize = 256;

/// Answer "for every completion" on `pos` exactly, visiting at most `max_nodes` search nodes.
pub fn every(pos: &Position, max_nodes: u64) -> EveryReport {
    let lay = Layout::of(pos);
    let mut run = Run {
        lay: &lay,
        templates: Vec::new(),
        report: EveryReport {
            answer: Answer::Yes(None),
            nodes: 0,
            searches: 0,
            regions: 0,
        },
        max_nodes,
    };
    let mut stack: Vec<(Region, Option<usize>)> = vec![(Region::all(&lay), None)];
    while let Some((region, hint)) = stack.pop() {
        match run.step(region, hint) {
            Step::Done => {}
            Step::Split(kids) => stack.extend(kids),
            Step::Answer(a) => {
                run.report.answer = a;
                break;
            }
        }
    }
    run.report
}

/// What became of one region.
enum Step {
    /// Covered, or empty.
    Done,
    /// These parts (each with the template to check first) are left.
    Split(Vec<(Region, Option<usize>)>),
    /// The whole answer: a refutation, or out of budget.
    Answer(Answer),
}

/// The state of one [`every`] run.
struct Run<'a> {
    lay: &'a Layout,
    templates: Vec<Template>,
    report: EveryReport,
    max_nodes: u64,
}

impl Run<'_> {
    /// Check `region` against its parent's template (`hint`) and the latest ones; search it
    /// if none helps.
    fn step(&mut self, mut region: Region, hint: Option<usize>) -> Step {
        if !region.settle(self.lay.pool) {
            return Step::Done;
        }
        self.report.regions += 1;
        let recent = self.templates.len().saturating_sub(RECENT)..self.templates.len();
        let mut hinted = None;
        for t in hint.into_iter().chain(recent.rev()) {
            match self.templates[t].check(&region) {
                Cover::All => return Step::Done,
                Cover::Rest(parts) if Some(t) == hint => hinted = Some(parts),
                _ => {}
            }
        }
        if let (Some(t), Some(parts)) = (hint, hinted) {
            return Step::Split(narrowed(&region, &parts, t));
        }
        self.search(region)
    }

    /// Search `region`: a refutation, or a new template and the parts it leaves.
    fn search(&mut self, region: Region) -> Step {
        let (found, nodes) = probe(
            self.lay,
            &region,
            self.max_nodes.saturating_sub(self.report.nodes),
        );
        self.report.nodes += nodes;
        self.report.searches += 1;
        match found {
            Found::Not => Step::Answer(refutation(self.lay, &region)),
            Found::Budget => Step::Answer(Answer::OutOfBudget {
                nodes: self.max_nodes,
            }),
            Found::Line(line) => {
                let t = Template::of(self.lay, &line, &region.dom);
                let cover = t.check(&region);
                self.templates.push(t);
                let idx = self.templates.len() - 1;
                match cover {
                    Cover::All => Step::Done,
                    Cover::Rest(parts) => Step::Split(narrowed(&region, &parts, idx)),
                    // The line's own cards realise it, so this cannot be; search the
                    // region's canonical completion alone, which always makes progress.
                    Cover::None => self.search_fixed(region),
                }
            }
        }
    }

    /// Fallback: search the region's canonical completion alone and split off its template.
    fn search_fixed(&mut self, region: Region) -> Step {
        let Some(cards) = region.matching() else {
            return Step::Done;
        };
        let fixed = Region {
            dom: cards.iter().map(|c| 1u64 << c.id()).collect(),
        };
        let budget = self.max_nodes.saturating_sub(self.report.nodes);
        let mut search = OpenSearch::new(self.lay, &fixed.dom, budget);
        let found = search.run();
        self.report.nodes += search.nodes;
        match found {
            Found::Budget => Step::Answer(Answer::OutOfBudget {
                nodes: self.max_nodes,
            }),
            Found::Not => Step::Answer(refutation(self.lay, &region)),
            Found::Line(line) => {
                let t = Template::of(self.lay, &line, &region.dom);
                self.templates.push(t);
                let idx = self.templates.len() - 1;
                // Split the region around the fixed completion, slot by slot.
                let mut out = Vec::new();
                let mut inside = region.clone();
                for (s, &d) in fixed.dom.iter().enumerate() {
                    if inside.dom[s] != d {
                        let mut outside = inside.clone();
                        outside.dom[s] &= !d;
                        out.push((outside, Some(idx)));
                        inside.dom[s] = d;
                    }
                }
                out.reverse();
                Step::Split(out)
            }
        }
    }
}

/// The parts of `r` that `parts` name (each narrows some domains), to be checked against
/// template `t` first; the first part is checked first.
fn narrowed(r: &Region, parts: &[Vec<(u8, u64)>], t: usize) -> Vec<(Region, Option<usize>)> {
    let mut out: Vec<(Region, Option<usize>)> = parts
        .iter()
        .map(|part| {
            let mut kid = r.clone();
            for &(s, m) in part {
                kid.dom[s as usize] &= m;
            }
            (kid, Some(t))
        })
        .collect();
    out.reverse();
    out
}

/// The most nodes a search over a whole region may take before the region's canonical
/// completion is searched alone instead.
const REGION_NODES: u64 = 2_000;

/// Search `region` within `budget` nodes: first over the whole region (a line that may pick
/// the slots' cards, or a "no" for all of it); if that is costly, over its canonical
/// completion alone (its "no" refutes that completion, which [`refutation`] then names).
fn probe(lay: &Layout, region: &Region, budget: u64) -> (Found, u64) {
    let mut search = OpenSearch::new(lay, &region.dom, budget.min(REGION_NODES));
    let found = search.run();
    let spent = search.nodes;
    if found != Found::Budget || budget <= REGION_NODES {
        return (found, spent);
    }
    let Some(cards) = region.matching() else {
        return (Found::Budget, spent);
    };
    let fixed: Vec<u64> = cards.iter().map(|c| 1u64 << c.id()).collect();
    let mut search = OpenSearch::new(lay, &fixed, budget - spent);
    (search.run(), spent + search.nodes)
}

/// The answer for a region none of whose completions has a line: its canonical completion
/// (`No(None)` when the position has no unknown card).
fn refutation(lay: &Layout, region: &Region) -> Answer {
    if lay.slots == 0 {
        return Answer::No(None);
    }
    match region.matching() {
        Some(cards) => Answer::No(Some(lay.completion(&cards))),
        // `settle` checked the region has a completion; kept total all the same.
        None => Answer::No(None),
    }
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
