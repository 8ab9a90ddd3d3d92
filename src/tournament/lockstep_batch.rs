//! Games with a network seat played in lockstep blocks, so that the network evaluates all the
//! pending decisions of a block as one batch.
//!
//! A block is `batch` consecutive games of the chunk (its boundaries depend only on game
//! indices). The block is played in rounds: each round replays every unfinished game from its
//! first trick with the decisions already known (each seat's recorded card and the state its
//! stream was left in), up to the first network decision whose row is not yet evaluated; that
//! decision's observation is collected and the game stops there (its remaining cards are played
//! blindly and discarded). The round's observations are evaluated as one batch per network
//! seat, and the next round resumes every game one decision further. A game whose replay meets
//! no unevaluated decision is finished; its outcome and tricks are those of that replay.
//!
//! Invariant: every decision is made exactly as in the one-game-at-a-time engine: the same view,
//! the same stream state and, for a network seat, the same output row (rows are independent of
//! the batch they share); so the shards are byte-identical for any batch size and thread count.
//! Each policy is asked once per real decision (never during replays), so an expensive opponent
//! (a search agent) costs what it costs in the plain engine.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::game::{Deck, Policy, SeatRng, SeatView, play_game};
use crate::policy::{AnyPolicy, CARDS, OnnxPolicy};

use super::batch_streams::BatchStreams;
use super::played_game::PlayedGame;
use super::trick_log::TrickLog;

/// The lockstep block size for a pair of seats: the smaller batch of their network seats, or
/// `None` when neither seat is a network with a batch above 1 (then the plain engine plays).
pub fn lockstep_batch(p1: &AnyPolicy, p2: &AnyPolicy) -> Option<usize> {
    let b = |p: &AnyPolicy| p.as_onnx().map(OnnxPolicy::batch);
    let batch = match (b(p1), b(p2)) {
        (Some(x), Some(y)) => x.min(y),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => return None,
    };
    (batch > 1).then_some(batch)
}

/// One seat's known decisions in one game.
#[derive(Default)]
struct SeatMemo {
    /// Each decision: the index played and the seat's stream after it.
    known: Vec<(usize, SeatRng)>,
    /// The network's output row for the next unknown decision, once evaluated.
    row: Option<Vec<f32>>,
    /// Decisions replayed so far in the current round.
    cursor: usize,
}

/// One game's replay state.
#[derive(Default)]
struct GameMemo {
    seats: [SeatMemo; 2],
    /// The seat whose network decision waits for a row, and its encoded observation.
    pending: Option<(usize, Vec<f32>)>,
}

/// A seat during a replay: known decisions from the memo, new ones from the policy.
struct ReplaySeat<'a> {
    seat: usize,
    policy: &'a AnyPolicy,
    memo: &'a Mutex<GameMemo>,
}

impl Policy for ReplaySeat<'_> {
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        let mut g = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        if g.pending.is_some() {
            return 0; // the game stopped at an unevaluated decision: play on blindly
        }
        let s = &mut g.seats[self.seat];
        if let Some((i, after)) = s.known.get(s.cursor) {
            s.cursor += 1;
            *rng = after.clone();
            return *i;
        }
        let i = match self.policy.as_onnx() {
            Some(net) => match s.row.take() {
                Some(row) => net.decide(v, &row, rng).0,
                None => {
                    let mut obs = Vec::new();
                    net.encode(v, &mut obs);
                    g.pending = Some((self.seat, obs));
                    return 0;
                }
            },
            None => self.policy.choose(v, rng),
        };
        s.known.push((i, rng.clone()));
        s.cursor += 1;
        i
    }
}

/// Play `decks` (a chunk) in lockstep blocks of `batch` games; results in deck order.
pub fn play_lockstep(
    decks: &[Deck],
    streams: BatchStreams<'_>,
    p1: &AnyPolicy,
    p2: &AnyPolicy,
    batch: usize,
) -> Vec<PlayedGame> {
    decks
        .par_chunks(batch)
        .enumerate()
        .flat_map_iter(|(b, block)| play_block(block, b * batch, streams, [p1, p2]))
        .collect()
}

/// One block: rounds until every game is finished.
fn play_block(
    decks: &[Deck],
    first: usize,
    streams: BatchStreams<'_>,
    seats: [&AnyPolicy; 2],
) -> Vec<PlayedGame> {
    let mut memos: Vec<Mutex<GameMemo>> = decks.iter().map(|_| Mutex::default()).collect();
    let mut done: Vec<Option<PlayedGame>> = vec![None; decks.len()];
    loop {
        let mut waiting = Vec::new();
        for (i, deck) in decks.iter().enumerate() {
            if done[i].is_some() {
                continue;
            }
            match replay(deck, streams.rngs(first + i), seats, &memos[i]) {
                Some(game) => done[i] = Some(game),
                None => waiting.push(i),
            }
        }
        if waiting.is_empty() {
            break;
        }
        for (s, seat) in seats.iter().enumerate() {
            let Some(net) = seat.as_onnx() else {
                continue;
            };
            let mut rows = Vec::new();
            let mut input = Vec::new();
            for &i in &waiting {
                let g = memos[i].get_mut().unwrap_or_else(|e| e.into_inner());
                if let Some((seat, obs)) = &g.pending
                    && *seat == s
                {
                    input.extend_from_slice(obs);
                    rows.push(i);
                }
            }
            if rows.is_empty() {
                continue;
            }
            let out = net.model().run(&input, rows.len());
            for (k, &i) in rows.iter().enumerate() {
                let g = memos[i].get_mut().unwrap_or_else(|e| e.into_inner());
                g.seats[s].row = Some(out[k * CARDS..][..CARDS].to_vec());
                g.pending = None;
            }
        }
    }
    done.into_iter()
        .map(|g| g.expect("every game of a block finishes"))
        .collect()
}

/// Replay one game from its start; `None` if it stopped at an unevaluated network decision.
fn replay(
    deck: &Deck,
    mut rngs: [SeatRng; 2],
    seats: [&AnyPolicy; 2],
    memo: &Mutex<GameMemo>,
) -> Option<PlayedGame> {
    {
        let mut g = memo.lock().unwrap_or_else(|e| e.into_inner());
        for s in &mut g.seats {
            s.cursor = 0;
        }
    }
    let a = ReplaySeat {
        seat: 0,
        policy: seats[0],
        memo,
    };
    let b = ReplaySeat {
        seat: 1,
        policy: seats[1],
        memo,
    };
    let (outcome, tricks) = TrickLog::record(|log| play_game(deck, &a, &b, &mut rngs, log));
    let g = memo.lock().unwrap_or_else(|e| e.into_inner());
    if g.pending.is_some() {
        return None;
    }
    Some(PlayedGame { outcome, tricks })
}
