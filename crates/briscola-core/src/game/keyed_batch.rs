//! Many two-player games at once for policies given as [`KeyTables`]: the batch path of the
//! table-driven engine. Eight games ride in the eight 64-bit lanes of an AVX-512 register; each
//! lane holds exactly the state [`play_keyed`] keeps (the leader's and follower's hands as
//! three 16-bit slot entries, who leads, the public cards, the four card sets Table 5 is read
//! from), and every step is the same select or table lookup done lane-wise: the 64-entry
//! tables (leader keys, the cards' trick ranks) are permutes of registers, the follower's
//! 64 x 64 table and the watches are gathers.
//!
//! Invariant: for every deck and pair of tables, a game's outcome and Table 5's tallies are
//! those [`play_keyed`] gives (the lanes run its steps, and the end of a game is read by the same
//! function, `Taken::finish`). Where AVX-512 is absent (detected at run time), and for the games
//! of a batch past its last full group of eight, the games are played by [`play_keyed`] itself,
//! so results never depend on the machine. Tested game by game in `tests/it/keyed_engine.rs`.
//!
//! [`play_keyed`]: super::play_keyed

use super::deck::Deck;
use super::key_tables::KeyTables;
use super::keyed_play::play_keyed;
use super::play::{GameOutcome, NoTricks};
use super::trump_use::TrumpUse;

/// Games per group (the lanes of one register).
pub const BATCH_LANES: usize = 8;

/// Whether this machine plays [`play_keyed_batch`]'s groups in SIMD lanes (AVX-512 F and BW); when not,
/// every game goes through [`super::play_keyed`] (same results, scalar speed).
///
/// ```
/// let _simd: bool = briscola_core::game::batch_lanes_available();
/// ```
pub fn batch_lanes_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        lanes::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Play every deck with `seats[0]`'s tables in seat G1 and `seats[1]`'s in G2, without a trick
/// log; returns each game's outcome and Table 5's tallies (G1's first), in deck order. The same
/// results as calling [`super::play_keyed`] on each deck, faster where
/// [`batch_lanes_available`].
///
/// ```
/// use briscola_core::game::{Deck, KeyTables, NoTricks, play_keyed, play_keyed_batch};
/// let cheapest = KeyTables::build(|c, _| c.points() as u32, |_| 0, |_, c| c.points() as u32);
/// let mut decks = vec![Deck::ordered(); 11];
/// for (i, d) in decks.iter_mut().enumerate() {
///     let mut k = i as u32;
///     d.shuffle_with(|m| { k = k.wrapping_mul(2_654_435_761).wrapping_add(12_345); k % m });
/// }
/// let batch = play_keyed_batch(&decks, [&cheapest, &cheapest]);
/// for (d, got) in decks.iter().zip(&batch) {
///     assert_eq!(*got, play_keyed(d, [&cheapest, &cheapest], &mut NoTricks));
/// }
/// ```
pub fn play_keyed_batch(
    decks: &[Deck],
    seats: [&KeyTables; 2],
) -> Vec<(GameOutcome, [TrumpUse; 2])> {
    let mut out = Vec::with_capacity(decks.len());
    let done = play_in_lanes(decks, seats, &mut out);
    out.extend(
        decks[done..]
            .iter()
            .map(|d| play_keyed(d, seats, &mut NoTricks)),
    );
    out
}

/// Play the leading whole groups of `decks` in SIMD lanes where the CPU allows, pushing their
/// results; returns how many decks that was (0 without the lanes).
#[cfg(target_arch = "x86_64")]
fn play_in_lanes(
    decks: &[Deck],
    seats: [&KeyTables; 2],
    out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
) -> usize {
    let full = decks.len() - decks.len() % BATCH_LANES;
    if full == 0 || !lanes::available() {
        return 0;
    }
    let pair = lanes::PairTables::new(seats);
    // SAFETY: the CPU has what the kernel needs (checked above).
    unsafe { lanes::play_groups(&pair, &decks[..full], out) };
    full
}

/// Without x86-64 there are no lanes: every game goes through `play_keyed`.
#[cfg(not(target_arch = "x86_64"))]
fn play_in_lanes(
    _decks: &[Deck],
    _seats: [&KeyTables; 2],
    _out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
) -> usize {
    0
}

