//! The rules a pipeline study may be played under, checked once when `pipeline.toml` is read:
//! a valid variant (see `game::RulesSpec`) whose games the shard tables can hold (two players,
//! or two teams of two or three), a follow reading that has a meaning there, and under which
//! every policy of the study has a meaning.
//!
//! The same rules, in a league (`[leagues.NAME] rules`), are checked by [`check_league`]: the
//! same validation and the same policy test, with the league tables' own limit (seats that
//! each play for themselves) in place of the study tables'.
//!
//! Invariant: a study whose rules pass [`check`], or a league whose rules pass
//! [`check_league`], simulates without a rules error.

use crate::game::RulesSpec;

/// What a `rules` table (of a study or a league) accepts, for error messages.
pub const RULES_HINT: &str = "an inline table of rules fields: players, deck, hand_size, trump (\"face-up\" or \"none\"), draw_order (\"winner-first\" or \"loser-first\"), redraw_ace_three, scoperta, must_follow_suit, target, first_leader";
use crate::policy::{FollowReading, PolicySpec, TablePolicy};

/// `Ok` if a study of `policies` can be played under `spec`; else what is wrong and what would
/// be valid (the caller names the file and the field).
pub fn check(
    spec: RulesSpec,
    reading: FollowReading,
    policies: &[PolicySpec],
) -> Result<(), String> {
    let rules = spec.validate().map_err(|e| e.to_string())?;
    if let Some(problem) = crate::tournament::table_problem(&rules, reading) {
        return Err(problem);
    }
    for p in policies {
        TablePolicy::new(p, &rules, reading).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A league's rules that cannot be played: what is wrong, and the index of the policy it is
/// about (`None`: the rules themselves).
pub type LeagueProblem = (Option<usize>, String);

/// `Ok` if a league of `policies` can be played under `spec`: a valid variant of individual
/// seats (two or three players; see `tournament::seat_table_problem`), one policy per seat
/// for three players (every seating of the three plays each deal), and every policy with a
/// meaning under the rules (the test studies use: `TablePolicy::new`).
pub fn check_league(spec: RulesSpec, policies: &[PolicySpec]) -> Result<(), LeagueProblem> {
    let rules = spec.validate().map_err(|e| (None, e.to_string()))?;
    if let Some(problem) = crate::tournament::seat_table_problem(&rules) {
        return Err((None, problem));
    }
    if rules.players() > 2 && policies.len() != rules.players() {
        return Err((
            None,
            format!(
                "players = {} needs exactly {} policies (each deal is played in every seating \
                 of the {} at one table), got {}; list {} policies or play two-player rules",
                rules.players(),
                rules.players(),
                rules.players(),
                policies.len(),
                rules.players()
            ),
        ));
    }
    for (i, p) in policies.iter().enumerate() {
        TablePolicy::new(p, &rules, FollowReading::Verbatim)
            .map_err(|e| (Some(i), e.to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DrawOrder, TrumpRule};
    use crate::policy::{PolicyKind, TieBreak};

    fn paper() -> Vec<PolicySpec> {
        [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter]
            .map(|k| PolicySpec::paper(k, TieBreak::AsReleased))
            .to_vec()
    }

    #[test]
    fn two_player_and_team_variants_pass_and_the_rest_say_why() {
        let d = RulesSpec::default();
        for ok in [
            RulesSpec {
                draw_order: DrawOrder::LoserFirst,
                ..d
            },
            RulesSpec {
                scoperta: true,
                ..d
            },
            RulesSpec {
                redraw_ace_three: true,
                ..d
            },
        ] {
            check(ok, FollowReading::Verbatim, &paper()).unwrap();
        }
        for players in [4, 6] {
            let four = RulesSpec {
                players,
                deck: if players == 6 { 36 } else { 40 },
                ..d
            };
            check(four, FollowReading::Verbatim, &paper()).unwrap();
            check(four, FollowReading::PartnerAware, &paper()).unwrap();
        }
        let e = check(d, FollowReading::PartnerAware, &paper()).unwrap_err();
        assert!(e.contains("no seat has a partner"), "{e}");
        let e = check(
            RulesSpec {
                players: 3,
                deck: 39,
                ..d
            },
            FollowReading::Verbatim,
            &paper(),
        )
        .unwrap_err();
        assert!(e.contains("players = 3"), "{e}");
        let e = check(
            RulesSpec { deck: 36, ..d },
            FollowReading::Verbatim,
            &paper(),
        )
        .unwrap_err();
        assert!(e.contains("deck = 36"), "{e}");
        let e = check(
            RulesSpec {
                players: 6,
                hand_size: 5,
                ..d
            },
            FollowReading::Verbatim,
            &paper(),
        )
        .unwrap_err();
        assert!(e.contains("five-card hands"), "{e}");
        let e = check(
            RulesSpec {
                hand_size: 5,
                trump: TrumpRule::None,
                ..d
            },
            FollowReading::Verbatim,
            &paper(),
        )
        .unwrap_err();
        assert!(e.contains("trump = \"none\" with players = 2"), "{e}");
    }

    /// A two-player study without a trump is refused even when every policy has a meaning
    /// there (`random`): its shard tables record each game's trump (it once reached an assert
    /// in the table batch). A league of the same rules plays it (seat tables).
    #[test]
    fn two_player_studies_without_a_trump_are_refused_leagues_play_them() {
        let d = RulesSpec::default();
        let random = |name: &str| PolicySpec {
            name: name.into(),
            ..PolicySpec::paper(PolicyKind::Random, TieBreak::AsReleased)
        };
        let randoms = [random("r1"), random("r2")];
        for hand_size in [3, 5] {
            let none = RulesSpec {
                hand_size,
                trump: TrumpRule::None,
                ..d
            };
            let e = check(none, FollowReading::Verbatim, &randoms).unwrap_err();
            assert!(
                e.contains("trump = \"none\" with players = 2") && e.contains("league"),
                "{e}"
            );
            check_league(none, &randoms).unwrap_or_else(|e| panic!("{none:?}: {e:?}"));
        }
        // Teams without a trump remain a study (seat tables record no trump).
        let teams = RulesSpec {
            players: 4,
            trump: TrumpRule::None,
            ..d
        };
        check(teams, FollowReading::Verbatim, &randoms).unwrap();
    }

    #[test]
    fn leagues_take_any_two_or_three_player_variant_the_policies_fit() {
        let d = RulesSpec::default();
        for ok in [
            RulesSpec { deck: 36, ..d },
            RulesSpec {
                target: Some(31),
                ..d
            },
            RulesSpec {
                hand_size: 5,
                must_follow_suit: true,
                ..d
            },
            RulesSpec {
                players: 3,
                deck: 39,
                ..d
            },
        ] {
            check_league(ok, &paper()).unwrap_or_else(|e| panic!("{ok:?}: {e:?}"));
        }
        let three = RulesSpec {
            players: 3,
            deck: 39,
            ..d
        };
        let e = check_league(three, &paper()[..2]).unwrap_err();
        assert!(e.0.is_none() && e.1.contains("exactly 3 policies"), "{e:?}");
        let e = check_league(RulesSpec { players: 4, ..d }, &paper()).unwrap_err();
        assert!(e.1.contains("players = 2 or 3"), "{e:?}");
        let none = RulesSpec {
            hand_size: 5,
            trump: TrumpRule::None,
            ..d
        };
        let e = check_league(none, &paper()).unwrap_err();
        assert_eq!(e.0, Some(0), "{e:?}");
        assert!(e.1.contains("`greedy`"), "{e:?}");
        let e = check_league(RulesSpec { deck: 37, ..d }, &paper()).unwrap_err();
        assert!(e.0.is_none() && e.1.contains("deck = 37"), "{e:?}");
    }
}
