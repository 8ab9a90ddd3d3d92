//! One game under any valid [`Rules`]: 2, 3, 4 or 6 players, partnerships, any deck, hand size,
//! trump rule, draw order, redraw, Scoperta, must-follow-suit and Briscola a 31. The standard
//! two-player game has its own specialised engine ([`super::play_game`]); on the standard rules
//! this one plays the same game card for card (a property test checks it).
//!
//! Invariant: every player plays exactly one card per trick, in seat order from the leader;
//! exactly one card wins each trick and its player leads the next; after a trick every player
//! draws one card (in the variant's order) while the stock lasts; each card of the variant's
//! deck is played at most once, and exactly once in a game played to the end.

use super::card::{Card, Suit};
use super::deck::Deck;
use super::policy::Policy;
use super::rules::{DrawOrder, Rules};
use super::seat_rng::SeatRng;
use super::seat_view::SeatView;
use super::trick::beats;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 6;
/// Largest hand.
const MAX_HAND: usize = 5;

/// One trick of a table game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTrick {
    /// 1-based trick number.
    pub trick: u8,
    /// The seat that led.
    pub leader: u8,
    /// The seat that won.
    pub winner: u8,
    /// The cards in playing order (the lead first); the first `players` entries are meaningful.
    pub cards: [Card; MAX_PLAYERS],
    /// Players (cards in this trick).
    pub players: u8,
    /// Points of the trick's cards.
    pub points: u8,
}

impl TableTrick {
    /// The cards in playing order.
    pub fn played(&self) -> &[Card] {
        &self.cards[..self.players as usize]
    }

    /// The seat that played the `k`-th card (0 = the lead).
    pub fn seat_of(&self, k: usize) -> usize {
        (self.leader as usize + k) % self.players as usize
    }

    /// The card seat `seat` played.
    pub fn card_of(&self, seat: usize) -> Card {
        let n = self.players as usize;
        self.cards[(seat + n - self.leader as usize) % n]
    }
}

/// Receives each trick of a table game as it is played.
pub trait TableSink {
    /// Called once per trick, in order.
    fn trick(&mut self, t: &TableTrick);
    /// Called once per draw, in order: `seat` took `card` from the stock after trick `trick`.
    fn draw(&mut self, _trick: u8, _seat: u8, _card: Card) {}
}

impl TableSink for super::play::NoTricks {
    #[inline]
    fn trick(&mut self, _: &TableTrick) {}
}

impl<F: FnMut(&TableTrick)> TableSink for F {
    #[inline]
    fn trick(&mut self, t: &TableTrick) {
        self(t)
    }
}

/// The result of one table game. Per-seat arrays hold `players` meaningful entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableOutcome {
    /// Players.
    pub players: u8,
    /// Points each seat took.
    pub points: [u8; MAX_PLAYERS],
    /// Trumps each seat ever held (initial hand plus draws, the face-up card included).
    pub briscole: [u8; MAX_PLAYERS],
    /// Tricks in which each seat played a trump.
    pub trumps_played: [u8; MAX_PLAYERS],
    /// Tricks each seat won.
    pub tricks_won: [u8; MAX_PLAYERS],
    /// Tricks played (fewer than the variant's total when a side reached the target).
    pub tricks_played: u8,
    /// The trump suit, if the variant has one.
    pub trump: Option<Suit>,
    /// The face-up card after any redraw, if the variant has one.
    pub face_up: Option<Card>,
    /// Briscola a 31: the side whose claim ended the game.
    pub claimed_by: Option<u8>,
}

impl TableOutcome {
    /// Points per side (`rules.sides()` meaningful entries).
    pub fn side_points(&self, rules: &Rules) -> [u16; 3] {
        let mut s = [0u16; 3];
        for seat in 0..self.players as usize {
            s[rules.side_of(seat)] += self.points[seat] as u16;
        }
        s
    }

    /// Trumps each side ever held.
    pub fn side_briscole(&self, rules: &Rules) -> [u16; 3] {
        let mut s = [0u16; 3];
        for seat in 0..self.players as usize {
            s[rules.side_of(seat)] += self.briscole[seat] as u16;
        }
        s
    }

    /// The winning side: the claimant in Briscola a 31, else the side with the most points;
    /// `None` for a tie at the top.
    pub fn winner_side(&self, rules: &Rules) -> Option<usize> {
        if let Some(s) = self.claimed_by {
            return Some(s as usize);
        }
        let pts = self.side_points(rules);
        let pts = &pts[..rules.sides()];
        let best = *pts.iter().max()?;
        let mut at_best = pts.iter().enumerate().filter(|(_, p)| **p == best);
        let first = at_best.next().map(|(i, _)| i);
        if at_best.next().is_some() {
            None
        } else {
            first
        }
    }
}

/// A hand of at most five cards, in arrival order.
#[derive(Clone, Copy)]
struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
}

