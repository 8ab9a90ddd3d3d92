//! One game under any valid [`Rules`] as a state that advances one card at a time: whose turn it
//! is, what that seat may see and play, and the card it plays. [`super::play_table`] drives it
//! with policies; the Python environment, the terminal table and the web table drive it with a
//! person's or a program's cards.
//!
//! Invariant: the state only ever holds a game the rules allow: every player plays exactly one
//! card per trick, in seat order from the leader; exactly one card wins each trick and its player
//! leads the next; after a trick every player draws one card (in the variant's order) while the
//! stock lasts; [`TableState::play`] refuses (and leaves the state unchanged) a card the seat to
//! play may not play.

use super::card::{Card, Suit};
use super::card_list::CardList;
use super::deck::Deck;
use super::rules::{DrawOrder, Rules};
use super::seat_view::SeatView;
use super::table_outcome::TableOutcome;
use super::table_trick::{MAX_PLAYERS, TableSink, TableTrick};
use super::trick::beats;

/// Largest hand.
pub(super) const MAX_HAND: usize = 5;

/// A hand of at most five cards, in arrival order.
type Hand = CardList<MAX_HAND>;

/// Remove card `c` from `hand`, keeping the others in order.
///
/// # Panics
/// If the hand does not hold `c` (a bug in the caller).
#[inline]
fn remove_card(hand: &mut Hand, c: Card) {
    let i = hand
        .iter()
        .position(|&x| x == c)
        .expect("the card is in the hand");
    hand.remove(i);
}

/// The seat `k` places after seat `from` at a table of `n` (`from` at most `n`, `k` below `n`):
/// the engine's seat arithmetic without a division on every card.
#[inline(always)]
fn seat_after(from: usize, k: usize, n: usize) -> usize {
    debug_assert!(from <= n && k < n);
    let s = from + k;
    if s >= n { s - n } else { s }
}

/// Why a card cannot be played now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalPlay {
    /// The game is over.
    #[error("the game is over: no card can be played")]
    GameOver,
    /// The seat to play does not hold the card.
    // The messages name no seat: the engine counts seats from 0, Python too, the CLI and the
    // HTTP API from 1; each edge says which seat in its own numbering where it must.
    #[error("the seat to play does not hold card {} ({card}); it holds {hand}", card.id())]
    NotInHand {
        /// The seat to play (0-based).
        seat: u8,
        /// The card asked for.
        card: Card,
        /// The seat's hand, as card ids.
        hand: HandText,
    },
    /// Must-follow-suit: the seat holds the led suit and the card is of another.
    #[error(
        "the seat to play must follow suit: it holds the led suit, so it may play only {legal}"
    )]
    MustFollow {
        /// The seat to play (0-based).
        seat: u8,
        /// The playable cards, as card ids.
        legal: HandText,
    },
}

/// A hand's card ids for an error message (`[3, 17, 25]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandText {
    ids: [u8; MAX_HAND],
    len: u8,
}

impl HandText {
    fn of(cards: &[Card]) -> HandText {
        let mut ids = [0; MAX_HAND];
        for (i, c) in cards.iter().enumerate() {
            ids[i] = c.id();
        }
        HandText {
            ids,
            len: cards.len() as u8,
        }
    }
}

impl std::fmt::Display for HandText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "card ids {:?}", &self.ids[..self.len as usize])
    }
}

/// A game in progress (or finished) under any valid rules.
#[derive(Clone, Debug)]
pub struct TableState {
    rules: Rules,
    seq: [Card; 40],
    len: usize,
    next: usize,
    hands: [Hand; MAX_PLAYERS],
    out: TableOutcome,
    played: u64,
    leader: usize,
    trick: u8,
    cards: [Card; MAX_PLAYERS],
    k: usize,
    best_k: usize,
    done: bool,
    /// The seat to play (meaningless once `done`): kept so that no step divides by the players.
    turn: u8,
    /// Each side's points so far (what every view shows), kept as tricks are won.
    side_points: [u16; 3],
    /// Under must-follow-suit, when the seat to play holds the led suit: its cards of that suit
    /// (`legal_len` > 0); otherwise (`legal_len` 0) the seat's whole hand is playable.
    legal: [Card; MAX_HAND],
    legal_len: u8,
    last: Option<TableTrick>,
    /// Every card played so far with its seat, in order (the views' `history`).
    log: [(u8, Card); 40],
    log_len: u8,
}

