//! A deterministic two-player policy written out as key tables: what [`super::play_keyed`]
//! plays. A decision is the stable minimum, over the hand, of one table entry per card.
//!
//! The tables are indexed by *trump-relative* card ids: the suits are renamed so that the trump
//! suit is Oro (suit 0), so one set of tables serves every trump. This is exact for policies that
//! treat the four suits alike except for the trump (the paper's three, and the policy
//! language's card classes), which is what [`KeyTables::build`]'s callers promise.
//!
//! Invariant: every key is at most [`KeyTables::MAX_KEY`], and the entries past the 40 cards
//! (the engine's empty hand slot, id 63) hold [`KeyTables::EMPTY`], above every key, so an
//! empty slot is never the minimum of a hand that holds a card.

use super::card::{Card, Suit};
use super::seat_view::SeatView;

/// Entries per card-indexed table (`id & 63` needs no bounds check).
const IDS: usize = 64;

/// A policy's keys (see the module documentation). Smaller keys play first; equal keys go to
/// the card that arrived in the hand first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyTables {
    /// Leading, per card: the key while none of the card's watched cards is public.
    pub(super) lead: [u16; IDS],
    /// Leading, per card: the key once one of its watched cards is public.
    pub(super) lead_watched: [u16; IDS],
    /// Per card: the cards whose being public (played in an earlier trick, or the face-up card)
    /// switches its leader key to `lead_watched` (the counter's carico trap); 0 for most.
    pub(super) watch: [u64; IDS],
    /// Following, per led card, per card: the card's key against the led card (64 rows, so
    /// `led & 63` needs no bounds check; rows past the 40 cards are unused).
    pub(super) follow: Box<[[u16; IDS]; IDS]>,
}

impl KeyTables {
    /// The largest key a policy may give a card.
    pub const MAX_KEY: u32 = (1 << 14) - 2;
    /// The key of an empty hand slot.
    pub(super) const EMPTY: u16 = (1 << 14) - 1;

    /// Tables for a policy with trump Oro whose leader key of card `c` is `lead(c, watched)`,
    /// where `watched` says whether a card of `watch(c)` is public, and whose follower key of
    /// `c` against the led card `led` is `follow(led, c)`.
    ///
    /// The caller promises the policy treats the non-trump suits alike (renaming them does not
    /// change its choice), since the engine renames suits so that the trump is Oro.
    ///
    /// # Panics
    /// If a key exceeds [`KeyTables::MAX_KEY`] (a bug in the caller).
    ///
    /// ```
    /// use briscola_core::game::{Card, KeyTables};
    /// // "Play the card with the fewest points", leading and following.
    /// let t = KeyTables::build(|c, _| c.points() as u32, |_| 0, |_, c| c.points() as u32);
    /// # let _ = t;
    /// ```
    pub fn build(
        lead: impl Fn(Card, bool) -> u32,
        watch: impl Fn(Card) -> u64,
        follow: impl Fn(Card, Card) -> u32,
    ) -> KeyTables {
        match KeyTables::try_build(lead, watch, follow) {
            Ok(t) => t,
            Err(k) => panic!("key {k} above KeyTables::MAX_KEY"),
        }
    }

    /// [`KeyTables::build`], or the first key above [`KeyTables::MAX_KEY`].
    pub fn try_build(
        lead: impl Fn(Card, bool) -> u32,
        watch: impl Fn(Card) -> u64,
        follow: impl Fn(Card, Card) -> u32,
    ) -> Result<KeyTables, u32> {
        let key = |k: u32| {
            if k <= Self::MAX_KEY {
                Ok(k as u16)
            } else {
                Err(k)
            }
        };
        let mut t = KeyTables {
            lead: [Self::EMPTY; IDS],
            lead_watched: [Self::EMPTY; IDS],
            watch: [0; IDS],
            follow: Box::new([[Self::EMPTY; IDS]; IDS]),
        };
        for c in (0..40).filter_map(Card::from_id) {
            let i = c.id() as usize;
            t.lead[i] = key(lead(c, false))?;
            t.lead_watched[i] = key(lead(c, true))?;
            t.watch[i] = watch(c);
            for led in (0..40).filter_map(Card::from_id) {
                t.follow[led.id() as usize][i] = key(follow(led, c))?;
            }
        }
        Ok(t)
    }

