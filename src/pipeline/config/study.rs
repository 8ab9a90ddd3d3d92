//! One concrete study to simulate and analyse (the main one or a variant) and its game count,
//! as a validated config resolves them.
//!
//! Invariant: a `Study`'s tournament went through the same checks `briscola simulate` runs
//! ([`TournamentSpec::new`]), so its policies, seed and games per matchup are playable.

use serde::Serialize;

use crate::policy::PolicySpec;
use crate::tournament::{DealSourceKind, TournamentSpec};

/// One concrete study to simulate and analyse: the main one (`[study] name`) or a variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    /// The main study's `[study] name`, else the variant's name.
    pub name: String,
    /// Human label.
    pub label: String,
    /// How many games, as the configuration asks: in all, or per matchup.
    pub games: GameCount,
    /// What is played: the policies in matchup order, deal source, seed, games per matchup,
    /// rules, reading and trick log. `briscola simulate` builds the same type from its flags,
    /// and both turn matchups into shards through [`TournamentSpec::shard_spec`].
    pub tournament: TournamentSpec,
    /// Scored against the paper even when its design is its own (`compare_to_paper = true`).
    pub compare_to_paper: bool,
}

/// A study's game count, as the configuration gives it.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GameCount {
    /// Games requested in all (each matchup plays `floor(n / k^2)`).
    Total(u64),
    /// Games per ordered matchup.
    PerMatchup(u64),
}

impl GameCount {
    pub(super) fn from_fields(total: Option<u64>, per: Option<u64>) -> Option<GameCount> {
        match (total, per) {
            (Some(t), None) => Some(GameCount::Total(t)),
            (None, Some(p)) => Some(GameCount::PerMatchup(p)),
            _ => None,
        }
    }
}

impl GameCount {
    /// Games each ordered matchup plays among `k` policies.
    pub fn per_matchup(self, k: usize) -> u64 {
        let cells = (k as u64 * k as u64).max(1);
        match self {
            GameCount::Total(n) => n / cells,
            GameCount::PerMatchup(p) => p,
        }
    }
}

impl Study {
    /// Games each ordered matchup plays.
    pub fn games_per_matchup(&self) -> u64 {
        self.tournament.games_per_matchup()
    }

    /// The policies, in matchup order, fully specified.
    pub fn policies(&self) -> &[PolicySpec] {
        self.tournament.policies()
    }

    /// Deal source.
    pub fn deal_source(&self) -> DealSourceKind {
        self.tournament.deal_source()
    }

    /// Seed.
    pub fn seed(&self) -> i64 {
        self.tournament.seed()
    }

    /// The rules its games are played under (the standard game for the main study).
    pub fn rules(&self) -> crate::game::RulesSpec {
        self.tournament.rules()
    }

    /// How a follower reads "win the trick" when its partner is winning.
    pub fn reading(&self) -> crate::policy::FollowReading {
        self.tournament.reading()
    }

    /// Whether its shards write the trick table too (`simulate.trick_log`).
    pub fn trick_log(&self) -> bool {
        self.tournament.trick_log()
    }

    /// Games requested in all (for `PerMatchup`, the total played).
    pub fn games_requested(&self) -> u64 {
        let k = self.policies().len() as u64;
        match self.games {
            GameCount::Total(n) => n,
            GameCount::PerMatchup(p) => p * k * k,
        }
    }
}
