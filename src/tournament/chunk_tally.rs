//! What a chunk of two-player games adds to its shard's summary ([`ChunkTally`]): decided games,
//! G1's wins, ties and Table 5's counts for each seat.
//!
//! Invariant: every field is an integer sum over games, so tallies of parts of a chunk, summed
//! in any order or grouping, equal the tally of the whole chunk (parallel tasks may sum them).

use crate::game::{GameOutcome, Seat, TrumpUse};

/// A chunk's (or a part of a chunk's) contribution to [`super::ShardSummary`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChunkTally {
    /// Games not tied.
    pub non_tied: u64,
    /// Games G1 won.
    pub g1_wins: u64,
    /// Games tied 60-60.
    pub ties: u64,
    /// Table 5's counts, G1's and G2's.
    pub trump_use: [TrumpUse; 2],
}

impl ChunkTally {
    /// One game with its Table 5 counts.
    pub fn game(outcome: &GameOutcome, trump_use: [TrumpUse; 2]) -> ChunkTally {
        let w = outcome.winner();
        ChunkTally {
            non_tied: u64::from(w.is_some()),
            g1_wins: u64::from(w == Some(Seat::G1)),
            ties: u64::from(w.is_none()),
            trump_use,
        }
    }

    /// The tally of both parts.
    pub fn sum(a: ChunkTally, b: ChunkTally) -> ChunkTally {
        ChunkTally {
            non_tied: a.non_tied + b.non_tied,
            g1_wins: a.g1_wins + b.g1_wins,
            ties: a.ties + b.ties,
            trump_use: TrumpUse::sum(a.trump_use, b.trump_use),
        }
    }
}
