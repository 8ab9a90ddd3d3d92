//! Positions the solver's unit tests share (tests only).
//!
//! Invariant: each is a valid position file's text, as `briscola solve` reads it.

use super::{Position, PositionSpec, Target};

/// The logic model's seed (tests/data/solve/logic-model-seed.toml): four players, swords trump,
/// 30 unknown cards; Player-1 asks for `tricks` of the 10 tricks.
pub(crate) fn seed(tricks: u16) -> Position {
    let mut pos = toml::from_str::<PositionSpec>(
        r#"
        trump = "Swords"
        leader = 1
        hands = [
            ["7 of Cups", "2 of Swords", "2 of Coins"],
            ["Knight of Swords", "Ace of Coins", "Knight of Cups"],
            ["Ace of Swords", "Jack of Clubs"],
            ["3 of Coins", "5 of Cups"],
        ]
        [rules]
        players = 4
        [goal]
        player = 1
        tricks = 4
        "#,
    )
    .expect("parses")
    .validate()
    .expect("valid");
    pos.target = Target::Tricks(tricks);
    pos
}