impl TableState {
    /// The state before the first card of a game of `rules` on `deck` (a shuffle of the 40
    /// cards; the variant's removed cards are skipped): hands dealt, the trump turned up.
    pub fn new(rules: &Rules, deck: &Deck) -> TableState {
        let n = rules.players();
        let h = rules.hand_size();
        let (seq, len) = deal_order(rules, deck);
        let face_up = rules.has_trump().then(|| seq[len - 1]);
        let trump = face_up.map(|c| c.suit());
        let mut hands = [Hand::new(); MAX_PLAYERS];
        let mut out = TableOutcome {
            players: n as u8,
            points: [0; MAX_PLAYERS],
            briscole: [0; MAX_PLAYERS],
            trumps_played: [0; MAX_PLAYERS],
            tricks_won: [0; MAX_PLAYERS],
            tricks_played: 0,
            trump,
            face_up,
            claimed_by: None,
        };
        for (s, hand) in hands.iter_mut().enumerate().take(n) {
            for &c in &seq[s * h..(s + 1) * h] {
                hand.push(c);
                out.briscole[s] += (Some(c.suit()) == trump) as u8;
            }
        }
        let mut st = TableState {
            rules: *rules,
            seq,
            len,
            next: n * h,
            hands,
            out,
            played: 0,
            leader: rules.spec().first_leader as usize,
            trick: 1,
            cards: [seq[0]; MAX_PLAYERS],
            k: 0,
            best_k: 0,
            done: false,
            turn: rules.spec().first_leader,
            side_points: [0; 3],
            legal: [seq[0]; MAX_HAND],
            legal_len: 0,
            last: None,
            log: [(0, seq[0]); 40],
            log_len: 0,
        };
        st.find_legal();
        st
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seat to play, `None` once the game is over.
    #[inline]
    pub fn to_play(&self) -> Option<usize> {
        (!self.done).then_some(self.turn as usize)
    }

    /// Whether the game is over (every trick played, or a side's claim in Briscola a 31).
    pub fn is_over(&self) -> bool {
        self.done
    }

    /// The cards the seat to play may play (empty once the game is over).
    #[inline]
    pub fn legal(&self) -> &[Card] {
        if self.done {
            &[]
        } else if self.legal_len > 0 {
            &self.legal[..self.legal_len as usize]
        } else {
            self.hands[self.turn as usize].as_slice()
        }
    }

    /// Seat `seat`'s whole hand, in arrival order (what only that seat, or an analysis, may see).
    pub fn hand(&self, seat: usize) -> &[Card] {
        self.hands[seat].as_slice()
    }

    /// The result so far (final once [`TableState::is_over`]).
    pub fn outcome(&self) -> &TableOutcome {
        &self.out
    }

    /// The cards played to the trick in progress, in playing order (the lead first).
    pub fn trick_cards(&self) -> &[Card] {
        &self.cards[..self.k]
    }

    /// The seat that led the trick in progress.
    pub fn leader(&self) -> usize {
        self.leader
    }

    /// The trick in progress, 1-based (the last one played once the game is over).
    pub fn trick(&self) -> u8 {
        self.trick
    }

    /// The last completed trick.
    pub fn last_trick(&self) -> Option<&TableTrick> {
        self.last.as_ref()
    }

    /// Bit `id` set for every card played in completed tricks.
    pub fn played(&self) -> u64 {
        self.played
    }

    /// Cards left in the stock, the face-up card included while it is there.
    pub fn stock_left(&self) -> usize {
        self.len - self.next
    }

    /// The stock's cards from the top (the next drawn first; the face-up card last): hidden
    /// information, for analysis and solvers only.
    pub fn stock(&self) -> &[Card] {
        &self.seq[self.next..self.len]
    }

    /// What the seat to play may see, `None` once the game is over. Its `hand` is the playable
    /// cards (under must-follow-suit, the cards of the led suit when the seat holds one), as
    /// [`super::play_table`] shows a policy.
    #[inline]
    pub fn view(&self) -> Option<SeatView<'_>> {
        self.to_play().map(|seat| self.view_of(seat))
    }

