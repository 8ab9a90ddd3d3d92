//! One game played by the engine itself with every decision recorded: each seat's view, the card
//! it played and, for a rule-based policy, the rule that fired. Seats are policies (explained
//! through [`AnyPolicy::explain`]) or scripts (a recorded or typed sequence of cards).
//!
//! Invariant: the tricks of a traced game are exactly those [`play_game`] produces for the same
//! deck, policies and seat streams: tracing wraps the engine's seats, it never re-implements the
//! play.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::game::{
    Card, Deck, GameOutcome, Policy, Seat, SeatRng, SeatView, Suit, TrickRecord, play_game,
};
use crate::policy::{AnyPolicy, Explanation};

/// Someone outside the engine who decides for a seat (a person at the keyboard).
pub trait SeatPrompt: Send + Sync {
    /// Index into `view.hand` of the card to play (an index past the hand plays the last card).
    fn ask(&self, view: &SeatView<'_>) -> usize;
}

/// Who decides for a seat.
#[derive(Clone)]
pub enum SeatActor {
    /// A policy, asked through its explanation path.
    Policy(AnyPolicy),
    /// A script: the cards this seat plays, in order.
    Script(Vec<Card>),
    /// Someone asked at each turn.
    Prompt(Arc<dyn SeatPrompt>),
}

impl std::fmt::Debug for SeatActor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeatActor::Policy(p) => f.debug_tuple("Policy").field(p).finish(),
            SeatActor::Script(c) => f.debug_tuple("Script").field(c).finish(),
            SeatActor::Prompt(_) => f.write_str("Prompt"),
        }
    }
}

/// What a seat saw when it was asked to play (an owned copy of its [`SeatView`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewSnapshot {
    /// Own hand, in arrival order.
    pub hand: Vec<Card>,
    /// The opponent's card when following.
    pub table: Option<Card>,
    /// The trump suit.
    pub trump: Suit,
    /// The face-up card.
    pub face_up: Card,
    /// Cards played in earlier tricks, in id order.
    pub played: Vec<Card>,
    /// Cards left in the stock.
    pub stock_left: u8,
    /// Trick number, 1..=20.
    pub trick: u8,
    /// Own points so far.
    pub my_points: u8,
    /// The opponent's points so far.
    pub opp_points: u8,
    /// The seat asked (0 = G1, 1 = G2).
    pub seat: u8,
    /// Every card played before this decision, with its seat, in order.
    pub history: Vec<(u8, Card)>,
}

impl ViewSnapshot {
    /// Copy a view.
    pub fn of(v: &SeatView<'_>) -> ViewSnapshot {
        ViewSnapshot {
            hand: v.hand.to_vec(),
            table: v.table,
            trump: v.trump,
            face_up: v.face_up,
            played: Card::all()
                .filter(|c| v.played & (1u64 << c.id()) != 0)
                .collect(),
            stock_left: v.stock_left,
            trick: v.trick,
            my_points: v.my_points,
            opp_points: v.opp_points,
            seat: v.seat,
            history: v.history.to_vec(),
        }
    }

    /// The view again, borrowing this snapshot (to ask a policy about it).
    pub fn view(&self) -> SeatView<'_> {
        SeatView {
            hand: &self.hand,
            table: self.table,
            trump: self.trump,
            face_up: self.face_up,
            played: self.played.iter().fold(0u64, |m, c| m | 1u64 << c.id()),
            stock_left: self.stock_left,
            trick: self.trick,
            my_points: self.my_points,
            opp_points: self.opp_points,
            players: 2,
            seat: self.seat,
            trick_cards: self.table.as_slice(),
            partner_winning: false,
            no_trump: false,
            open_hand: &[],
            stock_top: None,
            history: &self.history,
        }
    }
}

/// One decision of a traced game.
#[derive(Clone, Debug)]
pub struct Decision {
    /// Who decided.
    pub seat: Seat,
    /// What it saw.
    pub view: ViewSnapshot,
    /// What it played.
    pub card: Card,
    /// Why, for a policy seat.
    pub explanation: Option<Explanation>,
}

/// A script asked for a card its seat does not hold, or ran out of cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptFault {
    /// The trick.
    pub trick: u8,
    /// The seat.
    pub seat: Seat,
    /// The card the script named (`None`: the script had no more cards).
    pub wanted: Option<Card>,
    /// What the seat held.
    pub hand: Vec<Card>,
}

/// A whole traced game.
#[derive(Clone, Debug)]
pub struct TracedGame {
    /// The deck.
    pub deck: Deck,
    /// The 40 decisions in play order.
    pub decisions: Vec<Decision>,
    /// The 20 tricks.
    pub tricks: Vec<TrickRecord>,
    /// The outcome.
    pub outcome: GameOutcome,
}

struct TracedSeat<'a> {
    seat: Seat,
    actor: &'a SeatActor,
    cursor: AtomicUsize,
    log: &'a Mutex<Vec<Decision>>,
    fault: &'a Mutex<Option<ScriptFault>>,
}

