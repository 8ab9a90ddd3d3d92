//! The rules a pipeline study may be played under, checked once when `pipeline.toml` is read:
//! a valid variant (see `game::RulesSpec`) whose games the shard tables can hold (two players,
//! or two teams of two or three), a follow reading that has a meaning there, and under which
//! every policy of the study has a meaning.
//!
//! Invariant: a study whose rules pass [`check`] simulates without a rules error.

use crate::game::RulesSpec;
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
        assert!(
            e.contains("`greedy`") && e.contains("without a trump"),
            "{e}"
        );
    }
}