    /// What seat `seat` sees now: for the seat to play exactly [`TableState::view`]; for any
    /// other seat its whole hand and the trick as it stands (a seat that already played to the
    /// trick sees its own card among `trick_cards`). After the game's end, the final table.
    ///
    /// # Panics
    /// If `seat` is not a seat of the game.
    #[inline]
    pub fn view_of(&self, seat: usize) -> SeatView<'_> {
        let rules = &self.rules;
        assert!(seat < rules.players(), "seat {seat} is not at the table");
        let full = self.hands[seat].as_slice();
        let hand = if self.to_play() == Some(seat) {
            self.legal()
        } else {
            full
        };
        let sides = self.side_points;
        let mine = sides[rules.side_of(seat)];
        let total: u16 = sides.iter().sum();
        let n = rules.players();
        let table = (self.k > 0).then(|| self.cards[self.best_k]);
        // Only a partnership table has partners.
        let partner_winning = table.is_some()
            && n >= 4
            && rules.partners(seat, seat_after(self.leader, self.best_k, n));
        let scoperta = rules.spec().scoperta;
        SeatView {
            hand,
            table,
            trump: self.out.trump.unwrap_or(Suit::Oro),
            face_up: self
                .out
                .face_up
                .unwrap_or(full.first().copied().unwrap_or(self.seq[0])),
            played: self.played,
            stock_left: (self.len - self.next) as u8,
            trick: self.trick,
            my_points: mine as u8,
            opp_points: (total - mine) as u8,
            players: n as u8,
            seat: seat as u8,
            trick_cards: &self.cards[..self.k],
            partner_winning,
            no_trump: self.out.trump.is_none(),
            open_hand: if scoperta {
                self.hands[seat_after(seat, 1, n)].as_slice()
            } else {
                &[]
            },
            stock_top: if scoperta && self.next < self.len {
                Some(self.seq[self.next])
            } else {
                None
            },
            history: &self.log[..self.log_len as usize],
        }
    }

    /// Play `card` for the seat to play. A trick's last card completes it: the winner takes its
    /// points, the tricks' draws go to `sink` with the trick, and the winner leads the next.
    /// Returns the completed trick, if this card completed one.
    pub fn play<S: TableSink + ?Sized>(
        &mut self,
        card: Card,
        sink: &mut S,
    ) -> Result<Option<TableTrick>, IllegalPlay> {
        let Some(seat) = self.to_play() else {
            return Err(IllegalPlay::GameOver);
        };
        let Some(i) = self.legal().iter().position(|&c| c == card) else {
            let hand = self.hands[seat].as_slice();
            return Err(if hand.contains(&card) {
                IllegalPlay::MustFollow {
                    seat: seat as u8,
                    legal: HandText::of(self.legal()),
                }
            } else {
                IllegalPlay::NotInHand {
                    seat: seat as u8,
                    card,
                    hand: HandText::of(hand),
                }
            });
        };
        Ok(self.play_legal(i, sink))
    }

    /// Play the `i`-th card of [`TableState::legal`] for the seat to play (what a policy's
    /// choice names: no search of the hand, no error to build).
    ///
    /// # Panics
    /// If the game is over or `i` is not an index of `legal()`: a bug in the caller.
    pub fn play_legal<S: TableSink + ?Sized>(
        &mut self,
        i: usize,
        sink: &mut S,
    ) -> Option<TableTrick> {
        assert!(!self.done, "the game is over: no card can be played");
        let seat = self.turn as usize;
        let card = self.legal()[i];
        if self.legal_len > 0 {
            remove_card(&mut self.hands[seat], card);
        } else {
            self.hands[seat].remove(i);
        }
        self.log[self.log_len as usize] = (seat as u8, card);
        self.log_len += 1;
        self.cards[self.k] = card;
        if self.k > 0 && beats(self.cards[self.best_k], card, self.out.trump) {
            self.best_k = self.k;
        }
        self.k += 1;
        let n = self.rules.players();
        let done_trick = if self.k == n {
            Some(self.finish_trick(sink))
        } else {
            self.turn = seat_after(seat, 1, n) as u8;
            None
        };
        self.find_legal();
        done_trick
    }

    /// The trick's winner takes it; everyone draws; a target claim or the last trick ends the
    /// game, else the winner leads the next trick.
    fn finish_trick<S: TableSink + ?Sized>(&mut self, sink: &mut S) -> TableTrick {
        let n = self.rules.players();
        let leader = self.leader;
        let trump = self.out.trump;
        let winner = seat_after(leader, self.best_k, n);
        let pts: u8 = self.cards[..n].iter().map(|c| c.points()).sum();
        self.out.points[winner] += pts;
        self.side_points[self.rules.side_of(winner)] += pts as u16;
        self.out.tricks_won[winner] += 1;
        self.out.tricks_played = self.trick;
        for (k, &c) in self.cards[..n].iter().enumerate() {
            self.out.trumps_played[seat_after(leader, k, n)] += (Some(c.suit()) == trump) as u8;
            self.played |= 1u64 << c.id();
        }
        let t = TableTrick {
            trick: self.trick,
            leader: leader as u8,
            winner: winner as u8,
            cards: self.cards,
            players: n as u8,
            points: pts,
        };
        sink.trick(&t);
        if self.next < self.len {
            let first = match self.rules.spec().draw_order {
                DrawOrder::WinnerFirst => winner,
                DrawOrder::LoserFirst => winner + 1,
            };
            for k in 0..n {
                let seat = seat_after(first, k, n);
                let c = self.seq[self.next];
                self.next += 1;
                self.hands[seat].push(c);
                self.out.briscole[seat] += (Some(c.suit()) == trump) as u8;
                sink.draw(self.trick, seat as u8, c);
            }
        }
        if let Some(target) = self.rules.spec().target {
            let side = self.rules.side_of(winner);
            if self.side_points[side] >= target as u16 {
                self.out.claimed_by = Some(side as u8);
                self.done = true;
            }
        }
        if self.trick as usize == self.rules.tricks() {
            self.done = true;
        }
        if !self.done {
            self.trick += 1;
        }
        self.leader = winner;
        self.turn = winner as u8;
        self.k = 0;
        self.best_k = 0;
        self.last = Some(t);
        t
    }

    /// Fill `legal` for the seat to play.
    #[inline]
    fn find_legal(&mut self) {
        self.legal_len = 0;
        if self.done || self.k == 0 || !self.rules.spec().must_follow_suit {
            return;
        }
        let lead = self.cards[0].suit();
        let full = &self.hands[self.turn as usize];
        let mut len = 0;
        for &c in full.iter().filter(|c| c.suit() == lead) {
            self.legal[len] = c;
            len += 1;
        }
        self.legal_len = len as u8;
    }
}

