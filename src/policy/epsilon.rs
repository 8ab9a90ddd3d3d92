//! `epsilon`: with probability eps play a uniformly random card of the hand instead of what the
//! base policy would (on leader moves only, as the paper's section 6 words it, or on every move).
//!
//! Invariant: eps = 0 never draws and plays exactly as the base policy; eps = 1 always plays a
//! uniformly random card; the draws come from the seat's own stream ([`SeatRng`]), never from
//! the deal stream, so an epsilon study deals exactly the games of its deterministic twin.

use serde::{Deserialize, Serialize};

use super::AnyPolicy;
use crate::game::{Policy, SeatRng, SeatView};

/// Which moves may explore.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EpsMoves {
    /// Only when leading (the paper's "perturbing the leader move").
    #[default]
    Lead,
    /// Every move.
    All,
}

impl EpsMoves {
    /// The name in `pipeline.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            EpsMoves::Lead => "lead",
            EpsMoves::All => "all",
        }
    }
}

/// The base policy, perturbed.
#[derive(Clone, Debug)]
pub struct Epsilon {
    base: AnyPolicy,
    eps: f64,
    moves: EpsMoves,
}

impl Epsilon {
    /// `base` exploring with probability `eps` (in [0, 1]) on `moves`.
    pub fn new(base: AnyPolicy, eps: f64, moves: EpsMoves) -> Epsilon {
        Epsilon { base, eps, moves }
    }
}

impl Policy for Epsilon {
    #[inline]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        let eligible = self.moves == EpsMoves::All || v.table.is_none();
        if eligible && self.eps > 0.0 && rng.unit() < self.eps {
            return rng.below(v.hand.len() as u32) as usize;
        }
        self.base.choose(v, rng)
    }
}
