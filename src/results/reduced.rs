//! The reduced-game results (`briscola solve-game`): what the exact solver of a reduced
//! two-player Briscola found, as plain data for the figure and for `--json`: the game, the CFR+
//! checkpoints (value and exploitability against iterations), and each policy's exact
//! exploitability beside the sampled (exploit agent's) bound.
//!
//! Invariant: every number here is a payoff in points, seat 0's points minus seat 1's (a best
//! response's and an agent's from its own side); exploitability is the mean of the two seats'
//! best-response values, so it is 0 exactly at an equilibrium.

use serde::{Deserialize, Serialize};

/// One CFR+ checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReducedCheckpoint {
    /// Iterations done.
    pub iteration: u64,
    /// The average strategy's value (seat 0's expected margin).
    pub value: f64,
    /// Its exploitability in points.
    pub exploitability: f64,
}

/// One policy in the reduced game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReducedPolicy {
    /// The policy's name.
    pub name: String,
    /// Its exact exploitability: the mean over both seats of a best response's margin.
    pub exploitability: f64,
    /// A best response's margin against it in seat 0 and in seat 1.
    pub best_response: [f64; 2],
    /// The exploit agent's (sampled worlds, the target's moves from its policy) expected
    /// margin against it, the mean over both seats: a lower bound on `exploitability`.
    pub sampled_bound: Option<f64>,
    /// Its margin against the CFR+ average strategy, the mean over its two seats.
    pub vs_equilibrium: Option<f64>,
}

/// Everything one `solve-game` run found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReducedResults {
    /// The deck in words, e.g. `2 suits x Ace, 3, Knave, King` (ranks in the deck's order).
    pub deck: String,
    /// Cards in the deck.
    pub cards: u32,
    /// Cards in each hand.
    pub hand: u8,
    /// Points in the deck.
    pub points: u32,
    /// Deals (hands and face-up card) and complete histories of the game tree.
    pub deals: String,
    /// Complete histories (as text: they may exceed 2^64).
    pub histories: String,
    /// CFR+ iterations run.
    pub iterations: u64,
    /// Information sets of both seats and the bytes they hold.
    pub info_sets: usize,
    /// Bytes of the solver's table.
    pub bytes: usize,
    /// Worlds the exploit agent searched per decision (`None`: every consistent world).
    pub worlds: Option<u64>,
    /// Wall time of the iterations, in seconds (`briscola solve-game` only: never in a
    /// hashed output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// The checkpoints, in order (the last is after the last iteration).
    pub checkpoints: Vec<ReducedCheckpoint>,
    /// The paper's policies in the reduced game.
    pub policies: Vec<ReducedPolicy>,
}
