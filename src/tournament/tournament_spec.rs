//! A validated tournament: the policies, deal source, seed and game count that `briscola
//! simulate` and every study of `pipeline.toml` are built from, with the one definition of each
//! rule they share (game-count limits, seed ranges via [`DealSourceKind`], threshold range,
//! unique policy names, and the shard of each matchup).
//!
//! Invariant: a [`TournamentSpec`] that exists has passed [`TournamentSpec::new`]'s checks, so
//! playing it cannot fail on its inputs (only on I/O).

use super::matchup::Matchup;
use super::shard::ShardSpec;
use crate::deal::{DealSeed, DealSourceKind};
use crate::game::RulesSpec;
use crate::policy::{FollowReading, MAX_THRESHOLD, PolicySpec};

/// Largest number of games one tournament (one study) may request.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// What is wrong with a game count for `k` policies (`k * k` ordered matchups).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesProblem {
    /// Fewer games in all than ordered matchups.
    FewerThanMatchups {
        /// the number of ordered matchups
        cells: u64,
    },
    /// More games in all than [`MAX_GAMES`].
    AboveLimit {
        /// the number of ordered matchups
        cells: u64,
    },
    /// Zero games per matchup.
    ZeroPerMatchup,
}

/// The problem with `games` in all over `k` policies, if any.
pub fn total_games_problem(games: u64, k: usize) -> Option<GamesProblem> {
    let cells = (k as u64).saturating_mul(k as u64);
    if games < cells {
        Some(GamesProblem::FewerThanMatchups { cells })
    } else if games > MAX_GAMES {
        Some(GamesProblem::AboveLimit { cells })
    } else {
        None
    }
}

/// The problem with `per` games per ordered matchup over `k` policies, if any.
pub fn per_matchup_problem(per: u64, k: usize) -> Option<GamesProblem> {
    let cells = (k as u64).saturating_mul(k as u64);
    if per == 0 {
        Some(GamesProblem::ZeroPerMatchup)
    } else if per.saturating_mul(cells) > MAX_GAMES {
        Some(GamesProblem::AboveLimit { cells })
    } else {
        None
    }
}

/// Why a tournament is invalid. Each variant carries what the caller needs to name its own
/// field (`--seed` or `simulate.seed`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No policies.
    #[error("no policies; list at least one")]
    NoPolicies,
    /// A policy name listed twice.
    #[error("policy `{0}` is listed twice; list each policy once")]
    DuplicatePolicy(String),
    /// A threshold above [`MAX_THRESHOLD`].
    #[error("policy `{name}` has threshold {threshold}; use 0 to {MAX_THRESHOLD}")]
    Threshold {
        /// the policy
        name: String,
        /// its threshold
        threshold: u8,
    },
    /// A seed the deal source cannot take.
    #[error("seed {seed} {problem}; {} seeds lie in {}", deal_source.as_str(), deal_source.seed_range_text())]
    Seed {
        /// the seed
        seed: i64,
        /// the deal source
        deal_source: DealSourceKind,
        /// what is wrong
        problem: &'static str,
    },
    /// A bad game count.
    #[error("{games} games per matchup: {problem:?}")]
    Games {
        /// the games per matchup
        games: u64,
        /// what is wrong
        problem: GamesProblem,
    },
}

/// A validated tournament: every ordered matchup of `policies` plays `games_per_matchup` games.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSpec {
    policies: Vec<PolicySpec>,
    deal_source: DealSourceKind,
    seed: i64,
    games_per_matchup: u64,
    trick_log: bool,
    rules: RulesSpec,
    reading: FollowReading,
}

impl TournamentSpec {
    /// Check and build a tournament.
    ///
    /// ```
    /// use briscola::policy::{PolicyKind, PolicySpec, TieBreak};
    /// use briscola::tournament::{DealSourceKind, TournamentSpec};
    /// let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased);
    /// let t = TournamentSpec::new(vec![greedy.clone()], DealSourceKind::Chacha, 7, 10).unwrap();
    /// assert_eq!(t.shard_specs().len(), 1);
    /// assert!(TournamentSpec::new(vec![greedy], DealSourceKind::Chacha, -1, 10).is_err());
    /// ```
    pub fn new(
        policies: Vec<PolicySpec>,
        deal_source: DealSourceKind,
        seed: i64,
        games_per_matchup: u64,
    ) -> Result<TournamentSpec, SpecError> {
        check_policies(&policies)?;
        DealSeed::new(deal_source, seed).map_err(|e| SpecError::Seed {
            seed,
            deal_source,
            problem: e.problem(),
        })?;
        if let Some(problem) = per_matchup_problem(games_per_matchup, policies.len()) {
            return Err(SpecError::Games {
                games: games_per_matchup,
                problem,
            });
        }
        Ok(TournamentSpec {
            policies,
            deal_source,
            seed,
            games_per_matchup,
            trick_log: false,
            rules: RulesSpec::default(),
            reading: FollowReading::Verbatim,
        })
    }

    /// The same tournament played under `rules`, followers reading "win the trick" as
    /// `reading` (the shards check that their tables can hold the variant before playing).
    pub fn with_rules(self, rules: RulesSpec, reading: FollowReading) -> TournamentSpec {
        TournamentSpec {
            rules,
            reading,
            ..self
        }
    }