/// The variant's deck in deal order: the 40-card `deck` with the variant's removed cards
/// skipped, then (if the variant says so) a face-up Ace or Three put back into the middle of the
/// stock until the bottom card is neither. Returns the cards and their count.
pub fn deal_order(rules: &Rules, deck: &Deck) -> ([Card; 40], usize) {
    let mut seq = *deck.cards();
    let mut len = 0;
    for &c in deck.cards() {
        if rules.in_deck(c) {
            seq[len] = c;
            len += 1;
        }
    }
    if rules.spec().redraw_ace_three {
        let dealt = rules.players() * rules.hand_size();
        // The put-back card goes to the middle of the stock above the bottom card; the card
        // above the bottom is turned up. A put-back card is never turned up again: every valid
        // variant's stock holds more cards below its middle than the deck has Aces and Threes.
        let mid = dealt + (len - 1 - dealt) / 2;
        let mut guard = 0;
        while matches!(seq[len - 1].rank(), 1 | 3) && guard < len - 1 - mid {
            let c = seq[len - 1];
            seq.copy_within(mid..len - 1, mid + 1);
            seq[mid] = c;
            guard += 1;
        }
    }
    (seq, len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RulesSpec, TrumpRule};
    use proptest::prelude::*;

    /// Rules the state keeps caches for: seats (the seat to play), sides (the points every view
    /// shows), must-follow-suit (the playable cards) and a target claim (the side points).
    fn variant(pick: u8) -> Rules {
        let spec = match pick % 6 {
            0 => RulesSpec::default(),
            1 => RulesSpec {
                players: 3,
                deck: 39,
                ..RulesSpec::default()
            },
            2 => RulesSpec {
                players: 4,
                must_follow_suit: true,
                first_leader: 2,
                ..RulesSpec::default()
            },
            3 => RulesSpec {
                players: 6,
                deck: 36,
                ..RulesSpec::default()
            },
            4 => RulesSpec {
                hand_size: 5,
                must_follow_suit: true,
                trump: TrumpRule::None,
                ..RulesSpec::default()
            },
            _ => RulesSpec {
                target: Some(31),
                draw_order: DrawOrder::LoserFirst,
                ..RulesSpec::default()
            },
        };
        spec.validate().expect("a valid variant")
    }

    proptest! {
        /// Playing the i-th playable card by index and by name gives the same game, and what
        /// the state keeps as it goes (the seat to play, the side points, the playable cards)
        /// equals what the rules say from scratch at every card.
        #[test]
        fn play_legal_plays_the_game_play_does(pick in 0u8..6, seed in any::<u64>(), choices in proptest::collection::vec(0usize..5, 120)) {
            let rules = variant(pick);
            let mut deck = Deck::ordered();
            let mut x = seed | 1;
            deck.shuffle_with(|n| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % n as u64) as u32
            });
            let mut by_index = TableState::new(&rules, &deck);
            let mut by_card = by_index.clone();
            let n = rules.players();
            for &choice in choices.iter().cycle() {
                let Some(seat) = by_index.to_play() else { break };
                prop_assert_eq!(seat, (by_index.leader() + by_index.trick_cards().len()) % n);
                let hand = by_index.hand(seat);
                let led = by_index.trick_cards().first().map(|c| c.suit());
                let follows: Vec<Card> = match led {
                    Some(s) if rules.spec().must_follow_suit => {
                        hand.iter().copied().filter(|c| c.suit() == s).collect()
                    }
                    _ => Vec::new(),
                };
                let expected = if follows.is_empty() { hand.to_vec() } else { follows };
                prop_assert_eq!(by_index.legal(), &expected[..]);
                let sides = by_index.outcome().side_points(&rules);
                let v = by_index.view().expect("a seat to play");
                let mine = sides[rules.side_of(seat)];
                prop_assert_eq!(v.my_points as u16, mine);
                prop_assert_eq!(v.opp_points as u16, sides.iter().sum::<u16>() - mine);
                let i = choice % expected.len();
                let a = by_index.play_legal(i, &mut crate::game::NoTricks);
                let b = by_card.play(expected[i], &mut crate::game::NoTricks);
                prop_assert_eq!(a, b.expect("a playable card"));
            }
            prop_assert!(by_index.is_over() && by_card.is_over());
            prop_assert_eq!(by_index.outcome(), by_card.outcome());
            prop_assert_eq!(by_index.legal(), &[] as &[Card]);
        }
    }

    #[test]
    fn an_off_suit_card_under_must_follow_suit_is_refused_and_changes_nothing() {
        let rules = variant(2);
        let deck = Deck::ordered();
        let mut st = TableState::new(&rules, &deck);
        let lead = st.legal()[0];
        st.play_legal(0, &mut crate::game::NoTricks);
        let seat = st.to_play().expect("a seat to play");
        let hand = st.hand(seat).to_vec();
        // The ordered deck deals seat 2 (the leader) ids 6-8 and seat 3 ids 9-11: one card of
        // the led suit and two of the next.
        let off = hand
            .iter()
            .copied()
            .find(|c| c.suit() != lead.suit())
            .expect("an off-suit card");
        assert!(hand.iter().any(|c| c.suit() == lead.suit()), "{hand:?}");
        let before = (st.legal().to_vec(), st.hand(seat).to_vec());
        let e = st.play(off, &mut crate::game::NoTricks).unwrap_err();
        assert!(matches!(e, IllegalPlay::MustFollow { .. }), "{e:?}");
        assert_eq!((st.legal().to_vec(), st.hand(seat).to_vec()), before);
        assert!(st.legal().iter().all(|c| c.suit() == lead.suit()));
    }
}
