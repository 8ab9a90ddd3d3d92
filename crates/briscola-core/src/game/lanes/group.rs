//! The batch kernel, written once over [`Lanes`]: a [`Group`] of games in flight, one per
//! lane, each holding exactly the state `play_keyed` keeps (the leader's and follower's hands
//! as three 16-bit slot entries, who leads, the public cards, the four card sets Table 5 is
//! read from), and every step of a trick done lane-wise as the same select or table lookup.
//! [`play_groups`] plays groups two at a time, trick by trick, so that one group's lookups run
//! while the other's wait.
//!
//! Invariant: a lane runs `play_keyed`'s steps on its deck, so its game's outcome and tallies
//! are `play_keyed`'s (read at the end by the same function, `Taken::finish`); every index the
//! kernel builds is a 6-bit card id or a seat flag (0 or 1) placed as [`PairTables`]'
//! invariant says, so the gathers stay inside their tables. Everything here is
//! `#[inline(always)]` and runs only inside an instruction set's `#[target_feature]` entry.

use super::Lanes;
use super::pair_tables::PairTables;
use crate::game::deck::Deck;
use crate::game::keyed_play::{EMPTY, TRICK_RANK, TRUMPS, Taken};
use crate::game::play::GameOutcome;
use crate::game::trump_use::TrumpUse;

/// The tables a group reads: the pair's, and the 64-entry ones in the form `L` looks them up
/// (for AVX-512, registers).
struct Lookups<'a, L: Lanes> {
    pair: &'a PairTables,
    /// G1's and G2's `lead` and `lead_watched`.
    lead: L::LeadTable,
    /// [`TRICK_RANK`].
    ranks: L::Table,
}

impl<'a, L: Lanes> Lookups<'a, L> {
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn new(pair: &'a PairTables) -> Self {
        // SAFETY: the CPU has `L`'s features (this function's condition).
        unsafe {
            Lookups {
                pair,
                lead: L::lead_table(
                    [&pair.lead[0], &pair.lead[1]],
                    [&pair.lead_watched[0], &pair.lead_watched[1]],
                ),
                ranks: L::table(&TRICK_RANK),
            }
        }
    }
}

/// Slot `SHIFT / 16`'s entry of each lane's hand, and its card.
///
/// # Safety
/// The CPU has `L`'s features.
#[inline(always)]
unsafe fn slot<L: Lanes, const SHIFT: u32>(hand: L) -> (L, L) {
    // SAFETY: the CPU has `L`'s features (this function's condition).
    unsafe {
        let e = hand.shr::<SHIFT>().and(L::splat(0xffff));
        (e, e.and(L::splat(63)))
    }
}

/// The entry of the stable minimum of the keys `k` over each lane's three slot entries `e`:
/// the minimum of `key << 16 | entry` (keys below 2^16).
///
/// # Safety
/// The CPU has `L`'s features.
#[inline(always)]
unsafe fn pick<L: Lanes>(e: [L; 3], k: [L; 3]) -> L {
    // SAFETY: the CPU has `L`'s features (this function's condition).
    unsafe {
        let k0 = k[0].shl::<16>().or(e[0]);
        let k1 = k[1].shl::<16>().or(e[1]);
        let k2 = k[2].shl::<16>().or(e[2]);
        k0.min(k1).min(k2).and(L::splat(0xffff))
    }
}

/// Each lane's hand with the slot of `played` (an entry) refilled by `card` from `pos`.
///
/// # Safety
/// The CPU has `L`'s features.
#[inline(always)]
unsafe fn replace<L: Lanes>(hand: L, played: L, card: L, pos: L) -> L {
    // SAFETY: the CPU has `L`'s features (this function's condition).
    unsafe {
        let slot = played.shr::<8>().and(L::splat(3));
        let shift = slot.shl::<4>();
        let new = card.or(pos.shl::<10>().or(slot.shl::<8>()));
        let cleared = L::splat(0xffff).shlv(shift).andnot(hand);
        cleared.or(new.shlv(shift))
    }
}

/// One group's games in flight: the deck's columns and `play_keyed`'s state, a lane per game.
struct Group<L: Lanes> {
    /// The decks' card ids, position by position across the lanes (the first `L::LANES`
    /// bytes of a row).
    ids: [[u8; 8]; 40],
    /// Per lane, ten times the trump suit's index (what renaming subtracts).
    base: L,
    /// The leader's and the follower's hands.
    hl: L,
    hf: L,
    /// The leader's seat (0 for G1, which leads the first trick).
    seat: L,
    /// The public cards (the face-up card and every card played).
    seen: L,
    /// Table 5's card sets ([`Taken`]'s fields).
    g1_played: L,
    g1_took: L,
    against_g1: L,
    against_g2: L,
}