    /// The rules its games are played under.
    pub fn rules(&self) -> RulesSpec {
        self.rules
    }

    /// How a follower reads "win the trick" when its partner is winning.
    pub fn reading(&self) -> FollowReading {
        self.reading
    }

    /// The same tournament, writing each shard's trick table when `on` (see
    /// [`ShardSpec::trick_log`]).
    pub fn with_trick_log(self, on: bool) -> TournamentSpec {
        TournamentSpec {
            trick_log: on,
            ..self
        }
    }

    /// Whether each shard writes its trick table.
    pub fn trick_log(&self) -> bool {
        self.trick_log
    }

    /// The policies, in matchup order.
    pub fn policies(&self) -> &[PolicySpec] {
        &self.policies
    }
    /// The deal source.
    pub fn deal_source(&self) -> DealSourceKind {
        self.deal_source
    }
    /// The seed.
    pub fn seed(&self) -> i64 {
        self.seed
    }
    /// Games per ordered matchup.
    pub fn games_per_matchup(&self) -> u64 {
        self.games_per_matchup
    }
    /// Games in all.
    pub fn total_games(&self) -> u64 {
        let k = self.policies.len() as u64;
        self.games_per_matchup * k * k
    }

    /// Shard specs, in MatchId order: the one place a study's or `briscola simulate`'s
    /// matchups become shards.
    pub fn shard_specs(&self) -> Vec<(Matchup, ShardSpec)> {
        Matchup::all(&self.policies)
            .into_iter()
            .map(|m| {
                let spec = self.shard_spec(&m);
                (m, spec)
            })
            .collect()
    }

    /// The shard of matchup `m` (one of [`Matchup::all`] of its policies).
    pub fn shard_spec(&self, m: &Matchup) -> ShardSpec {
        ShardSpec {
            trick_log: self.trick_log,
            reading: self.reading,
            ..ShardSpec::for_matchup(
                self.deal_source,
                self.seed,
                self.rules,
                self.games_per_matchup,
                m,
            )
        }
    }
}

/// At least one policy, names unique, thresholds in range.
pub fn check_policies(policies: &[PolicySpec]) -> Result<(), SpecError> {
    if policies.is_empty() {
        return Err(SpecError::NoPolicies);
    }
    for (i, p) in policies.iter().enumerate() {
        if policies[..i].iter().any(|q| q.name == p.name) {
            return Err(SpecError::DuplicatePolicy(p.name.clone()));
        }
        if p.threshold > MAX_THRESHOLD {
            return Err(SpecError::Threshold {
                name: p.name.clone(),
                threshold: p.threshold,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyKind, TieBreak};

    fn paper() -> Vec<PolicySpec> {
        [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter]
            .map(|k| PolicySpec::paper(k, TieBreak::AsReleased))
            .to_vec()
    }

    #[test]
    fn game_counts() {
        assert_eq!(
            total_games_problem(8, 3),
            Some(GamesProblem::FewerThanMatchups { cells: 9 })
        );
        assert_eq!(total_games_problem(9, 3), None);
        assert_eq!(total_games_problem(MAX_GAMES, 3), None);
        assert_eq!(
            total_games_problem(MAX_GAMES + 1, 3),
            Some(GamesProblem::AboveLimit { cells: 9 })
        );
        assert_eq!(
            per_matchup_problem(0, 3),
            Some(GamesProblem::ZeroPerMatchup)
        );
        assert_eq!(per_matchup_problem(MAX_GAMES / 9, 3), None);
        assert!(per_matchup_problem(MAX_GAMES / 9 + 1, 3).is_some());
    }

    #[test]
    fn rejects_duplicates_thresholds_and_seeds() {
        let mut p = paper();
        p.push(p[0].clone());
        assert_eq!(
            check_policies(&p),
            Err(SpecError::DuplicatePolicy("greedy".into()))
        );
        let mut p = paper();
        p[1].threshold = MAX_THRESHOLD + 1;
        assert!(matches!(
            check_policies(&p),
            Err(SpecError::Threshold { .. })
        ));
        assert!(TournamentSpec::new(paper(), DealSourceKind::DotnetReplay, 1 << 31, 1).is_err());
        assert!(TournamentSpec::new(paper(), DealSourceKind::DotnetReplay, -(1 << 31), 1).is_ok());
        assert!(TournamentSpec::new(paper(), DealSourceKind::Chacha, i64::MAX, 1).is_ok());
        assert!(TournamentSpec::new(vec![], DealSourceKind::Chacha, 1, 1).is_err());
    }

    #[test]
    fn dotnet_first_games_follow_matchup_order() {
        let t = TournamentSpec::new(paper(), DealSourceKind::DotnetReplay, 42, 111_111).unwrap();
        let firsts: Vec<u64> = t.shard_specs().iter().map(|(_, s)| s.first_game).collect();
        assert_eq!(firsts, (0..9).map(|i| i * 111_111).collect::<Vec<_>>());
        let t = TournamentSpec::new(paper(), DealSourceKind::Chacha, 42, 111_111).unwrap();
        assert!(t.shard_specs().iter().all(|(_, s)| s.first_game == 0));
    }
}
