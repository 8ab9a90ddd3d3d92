//! One game at a table of any size (two to six seats, any variant the engine plays) traced
//! decision by decision: what each seat held and could play, the trick as it stood, the card it
//! played and, for a policy seat, why; the tricks and every draw from the stock.
//!
//! Invariant: the game is [`TableState`]'s and the cards are the seats' own choices, asked in the
//! order [`crate::game::play_table`] asks them with the same streams, so a traced game of
//! policies is exactly the game the simulate stage played (a test checks it against
//! `play_table`); tracing observes, it never re-implements a rule.

use crate::game::{
    Card, Deck, Rules, SeatRng, SeatView, TableOutcome, TableSink, TableState, TableTrick,
};
use crate::policy::{Explanation, TablePolicy};

/// Who decides for a seat of a table game.
#[derive(Clone, Debug)]
pub enum TableActor {
    /// A policy under the table's reading, asked through its explanation path.
    Policy(TablePolicy),
    /// A script: the cards this seat plays, in order.
    Script(Vec<Card>),
}

/// One decision of a traced table game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDecision {
    /// The 0-based seat that decided.
    pub seat: u8,
    /// The trick, 1-based.
    pub trick: u8,
    /// Its whole hand.
    pub hand: Vec<Card>,
    /// The cards it could play (its hand, or the led suit under must-follow-suit).
    pub legal: Vec<Card>,
    /// The trick so far, in playing order.
    pub on_table: Vec<Card>,
    /// Cards left in the stock (the face-up card included).
    pub stock_left: u8,
    /// Its side's points and the other sides' together, before this card.
    pub points: (u8, u8),
    /// What it played.
    pub card: Card,
    /// Why, for a policy seat.
    pub explanation: Option<Explanation>,
}

/// A card drawn from the stock after a trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableDraw {
    /// The trick after which it was drawn.
    pub trick: u8,
    /// The 0-based seat that drew it.
    pub seat: u8,
    /// The card.
    pub card: Card,
}

/// A script named a card its seat may not play, or ran out of cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableScriptFault {
    /// The trick.
    pub trick: u8,
    /// The 0-based seat.
    pub seat: u8,
    /// The card the script named (`None`: it had no more).
    pub wanted: Option<Card>,
    /// The cards the seat could play.
    pub legal: Vec<Card>,
}

/// A whole traced table game.
#[derive(Clone, Debug)]
pub struct TableTraced {
    /// The rules.
    pub rules: Rules,
    /// The deck.
    pub deck: Deck,
    /// Each seat's first hand.
    pub hands: Vec<Vec<Card>>,
    /// Every decision, in play order.
    pub decisions: Vec<TableDecision>,
    /// The tricks, in order.
    pub tricks: Vec<TableTrick>,
    /// Every draw, in order.
    pub draws: Vec<TableDraw>,
    /// The outcome.
    pub outcome: TableOutcome,
}

#[derive(Default)]
struct Log {
    tricks: Vec<TableTrick>,
    draws: Vec<TableDraw>,
}

impl TableSink for Log {
    fn trick(&mut self, t: &TableTrick) {
        self.tricks.push(*t);
    }
    fn draw(&mut self, trick: u8, seat: u8, card: Card) {
        self.draws.push(TableDraw { trick, seat, card });
    }
}

/// The decision record of `view` (the seat to play's) with its whole hand `hand`.
fn decision(
    view: &SeatView<'_>,
    hand: &[Card],
    card: Card,
    explanation: Option<Explanation>,
) -> TableDecision {
    TableDecision {
        seat: view.seat,
        trick: view.trick,
        hand: hand.to_vec(),
        legal: view.hand.to_vec(),
        on_table: view.trick_cards.to_vec(),
        stock_left: view.stock_left,
        points: (view.my_points, view.opp_points),
        card,
        explanation,
    }
}