impl<L: Lanes> Group<L> {
    /// A group with nothing dealt (see [`Group::deal`]).
    ///
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn new() -> Group<L> {
        // SAFETY: the CPU has `L`'s features (this function's condition).
        let zero = unsafe { L::splat(0) };
        Group {
            ids: [[0; 8]; 40],
            base: zero,
            hl: zero,
            hf: zero,
            seat: zero,
            seen: zero,
            g1_played: zero,
            g1_took: zero,
            against_g1: zero,
            against_g2: zero,
        }
    }

    /// Deal `decks` (`L::LANES` of them) into this group, in place.
    ///
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn deal(&mut self, decks: &[Deck]) {
        let mut base = [0u64; 8];
        for (lane, d) in decks.iter().enumerate() {
            base[lane] = 10 * d.face_up().suit() as u64;
            for (pos, c) in d.cards().iter().enumerate() {
                self.ids[pos][lane] = c.id();
            }
        }
        // SAFETY: the CPU has `L`'s features (this function's condition).
        unsafe {
            self.base = L::load(&base);
            (self.hl, self.hf) = (self.dealt(0), self.dealt(3));
            let zero = L::splat(0);
            self.seat = zero;
            self.seen = L::splat(1).shlv(self.col(39));
            (self.g1_played, self.g1_took) = (zero, zero);
            (self.against_g1, self.against_g2) = (zero, zero);
        }
    }

    /// The hand dealt from deck positions `first..first + 3`, slot by slot.
    ///
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn dealt(&self, first: usize) -> L {
        // SAFETY: the CPU has `L`'s features (this function's condition).
        unsafe {
            let e0 = self.col(first).or(L::splat((first as u64) << 10));
            let e1 = self
                .col(first + 1)
                .or(L::splat(((first + 1) as u64) << 10 | 1 << 8));
            let e2 = self
                .col(first + 2)
                .or(L::splat(((first + 2) as u64) << 10 | 2 << 8));
            e0.or(e1.shl::<16>().or(e2.shl::<32>()))
        }
    }

    /// Deck position `p` of every lane, in trump-relative ids (as `key_tables::relative`
    /// renames them); the empty slot's id past the 40 cards.
    ///
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn col(&self, p: usize) -> L {
        // SAFETY: the CPU has `L`'s features (this function's condition).
        unsafe {
            if p >= 40 {
                return L::splat(EMPTY as u64);
            }
            let ids = L::load_bytes(&self.ids[p]);
            let below = ids.lt(self.base);
            ids.sub(self.base).add_where(below, L::splat(40))
        }
    }

    /// The leader's key of each lane's card `c` (below 64), given the lanes where G2 leads and
    /// `seat << 6 | c`: its seat's `lead_watched` entry when a watched card is public, else its
    /// `lead` entry.
    ///
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn lead_key(&self, t: &Lookups<'_, L>, g2: L::Mask, c: L, seat_card: L) -> L {
        // SAFETY: the CPU has `L`'s features (this function's condition), and
        // `seat_card` = seat * 64 + card < 128, the length of `watch`.
        unsafe {
            let (plain, after) = L::lead_lookup(&t.lead, g2, c, seat_card);
            let key = if t.pair.watches {
                let w = L::gather_u64(&t.pair.watch, seat_card);
                let watched = w.test(self.seen);
                L::blend(watched, plain, after)
            } else {
                plain
            };
            key.and(L::splat(0xffff))
        }
    }

