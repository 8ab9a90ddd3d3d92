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
use super::key_tables::{FROM_RELATIVE, KeyTables, RELATIVE_TRUMP, relative};
use super::play::{GameOutcome, Seat, TrickRecord, TrickSink};
use super::trump_use::TrumpUse;

/// Per trump-relative id (trump Oro): `suit << 8 | trump << 5 | (9 - strength)`, 0 past the
/// 40 cards. A card's power in a trick is the low byte with bit 4 set when it is of the led
/// suit (see [`leader_wins_rank`]); the batch path looks it up lane-wise.
pub(super) const TRICK_RANK: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut i = 0;
    while i < 40 {
        if let Some(c) = Card::from_id(i as u8) {
            let suit = c.suit_index() as u16;
            t[i] = suit << 8 | ((suit == 0) as u16) << 5 | (9 - c.strength() as u16);
        }
        i += 1;
    }
    t
};

/// Whether the card with relative id `lead` wins the trick against `follow` (Proposition 1
/// with trump Oro, from [`TRICK_RANK`]; checked equal to [`super::leader_wins`] for every pair
/// in the tests).
const fn leader_wins_rank(lead: usize, follow: usize) -> bool {
    let (rl, rf) = (TRICK_RANK[lead], TRICK_RANK[follow]);
    let same_suit = rl >> 8 == rf >> 8;
    (rl & 0xff | 16) > (rf & 0xff | (same_suit as u16) << 4)
}

/// Per `led * 64 + followed` (trump-relative ids, trump Oro): 1 when the leader wins.
pub(super) const LEADER_WINS: [u8; 64 * 64] = {
    let mut t = [0u8; 64 * 64];
    let mut l = 0;
    while l < 40 {
        let mut f = 0;
        while f < 40 {
            t[l * 64 + f] = leader_wins_rank(l, f) as u8;
            f += 1;
        }
        l += 1;
    }
    t
};

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
pub(super) const EMPTY: u8 = 63;

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

/// Cards by trump-relative id: the trumps (suit 0), the 0-point cards, and per point value the
/// cards worth it (rank index 0 the Ace, 2 the Three, 7..=9 Knave, Knight, King).
pub(super) const TRUMPS: u64 = 0x3ff;
/// Every card.
const ALL: u64 = (1 << 40) - 1;
/// Cards with rank index `r` in every suit.
const fn rank_mask(r: u64) -> u64 {
    (1 << r) | (1 << (10 + r)) | (1 << (20 + r)) | (1 << (30 + r))
}
const ZERO_POINTS: u64 =
    ALL & !(rank_mask(0) | rank_mask(2) | rank_mask(7) | rank_mask(8) | rank_mask(9));

/// Per set of one suit's ten cards (bit `r` for rank index `r`): their points and their count
/// (so the end-of-game sums are four table loads each, not bit counts).
const SUIT_SETS: [(u8, u8); 1024] = {
    let mut t = [(0u8, 0u8); 1024];
    let mut set = 0;
    while set < 1024 {
        let mut r = 0;
        while r < 10 {
            if set >> r & 1 == 1 {
                t[set].0 += POINTS[r];
                t[set].1 += 1;
            }
            r += 1;
        }
        set += 1;
    }
    t
};

/// The points and the number of a set of cards (trump-relative ids).
#[inline(always)]
fn points_and_count(set: u64) -> (u8, u8) {
    let at = |s: u32| SUIT_SETS[(set >> (10 * s) & 0x3ff) as usize];
    let (a, b, c, d) = (at(0), at(1), at(2), at(3));
    (a.0 + b.0 + c.0 + d.0, a.1 + b.1 + c.1 + d.1)
}

/// The points of a set of cards: Aces 11, Threes 10, Kings 4, Knights 3, Knaves 2.
#[inline(always)]
fn points_of(set: u64) -> u8 {
    points_and_count(set).0
}

/// What a game's tallies are read from at its end, as sets of cards (trump-relative ids): G1's
/// cards, the cards G1 took, and for each seat the cards played against its trumps. Every
/// card is played, so G2's sets are the complements, and each trick's pair is recoverable.
#[derive(Clone, Copy, Default)]
pub(super) struct Taken {
    pub(super) g1_played: u64,
    pub(super) g1_took: u64,
    pub(super) against_g1_trumps: u64,
    pub(super) against_g2_trumps: u64,
}