#[cfg(target_arch = "x86_64")]
mod lanes {
    //! The AVX-512 kernel (F and BW). Every gather reads a table below at an index built from
    //! 6-bit card ids and 1-bit seat flags, so it stays inside the table (the u16 table carries
    //! the bytes a 4-byte read of its last entry needs). Two groups are played side by side,
    //! trick by trick, so that one group's lookups run while the other's wait.

    use std::arch::x86_64::*;

    use super::super::deck::Deck;
    use super::super::key_tables::KeyTables;
    use super::super::keyed_play::{EMPTY, TRICK_RANK, Taken};
    use super::super::play::GameOutcome;
    use super::super::trump_use::TrumpUse;
    use super::BATCH_LANES;

    /// Whether the CPU has what the kernel uses (AVX-512 F and BW).
    pub(super) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }

    /// The two seats' tables side by side, indexed by seat (0 for G1) first.
    pub(super) struct PairTables {
        /// `[seat][card]`: the cards that switch the card's leader key.
        watch: [u64; 2 * 64],
        /// `[seat][card]`: the leader key, and the key once watched.
        lead: [[u16; 64]; 2],
        lead_watched: [[u16; 64]; 2],
        /// `[seat][led][card]`: the follower keys, and one spare entry: the largest index is
        /// 8191, whose 4-byte read reaches entry 8192.
        follow: Box<[u16]>,
        /// Whether any card of either seat has a watch (else the watch lookups are skipped).
        watches: bool,
    }

    impl PairTables {
        pub(super) fn new(seats: [&KeyTables; 2]) -> PairTables {
            let mut t = PairTables {
                watch: [0; 128],
                lead: [seats[0].lead, seats[1].lead],
                lead_watched: [seats[0].lead_watched, seats[1].lead_watched],
                follow: vec![0u16; 2 * 64 * 64 + 1].into_boxed_slice(),
                watches: seats.iter().any(|k| k.watch.iter().any(|&w| w != 0)),
            };
            for (s, k) in seats.iter().enumerate() {
                t.watch[s * 64..][..64].copy_from_slice(&k.watch);
                for (led, row) in k.follow.iter().enumerate() {
                    t.follow[(s * 64 + led) * 64..][..64].copy_from_slice(row);
                }
            }
            t
        }
    }

    /// A u64 per lane.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn splat(x: u64) -> __m512i {
        _mm512_set1_epi64(x as i64)
    }

    /// Lane `i` of a vector.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn lanes_of(v: __m512i) -> [u64; 8] {
        let mut a = [0u64; 8];
        // SAFETY: `a` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(a.as_mut_ptr().cast(), v) };
        a
    }

    /// Slot `SHIFT / 16`'s entry of each lane's hand, and its card.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn slot<const SHIFT: u32>(hand: __m512i) -> (__m512i, __m512i) {
        let e = _mm512_and_si512(_mm512_srli_epi64::<SHIFT>(hand), splat(0xffff));
        (e, _mm512_and_si512(e, splat(63)))
    }

    /// The entry of the stable minimum of `key(card)` over each lane's hand: the minimum of
    /// `key << 16 | entry`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn pick(hand: __m512i, key: impl Fn(__m512i) -> __m512i) -> __m512i {
        let one = |(e, c): (__m512i, __m512i)| _mm512_or_si512(_mm512_slli_epi64::<16>(key(c)), e);
        let k0 = one(slot::<0>(hand));
        let k1 = one(slot::<16>(hand));
        let k2 = one(slot::<32>(hand));
        let m = _mm512_min_epu64(_mm512_min_epu64(k0, k1), k2);
        _mm512_and_si512(m, splat(0xffff))
    }

    /// Each lane's hand with the slot of `played` (an entry) refilled by `card` from `pos`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn replace(hand: __m512i, played: __m512i, card: __m512i, pos: __m512i) -> __m512i {
        let slot = _mm512_and_si512(_mm512_srli_epi64::<8>(played), splat(3));
        let shift = _mm512_slli_epi64::<4>(slot);
        let new = _mm512_or_si512(
            card,
            _mm512_or_si512(_mm512_slli_epi64::<10>(pos), _mm512_slli_epi64::<8>(slot)),
        );
        let cleared = _mm512_andnot_si512(_mm512_sllv_epi64(splat(0xffff), shift), hand);
        _mm512_or_si512(cleared, _mm512_sllv_epi64(new, shift))
    }

    /// `TRICK_RANK[c]` per lane (`c` below 64), from the table held in two registers.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn trick_rank(lo: __m512i, hi: __m512i, c: __m512i) -> __m512i {
        _mm512_and_si512(_mm512_permutex2var_epi16(lo, c, hi), splat(0xffff))
    }

    /// The 64-entry tables the kernel keeps in registers (each as its two 32-entry halves) and
    /// looks up with a permute: the seats' leader keys and [`TRICK_RANK`].
    struct LeadRegs {
        /// G1's and G2's `lead`.
        lead: [[__m512i; 2]; 2],
        /// G1's and G2's `lead_watched`.
        watched: [[__m512i; 2]; 2],
        ranks: (__m512i, __m512i),
    }

    impl LeadRegs {
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        fn load(t: &PairTables) -> LeadRegs {
            // SAFETY: each half is 32 readable u16.
            let halves = |x: &[u16; 64]| unsafe {
                [
                    _mm512_loadu_epi16(x.as_ptr().cast()),
                    _mm512_loadu_epi16(x[32..].as_ptr().cast()),
                ]
            };
            let [lo, hi] = halves(&TRICK_RANK);
            LeadRegs {
                lead: [halves(&t.lead[0]), halves(&t.lead[1])],
                watched: [halves(&t.lead_watched[0]), halves(&t.lead_watched[1])],
                ranks: (lo, hi),
            }
        }
    }

    /// One group's games in flight: the deck's columns and [`super::play_keyed`]'s state, a
    /// lane per game.
    struct Group {
        /// The decks' card ids, position by position across the lanes.
        ids: [[u8; BATCH_LANES]; 40],
        /// Per lane, ten times the trump suit's index (what renaming subtracts).
        base: __m512i,
        /// The leader's and the follower's hands.
        hl: __m512i,
        hf: __m512i,
        /// The leader's seat (0 for G1, which leads the first trick).
        seat: __m512i,
        /// The public cards (the face-up card and every card played).
        seen: __m512i,
        /// Table 5's card sets ([`Taken`]'s fields).
        g1_played: __m512i,
        g1_took: __m512i,
        against_g1: __m512i,
        against_g2: __m512i,
    }

    impl Group {
        /// A group with nothing dealt (see [`Group::deal`]).
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn new() -> Group {
            Group {
                ids: [[0; BATCH_LANES]; 40],
                base: splat(0),
                hl: splat(0),
                hf: splat(0),
                seat: splat(0),
                seen: splat(0),
                g1_played: splat(0),
                g1_took: splat(0),
                against_g1: splat(0),
                against_g2: splat(0),
            }
        }

        /// Deal `decks` ([`BATCH_LANES`] of them) into this group, in place.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn deal(&mut self, decks: &[Deck]) {
            let mut base = [0u64; BATCH_LANES];
            for (lane, d) in decks.iter().enumerate() {
                base[lane] = 10 * d.face_up().suit() as u64;
                for (pos, c) in d.cards().iter().enumerate() {
                    self.ids[pos][lane] = c.id();
                }
            }
            // SAFETY: `base` is 64 readable bytes.
            self.base = unsafe { _mm512_loadu_si512(base.as_ptr().cast()) };
            let dealt = |first: usize| {
                let e = |s: usize| {
                    let card = self.col(first + s);
                    let pos = splat(((first + s) as u64) << 10 | (s as u64) << 8);
                    _mm512_or_si512(card, pos)
                };
                _mm512_or_si512(
                    e(0),
                    _mm512_or_si512(_mm512_slli_epi64::<16>(e(1)), _mm512_slli_epi64::<32>(e(2))),
                )
            };
            (self.hl, self.hf) = (dealt(0), dealt(3));
            self.seat = splat(0);
            self.seen = _mm512_sllv_epi64(splat(1), self.col(39));
            let zero = splat(0);
            (self.g1_played, self.g1_took) = (zero, zero);
            (self.against_g1, self.against_g2) = (zero, zero);
        }

        /// Deck position `p` of every lane, in trump-relative ids (as `key_tables::relative`
        /// renames them); the empty slot's id past the 40 cards.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn col(&self, p: usize) -> __m512i {
            if p >= 40 {
                return splat(EMPTY as u64);
            }
            // SAFETY: each position's row is 8 readable bytes.
            let ids = unsafe { _mm512_cvtepu8_epi64(_mm_loadl_epi64(self.ids[p].as_ptr().cast())) };
            let below = _mm512_cmplt_epu64_mask(ids, self.base);
            let r = _mm512_sub_epi64(ids, self.base);
            _mm512_mask_add_epi64(r, below, r, splat(40))
        }

        /// The leader's key of each lane's card `c` (below 64): its seat's `lead_watched` entry
        /// when a watched card is public, else its `lead` entry.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        fn lead_key(&self, t: &PairTables, regs: &LeadRegs, c: __m512i) -> __m512i {
            let g2 = _mm512_test_epi64_mask(self.seat, splat(1));
            let look = |[lo, hi]: [__m512i; 2]| _mm512_permutex2var_epi16(lo, c, hi);
            let plain = _mm512_mask_blend_epi64(g2, look(regs.lead[0]), look(regs.lead[1]));
            let key = if t.watches {
                let idx = _mm512_or_si512(_mm512_slli_epi64::<6>(self.seat), c);
                // SAFETY: seat * 64 + card < 128, watch's length.
                let w = unsafe { _mm512_i64gather_epi64::<8>(idx, t.watch.as_ptr().cast()) };
                let watched = _mm512_test_epi64_mask(w, self.seen);
                let after =
                    _mm512_mask_blend_epi64(g2, look(regs.watched[0]), look(regs.watched[1]));
                _mm512_mask_blend_epi64(watched, plain, after)
            } else {
                plain
            };
            _mm512_and_si512(key, splat(0xffff))
        }

        /// Play trick `trick` (0-based) in every lane.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        fn trick(&mut self, t: &PairTables, regs: &LeadRegs, trick: usize) {
            let ranks = regs.ranks;
            let (one, zero) = (splat(1), splat(0));
            let le = pick(self.hl, |c| self.lead_key(t, regs, c));
            let lc = _mm512_and_si512(le, splat(63));
            let other = _mm512_xor_si512(self.seat, one);
            let row = _mm512_slli_epi64::<6>(_mm512_or_si512(_mm512_slli_epi64::<6>(other), lc));
            let fe = pick(self.hf, |c| {
                // SAFETY: (seat * 64 + led) * 64 + card <= 8191, and its 4-byte read ends in
                // entry 8192 < 8193, follow's length.
                let w = unsafe {
                    _mm512_i64gather_epi32::<2>(_mm512_or_si512(row, c), t.follow.as_ptr().cast())
                };
                _mm512_and_si512(_mm512_cvtepu32_epi64(w), splat(0xffff))
            });
            let fc = _mm512_and_si512(fe, splat(63));
            // Who wins (Proposition 1: `keyed_play::leader_wins_rank` lane-wise).
            let (rl, rf) = (
                trick_rank(ranks.0, ranks.1, lc),
                trick_rank(ranks.0, ranks.1, fc),
            );
            let same_suit =
                _mm512_cmpeq_epi64_mask(_mm512_srli_epi64::<8>(rl), _mm512_srli_epi64::<8>(rf));
            let pl = _mm512_or_si512(_mm512_and_si512(rl, splat(0xff)), splat(16));
            let pf = _mm512_and_si512(rf, splat(0xff));
            let pf = _mm512_mask_or_epi64(pf, same_suit, pf, splat(16));
            let lw = _mm512_cmpgt_epu64_mask(pl, pf);
            let (bl, bf) = (_mm512_sllv_epi64(one, lc), _mm512_sllv_epi64(one, fc));
            self.seen = _mm512_or_si512(self.seen, _mm512_or_si512(bl, bf));
            // Table 5's card sets, by seat: G1 leads where the leader's seat is 0.
            let g1_leads = _mm512_cmpeq_epi64_mask(self.seat, zero);
            let (b1, b2) = (
                _mm512_mask_blend_epi64(g1_leads, bf, bl),
                _mm512_mask_blend_epi64(g1_leads, bl, bf),
            );
            let (t1, t2) = (
                _mm512_test_epi64_mask(b1, splat(super::super::keyed_play::TRUMPS)),
                _mm512_test_epi64_mask(b2, splat(super::super::keyed_play::TRUMPS)),
            );
            self.g1_played = _mm512_or_si512(self.g1_played, b1);
            let g1_won = !(g1_leads ^ lw);
            let both = _mm512_or_si512(b1, b2);
            self.g1_took = _mm512_mask_or_epi64(self.g1_took, g1_won, self.g1_took, both);
            self.against_g1 = _mm512_mask_or_epi64(self.against_g1, t1, self.against_g1, b2);
            self.against_g2 = _mm512_mask_or_epi64(self.against_g2, t2, self.against_g2, b1);
            // The winner draws first: the leader takes the first card if it won, else the
            // second.
            let next = (6 + 2 * trick).min(40);
            let (a, b) = (self.col(next), self.col(next + 1));
            let (pa, pb) = (splat(next as u64), splat(next as u64 + 1));
            let (dl, df) = (
                _mm512_mask_blend_epi64(lw, b, a),
                _mm512_mask_blend_epi64(lw, a, b),
            );
            let (pos_l, pos_f) = (
                _mm512_mask_blend_epi64(lw, pb, pa),
                _mm512_mask_blend_epi64(lw, pa, pb),
            );
            let (nl, nf) = (
                replace(self.hl, le, dl, pos_l),
                replace(self.hf, fe, df, pos_f),
            );
            // The winner leads the next trick: swap roles where the follower won.
            self.hl = _mm512_mask_blend_epi64(lw, nf, nl);
            self.hf = _mm512_mask_blend_epi64(lw, nl, nf);
            self.seat = _mm512_mask_blend_epi64(lw, other, self.seat);
        }

        /// Push each lane's result, in deck order (`decks` are the group's).
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn finish(&self, decks: &[Deck], out: &mut Vec<(GameOutcome, [TrumpUse; 2])>) {
            let (p, k, a1, a2) = (
                lanes_of(self.g1_played),
                lanes_of(self.g1_took),
                lanes_of(self.against_g1),
                lanes_of(self.against_g2),
            );
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

    /// Play `decks` (a multiple of [`BATCH_LANES`]) and push their results, in deck order:
    /// two groups at a time, and a last group alone when their number is odd.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F and BW ([`available`]).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn play_groups(
        t: &PairTables,
        decks: &[Deck],
        out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
    ) {
        debug_assert_eq!(decks.len() % BATCH_LANES, 0);
        let regs = LeadRegs::load(t);
        let pairs = decks.chunks_exact(2 * BATCH_LANES);
        let last = pairs.remainder();
        let (mut a, mut b) = (Group::new(), Group::new());
        for pair in pairs {
            let (da, db) = pair.split_at(BATCH_LANES);
            a.deal(da);
            b.deal(db);
            for trick in 0..20 {
                a.trick(t, &regs, trick);
                b.trick(t, &regs, trick);
            }
            a.finish(da, out);
            b.finish(db, out);
        }
        if !last.is_empty() {
            a.deal(last);
            for trick in 0..20 {
                a.trick(t, &regs, trick);
            }
            a.finish(last, out);
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::keyed_play::{LEADER_WINS, TRICK_RANK};

    /// The winner rule the kernel spells lane-wise (from [`TRICK_RANK`]) is `LEADER_WINS`
    /// (Proposition 1) for every ordered pair of distinct cards.
    #[test]
    fn the_rank_rule_is_the_winner_table() {
        for l in 0..40 {
            for f in (0..40).filter(|&f| f != l) {
                let (rl, rf) = (TRICK_RANK[l], TRICK_RANK[f]);
                let same = rl >> 8 == rf >> 8;
                let wins = (rl & 0xff | 16) > (rf & 0xff | (same as u16) << 4);
                assert_eq!(wins, LEADER_WINS[l * 64 + f] == 1, "{l} vs {f}");
            }
        }
    }
}
