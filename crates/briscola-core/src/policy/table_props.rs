//! Property tests of the general engine (`game::play_table`) over random decks, every variant and
//! the paper's policies under both readings (proptest): the general engine equals the specialised
//! two-player engine on the standard rules, and every variant's rule invariants hold, checked by
//! replaying each game from its deal, its draws and its tricks.
//!
//! Invariant checked: every game conserves cards and points, follows its variant's deal, draw and
//! lead order, and every seat plays a card it holds (and, under must-follow-suit, a legal one).

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::policy::strategies::{deck_strategy, spec_strategy};

    use crate::game::{
        Card, Deck, DrawOrder, Rules, RulesSpec, Seat, SeatRng, TableSink, TableTrick, TrickRecord,
        TrumpRule, beats, deal_order, play_game, play_table,
    };
    use crate::policy::{FollowReading, TablePolicy};
    use crate::policy::{Policy, SeatView};

    /// Every variant the issue lists, with the standard game among them.
    fn rules_strategy() -> impl Strategy<Value = Rules> {
        let d = RulesSpec::default();
        let specs = vec![
            d,
            RulesSpec {
                draw_order: DrawOrder::LoserFirst,
                ..d
            },
            RulesSpec {
                players: 3,
                deck: 39,
                ..d
            },
            RulesSpec {
                players: 3,
                deck: 36,
                first_leader: 2,
                ..d
            },
            RulesSpec { players: 4, ..d },
            RulesSpec {
                players: 4,
                draw_order: DrawOrder::LoserFirst,
                first_leader: 1,
                ..d
            },
            RulesSpec {
                players: 4,
                deck: 36,
                ..d
            },
            RulesSpec {
                players: 6,
                deck: 36,
                ..d
            },
            RulesSpec {
                hand_size: 5,
                trump: TrumpRule::None,
                must_follow_suit: true,
                ..d
            },
            RulesSpec {
                hand_size: 5,
                trump: TrumpRule::None,
                ..d
            },
            RulesSpec {
                must_follow_suit: true,
                ..d
            },
            RulesSpec {
                scoperta: true,
                ..d
            },
            RulesSpec {
                redraw_ace_three: true,
                ..d
            },
            RulesSpec {
                players: 4,
                redraw_ace_three: true,
                ..d
            },
            RulesSpec {
                target: Some(31),
                ..d
            },
            RulesSpec {
                deck: 36,
                first_leader: 1,
                ..d
            },
        ];
        proptest::sample::select(specs).prop_map(|s| s.validate().expect("a valid variant"))
    }

    /// A uniformly random legal player, for the variants where the paper's policies have no
    /// meaning (no trump): it draws from its seat stream.
    struct Random;
    impl Policy for Random {
        fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
            rng.below(v.hand.len() as u32) as usize
        }
    }

    /// Records tricks and draws.
    #[derive(Default)]
    struct Log {
        tricks: Vec<TableTrick>,
        draws: Vec<(u8, u8, Card)>,
    }
    impl TableSink for Log {
        fn trick(&mut self, t: &TableTrick) {
            self.tricks.push(*t);
        }
        fn draw(&mut self, trick: u8, seat: u8, card: Card) {
            self.draws.push((trick, seat, card));
        }
    }

    /// One decision as a seat saw it: trick, seat, hand, open hand, stock top, partner flag.
    type Seen = (u8, u8, Vec<Card>, Vec<Card>, Option<Card>, bool);

    /// Records every decision's view, to check what each seat was shown.
    struct Watch<'p> {
        inner: &'p dyn Policy,
        log: std::sync::Mutex<Vec<Seen>>,
    }
    impl Policy for Watch<'_> {
        fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
            let i = self.inner.choose(v, rng);
            self.log.lock().unwrap().push((
                v.trick,
                v.seat,
                v.hand.to_vec(),
                v.open_hand.to_vec(),
                v.stock_top,
                v.partner_winning,
            ));
            i
        }
    }

    fn rngs(n: usize) -> Vec<SeatRng> {
        (0..n).map(|s| SeatRng::new([s as u8 + 1; 32], 7)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The general engine plays the standard game exactly as the specialised one.
        #[test]
        fn general_engine_equals_play_game_on_the_standard_rules(
            deck in deck_strategy(), a in spec_strategy(11), b in spec_strategy(11), aware in any::<bool>()
        ) {
            let rules = Rules::standard();
            let (pa, pb) = (a.build(), b.build());
            let mut want: Vec<TrickRecord> = Vec::new();
            let o = play_game(&deck, &pa, &pb, &mut [SeatRng::new([1; 32], 0), SeatRng::new([2; 32], 0)],
                &mut |t: &TrickRecord| want.push(*t));
            let reading = if aware { FollowReading::PartnerAware } else { FollowReading::Verbatim };
            let ta = TablePolicy::new(&a, &rules, reading).unwrap();
            let tb = TablePolicy::new(&b, &rules, reading).unwrap();
            let mut got = Log::default();
            let t = play_table(&rules, &deck, &[&ta, &tb], &mut rngs(2), &mut got);
            prop_assert_eq!(&t.points[..2], &o.points[..]);
            prop_assert_eq!(&t.briscole[..2], &o.briscole[..]);
            prop_assert_eq!(&t.trumps_played[..2], &o.trumps_played[..]);
            prop_assert_eq!((t.trump, t.face_up), (Some(o.trump), Some(o.face_up)));
            prop_assert_eq!(got.tricks.len(), want.len());
            for (g, w) in got.tricks.iter().zip(&want) {
                let seat = |s: Seat| if s == Seat::G1 { 0u8 } else { 1 };
                prop_assert_eq!(g.trick, w.trick);
                prop_assert_eq!((g.leader, g.winner), (seat(w.leader), seat(w.winner)));
                prop_assert_eq!((g.card_of(0), g.card_of(1)), (w.card_g1, w.card_g2));
                prop_assert_eq!(g.points, w.points);
            }
        }

        /// Every variant's invariants, replayed from the deal, the draws and the tricks.
        #[test]
        fn every_variant_keeps_its_rules(
            rules in rules_strategy(), deck in deck_strategy(),
            specs in proptest::collection::vec(spec_strategy(11), 6), aware in any::<bool>()
        ) {
            let n = rules.players();
            let reading = if aware { FollowReading::PartnerAware } else { FollowReading::Verbatim };
            let built: Vec<Box<dyn Policy>> = specs[..n].iter().map(|s| -> Box<dyn Policy> {
                match TablePolicy::new(s, &rules, reading) {
                    Ok(p) => Box::new(p),
                    Err(_) => Box::new(Random),
                }
            }).collect();
            let watches: Vec<Watch> = built.iter().map(|p| Watch { inner: p.as_ref(), log: Default::default() }).collect();
            let seats: Vec<&dyn Policy> = watches.iter().map(|w| w as &dyn Policy).collect();
            let mut log = Log::default();
            let out = play_table(&rules, &deck, &seats, &mut rngs(n), &mut log);
            check_replay(&rules, &deck, &log, &out)?;
            check_views(&rules, &watches, &log)?;
        }
    }

    /// Replays a game: the deal, each trick's cards against the hands, the winner, the draws.
    fn check_replay(
        rules: &Rules,
        deck: &Deck,
        log: &Log,
        out: &crate::game::TableOutcome,
    ) -> Result<(), TestCaseError> {
        let (n, h) = (rules.players(), rules.hand_size());
        let (seq, len) = deal_order(rules, deck);
        prop_assert_eq!(len, rules.deck_size());
        let spec = rules.spec();
        if spec.redraw_ace_three {
            prop_assert!(!matches!(seq[len - 1].rank(), 1 | 3), "face-up redrawn");
        }
        let mut hands: Vec<Vec<Card>> = (0..n).map(|s| seq[s * h..(s + 1) * h].to_vec()).collect();
        let mut next = n * h;
        let trump = rules.has_trump().then(|| seq[len - 1].suit());
        let mut seen = 0u64;
        let mut pts = vec![0u32; n];
        let mut leader = spec.first_leader as usize;
        let draws_per_trick = log.draws.chunk_by(|a, b| a.0 == b.0).collect::<Vec<_>>();
        let mut draw_iter = draws_per_trick.iter();
        for t in &log.tricks {
            // Exactly one leader, the previous trick's winner; one card per player.
            prop_assert_eq!(t.leader as usize, leader, "trick {}", t.trick);
            prop_assert_eq!(t.players as usize, n);
            let stock_out_after = (len - n * h) / n; // tricks that are followed by a draw
            let want_hand = h - (t.trick as usize).saturating_sub(stock_out_after + 1);
            let lead_suit = t.played()[0].suit();
            for (k, &c) in t.played().iter().enumerate() {
                let s = t.seat_of(k);
                prop_assert_eq!(
                    hands[s].len(),
                    want_hand,
                    "seat {} hand at trick {}",
                    s,
                    t.trick
                );
                let at = hands[s].iter().position(|&x| x == c);
                prop_assert!(at.is_some(), "seat {} played {} it does not hold", s, c);
                if spec.must_follow_suit && k > 0 && hands[s].iter().any(|x| x.suit() == lead_suit)
                {
                    prop_assert_eq!(c.suit(), lead_suit, "must follow suit");
                }
                hands[s].remove(at.unwrap());
                prop_assert_eq!(seen & 1 << c.id(), 0, "card played twice");
                seen |= 1 << c.id();
            }
            // The winner: the card no later card beats, by the trick rule folded in order.
            let mut best = 0;
            for k in 1..n {
                if beats(t.played()[best], t.played()[k], trump) {
                    best = k;
                }
            }
            prop_assert_eq!(t.winner as usize, t.seat_of(best));
            prop_assert_eq!(
                t.points as u32,
                t.played().iter().map(|c| c.points() as u32).sum::<u32>()
            );
            pts[t.winner as usize] += t.points as u32;
            // Draws: one card each, in the variant's order, from the top of the stock.
            if next < len {
                let d = draw_iter
                    .next()
                    .expect("draws after a trick while the stock lasts");
                prop_assert_eq!(d.len(), n);
                let first = match spec.draw_order {
                    DrawOrder::WinnerFirst => t.winner as usize,
                    DrawOrder::LoserFirst => t.winner as usize + 1,
                };
                for (k, &(tr, seat, c)) in d.iter().enumerate() {
                    prop_assert_eq!(tr, t.trick);
                    prop_assert_eq!(seat as usize, (first + k) % n);
                    prop_assert_eq!(c, seq[next]);
                    next += 1;
                    hands[seat as usize].push(c);
                }
            }
            leader = t.winner as usize;
        }
        prop_assert!(
            draw_iter.next().is_none(),
            "no draws after the stock ran out"
        );
        prop_assert_eq!(
            &pts[..],
            &out.points[..n]
                .iter()
                .map(|&p| p as u32)
                .collect::<Vec<_>>()[..]
        );
        if let Some(target) = spec.target {
            // Briscola a 31: the game stops at the first trick after which a side has the target.
            let side_pts = out.side_points(rules);
            match out.claimed_by {
                Some(s) => prop_assert!(side_pts[s as usize] >= target as u16),
                None => prop_assert_eq!(log.tricks.len(), rules.tricks()),
            }
            let mut run = [0u16; 2];
            for t in &log.tricks[..log.tricks.len() - 1] {
                run[t.winner as usize] += t.points as u16;
                prop_assert!(
                    run[0] < target as u16 && run[1] < target as u16,
                    "claimed late"
                );
            }
        } else {
            // Played to the end: every card of the variant's deck once, points sum to 120.
            prop_assert_eq!(log.tricks.len(), rules.tricks());
            prop_assert_eq!(seen.count_ones() as usize, rules.deck_size());
            prop_assert_eq!(pts.iter().sum::<u32>(), rules.total_points());
            prop_assert!(hands.iter().all(|h| h.is_empty()));
            let sides = out.side_points(rules);
            prop_assert_eq!(sides.iter().map(|&p| p as u32).sum::<u32>(), 120);
            if let Some(tr) = trump {
                let total: u32 = out.briscole[..n].iter().map(|&b| b as u32).sum();
                let in_deck = Card::all()
                    .filter(|&c| rules.in_deck(c) && c.suit() == tr)
                    .count();
                prop_assert_eq!(total as usize, in_deck);
            }
        }
        Ok(())
    }

    /// What each seat was shown: Scoperta's open hand and stock top, the partner flag.
    fn check_views(rules: &Rules, watches: &[Watch], log: &Log) -> Result<(), TestCaseError> {
        for w in watches {
            for (trick, _seat, hand, open, top, partner) in w.log.lock().unwrap().iter() {
                prop_assert!(!hand.is_empty());
                if rules.spec().scoperta {
                    prop_assert!(!open.is_empty() || *trick as usize == rules.tricks());
                } else {
                    prop_assert!(open.is_empty() && top.is_none());
                }
                if *partner {
                    prop_assert!(rules.players() >= 4);
                    let t = &log.tricks[*trick as usize - 1];
                    prop_assert!(t.players >= 4);
                }
            }
        }
        Ok(())
    }

    /// Pagat's four-player example (briscola: the Three of hearts = Coppe): D leads the Four of
    /// spades, C the Jack of spades, B the Two of hearts, A the Five of clubs; B (D's partner)
    /// takes the trick and leads the next. Seats in playing order D=0, C=1, B=2, A=3.
    /// (Marzano's copy of the example says "D leads to the next trick"; Pagat's says B, which
    /// is what the rule gives.)
    #[test]
    fn pagat_four_player_example() {
        use crate::game::Suit;
        let c = |s, r| Card::new(s, r).unwrap();
        let trick = [
            c(Suit::Spade, 4),
            c(Suit::Spade, 8),
            c(Suit::Coppe, 2),
            c(Suit::Bastoni, 5),
        ];
        // Deal those cards as the first card of each hand; a scripted policy plays card 0.
        let mut ids: Vec<u8> = Vec::new();
        let rest: Vec<u8> = (0..40u8)
            .filter(|&i| !trick.iter().any(|t| t.id() == i) && i != c(Suit::Coppe, 3).id())
            .collect();
        let mut rest = rest.into_iter();
        for t in &trick {
            ids.push(t.id());
            ids.push(rest.next().unwrap());
            ids.push(rest.next().unwrap());
        }
        ids.extend(rest);
        ids.push(c(Suit::Coppe, 3).id());
        let deck = Deck::from_ids(&ids).unwrap();
        struct First;
        impl Policy for First {
            fn choose(&self, _: &SeatView<'_>, _: &mut SeatRng) -> usize {
                0
            }
        }
        let rules = RulesSpec {
            players: 4,
            ..RulesSpec::default()
        }
        .validate()
        .unwrap();
        let mut log = Log::default();
        let out = play_table(&rules, &deck, &[&First; 4], &mut rngs(4), &mut log);
        let t1 = &log.tricks[0];
        assert_eq!(t1.played(), trick);
        assert_eq!(t1.winner, 2, "B takes it with the Two of trumps");
        assert_eq!(log.tricks[1].leader, 2, "B leads the next trick");
        assert!(rules.partners(0, 2), "D and B are partners");
        assert_eq!(out.trump, Some(Suit::Coppe));
    }
}