impl Taken {
    /// Record a trick: G1 played `c1`, G2 `c2`, G1 took both or not (`g1_won` 1 or 0).
    #[inline(always)]
    fn trick(&mut self, c1: u64, c2: u64, g1_won: u64) {
        let (b1, b2) = (1u64 << c1, 1u64 << c2);
        self.g1_played |= b1;
        self.g1_took |= (b1 | b2) & 0u64.wrapping_sub(g1_won);
        self.against_g1_trumps |= b2 & 0u64.wrapping_sub(trump(c1));
        self.against_g2_trumps |= b1 & 0u64.wrapping_sub(trump(c2));
    }

    /// The game's outcome and Table 5's tallies (G1's first), read from its card sets once all
    /// 20 tricks are recorded; `face_up` is the deck's last card.
    #[inline(always)]
    pub(super) fn finish(self, face_up: Card) -> (GameOutcome, [TrumpUse; 2]) {
        let (g2_played, g2_took) = (ALL & !self.g1_played, ALL & !self.g1_took);
        let uses = [
            Taken::trump_use(self.g1_played, self.g1_took, self.against_g1_trumps),
            Taken::trump_use(g2_played, g2_took, self.against_g2_trumps),
        ];
        let g1_points = points_of(self.g1_took);
        // Every card a seat holds it plays, so the trumps it held are the trumps it played.
        let trumps = [uses[0].n_played as u8, uses[1].n_played as u8];
        let outcome = GameOutcome {
            points: [g1_points, 120 - g1_points],
            briscole: trumps,
            trump: face_up.suit(),
            face_up,
            trumps_played: trumps,
        };
        (outcome, uses)
    }

    /// Table 5's counts of the seat that played `played`, took `took` and met `against` with
    /// its trumps: trumps played, tricks won with one, their points, and trumps played on a
    /// 0-point card.
    #[inline(always)]
    fn trump_use(played: u64, took: u64, against: u64) -> TrumpUse {
        let mine = played & TRUMPS;
        let count = |set: u64| points_and_count(set).1 as u64;
        TrumpUse {
            n_played: count(mine),
            wins: count(mine & took),
            points_won: points_of(took & (mine | against)) as u64,
            wasted: count(against & ZERO_POINTS),
        }
    }
}

/// Play one game on `deck` with `g1`'s tables in seat G1 and `g2`'s in seat G2, reporting the
/// tricks to `sink`; returns the outcome and Table 5's tallies (G1's first).
///
/// The state is kept by role (leader, follower) rather than by seat, and the roles swap when
/// the follower wins, so no step branches on who leads.
///
/// ```
/// use briscola_core::game::{Deck, KeyTables, NoTricks, play_keyed};
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
    let from_rel = &FROM_RELATIVE[trump_suit as usize];
    // The deck in relative ids, two empty slots past its end (what a hand draws once the
    // stock is empty).
    let mut r = [EMPTY; 42];
    for (x, c) in r.iter_mut().zip(deck.cards()) {
        *x = relative(c.id(), trump_suit as u8);
    }
    let card = |pos: usize| r[pos] as u64;
    let dealt = |first: usize| {
        let e = |s: usize| Hand::entry(card(first + s), (first + s) as u64, s as u64) << (16 * s);
        Hand(e(0) | e(1) | e(2))
    };
    // Leader's and follower's hand and tables; G1 leads the first trick.
    let (mut hl, mut hf) = (dealt(0), dealt(3));
    let (mut tl, mut tf) = (seats[0], seats[1]);
    let mut g1_leads = true;
    let mut taken = Taken::default();
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
        seen |= 1u64 << lc | 1u64 << fc;
        let (c1, c2) = if g1_leads { (lc, fc) } else { (fc, lc) };
        taken.trick(c1, c2, g1_leads as u64 ^ lw ^ 1);
        let leader = if g1_leads { Seat::G1 } else { Seat::G2 };
        let other = if g1_leads { Seat::G2 } else { Seat::G1 };
        sink.trick(&TrickRecord {
            trick,
            card_g1: from_rel[c1 as usize],
            card_g2: from_rel[c2 as usize],
            leader,
            winner: if lw == 1 { leader } else { other },
            points: POINTS[lc as usize] + POINTS[fc as usize],
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
        next = (next + 2).min(40);
        // The winner leads the next trick.
        if lw == 0 {
            std::mem::swap(&mut hl, &mut hf);
            std::mem::swap(&mut tl, &mut tf);
            g1_leads = !g1_leads;
        }
    }
    taken.finish(face_up)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Suit, leader_wins};

    #[test]
    fn card_sets_count_the_deck() {
        assert_eq!(points_of(ALL), 120);
        assert_eq!(ZERO_POINTS.count_ones(), 20);
        for c in (0..40).filter_map(Card::from_id) {
            assert_eq!(points_of(1 << c.id()), c.points());
            assert_eq!(ZERO_POINTS >> c.id() & 1 == 1, c.points() == 0);
        }
    }

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