    /// The policy's choice in `v` (an index into `v.hand`): the stable minimum of the keys,
    /// read by the trump-relative ids of the view's cards, as [`super::play_keyed`] plays it;
    /// for any table whose policy reads only the hand, the card to beat, the trump and the
    /// public cards (the paper's three), the choice the policy itself makes.
    #[inline]
    pub fn choose(&self, v: &SeatView<'_>) -> usize {
        let trump = v.trump as u8;
        let mut best = u32::MAX;
        match v.table {
            None => {
                let seen = relative_bits(v.played | 1u64 << v.face_up.id(), trump);
                for (i, c) in v.hand.iter().enumerate() {
                    let r = relative(c.id(), trump) as usize;
                    let key = if self.watch[r] & seen != 0 {
                        self.lead_watched[r]
                    } else {
                        self.lead[r]
                    };
                    best = best.min(u32::from(key) << 3 | i as u32);
                }
            }
            Some(led) => {
                let row = &self.follow[relative(led.id(), trump) as usize];
                for (i, c) in v.hand.iter().enumerate() {
                    let key = row[relative(c.id(), trump) as usize];
                    best = best.min(u32::from(key) << 3 | i as u32);
                }
            }
        }
        (best & 7) as usize
    }
}

/// A set of cards (bit `id`) renamed as [`relative`] renames each: the 40 bits rotated down by
/// `10 * trump`.
#[inline(always)]
fn relative_bits(set: u64, trump: u8) -> u64 {
    const ALL: u64 = (1 << 40) - 1;
    let base = 10 * u32::from(trump);
    let set = set & ALL;
    if base == 0 {
        set
    } else {
        (set >> base | set << (40 - base)) & ALL
    }
}

/// Card `id` (0..40) renamed so that suit `trump` (0..4) is suit 0: suits rotate, ranks stay,
/// so the renamed id is `id - 10 * trump` modulo 40 (written without a table or a division,
/// so a deck's 40 renamings vectorise).
#[inline(always)]
pub(super) fn relative(id: u8, trump: u8) -> u8 {
    let base = 10 * trump;
    if id >= base {
        id - base
    } else {
        id + 40 - base
    }
}

/// The inverse of [`relative`]: `[trump][relative id]`, the Ace of Oro past the 40 cards.
pub(super) const FROM_RELATIVE: [[Card; IDS]; 4] = {
    let ace = match Card::from_id(0) {
        Some(c) => c,
        None => unreachable!(),
    };
    let mut t = [[ace; IDS]; 4];
    let mut trump = 0;
    while trump < 4 {
        let mut id = 0;
        while id < 40 {
            t[trump][id] = match Card::from_id((((id / 10 + trump) % 4) * 10 + id % 10) as u8) {
                Some(c) => c,
                None => unreachable!(),
            };
            id += 1;
        }
        trump += 1;
    }
    t
};

/// The suit that relative ids name trump.
pub(super) const RELATIVE_TRUMP: Suit = Suit::Oro;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renaming_is_a_bijection_that_sends_the_trump_to_oro() {
        for trump in Suit::ALL {
            for c in (0..40).filter_map(Card::from_id) {
                let r = relative(c.id(), trump as u8);
                let back = FROM_RELATIVE[trump as usize][r as usize];
                assert_eq!(back, c);
                let rc = Card::from_id(r).unwrap();
                assert_eq!(rc.rank(), c.rank());
                assert_eq!(rc.suit() == RELATIVE_TRUMP, c.suit() == trump);
            }
        }
    }

    #[test]
    #[should_panic(expected = "above KeyTables::MAX_KEY")]
    fn oversized_keys_are_refused() {
        KeyTables::build(|_, _| 1 << 20, |_| 0, |_, _| 0);
    }
}
