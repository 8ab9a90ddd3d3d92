//! A game with a person in one seat: the engine plays on its own thread, and at the person's
//! turn it hands their view over a channel and waits for their card.
//!
//! Invariant: the game is the engine's [`trace_game_with`] with the person as a
//! [`SeatPrompt`]; if the person goes away (the [`LiveGame`] is dropped), the engine finishes
//! the game at once with legal cards and the thread ends.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::traced_game::trace_game_with;
use super::traced_game::{ScriptFault, SeatActor, SeatPrompt, TracedGame, ViewSnapshot};
use crate::game::{Deck, SeatRng, SeatView, TrickRecord};

/// What the engine reports to the person.
#[derive(Debug)]
pub enum LiveEvent {
    /// It is the person's turn; this is what they see.
    Turn(ViewSnapshot),
    /// A trick ended.
    Trick(TrickRecord),
    /// The game ended.
    Over(Box<Result<TracedGame, ScriptFault>>),
}

struct Person {
    events: Mutex<Sender<LiveEvent>>,
    moves: Mutex<Receiver<usize>>,
}

impl SeatPrompt for Person {
    fn ask(&self, view: &SeatView<'_>) -> usize {
        let sent = self
            .events
            .lock()
            .map(|tx| tx.send(LiveEvent::Turn(ViewSnapshot::of(view))).is_ok())
            .unwrap_or(false);
        if !sent {
            return 0;
        }
        match self.moves.lock() {
            Ok(rx) => rx.recv().unwrap_or(0),
            Err(_) => 0,
        }
    }
}

/// A running game with one person's seat.
pub struct LiveGame {
    events: Receiver<LiveEvent>,
    moves: Sender<usize>,
    thread: Option<JoinHandle<()>>,
}

impl LiveGame {
    /// Start the game on `deck`: `person` is the index (0 = G1, 1 = G2) of the person's seat,
    /// `opponent` the other seat's actor, `rngs` the seats' streams (G1's first).
    pub fn start(deck: Deck, person: usize, opponent: SeatActor, rngs: [SeatRng; 2]) -> LiveGame {
        let (ev_tx, ev_rx) = channel();
        let (mv_tx, mv_rx) = channel();
        let me = SeatActor::Prompt(Arc::new(Person {
            events: Mutex::new(ev_tx.clone()),
            moves: Mutex::new(mv_rx),
        }));
        let thread = std::thread::spawn(move || {
            let mut rngs = rngs;
            let actors = if person == 0 {
                [&me, &opponent]
            } else {
                [&opponent, &me]
            };
            let result = trace_game_with(&deck, actors, &mut rngs, &mut |t| {
                let _ = ev_tx.send(LiveEvent::Trick(*t));
            });
            let _ = ev_tx.send(LiveEvent::Over(Box::new(result)));
        });
        LiveGame {
            events: ev_rx,
            moves: mv_tx,
            thread: Some(thread),
        }
    }

    /// The next event (blocks); `None` if the engine thread is gone.
    pub fn next_event(&self) -> Option<LiveEvent> {
        self.events.recv().ok()
    }

    /// Play the card at `index` of the hand last shown.
    pub fn play(&self, index: usize) {
        let _ = self.moves.send(index);
    }
}

impl Drop for LiveGame {
    fn drop(&mut self) {
        // Closing our ends makes the person play the first card at every remaining turn.
        let (dead_tx, _) = channel();
        drop(std::mem::replace(&mut self.moves, dead_tx));
        let (_, dead_rx) = channel();
        drop(std::mem::replace(&mut self.events, dead_rx));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
