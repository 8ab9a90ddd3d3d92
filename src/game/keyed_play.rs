//! The two-player game for policies given as [`KeyTables`]: the same game as [`play_game`],
//! played as table lookups with no data-dependent branch (the engine of the paper's
//! policies at full speed).
//!
//! How it stays the same game: cards are renamed so that the trump is Oro (the tables are
//! built that way, see [`super::key_tables`]); a hand is three slots, each holding a card and
//! its deck position, and a decision is the minimum of (key, deck position, slot). A hand's
//! order in [`play_game`] is its arrival order, which is deck order, so the smallest position
//! among equal keys is the earliest card in hand, as a stable minimum picks. A played card's
//! slot takes the card drawn next; after the stock is empty it holds a key above every card's.
//!
//! Invariant: for every deck and every pair of policies with tables, the outcome and the tricks
//! reported are those [`play_game`] gives with the policies themselves (tested on every ordered
//! pair of the paper's policies, both tie-break readings, in `tests/it/keyed_engine.rs`).
//!
//! [`play_game`]: super::play_game

use super::card::Card;
use super::deck::Deck;
use super::key_tables::{FROM_RELATIVE, KeyTables, RELATIVE_TRUMP, TO_RELATIVE};
use super::play::{GameOutcome, Seat, TrickRecord, TrickSink};
use super::trump_use::TrumpUse;

/// Per `led * 64 + followed` (trump-relative ids, trump Oro): 1 when the leader wins.
const LEADER_WINS: [u8; 40 * 64] = {
    let mut t = [0u8; 40 * 64];
    let mut l = 0;
    while l < 40 {
        let mut f = 0;
        while f < 40 {
            if let (Some(a), Some(b)) = (Card::from_id(l as u8), Card::from_id(f as u8)) {
                t[l * 64 + f] = leader_wins_const(a, b) as u8;
            }
            f += 1;
        }
        l += 1;
    }
    t
};

/// [`super::leader_wins`] with trump Oro, as a `const fn` for [`LEADER_WINS`] (checked equal to it
/// for every pair in the tests).
const fn leader_wins_const(lead: Card, follow: Card) -> bool {
    let (sl, sf) = (lead.suit_index(), follow.suit_index());
    let pl = ((sl == 0) as u8) << 5 | 1 << 4 | (9 - lead.strength());
    let pf = ((sf == 0) as u8) << 5 | ((sf == sl) as u8) << 4 | (9 - follow.strength());
    pl > pf
}

/// Card points by id, 0 past the 40 cards.
const POINTS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 40 {
        t[i] = match Card::from_id(i as u8) {
            Some(c) => c.points(),
            None => 0,
        };
        i += 1;
    }
    t
};

/// The empty slot's card id.
const EMPTY: u8 = 63;

/// Whether a relative id is a trump (a card of suit 0; never the empty slot).
#[inline(always)]
fn trump(c: u8) -> u32 {
    (c / 10 == RELATIVE_TRUMP as u8) as u32
}

/// One seat's hand: three slots of (card, deck position << 2 | slot).
#[derive(Clone, Copy)]
struct Slots {
    card: [u8; 3],
    tag: [u8; 3],
}

impl Slots {
    /// The slot of the stable minimum of `key` over the hand.
    #[inline(always)]
    fn pick(&self, key: impl Fn(usize) -> u16) -> usize {
        let k = |s: usize| (key(self.card[s] as usize) as u32) << 8 | self.tag[s] as u32;
        (k(0).min(k(1)).min(k(2)) & 3) as usize
    }
}

/// Per-seat tallies of one game (G1 first).
#[derive(Clone, Copy, Default)]
struct Tally {
    briscole: [u32; 2],
    points: [u32; 2],
    played: [u32; 2],
    wins: [u32; 2],
    points_won: [u32; 2],
    wasted: [u32; 2],
}

impl Tally {
    /// Count a trick: `seat` played `mine` against `other`; `won` and `pts` as the trick went.
    #[inline(always)]
    fn trick(&mut self, seat: usize, mine: u8, other: u8, won: u32, pts: u32) {
        let t = trump(mine);
        self.played[seat] += t;
        self.wins[seat] += t & won;
        self.points_won[seat] += (t & won) * pts;
        self.wasted[seat] += t & (POINTS[(other & 63) as usize] == 0) as u32;
    }
}