impl Policy for TracedSeat<'_> {
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        let (index, explanation) = match self.actor {
            SeatActor::Policy(p) => {
                let e = p.explain(v, rng);
                (e.index, Some(e))
            }
            SeatActor::Script(cards) => {
                let k = self.cursor.fetch_add(1, Ordering::Relaxed);
                let wanted = cards.get(k).copied();
                match wanted.and_then(|c| v.hand.iter().position(|&h| h == c)) {
                    Some(i) => (i, None),
                    None => {
                        let mut f = self.fault.lock().unwrap_or_else(|e| e.into_inner());
                        f.get_or_insert(ScriptFault {
                            trick: v.trick,
                            seat: self.seat,
                            wanted,
                            hand: v.hand.to_vec(),
                        });
                        (0, None)
                    }
                }
            }
            SeatActor::Prompt(p) => (p.ask(v).min(v.hand.len() - 1), None),
        };
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.push(Decision {
            seat: self.seat,
            view: ViewSnapshot::of(v),
            card: v.hand[index],
            explanation,
        });
        index
    }
}

/// Play `deck` with `actors` (G1's first) on the engine, recording every decision. Fails with
/// the first [`ScriptFault`] if a script names a card its seat does not hold.
pub fn trace_game(
    deck: &Deck,
    actors: [&SeatActor; 2],
    rngs: &mut [SeatRng; 2],
) -> Result<TracedGame, ScriptFault> {
    trace_game_with(deck, actors, rngs, &mut |_| {})
}

