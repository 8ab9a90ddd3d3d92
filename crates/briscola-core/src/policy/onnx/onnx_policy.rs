//! A policy network as a seat: encode the [`SeatView`], evaluate the network (one row, or a row
//! of a batch formed by the tournament's lockstep blocks), pick a card of the hand.
//!
//! Invariant: a decision depends only on the view, the network's row for it and the seat's
//! stream; so the same decision comes out whether the row was evaluated alone or in a batch
//! (the network's rows are independent bit for bit, see [`super::OnnxModel`]).

use std::sync::Arc;

use super::encoding::{CARDS, Encoding};
use super::onnx_model::OnnxModel;
use super::sampling::Sampling;
use crate::game::{Policy, SeatRng, SeatView};
use crate::policy::Explanation;

/// Games evaluated together in one lockstep block when none is given.
pub const DEFAULT_BATCH: u32 = 64;

/// A network-driven policy.
#[derive(Clone, Debug)]
pub struct OnnxPolicy {
    model: Arc<OnnxModel>,
    sampling: Sampling,
    batch: u32,
}

impl OnnxPolicy {
    /// `model` choosing by `sampling`; `batch` games are played in lockstep by the tournament
    /// (1: every decision evaluated alone).
    pub fn new(model: Arc<OnnxModel>, sampling: Sampling, batch: u32) -> OnnxPolicy {
        OnnxPolicy {
            model,
            sampling,
            batch: batch.max(1),
        }
    }

    /// The network.
    pub fn model(&self) -> &Arc<OnnxModel> {
        &self.model
    }

    /// The observation encoding.
    pub fn encoding(&self) -> Encoding {
        self.model.encoding()
    }

    /// Games per lockstep block.
    pub fn batch(&self) -> usize {
        self.batch as usize
    }

    /// The network's input for `v`.
    pub fn encode(&self, v: &SeatView<'_>, out: &mut Vec<f32>) {
        let start = out.len();
        out.resize(start + self.encoding().input_len(), 0.0);
        self.encoding().encode(v, &mut out[start..]);
    }

    /// The decision for `v` given the network's output row `scores` (40 logits): the index into
    /// the hand and the chosen card's probability (softmax over the hand).
    pub fn decide(&self, v: &SeatView<'_>, scores: &[f32], rng: &mut SeatRng) -> (usize, f64) {
        debug_assert_eq!(scores.len(), CARDS);
        let enc = self.encoding();
        self.sampling.pick(v.hand, |c| scores[enc.net_id(c)], rng)
    }

    /// The network's output row (a logit per card id) for `v` alone.
    pub fn scores(&self, v: &SeatView<'_>) -> Vec<f32> {
        let mut input = Vec::new();
        self.encode(v, &mut input);
        self.model.run(&input, 1)
    }

    /// [`Policy::choose`], with the network's probability of the card in words.
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let scores = self.scores(v);
        let (index, p) = self.decide(v, &scores, rng);
        let enc = self.encoding();
        let logits: Vec<f64> = v
            .hand
            .iter()
            .map(|&c| f64::from(scores[enc.net_id(c)]))
            .collect();
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = logits.iter().map(|&l| (l - top).exp()).collect();
        let total: f64 = weights.iter().sum();
        let each: Vec<String> = v
            .hand
            .iter()
            .zip(&weights)
            .map(|(c, w)| format!("{c} {:.2}", if total > 0.0 { w / total } else { 0.0 }))
            .collect();
        Explanation {
            index,
            card: v.hand[index],
            rule: None,
            because: format!(
                "network {}, p={p:.2}; softmax over the hand: {}",
                self.sampling.as_str(),
                each.join(", ")
            ),
        }
    }
}

impl Policy for OnnxPolicy {
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        let scores = self.scores(v);
        self.decide(v, &scores, rng).0
    }
}
