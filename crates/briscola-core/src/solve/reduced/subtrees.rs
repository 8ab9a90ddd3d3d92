//! How many decisions the reduced game's tree holds below a decision ([`Subtrees`]), so a CFR+
//! walk that reads its blocks in a recorded order can move past a subtree it prunes.
//!
//! Invariant: the count is a function of the cards in both hands, whether a card is led and
//! the unseen cards in the stock only (every hand card is a move, every ordered pair of unseen
//! cards a draw, both hands hold as many cards at a trick's start), and equals the decisions a
//! full walk visits below a decision, itself included (tested against walks of the tree).

use super::game::ReducedGame;
use super::sim::Sim;
use super::spec::MAX_HAND;

/// Decisions below each shape of position, saturating at `u64::MAX` (games whose walk order is
/// kept hold far fewer).
pub(crate) struct Subtrees {
    /// By `(cards in hands, led, unseen cards)`, see [`Subtrees::slot`].
    counts: Vec<u64>,
    unknown: usize,
}

/// Cards both hands hold at most, and one more: a count reads the position after a trick's
/// draws, one card above the position it counts.
const CARDS: usize = 2 * MAX_HAND + 1;

impl Subtrees {
    /// Every shape's count for `game`.
    pub(crate) fn new(game: &ReducedGame) -> Subtrees {
        let unknown = game.deck_size();
        let mut s = Subtrees {
            counts: vec![u64::MAX; (CARDS + 1) * 2 * (unknown + 1)],
            unknown,
        };
        // Fewer unseen cards first, then fewer cards in hands: every count reads only counts
        // already made (a leader's, the follower's with one card fewer; a follower's, a
        // leader's after draws or with one card fewer).
        for unk in 0..=unknown {
            for cards in 0..=CARDS {
                for led in [true, false] {
                    let c = s.count(cards, led, unk);
                    let at = s.slot(cards, led, unk);
                    s.counts[at] = c;
                }
            }
        }
        s
    }

    fn slot(&self, cards: usize, led: bool, unk: usize) -> usize {
        (cards * 2 + led as usize) * (self.unknown + 1) + unk
    }

    fn get(&self, cards: usize, led: bool, unk: usize) -> u64 {
        if cards > CARDS {
            return 0;
        }
        self.counts[self.slot(cards, led, unk)]
    }

    /// The decisions below a position of `cards` in hands (itself included; 0 at the game's
    /// end), from the counts of the positions after its moves.
    fn count(&self, cards: usize, led: bool, unk: usize) -> u64 {
        if !led {
            // The leader holds half of the cards; none left: the game is over.
            let moves = (cards / 2) as u64;
            if moves == 0 {
                return 0;
            }
            return moves
                .saturating_mul(self.get(cards - 1, true, unk))
                .saturating_add(1);
        }
        if cards == 0 {
            // No such position (a follower holds a card).
            return 0;
        }
        // The follower holds the one more card; after its card the trick is done and both draw.
        let moves = cards.div_ceil(2) as u64;
        let after = match unk {
            0 => self.get(cards - 1, false, 0),
            1 => self.get(cards + 1, false, 0),
            k => ((k * (k - 1)) as u64).saturating_mul(self.get(cards + 1, false, k - 2)),
        };
        moves.saturating_mul(after).saturating_add(1)
    }

    /// The decisions a walk visits below the decision at `sim`, itself included.
    #[inline]
    pub(crate) fn below(&self, sim: &Sim) -> usize {
        let cards = (sim.lens[0] + sim.lens[1]) as usize;
        let n = self.get(cards, sim.table.is_some(), sim.unknown_left as usize);
        usize::try_from(n).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::reduced::spec::ReducedSpec;
    use crate::solve::reduced::state::State;

    /// Every decision of a full walk: the decisions below it counted by walking, against
    /// [`Subtrees::below`], in games of one to four suits and hands of 1 to 4.
    #[test]
    fn counts_equal_the_decisions_of_a_walk() {
        fn walk(g: &ReducedGame, sub: &Subtrees, st: &State, checked: &mut u64) -> u64 {
            let Some(seat) = st.sim.mover() else {
                return 0;
            };
            let mut n = 1;
            for i in 0..st.sim.hand(seat).len() {
                st.play(g, i, |_, c: &State| n += walk(g, sub, c, checked));
            }
            assert_eq!(sub.below(&st.sim) as u64, n, "{:?}", st.sim);
            *checked += 1;
            n
        }
        let specs = [
            (2, vec![1, 3, 10, 8], 3),
            (1, vec![1, 2, 3, 8, 9, 10], 2),
            (3, vec![1, 3], 1),
            (2, vec![1, 3, 10, 8, 9], 4),
            (4, vec![1, 3], 2),
        ];
        for (suits, ranks, hand) in specs {
            let game = ReducedGame::new(ReducedSpec { suits, ranks, hand }).unwrap();
            let sub = Subtrees::new(&game);
            let (mut checked, mut deals) = (0, 0);
            game.for_each_deal([false; 2], &mut |_, st| {
                // A few deals each: every deal's tree has the same shape.
                if deals < 3 {
                    walk(&game, &sub, st, &mut checked);
                }
                deals += 1;
            });
            assert!(checked > 0);
        }
    }
}