/// [`trace_game`], calling `on_trick` as each trick ends.
pub fn trace_game_with(
    deck: &Deck,
    actors: [&SeatActor; 2],
    rngs: &mut [SeatRng; 2],
    on_trick: &mut dyn FnMut(&TrickRecord),
) -> Result<TracedGame, ScriptFault> {
    let log = Mutex::new(Vec::with_capacity(40));
    let fault = Mutex::new(None);
    let seat = |seat, actor| TracedSeat {
        seat,
        actor,
        cursor: AtomicUsize::new(0),
        log: &log,
        fault: &fault,
    };
    let (s1, s2) = (seat(Seat::G1, actors[0]), seat(Seat::G2, actors[1]));
    let mut tricks = Vec::with_capacity(20);
    let outcome = play_game(deck, &s1, &s2, rngs, &mut |t: &TrickRecord| {
        tricks.push(*t);
        on_trick(t);
    });
    if let Some(f) = fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(f);
    }
    Ok(TracedGame {
        deck: *deck,
        decisions: log.into_inner().unwrap_or_else(|e| e.into_inner()),
        tricks,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::policy::strategies::{deck_strategy, spec_strategy};

    use super::*;
    use crate::policy::{PolicyKind, PolicySpec, Rule, TieBreak};

    fn rngs() -> [SeatRng; 2] {
        [SeatRng::new([1; 32], 9), SeatRng::new([2; 32], 9)]
    }

    /// Whether `c` wins against `led` under `trump` (the follower's view of Proposition 1).
    fn beats(c: Card, led: Card, trump: Suit) -> bool {
        !crate::game::leader_wins(led, c, trump)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The explanation path plays exactly the engine's game, and every named rule is true of
        /// the card it names.
        #[test]
        fn explained_choices_are_the_engines_choices(deck in deck_strategy(), a in spec_strategy(12), b in spec_strategy(12)) {
            let (p1, p2) = (a.build(), b.build());
            let mut plain = Vec::new();
            let out = play_game(&deck, &p1, &p2, &mut rngs(), &mut |t: &TrickRecord| plain.push(*t));
            let traced = trace_game(&deck, [&SeatActor::Policy(p1), &SeatActor::Policy(p2.clone())], &mut rngs()).unwrap();
            prop_assert_eq!(&traced.tricks, &plain);
            prop_assert_eq!(traced.outcome, out);
            prop_assert_eq!(traced.decisions.len(), 40);
            for d in &traced.decisions {
                let e = d.explanation.as_ref().unwrap();
                prop_assert_eq!(e.card, d.card);
                prop_assert_eq!(d.view.hand[e.index], d.card);
                let (c, t) = (d.card, d.view.trump);
                let rule = e.rule.unwrap();
                match (rule, d.view.table) {
                    (Rule::LeadCheapestNonTrump, None) => prop_assert!(c.suit() != t),
                    (Rule::LeadCheapestTrump, None) => prop_assert!(d.view.hand.iter().all(|h| h.suit() == t)),
                    (Rule::LeadCaricoTrapAce, None) => prop_assert!(c.rank() == 1 && c.suit() != t),
                    (Rule::LeadCaricoTrapThree, None) => prop_assert!(c.rank() == 3 && c.suit() != t),
                    (Rule::FollowCheapestInSuitWinner, Some(led)) => prop_assert!(c.suit() == led.suit() && beats(c, led, t)),
                    (Rule::FollowCheapestWinningTrump, Some(led)) => prop_assert!(c.suit() == t && led.suit() != t),
                    (Rule::FollowCheapestCard, Some(led)) => prop_assert!(d.view.hand.iter().all(|&h| !beats(h, led, t))),
                    (Rule::FollowCheapestNonTrump, Some(_)) => prop_assert!(c.suit() != t),
                    (Rule::FollowCheapestTrump, Some(_)) => prop_assert!(d.view.hand.iter().all(|h| h.suit() == t)),
                    (r, table) => prop_assert!(false, "rule {:?} with table {:?}", r, table),
                }
                prop_assert!(!e.line().is_empty());
            }
        }

        /// A script replaying the engine's own cards reproduces the game.
        #[test]
        fn a_script_of_the_engines_cards_replays_the_game(deck in deck_strategy(), a in spec_strategy(12), b in spec_strategy(12)) {
            let (p1, p2) = (a.build(), b.build());
            let traced = trace_game(&deck, [&SeatActor::Policy(p1), &SeatActor::Policy(p2.clone())], &mut rngs()).unwrap();
            let cards = |s: Seat| traced.decisions.iter().filter(|d| d.seat == s).map(|d| d.card).collect::<Vec<_>>();
            let script = trace_game(&deck, [&SeatActor::Script(cards(Seat::G1)), &SeatActor::Policy(p2)], &mut rngs()).unwrap();
            prop_assert_eq!(script.tricks, traced.tricks);
        }
    }

    #[test]
    fn a_script_naming_a_card_not_in_hand_is_a_fault() {
        let deck = Deck::ordered();
        let greedy =
            SeatActor::Policy(PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build());
        // G1 holds 1, 2, 3 Oro; the Re di Coppe is at the bottom.
        let bad = Card::new(Suit::Coppe, 10).unwrap();
        let f =
            trace_game(&deck, [&SeatActor::Script(vec![bad]), &greedy], &mut rngs()).unwrap_err();
        assert_eq!((f.trick, f.seat, f.wanted), (1, Seat::G1, Some(bad)));
        assert_eq!(f.hand.len(), 3);
        let f = trace_game(&deck, [&greedy, &SeatActor::Script(vec![])], &mut rngs()).unwrap_err();
        assert_eq!((f.trick, f.seat, f.wanted), (1, Seat::G2, None));
    }

    /// Every kind's explanation path plays its engine's game: a rule program with a random
    /// rule, a switch, epsilon (exploring on every move), search and random, each traced
    /// (through `explain`) against `play_game` (through `choose`) on the same streams, and
    /// each explanation names why.
    #[test]
    fn every_kind_explains_the_card_it_chooses() {
        use crate::game::{NoTricks, play_game};
        use crate::policy::lang::parse_condition;
        use crate::policy::{AnyPolicy, EpsMoves, Epsilon, RuleProgram, Search, Switch};
        use std::sync::Arc;
        let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build();
        let counter = PolicySpec::paper(PolicyKind::Counter, TieBreak::AsReleased).build();
        let program = RuleProgram::compile(
            &["random of !trump", "cheapest"],
            &["cheapest-by-points of led-suit & wins", "cheapest"],
            TieBreak::AsReleased,
        )
        .unwrap();
        let when = parse_condition("stock > 10").unwrap();
        let kinds: Vec<(AnyPolicy, &str)> = vec![
            (AnyPolicy::Rules(Arc::new(program)), " rule "),
            (
                AnyPolicy::Switch(Arc::new(Switch::new(when, greedy.clone(), counter.clone()))),
                "switch: ",
            ),
            (
                AnyPolicy::Epsilon(Arc::new(Epsilon::new(counter.clone(), 0.5, EpsMoves::All))),
                "epsilon: ",
            ),
            (AnyPolicy::Search(Search::new(2, 2)), "search"),
            (
                PolicySpec::paper(PolicyKind::Random, TieBreak::AsReleased).build(),
                "uniformly random",
            ),
        ];
        for (g, (p, word)) in kinds.into_iter().enumerate() {
            let mut deck = Deck::ordered();
            let mut r = SeatRng::new([7; 32], g as u64);
            deck.shuffle_with(|m| r.below(m));
            let want = play_game(&deck, &p, &greedy, &mut rngs(), &mut NoTricks);
            let actors = [SeatActor::Policy(p), SeatActor::Policy(greedy.clone())];
            let got = trace_game(&deck, [&actors[0], &actors[1]], &mut rngs()).unwrap();
            assert_eq!(got.outcome, want, "{word}");
            for d in got.decisions.iter().filter(|d| d.seat == Seat::G1) {
                let e = d.explanation.as_ref().unwrap();
                assert_eq!(e.card, d.card);
                assert!(e.line().contains(word), "{word}: {}", e.line());
            }
        }
    }
}
