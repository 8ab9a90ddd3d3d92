//! The exploit agent's cache of its target's past plays within one decision ([`PastPlayCache`]).
//! A decision's world search asks, at every node, whether the target holding a hand (in its
//! order) would have made one of its past plays; the worlds and the restarts of one decision ask
//! the same (play, hand) again and again (eight times each on average over the committed
//! exploit games), and each asking builds the target's view and runs its policy.
//!
//! Invariant: an entry holds the answer for exactly its (past play, ordered hand) in the current
//! decision (every entry of an earlier decision is stale by its generation); an entry lost to a
//! collision is computed again, so the cache never changes an answer, only how often it is
//! computed.

/// log2 of the entries of each thread's cache (16,384 of 8 bytes: 128 KiB, within the core's
/// cache; a decision asks a few thousand distinct questions).
const BITS: u32 = 14;

/// A (past play, ordered hand) -> answer table for the decision being searched, direct-mapped:
/// a slot holds the generation (high 32 bits), the question (25 bits, from bit 3) and the answer
/// (bits 0-2: the index, or 7 for none).
pub(super) struct PastPlayCache {
    entries: Vec<u64>,
    generation: u32,
}

/// An answer: the index of the played card in the hand, or none (the target would not have
/// made the play holding the hand).
pub(super) type PlayAnswer = Option<usize>;

impl PastPlayCache {
    /// An empty cache.
    pub(super) fn new() -> PastPlayCache {
        PastPlayCache {
            entries: vec![0; 1 << BITS],
            generation: 0,
        }
    }

    /// Forget every answer (a new decision: the view the questions are asked in changes).
    pub(super) fn begin_decision(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 decisions an old entry's stamp could come round again.
            self.entries.fill(0);
            self.generation = 1;
        }
    }

    /// The question's number: the play's index (< 32, bits 0-4), the hand's length (bits 5-6)
    /// and its card ids in order (6 bits each, from bit 7; a hand holds at most three cards).
    #[inline]
    pub(super) fn question(play: usize, hand: &[crate::game::Card]) -> u32 {
        debug_assert!(play < 32 && hand.len() <= 3);
        let cards = hand.iter().fold(0u32, |q, c| q << 6 | u32::from(c.id()));
        play as u32 | (hand.len() as u32) << 5 | cards << 7
    }

    #[inline]
    fn slot(q: u32) -> usize {
        (u64::from(q).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize
    }

    /// The answer to question `q` in this decision, if kept; else `ask` computes it and it is
    /// kept.
    #[inline]
    pub(super) fn answer(&mut self, q: u32, ask: impl FnOnce() -> PlayAnswer) -> PlayAnswer {
        let slot = Self::slot(q);
        let e = self.entries[slot];
        let stamp = u64::from(self.generation) << 32 | u64::from(q) << 3;
        if e & !7 == stamp {
            let a = (e & 7) as usize;
            return (a < 7).then_some(a);
        }
        let a = ask();
        self.entries[slot] = stamp | a.map_or(7, |i| i as u64);
        a
    }
}

#[cfg(test)]
mod tests {
    use super::PastPlayCache;
    use crate::game::Card;

    fn hand(ids: &[u8]) -> Vec<Card> {
        ids.iter()
            .map(|&i| Card::from_id(i).expect("a card id"))
            .collect()
    }

    /// A kept answer comes back without asking; another question, another order of the same
    /// cards, or a new decision asks again.
    #[test]
    fn answers_are_kept_for_their_question_and_decision_only() {
        let mut cache = PastPlayCache::new();
        cache.begin_decision();
        let q = PastPlayCache::question(3, &hand(&[5, 17, 39]));
        assert_eq!(cache.answer(q, || Some(2)), Some(2));
        assert_eq!(cache.answer(q, || panic!("asked again")), Some(2));
        let swapped = PastPlayCache::question(3, &hand(&[17, 5, 39]));
        assert_ne!(swapped, q);
        assert_eq!(cache.answer(swapped, || None), None);
        assert_eq!(cache.answer(swapped, || panic!("asked again")), None);
        let other_play = PastPlayCache::question(4, &hand(&[5, 17, 39]));
        assert_eq!(cache.answer(other_play, || Some(0)), Some(0));
        cache.begin_decision();
        assert_eq!(cache.answer(q, || Some(1)), Some(1));
    }

    /// Questions are distinct for every play and every ordered hand of up to three cards (a
    /// shorter hand never reads as a longer one: the length is part of the question).
    #[test]
    fn questions_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        let ids = [0u8, 1, 2, 38, 39];
        for play in [0usize, 1, 5, 19, 31] {
            assert!(seen.insert(PastPlayCache::question(play, &[])));
            for &a in &ids {
                assert!(seen.insert(PastPlayCache::question(play, &hand(&[a]))));
                for &b in ids.iter().filter(|&&b| b != a) {
                    assert!(seen.insert(PastPlayCache::question(play, &hand(&[a, b]))));
                    for &c in ids.iter().filter(|&&c| c != a && c != b) {
                        let q = PastPlayCache::question(play, &hand(&[a, b, c]));
                        assert!(seen.insert(q), "{play} {a} {b} {c}");
                        assert!(q < 1 << 25, "fits in 25 bits (the slot keeps 29)");
                    }
                }
            }
        }
    }
}