impl Hand {
    fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
    fn push(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }
    fn remove_card(&mut self, c: Card) {
        let len = self.len as usize;
        let i = self.cards[..len]
            .iter()
            .position(|&x| x == c)
            .expect("the card is in the hand");
        self.cards.copy_within(i + 1..len, i);
        self.len -= 1;
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

/// Play one game of `rules` on `deck` (a shuffle of the 40 cards; the variant's removed cards
/// are skipped) with `seats[s]` deciding for seat `s`, reporting tricks to `sink`. `rngs[s]` is
/// seat `s`'s random stream for this game.
///
/// # Panics
/// If `seats` or `rngs` does not hold one entry per player, or a policy returns an index
/// outside its (playable) hand: both are bugs in the caller, not in the input.
pub fn play_table<P, S>(
    rules: &Rules,
    deck: &Deck,
    seats: &[&P],
    rngs: &mut [SeatRng],
    sink: &mut S,
) -> TableOutcome
where
    P: Policy + ?Sized,
    S: TableSink + ?Sized,
{
    let n = rules.players();
    assert!(
        seats.len() == n && rngs.len() == n,
        "one policy and stream per seat"
    );
    let h = rules.hand_size();
    let (seq, len) = deal_order(rules, deck);
    let face_up = rules.has_trump().then(|| seq[len - 1]);
    let trump = face_up.map(|c| c.suit());
    let is_trump = |c: Card| (Some(c.suit()) == trump) as u8;
    let spec = rules.spec();

    let mut hands = [Hand {
        cards: [seq[0]; MAX_HAND],
        len: 0,
    }; MAX_PLAYERS];
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
            out.briscole[s] += is_trump(c);
        }
    }
    let mut next = n * h;
    let mut played: u64 = 0;
    let mut leader = spec.first_leader as usize;
    for trick in 1..=rules.tricks() as u8 {
        let mut cards = [seq[0]; MAX_PLAYERS];
        let mut best_k = 0usize;
        for k in 0..n {
            let seat = (leader + k) % n;
            let table = (k > 0).then(|| cards[best_k]);
            let card = decide(
                rules,
                &Decision {
                    hands: &hands,
                    seat,
                    cards: &cards[..k],
                    table,
                    best_seat: (leader + best_k) % n,
                    out: &out,
                    trump,
                    face_up,
                    played,
                    stock_top: (next < len).then(|| seq[next]),
                    stock_left: (len - next) as u8,
                    trick,
                },
                seats[seat],
                &mut rngs[seat],
            );
            hands[seat].remove_card(card);
            cards[k] = card;
            if k > 0 && beats(cards[best_k], card, trump) {
                best_k = k;
            }
        }
        let winner = (leader + best_k) % n;
        let pts: u8 = cards[..n].iter().map(|c| c.points()).sum();
        out.points[winner] += pts;
        out.tricks_won[winner] += 1;
        out.tricks_played = trick;
        for (k, &c) in cards[..n].iter().enumerate() {
            out.trumps_played[(leader + k) % n] += is_trump(c);
            played |= 1u64 << c.id();
        }
        sink.trick(&TableTrick {
            trick,
            leader: leader as u8,
            winner: winner as u8,
            cards,
            players: n as u8,
            points: pts,
        });
        if next < len {
            let first = match spec.draw_order {
                DrawOrder::WinnerFirst => winner,
                DrawOrder::LoserFirst => winner + 1,
            };
            for k in 0..n {
                let seat = (first + k) % n;
                let c = seq[next];
                next += 1;
                hands[seat].push(c);
                out.briscole[seat] += is_trump(c);
                sink.draw(trick, seat as u8, c);
            }
        }
        if let Some(target) = spec.target {
            let side = rules.side_of(winner);
            if out.side_points(rules)[side] >= target as u16 {
                out.claimed_by = Some(side as u8);
                break;
            }
        }
        leader = winner;
    }
    out
}

/// What the engine knows when one seat must play (the seat's view is built from it).
struct Decision<'a> {
    hands: &'a [Hand; MAX_PLAYERS],
    seat: usize,
    cards: &'a [Card],
    table: Option<Card>,
    best_seat: usize,
    out: &'a TableOutcome,
    trump: Option<Suit>,
    face_up: Option<Card>,
    played: u64,
    stock_top: Option<Card>,
    stock_left: u8,
    trick: u8,
}

/// Ask `policy` for seat `d.seat`'s card. Under must-follow-suit, a follower holding the led
/// suit is shown only its playable cards (the cards of the led suit) as its hand.
fn decide<P: Policy + ?Sized>(
    rules: &Rules,
    d: &Decision<'_>,
    policy: &P,
    rng: &mut SeatRng,
) -> Card {
    let full = d.hands[d.seat].as_slice();
    let mut legal = [full[0]; MAX_HAND];
    let mut hand = full;
    if let (true, Some(&lead)) = (rules.spec().must_follow_suit, d.cards.first()) {
        let mut m = 0;
        for &c in full.iter().filter(|c| c.suit() == lead.suit()) {
            legal[m] = c;
            m += 1;
        }
        if m > 0 {
            hand = &legal[..m];
        }
    }
    let sides = d.out.side_points(rules);
    let mine = sides[rules.side_of(d.seat)];
    let total: u16 = sides.iter().sum();
    let n = rules.players();
    let open = if rules.spec().scoperta {
        d.hands[(d.seat + 1) % n].as_slice()
    } else {
        &[]
    };
    let view = SeatView {
        hand,
        table: d.table,
        trump: d.trump.unwrap_or(Suit::Oro),
        face_up: d.face_up.unwrap_or(full[0]),
        played: d.played,
        stock_left: d.stock_left,
        trick: d.trick,
        my_points: mine as u8,
        opp_points: (total - mine) as u8,
        players: n as u8,
        seat: d.seat as u8,
        trick_cards: d.cards,
        partner_winning: d.table.is_some() && rules.partners(d.seat, d.best_seat),
        no_trump: d.trump.is_none(),
        open_hand: open,
        stock_top: if rules.spec().scoperta {
            d.stock_top
        } else {
            None
        },
    };
    let i = policy.choose(&view, rng);
    assert!(
        i < hand.len(),
        "policy chose card {i} of a {}-card hand",
        hand.len()
    );
    hand[i]
}
