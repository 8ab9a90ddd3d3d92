//! Positions the solver's unit tests share (tests only).
//!
//! Invariant: each is read from a position file of `tests/data/solve` (the files the binary's
//! tests give `briscola solve`), so the unit tests and the command's tests ask the same question.

use super::{Position, PositionSpec, Target};

/// The logic model's seed (`tests/data/solve/logic-model-seed.toml`, the file `briscola solve`
/// is shown): four players, swords trump, 30 unknown cards; Player-1 asks for `tricks` of the
/// 10 tricks.
pub(crate) fn seed(tricks: u16) -> Position {
    let mut pos = toml::from_str::<PositionSpec>(include_str!(
        "../../../../tests/data/solve/logic-model-seed.toml"
    ))
    .expect("parses")
    .validate()
    .expect("valid");
    pos.target = Target::Tricks(tricks);
    pos
}

/// Two players, seven tricks left, Player-1's three low Cups against eleven unknown cards
/// (`tests/data/solve/three-low-cups.toml`): some completions have no line to 3 tricks.
pub(crate) fn three_low_cups() -> Position {
    toml::from_str::<PositionSpec>(include_str!(
        "../../../../tests/data/solve/three-low-cups.toml"
    ))
    .expect("parses")
    .validate()
    .expect("valid")
}
