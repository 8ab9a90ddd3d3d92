//! One game of two-player Briscola, played exactly as the released simulator plays it.
//!
//! Invariant: 20 tricks are played, each of the 40 cards exactly once, the points sum to 120 and
//! the briscola counts to 10; hands are ordered lists (draws appended, plays removed in place).

use super::card::{Card, Suit};
use super::card_list::CardList;
use super::deck::Deck;
use super::policy::Policy;
use super::seat_rng::SeatRng;
use super::seat_view::SeatView;
use super::trick::leader_wins;

/// A seat at the table: G1 leads the first trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// First seat.
    G1,
    /// Second seat.
    G2,
}

/// One trick as the log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrickRecord {
    /// 1..=20.
    pub trick: u8,
    /// G1's card.
    pub card_g1: Card,
    /// G2's card.
    pub card_g2: Card,
    /// Who led.
    pub leader: Seat,
    /// Who won.
    pub winner: Seat,
    /// Points of the two cards.
    pub points: u8,
}

/// Receives each trick as it is played.
pub trait TrickSink {
    /// Called once per trick, in order.
    fn trick(&mut self, t: &TrickRecord);
}

/// A sink that keeps nothing (the bare engine).
pub struct NoTricks;

impl TrickSink for NoTricks {
    #[inline]
    fn trick(&mut self, _: &TrickRecord) {}
}

impl<F: FnMut(&TrickRecord)> TrickSink for F {
    #[inline]
    fn trick(&mut self, t: &TrickRecord) {
        self(t)
    }
}

/// The result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// Final points of G1 and G2 (sum 120).
    pub points: [u8; 2],
    /// Trumps each seat ever held: initial hand plus every draw, face-up card included (sum 10).
    pub briscole: [u8; 2],
    /// The trump suit.
    pub trump: Suit,
    /// The face-up card.
    pub face_up: Card,
    /// Tricks in which each seat played a trump.
    pub trumps_played: [u8; 2],
}

