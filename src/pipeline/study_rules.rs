//! The rules a pipeline study may be played under, checked once when `pipeline.toml` is read:
//! a valid variant (see `game::RulesSpec`) whose games the shard tables can hold, and under
//! which every policy of the study has a meaning.
//!
//! Invariant: a study whose rules pass [`check`] simulates without a rules error.

use crate::game::RulesSpec;
use crate::policy::{FollowReading, PolicySpec, TablePolicy};

/// `Ok` if a study of `policies` can be played under `spec`; else what is wrong and what would
/// be valid (the caller names the file and the field).
pub fn check(spec: RulesSpec, policies: &[PolicySpec]) -> Result<(), String> {
    let rules = spec.validate().map_err(|e| e.to_string())?;
    if rules.players() != 2 || rules.tricks() != 20 || spec.target.is_some() {
        return Err(format!(
            "a pipeline study plays two-player games of 20 tricks to the end (its tables have two \
             seats); players = {}, deck = {}, target = {:?} is a variant the engine plays \
             (`game::play_table`) but the study tables cannot hold yet: use players = 2, \
             deck = 40 and no target",
            spec.players, spec.deck, spec.target
        ));
    }
    for p in policies {
        TablePolicy::new(p, &rules, FollowReading::Verbatim).map_err(|e| e.to_string())?;
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
    fn two_player_variants_pass_and_the_rest_say_why() {
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
            check(ok, &paper()).unwrap();
        }
        let e = check(RulesSpec { players: 4, ..d }, &paper()).unwrap_err();
        assert!(e.contains("players = 4"), "{e}");
        let e = check(
            RulesSpec {
                players: 6,
                hand_size: 5,
                ..d
            },
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
            &paper(),
        )
        .unwrap_err();
        assert!(
            e.contains("`greedy`") && e.contains("without a trump"),
            "{e}"
        );
    }
}