/// Play `deck` under `rules` with `actors[s]` deciding for seat `s` and `rngs[s]` its stream,
/// recording every decision. Fails with the first [`TableScriptFault`].
///
/// # Panics
/// If `actors` or `rngs` does not hold one entry per player.
pub fn trace_table(
    rules: &Rules,
    deck: &Deck,
    actors: &[TableActor],
    rngs: &mut [SeatRng],
) -> Result<TableTraced, TableScriptFault> {
    let n = rules.players();
    assert!(actors.len() == n && rngs.len() == n, "one actor per seat");
    let mut state = TableState::new(rules, deck);
    let hands = (0..n).map(|s| state.hand(s).to_vec()).collect();
    let mut cursors = vec![0usize; n];
    let mut log = Log::default();
    let mut decisions = Vec::with_capacity(40);
    while let Some(view) = state.view() {
        let seat = view.seat as usize;
        let hand = state.hand(seat);
        let (card, explanation) = match &actors[seat] {
            TableActor::Policy(p) => {
                let e = p.explain(&view, &mut rngs[seat]);
                (e.card, Some(e))
            }
            TableActor::Script(cards) => {
                let wanted = cards.get(cursors[seat]).copied();
                cursors[seat] += 1;
                match wanted.filter(|c| view.hand.contains(c)) {
                    Some(c) => (c, None),
                    None => {
                        return Err(TableScriptFault {
                            trick: view.trick,
                            seat: view.seat,
                            wanted,
                            legal: view.hand.to_vec(),
                        });
                    }
                }
            }
        };
        decisions.push(decision(&view, hand, card, explanation));
        state
            .play(card, &mut log)
            .expect("a card of the seat's playable hand is legal");
    }
    Ok(TableTraced {
        rules: *rules,
        deck: *deck,
        hands,
        decisions,
        tricks: log.tricks,
        draws: log.draws,
        outcome: *state.outcome(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RulesSpec, play_table};
    use crate::policy::{FollowReading, PolicyKind, PolicySpec, TieBreak};
    use proptest::prelude::*;

    use crate::policy::strategies::deck_strategy;

    fn seats(rules: &Rules, reading: FollowReading) -> Vec<TablePolicy> {
        let kinds = [PolicyKind::Greedy, PolicyKind::Counter, PolicyKind::Hoarder];
        (0..rules.players())
            .map(|s| {
                let spec = PolicySpec::paper(kinds[s % 3], TieBreak::AsReleased);
                TablePolicy::new(&spec, rules, reading).expect("fits")
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// A traced game of policies is `play_table`'s game trick for trick, for every table
        /// size and both readings, and each decision's card is one it could play.
        #[test]
        fn traced_games_are_the_engines_games(deck in deck_strategy(), players in prop::sample::select(vec![2u8, 3, 4, 6]), aware in any::<bool>()) {
            let spec = RulesSpec { players, deck: if players == 6 { 36 } else if players == 3 { 39 } else { 40 }, ..RulesSpec::default() };
            let rules = spec.validate().expect("valid");
            let reading = if aware && rules.sides() < rules.players() { FollowReading::PartnerAware } else { FollowReading::Verbatim };
            let pols = seats(&rules, reading);
            let refs: Vec<&TablePolicy> = pols.iter().collect();
            let rngs = |_: ()| (0..rules.players()).map(|s| SeatRng::new([s as u8; 32], 7)).collect::<Vec<_>>();
            let mut want = Vec::new();
            let o = play_table(&rules, &deck, &refs, &mut rngs(()), &mut |t: &TableTrick| want.push(*t));
            let actors: Vec<TableActor> = pols.into_iter().map(TableActor::Policy).collect();
            let g = trace_table(&rules, &deck, &actors, &mut rngs(())).expect("policies cannot fault");
            prop_assert_eq!(&g.tricks, &want);
            prop_assert_eq!(g.outcome.points, o.points);
            prop_assert_eq!(g.decisions.len(), rules.tricks() * rules.players());
            for d in &g.decisions {
                prop_assert!(d.legal.contains(&d.card));
                prop_assert!(d.hand.contains(&d.card));
            }
            // Replaying the decisions as scripts plays the same game.
            let mut scripts = vec![Vec::new(); rules.players()];
            for d in &g.decisions {
                scripts[d.seat as usize].push(d.card);
            }
            let actors: Vec<TableActor> = scripts.into_iter().map(TableActor::Script).collect();
            let again = trace_table(&rules, &deck, &actors, &mut rngs(())).expect("scripts fit");
            prop_assert_eq!(&again.tricks, &want);
        }
    }

    #[test]
    fn a_script_naming_a_card_not_in_hand_faults() {
        let rules = RulesSpec::for_players(4).validate().expect("valid");
        let deck = Deck::from_ids(&(0..40).collect::<Vec<u8>>()).expect("a deck");
        let s = trace_table(
            &rules,
            &deck,
            &vec![TableActor::Script(vec![]); 4],
            &mut vec![SeatRng::new([0; 32], 0); 4],
        );
        let f = s.expect_err("an empty script faults");
        assert_eq!((f.trick, f.seat, f.wanted), (1, 0, None));
        assert_eq!(f.legal.len(), 3);
    }
}
