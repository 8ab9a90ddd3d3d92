//! The trick sink that keeps one two-player game's tricks, for the engines that return a game
//! with its trick record ([`super::PlayedGame`]).
//!
//! Invariant: a game reports exactly 20 tricks, in order; [`TrickLog::record`] returns them in
//! that order and panics only if an engine broke that (an engine bug, never input).

use crate::game::{TrickRecord, TrickSink};

/// One game's tricks as they are reported.
#[derive(Default)]
pub(super) struct TrickLog {
    tricks: [Option<TrickRecord>; 20],
    n: usize,
}

impl TrickSink for TrickLog {
    #[inline]
    fn trick(&mut self, t: &TrickRecord) {
        self.tricks[self.n] = Some(*t);
        self.n += 1;
    }
}

impl TrickLog {
    /// Run `play` with a fresh log as its trick sink; return what it returns and the 20
    /// tricks it reported.
    #[inline]
    pub(super) fn record<R>(play: impl FnOnce(&mut TrickLog) -> R) -> (R, [TrickRecord; 20]) {
        let mut log = TrickLog::default();
        let r = play(&mut log);
        (
            r,
            log.tricks.map(|t| t.expect("a game has exactly 20 tricks")),
        )
    }
}
