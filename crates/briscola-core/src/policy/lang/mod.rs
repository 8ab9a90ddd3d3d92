//! The policy language: a policy written as data in `pipeline.toml`, as ordered lists of rules
//! for leading and for following, compiled once at config load into a [`RuleProgram`].
//!
//! A rule is `[if CONDITION then] ORDER [of CLASSES]`: the first rule whose condition holds and
//! whose choice is non-empty decides. See `briscola policies --help-language` for the vocabulary.
//!
//! Invariant: parsing and checking happen once, here; a compiled program decides without
//! strings or allocation, and can only pick a card of its own hand.

mod card_filter;
mod condition;
mod fused_list;
mod lexer;
mod rule;
mod rule_program;
mod rules_kind;

pub use card_filter::CardFilter;
pub use condition::{Atom, CardRef, Condition, Op, Quantity};
pub use rule::{Order, Rule};
pub use rule_program::{ProgramError, RuleList, RuleProgram};
pub(crate) use rules_kind::RulesKind;

/// What is wrong with a piece of policy-language text, and where (byte offset in that text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LangError {
    /// Byte offset in the text where the problem starts.
    pub at: usize,
    /// What is wrong and what would be valid.
    pub message: String,
}

impl LangError {
    pub(crate) fn new(at: usize, message: String) -> LangError {
        LangError { at, message }
    }
}

/// Parse a stand-alone condition (a `switch`'s `while`); it may not read the led card, since
/// a switch is consulted when leading too.
pub fn parse_condition(text: &str) -> Result<Condition, LangError> {
    let toks = lexer::tokenize(text)?;
    let mut i = 0;
    let c = Condition::parse(&toks, &mut i, None, text.len())?;
    if c.needs_led() {
        return Err(LangError::new(
            0,
            format!(
                "`{c}` reads the led card, but a switch is consulted when leading too (no card on the table); use a condition on the stock, trick, points, gap, hand or memory"
            ),
        ));
    }
    Ok(c)
}

/// The language's vocabulary as (term, meaning) lines, grouped: orders, classes, conditions.
pub fn vocabulary() -> Vec<(&'static str, Vec<(String, &'static str)>)> {
    vec![
        (
            "orders (ORDER)",
            rule::ORDERS
                .iter()
                .map(|o| (o.0.to_string(), o.2))
                .collect(),
        ),
        (
            "card classes (CLASSES: joined with &, negated with !)",
            card_filter::CLASSES
                .iter()
                .map(|c| (c.0.to_string(), c.3))
                .collect(),
        ),
        (
            "conditions (joined with and, negated with not)",
            condition::vocabulary(),
        ),
    ]
}
