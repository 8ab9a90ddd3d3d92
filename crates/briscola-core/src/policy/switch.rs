//! `switch`: play one policy while a condition on the public state holds, another otherwise
//! (e.g. greedy while the stock is large, counter once it runs low).
//!
//! Invariant: the condition reads only the seat's view and is consulted afresh at every move;
//! the switch adds no randomness of its own (each branch draws from the seat's stream as it
//! would alone).

use super::lang::Condition;
use super::{AnyPolicy, Explanation};
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

impl Switch {
    /// [`Policy::choose`], saying which branch played and why that branch chose its card.
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let holds = self.when.holds_in(v, self.memory);
        let (branch, inner) = if holds {
            ("first", self.first.explain(v, rng))
        } else {
            ("otherwise", self.otherwise.explain(v, rng))
        };
        Explanation {
            because: format!(
                "switch: `{}` {}, so the {branch} policy plays; {}",
                self.when,
                if holds { "holds" } else { "does not hold" },
                inner.line()
            ),
            rule: None,
            ..inner
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