    /// Play trick `trick` (0-based) in every lane.
    ///
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn trick(&mut self, t: &Lookups<'_, L>, trick: usize) {
        // SAFETY: the CPU has `L`'s features (this function's condition); the gathers' bounds
        // are given where they are built.
        unsafe {
            let (one, card) = (L::splat(1), L::splat(63));
            let g2 = self.seat.is_one();
            let seat6 = self.seat.shl::<6>();
            let ((e0, c0), (e1, c1), (e2, c2)) = (
                slot::<L, 0>(self.hl),
                slot::<L, 16>(self.hl),
                slot::<L, 32>(self.hl),
            );
            let le = pick(
                [e0, e1, e2],
                [
                    self.lead_key(t, g2, c0, seat6.or(c0)),
                    self.lead_key(t, g2, c1, seat6.or(c1)),
                    self.lead_key(t, g2, c2, seat6.or(c2)),
                ],
            );
            let lc = le.and(card);
            let other = self.seat.xor(one);
            let row = other.shl::<6>().or(lc).shl::<6>();
            let ((f0, d0), (f1, d1), (f2, d2)) = (
                slot::<L, 0>(self.hf),
                slot::<L, 16>(self.hf),
                slot::<L, 32>(self.hf),
            );
            // (seat * 64 + led) * 64 + card <= 8191, and 8191 + 3 < 8195, follow's length.
            let follow = &t.pair.follow;
            let fe = pick(
                [f0, f1, f2],
                [
                    L::gather_u16(follow, row.or(d0)),
                    L::gather_u16(follow, row.or(d1)),
                    L::gather_u16(follow, row.or(d2)),
                ],
            );
            let fc = fe.and(card);
            // Who wins (Proposition 1: `keyed_play::leader_wins_rank` lane-wise).
            let word = L::splat(0xffff);
            let (rl, rf) = (
                L::lookup(&t.ranks, lc).and(word),
                L::lookup(&t.ranks, fc).and(word),
            );
            let same_suit = rl.shr::<8>().eq(rf.shr::<8>());
            let (low, led_suit) = (L::splat(0xff), L::splat(16));
            let pl = rl.and(low).or(led_suit);
            let pf = rf.and(low).or_where(same_suit, led_suit);
            let lw = pl.gt(pf);
            let (bl, bf) = (one.shlv(lc), one.shlv(fc));
            let both = bl.or(bf);
            self.seen = self.seen.or(both);
            // Table 5's card sets, by seat: G1 played the leader's card where G1 leads.
            let (b1, b2) = (L::blend(g2, bl, bf), L::blend(g2, bf, bl));
            let trumps = L::splat(TRUMPS);
            let (t1, t2) = (b1.test(trumps), b2.test(trumps));
            self.g1_played = self.g1_played.or(b1);
            let g1_won = L::mask_xor(g2, lw);
            self.g1_took = self.g1_took.or_where(g1_won, both);
            self.against_g1 = self.against_g1.or_where(t1, b2);
            self.against_g2 = self.against_g2.or_where(t2, b1);
            // The winner draws first: the leader takes the first card if it won, else the
            // second.
            let next = (6 + 2 * trick).min(40);
            let (a, b) = (self.col(next), self.col(next + 1));
            let (pa, pb) = (L::splat(next as u64), L::splat(next as u64 + 1));
            let (dl, df) = (L::blend(lw, b, a), L::blend(lw, a, b));
            let (pos_l, pos_f) = (L::blend(lw, pb, pa), L::blend(lw, pa, pb));
            let (nl, nf) = (
                replace(self.hl, le, dl, pos_l),
                replace(self.hf, fe, df, pos_f),
            );
            // The winner leads the next trick: swap roles where the follower won.
            self.hl = L::blend(lw, nf, nl);
            self.hf = L::blend(lw, nl, nf);
            self.seat = L::blend(lw, other, self.seat);
        }
    }

    /// Push each lane's result, in deck order (`decks` are the group's).
    ///
    /// # Safety
    /// The CPU has `L`'s features.
    #[inline(always)]
    unsafe fn finish(&self, decks: &[Deck], out: &mut Vec<(GameOutcome, [TrumpUse; 2])>) {
        // SAFETY: the CPU has `L`'s features (this function's condition).
        let (p, k, a1, a2) = unsafe {
            (
                self.g1_played.store(),
                self.g1_took.store(),
                self.against_g1.store(),
                self.against_g2.store(),
            )
        };
        for (lane, d) in decks.iter().enumerate() {
            let taken = Taken {
                g1_played: p[lane],
                g1_took: k[lane],
                against_g1_trumps: a1[lane],
                against_g2_trumps: a2[lane],
            };
            out.push(taken.finish(d.face_up()));
        }
    }
}

/// Play `decks` (a multiple of `L::LANES`) and push their results, in deck order: two groups
/// at a time, and a last group alone when their number is odd.
///
/// # Safety
/// The CPU has `L`'s features (the caller is `L`'s `#[target_feature]` entry).
#[inline(always)]
pub(super) unsafe fn play_groups<L: Lanes>(
    t: &PairTables,
    decks: &[Deck],
    out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
) {
    debug_assert_eq!(decks.len() % L::LANES, 0);
    // SAFETY: the CPU has `L`'s features (this function's condition).
    unsafe {
        let looks = Lookups::<L>::new(t);
        let pairs = decks.chunks_exact(2 * L::LANES);
        let last = pairs.remainder();
        let (mut a, mut b) = (Group::<L>::new(), Group::<L>::new());
        for pair in pairs {
            let (da, db) = pair.split_at(L::LANES);
            a.deal(da);
            b.deal(db);
            for trick in 0..20 {
                a.trick(&looks, trick);
                b.trick(&looks, trick);
            }
            a.finish(da, out);
            b.finish(db, out);
        }
        if !last.is_empty() {
            a.deal(last);
            for trick in 0..20 {
                a.trick(&looks, trick);
            }
            a.finish(last, out);
        }
    }
}
