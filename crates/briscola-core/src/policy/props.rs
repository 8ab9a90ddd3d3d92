//! Property tests of the rules over random decks and all three policies (proptest).
//!
//! Invariant checked: every game conserves cards, points and trumps, whoever plays it.

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::policy::strategies::{deck_strategy, spec_strategy};

    use crate::game::{Card, Deck, Seat, SeatRng, TrickRecord, play_game};
    use crate::policy::{Policy, PolicyKind, PolicySpec, SeatView, TieBreak};

    /// Wraps a policy and records every decision's hand, to check it plays what it holds and
    /// that hands hold 3 cards while the stock lasts.
    /// One decision: the hand, the chosen index, the stock size and the trick number.
    type Decision = (Vec<Card>, usize, u8, u8);

    /// Fixed seat streams (the paper's policies never draw from them).
    fn rngs() -> [SeatRng; 2] {
        [SeatRng::new([1; 32], 0), SeatRng::new([2; 32], 0)]
    }

    struct Watch<P> {
        inner: P,
        log: std::sync::Mutex<Vec<Decision>>,
    }

    impl<P: Policy> Policy for Watch<P> {
        fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
            let i = self.inner.choose(v, rng);
            self.log
                .lock()
                .unwrap()
                .push((v.hand.to_vec(), i, v.stock_left, v.trick));
            i
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn a_game_conserves_cards_points_and_trumps(deck in deck_strategy(), a in spec_strategy(11), b in spec_strategy(11)) {
            let p1 = Watch { inner: a.build(), log: Default::default() };
            let p2 = Watch { inner: b.build(), log: Default::default() };
            let mut tricks: Vec<TrickRecord> = Vec::new();
            let out = play_game(&deck, &p1, &p2, &mut rngs(), &mut |t: &TrickRecord| tricks.push(*t));
            prop_assert_eq!(tricks.len(), 20);
            let mut seen = 0u64;
            for t in &tricks {
                for c in [t.card_g1, t.card_g2] {
                    prop_assert_eq!(seen & (1 << c.id()), 0, "card played twice");
                    seen |= 1 << c.id();
                }
            }
            prop_assert_eq!(seen, (1u64 << 40) - 1, "all 40 cards played");
            prop_assert_eq!(out.points[0] as u32 + out.points[1] as u32, 120);
            prop_assert_eq!(out.briscole[0] + out.briscole[1], 10);
            prop_assert_eq!((out.briscole[0] as i32 - out.briscole[1] as i32) % 2, 0);
            prop_assert_eq!(out.trump, deck.face_up().suit());
            // Tricks sum to the final points, and the winner leads the next trick.
            let mut pts = [0u32; 2];
            for (i, t) in tricks.iter().enumerate() {
                let w = if t.winner == Seat::G1 { 0 } else { 1 };
                pts[w] += t.points as u32;
                if i + 1 < tricks.len() {
                    prop_assert_eq!(tricks[i + 1].leader, t.winner);
                }
            }
            prop_assert_eq!(tricks[0].leader, Seat::G1);
            prop_assert_eq!(pts, [out.points[0] as u32, out.points[1] as u32]);
            // The loser of trick 17 takes the face-up trump: it is played by that seat later.
            let loser17 = if tricks[16].winner == Seat::G1 { Seat::G2 } else { Seat::G1 };
            let face = deck.face_up();
            let played_by = tricks[17..].iter().find_map(|t| {
                if t.card_g1 == face { Some(Seat::G1) } else if t.card_g2 == face { Some(Seat::G2) } else { None }
            });
            prop_assert_eq!(played_by, Some(loser17));
            // Each decision: the chosen index is in the hand; 3 cards while the stock lasts.
            for w in [&p1, &p2] {
                for (hand, i, stock, trick) in w.log.lock().unwrap().iter() {
                    prop_assert!(*i < hand.len());
                    let want = match trick { 1..=18 => 3, 19 => 2, _ => 1 };
                    prop_assert_eq!(hand.len(), want, "trick {} with {} in stock", trick, stock);
                }
            }
        }
    }

    #[test]
    fn hands_shrink_only_after_the_stock_runs_out() {
        // Trick t (1-based) is played from 3 cards up to trick 18; tricks 19 and 20 from 2 and 1
        // (the leader) / 2 and 1 (the follower, who holds one more before the leader plays).
        let deck = Deck::ordered();
        let p = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build();
        let w = Watch {
            inner: p,
            log: Default::default(),
        };
        play_game(&deck, &w, &w, &mut rngs(), &mut crate::game::NoTricks);
        let log = w.log.lock().unwrap();
        assert_eq!(log.len(), 40);
        for (hand, _, _, trick) in log.iter() {
            let want = match trick {
                1..=18 => 3,
                19 => 2,
                _ => 1,
            };
            assert_eq!(hand.len(), want, "trick {trick}");
        }
    }
}
