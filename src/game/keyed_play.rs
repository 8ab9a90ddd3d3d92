//! The two-player game for policies given as [`KeyTables`]: the same game as [`play_game`],
//! played as table lookups and selects, keeping its state by role (leader, follower) so that
//! no step branches on the cards (the engine of the paper's policies at full speed).
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
const LEADER_WINS: [u8; 64 * 64] = {
    let mut t = [0u8; 64 * 64];
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
fn trump(c: u64) -> u64 {
    (c / 10 == RELATIVE_TRUMP as u64) as u64
}

/// A hand: three 16-bit slot entries in one word, each `card | (deck position << 2 | slot) << 8`.
/// Comparing entries compares deck positions first (slots differ), so `key << 16 | entry`
/// orders by key, then arrival, and carries the card and slot it names.
#[derive(Clone, Copy)]
struct Hand(u64);

impl Hand {
    /// The entry of a card dealt from deck position `pos` into `slot`.
    #[inline(always)]
    fn entry(card: u64, pos: u64, slot: u64) -> u64 {
        card | (pos << 2 | slot) << 8
    }

    /// The entry (card, position, slot) of the stable minimum of `key` over the hand.
    #[inline(always)]
    fn pick(self, key: impl Fn(usize) -> u16) -> u64 {
        let k = |s: u32| {
            let e = (self.0 >> (16 * s)) & 0xffff;
            (key((e & 63) as usize) as u64) << 16 | e
        };
        k(0).min(k(1)).min(k(2)) & 0xffff
    }

    /// The hand with the card of `entry`'s slot replaced by `card` from deck position `pos`.
    #[inline(always)]
    fn replace(self, entry: u64, card: u64, pos: u64) -> Hand {
        let slot = (entry >> 8) & 3;
        let shift = 16 * slot;
        Hand(self.0 & !(0xffff << shift) | Hand::entry(card, pos, slot) << shift)
    }
}

/// One seat's tallies in 8-bit lanes (no lane exceeds 120): trumps played, tricks won with a
/// trump, trumps played on a 0-point card, trick points won with a trump, points, trumps held.
const PLAYED: u32 = 0;
const WINS: u32 = 8;
const WASTED: u32 = 16;
const POINTS_WON: u32 = 24;
const SCORE: u32 = 32;
const HELD: u32 = 40;

/// A seat's tally lane `at`.
#[inline(always)]
fn lane(acc: u64, at: u32) -> u8 {
    (acc >> at) as u8
}

/// What one trick adds to the tally of a seat that played `mine` (trump-relative) against a
/// card worth `other_points`, winning (`won` = 1) or not, in a trick worth `pts`.
#[inline(always)]
fn trick_tally(mine: u64, other_points: u64, won: u64, pts: u64) -> u64 {
    let is_trump = 0u64.wrapping_sub(trump(mine));
    let won_pts = pts & 0u64.wrapping_sub(won);
    let trump_bits =
        1 << PLAYED | won << WINS | ((other_points == 0) as u64) << WASTED | won_pts << POINTS_WON;
    (trump_bits & is_trump) | won_pts << SCORE
}

/// Play one game on `deck` with `g1`'s tables in seat G1 and `g2`'s in seat G2, reporting the
/// tricks to `sink`; returns the outcome and Table 5's tallies (G1's first).
///
/// The state is kept by role (leader, follower) rather than by seat, and the roles swap when
/// the follower wins, so no step branches on who leads.
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
    let card = |pos: usize| r[pos] as u64;
    let dealt = |first: usize| {
        let e = |s: usize| Hand::entry(card(first + s), (first + s) as u64, s as u64) << (16 * s);
        Hand(e(0) | e(1) | e(2))
    };
    let held = |first: usize| {
        (trump(card(first)) + trump(card(first + 1)) + trump(card(first + 2))) << HELD
    };
    // Leader's and follower's hand, tally and tables; G1 leads the first trick.
    let (mut hl, mut hf) = (dealt(0), dealt(3));
    let (mut al, mut af) = (held(0), held(3));
    let (mut tl, mut tf) = (seats[0], seats[1]);
    let mut g1_leads = true;
    let mut seen = 1u64 << r[39];
    let mut next = 6usize;
    for trick in 1..=20u8 {
        let le = hl.pick(|c| {
            if tl.watch[c] & seen != 0 {
                tl.lead_watched[c]
            } else {
                tl.lead[c]
            }
        });
        let lc = le & 63;
        let row = &tf.follow[lc as usize];
        let fe = hf.pick(|c| row[c & 63]);
        let fc = fe & 63;
        let lw = LEADER_WINS[(lc << 6 | fc) as usize] as u64;
        let (pl, pf) = (POINTS[lc as usize] as u64, POINTS[fc as usize] as u64);
        let pts = pl + pf;
        al += trick_tally(lc, pf, lw, pts);
        af += trick_tally(fc, pl, lw ^ 1, pts);
        seen |= 1u64 << lc | 1u64 << fc;
        let (c1, c2) = if g1_leads { (lc, fc) } else { (fc, lc) };
        let leader = if g1_leads { Seat::G1 } else { Seat::G2 };
        let other = if g1_leads { Seat::G2 } else { Seat::G1 };
        sink.trick(&TrickRecord {
            trick,
            card_g1: from_rel[c1 as usize],
            card_g2: from_rel[c2 as usize],
            leader,
            winner: if lw == 1 { leader } else { other },
            points: pts as u8,
        });
        // The winner draws first: the leader takes the first card if it won, else the second.
        let (a, b) = (card(next), card(next + 1));
        let win_mask = 0u64.wrapping_sub(lw);
        let (dl, df) = (
            (a & win_mask) | (b & !win_mask),
            (b & win_mask) | (a & !win_mask),
        );
        let (pos_l, pos_f) = (next as u64 + (lw ^ 1), next as u64 + lw);
        hl = hl.replace(le, dl, pos_l);
        hf = hf.replace(fe, df, pos_f);
        al += trump(dl) << HELD;
        af += trump(df) << HELD;
        next = (next + 2).min(40);
        // The winner leads the next trick.
        if lw == 0 {
            std::mem::swap(&mut hl, &mut hf);
            std::mem::swap(&mut al, &mut af);
            std::mem::swap(&mut tl, &mut tf);
            g1_leads = !g1_leads;
        }
    }
    let (g1, g2) = if g1_leads { (al, af) } else { (af, al) };
    let use_of = |acc: u64| TrumpUse {
        n_played: lane(acc, PLAYED) as u64,
        wins: lane(acc, WINS) as u64,
        points_won: lane(acc, POINTS_WON) as u64,
        wasted: lane(acc, WASTED) as u64,
    };
    let outcome = GameOutcome {
        points: [lane(g1, SCORE), lane(g2, SCORE)],
        briscole: [lane(g1, HELD), lane(g2, HELD)],
        trump: trump_suit,
        face_up,
        trumps_played: [lane(g1, PLAYED), lane(g2, PLAYED)],
    };
    (outcome, [use_of(g1), use_of(g2)])
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
