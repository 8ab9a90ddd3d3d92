//! The unknown places of a position as numbered *slots* ([`Layout`]: each unknown hand card,
//! then each unknown stock card from the top), and the [`Completion`] that puts a card in
//! each.
//!
//! Invariant: a completion is a bijection between the slots and the position's pool (the
//! cards placed nowhere); slots are numbered hand slots first (player by player), then stock
//! slots from the top, the same way every time.

use super::answer::Completion;
use super::position::{Position, Target};
use crate::game::{Card, DrawOrder, MAX_PLAYERS, Suit};

/// What lies at a stock place: a known card or the slot of an unknown one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// A known card.
    Card(Card),
    /// An unknown card: the slot's number.
    Slot(u8),
}

/// A position with its unknown places numbered: hand slots first (player by player), then
/// stock slots from the top.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// Players.
    pub n: usize,
    /// The trump suit.
    pub trump: Option<Suit>,
    /// The player asked about.
    pub player: usize,
    /// What they must reach.
    pub target: Target,
    /// Who draws first after a trick.
    pub draw: DrawOrder,
    /// The seat leading the next trick.
    pub leader: usize,
    /// Known cards of each hand.
    pub hands: [u64; MAX_PLAYERS],
    /// The slots of each hand (bit `s` for slot `s`).
    pub hand_slots: [u64; MAX_PLAYERS],
    /// The stock from its top.
    pub stock: Vec<Place>,
    /// Number of slots.
    pub slots: usize,
    /// The cards the slots hold between them.
    pub pool: u64,
}

impl Layout {
    /// Number the unknown places of `pos`.
    pub fn of(pos: &Position) -> Layout {
        let mut lay = Layout {
            n: pos.players(),
            trump: pos.trump,
            player: pos.player,
            target: pos.target,
            draw: pos.draw_order(),
            leader: pos.leader,
            hands: [0; MAX_PLAYERS],
            hand_slots: [0; MAX_PLAYERS],
            stock: Vec::with_capacity(pos.stock.len()),
            slots: 0,
            pool: pos.pool().0,
        };
        for p in 0..lay.n {
            lay.hands[p] = pos.hands[p].0;
            for _ in 0..pos.unknown[p] {
                lay.hand_slots[p] |= 1u64 << lay.slots;
                lay.slots += 1;
            }
        }
        for place in &pos.stock {
            lay.stock.push(match place {
                Some(c) => Place::Card(*c),
                None => {
                    lay.slots += 1;
                    Place::Slot(lay.slots as u8 - 1)
                }
            });
        }
        lay
    }

    /// The goal as a number: tricks or points.
    pub fn need(&self) -> i32 {
        match self.target {
            Target::Tricks(k) => k as i32,
            Target::Points(p) => p as i32,
        }
    }

    /// The completion that puts `cards[s]` in slot `s`.
    pub fn completion(&self, cards: &[Card]) -> Completion {
        let mut hands = vec![Vec::new(); self.n];
        let mut slot = 0;
        for (p, hand) in hands.iter_mut().enumerate() {
            for _ in 0..self.hand_slots[p].count_ones() {
                hand.push(cards[slot]);
                slot += 1;
            }
        }
        Completion {
            hands,
            stock: cards[slot..].to_vec(),
        }
    }
}