/// Play one game on `deck` with `g1`'s tables in seat G1 and `g2`'s in seat G2, reporting the
/// tricks to `sink`; returns the outcome and Table 5's tallies (G1's first).
///
/// ```
/// use briscola::game::{Deck, KeyTables, NoTricks, play_keyed};
/// let cheapest = KeyTables::build(|c, _| c.points() as u32, |_| 0, |_, c| c.points() as u32);
/// let (outcome, uses) = play_keyed(&Deck::ordered(), [&cheapest, &cheapest], &mut NoTricks);
/// assert_eq!(outcome.points[0] + outcome.points[1], 120);
/// assert_eq!(outcome.briscole[0] + outcome.briscole[1], 10);
/// assert_eq!(uses[0].n_played, outcome.trumps_played[0] as u64);
/// ```
#[inline]
pub fn play_keyed<S: TrickSink + ?Sized>(
    deck: &Deck,
    seats: [&KeyTables; 2],
    sink: &mut S,
) -> (GameOutcome, [TrumpUse; 2]) {
    let face_up = deck.face_up();
    let trump_suit = face_up.suit();
    let to_rel = &TO_RELATIVE[trump_suit as usize];
    let from_rel = &FROM_RELATIVE[trump_suit as usize];
    // The deck in relative ids, two empty slots past its end (what a hand draws once the
    // stock is empty).
    let mut r = [EMPTY; 42];
    for (x, c) in r.iter_mut().zip(deck.cards()) {
        *x = to_rel[(c.id() & 63) as usize];
    }
    let mut hands = [
        Slots {
            card: [r[0], r[1], r[2]],
            tag: [0, 1 << 2 | 1, 2 << 2 | 2],
        },
        Slots {
            card: [r[3], r[4], r[5]],
            tag: [3 << 2, 4 << 2 | 1, 5 << 2 | 2],
        },
    ];
    let mut tally = Tally::default();
    for (seat, h) in hands.iter().enumerate() {
        tally.briscole[seat] = h.card.iter().map(|&c| trump(c)).sum();
    }
    let mut seen = 1u64 << r[39];
    let mut next = 6usize;
    let mut leader = 0usize;
    for trick in 1..=20u8 {
        let follower = leader ^ 1;
        let (tl, tf) = (seats[leader], seats[follower]);
        let ls = hands[leader].pick(|c| {
            if tl.watch[c] & seen != 0 {
                tl.lead_watched[c]
            } else {
                tl.lead[c]
            }
        });
        let lc = hands[leader].card[ls];
        let row = &tf.follow[(lc as usize % 40) * 64..][..64];
        let fs = hands[follower].pick(|c| row[c & 63]);
        let fc = hands[follower].card[fs];
        let lw = LEADER_WINS[(lc as usize % 40) * 64 + (fc & 63) as usize] as usize;
        let winner = follower ^ lw;
        let pts = (POINTS[(lc & 63) as usize] + POINTS[(fc & 63) as usize]) as u32;
        tally.points[winner] += pts;
        tally.trick(leader, lc, fc, lw as u32, pts);
        tally.trick(follower, fc, lc, 1 - lw as u32, pts);
        seen |= 1u64 << lc | 1u64 << fc;
        let (c1, c2) = if leader == 0 { (lc, fc) } else { (fc, lc) };
        sink.trick(&TrickRecord {
            trick,
            card_g1: from_rel[(c1 & 63) as usize],
            card_g2: from_rel[(c2 & 63) as usize],
            leader: if leader == 0 { Seat::G1 } else { Seat::G2 },
            winner: if winner == 0 { Seat::G1 } else { Seat::G2 },
            points: pts as u8,
        });
        // Each seat's played slot takes its draw (the winner's first); empty past the stock.
        let slot = [ls, fs];
        let (ws, os) = (slot[winner ^ leader], slot[winner ^ follower]);
        let (a, b) = (r[next], r[next + 1]);
        let pos = next as u8;
        hands[winner].card[ws] = a;
        hands[winner].tag[ws] = pos << 2 | ws as u8;
        hands[winner ^ 1].card[os] = b;
        hands[winner ^ 1].tag[os] = (pos + 1) << 2 | os as u8;
        tally.briscole[winner] += trump(a);
        tally.briscole[winner ^ 1] += trump(b);
        next = (next + 2).min(40);
        leader = winner;
    }
    let use_of = |s: usize| TrumpUse {
        n_played: tally.played[s] as u64,
        wins: tally.wins[s] as u64,
        points_won: tally.points_won[s] as u64,
        wasted: tally.wasted[s] as u64,
    };
    let outcome = GameOutcome {
        points: tally.points.map(|p| p as u8),
        briscole: tally.briscole.map(|b| b as u8),
        trump: trump_suit,
        face_up,
        trumps_played: tally.played.map(|p| p as u8),
    };
    (outcome, [use_of(0), use_of(1)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Suit, leader_wins};

    #[test]
    fn the_winner_table_is_proposition_1() {
        for l in (0..40).filter_map(Card::from_id) {
            for f in (0..40).filter_map(Card::from_id).filter(|&f| f != l) {
                let want = leader_wins(l, f, Suit::Oro);
                assert_eq!(
                    LEADER_WINS[l.id() as usize * 64 + f.id() as usize] == 1,
                    want
                );
            }
        }
    }
}
