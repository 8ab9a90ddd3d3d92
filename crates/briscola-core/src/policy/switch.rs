//! `switch`: play one policy while a condition on the public state holds, another otherwise
//! (e.g. greedy while the stock is large, counter once it runs low).
//!
//! Invariant: the condition reads only the seat's view and is consulted afresh at every move;
//! the switch adds no randomness of its own (each branch draws from the seat's stream as it
//! would alone).

use super::AnyPolicy;
use super::lang::Condition;
use crate::game::{Policy, SeatRng, SeatView};

/// Plays `first` while `when` holds, else `otherwise`.
#[derive(Clone, Debug)]
pub struct Switch {
    when: Condition,
    memory: bool,
    first: AnyPolicy,
    otherwise: AnyPolicy,
}

impl Switch {
    /// A switch between two built policies.
    pub fn new(when: Condition, first: AnyPolicy, otherwise: AnyPolicy) -> Switch {
        Switch {
            memory: when.needs_memory(),
            when,
            first,
            otherwise,
        }
    }
}

impl Policy for Switch {
    #[inline]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        if self.when.holds_in(v, self.memory) {
            self.first.choose(v, rng)
        } else {
            self.otherwise.choose(v, rng)
        }
    }
}