impl GameOutcome {
    /// The winner, or `None` for a 60-60 tie.
    pub fn winner(&self) -> Option<Seat> {
        match self.points[0].cmp(&self.points[1]) {
            std::cmp::Ordering::Greater => Some(Seat::G1),
            std::cmp::Ordering::Less => Some(Seat::G2),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// A hand of at most three cards, in arrival order.
type Hand = CardList<3>;

/// Remove and return card `i` of `hand` (what a policy chose), keeping the others in order.
///
/// # Panics
/// If `i` is not an index into the hand (a bug in the policy that chose it).
#[inline]
fn take(hand: &mut Hand, i: usize) -> Card {
    assert!(
        i < hand.len(),
        "policy chose card {i} of a {}-card hand",
        hand.len()
    );
    hand.remove(i)
}

/// What both seats see of the table at the start of a trick.
struct Table {
    trump: Suit,
    face_up: Card,
    played: u64,
    stock_left: u8,
    trick: u8,
    leader: u8,
    /// (leader's points, follower's points).
    pts: (u8, u8),
}

/// The cards played so far, in order, with their seats (the views' `history`).
struct Log {
    plays: [(u8, Card); 40],
    len: usize,
}

/// One trick's two decisions: `pl` (holding `hl`) leads, `pf` (holding `hf`) follows.
/// Returns (led card, followed card).
#[inline(always)]
fn play_trick<L, F>(
    pl: &L,
    pf: &F,
    hl: &mut Hand,
    hf: &mut Hand,
    (rl, rf): (&mut SeatRng, &mut SeatRng),
    t: &Table,
    log: &mut Log,
) -> (Card, Card)
where
    L: Policy + ?Sized,
    F: Policy + ?Sized,
{
    #[inline(always)]
    fn view<'h>(
        hand: &'h Hand,
        table: Option<&'h Card>,
        t: &Table,
        pts: (u8, u8),
        seat: u8,
        history: &'h [(u8, Card)],
    ) -> SeatView<'h> {
        SeatView {
            hand,
            table: table.copied(),
            trump: t.trump,
            face_up: t.face_up,
            played: t.played,
            stock_left: t.stock_left,
            trick: t.trick,
            my_points: pts.0,
            opp_points: pts.1,
            players: 2,
            seat,
            trick_cards: table.map_or(&[], std::slice::from_ref),
            partner_winning: false,
            no_trump: false,
            open_hand: &[],
            stock_top: None,
            history,
        }
    }
    let pts = t.pts;
    let n = log.len;
    let i = pl.choose(&view(hl, None, t, pts, t.leader, &log.plays[..n]), rl);
    let lead = take(hl, i);
    log.plays[n] = (t.leader, lead);
    let fv = view(
        hf,
        Some(&lead),
        t,
        (pts.1, pts.0),
        1 - t.leader,
        &log.plays[..n + 1],
    );
    let j = pf.choose(&fv, rf);
    let follow = take(hf, j);
    log.plays[n + 1] = (1 - t.leader, follow);
    log.len = n + 2;
    (lead, follow)
}

/// Play one game on `deck` with `p1` in seat G1 and `p2` in seat G2, reporting tricks to `sink`.
/// `rngs` are the two seats' random streams for this game (G1's first).
///
/// # Panics
/// If a policy returns an index outside its hand (a bug in that policy).
#[inline]
pub fn play_game<P1, P2, S>(
    deck: &Deck,
    p1: &P1,
    p2: &P2,
    rngs: &mut [SeatRng; 2],
    sink: &mut S,
) -> GameOutcome
where
    P1: Policy + ?Sized,
    P2: Policy + ?Sized,
    S: TrickSink + ?Sized,
{
    let cards = deck.cards();
    let face_up = deck.face_up();
    let trump = face_up.suit();
    let mut hands = [Hand::of(&cards[0..3]), Hand::of(&cards[3..6])];
    let is_trump = |c: Card| (c.suit() == trump) as u8;
    let mut briscole = [
        hands[0].iter().map(|&c| is_trump(c)).sum::<u8>(),
        hands[1].iter().map(|&c| is_trump(c)).sum::<u8>(),
    ];
    let mut next = 6usize;
    let mut points = [0u8; 2];
    let mut trumps_played = [0u8; 2];
    let mut played: u64 = 0;
    let mut leader = 0usize;
    let mut log = Log {
        plays: [(0, face_up); 40],
        len: 0,
    };
    for trick in 1..=20u8 {
        let follower = 1 - leader;
        let table = Table {
            trump,
            face_up,
            played,
            stock_left: (40 - next) as u8,
            trick,
            leader: leader as u8,
            pts: (points[leader], points[1 - leader]),
        };
        // One call site per (leader seat, role): each policy is inlined knowing whether it
        // leads or follows, so its `match` on the table card folds away.
        let [h1, h2] = &mut hands;
        let [r1, r2] = &mut *rngs;
        let (lead, follow) = if leader == 0 {
            play_trick(p1, p2, h1, h2, (r1, r2), &table, &mut log)
        } else {
            play_trick(p2, p1, h2, h1, (r2, r1), &table, &mut log)
        };
        let winner = if leader_wins(lead, follow, trump) {
            leader
        } else {
            follower
        };
        let pts = lead.points() + follow.points();
        points[winner] += pts;
        trumps_played[leader] += is_trump(lead);
        trumps_played[follower] += is_trump(follow);
        played |= (1u64 << lead.id()) | (1u64 << follow.id());
        let (c1, c2) = if leader == 0 {
            (lead, follow)
        } else {
            (follow, lead)
        };
        sink.trick(&TrickRecord {
            trick,
            card_g1: c1,
            card_g2: c2,
            leader: if leader == 0 { Seat::G1 } else { Seat::G2 },
            winner: if winner == 0 { Seat::G1 } else { Seat::G2 },
            points: pts,
        });
        if next < 40 {
            let (a, b) = (cards[next], cards[next + 1]);
            next += 2;
            hands[winner].push(a);
            hands[1 - winner].push(b);
            briscole[winner] += is_trump(a);
            briscole[1 - winner] += is_trump(b);
        }
        leader = winner;
    }
    GameOutcome {
        points,
        briscole,
        trump,
        face_up,
        trumps_played,
    }
}
