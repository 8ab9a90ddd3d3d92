//! A policy definition's error: the dotted field of the study file, what is wrong and what is
//! valid, and (for an error inside a rule's or condition's text) where in that string.
//!
//! Invariant: `field` is always a path the study file's locator can place (`policies.NAME` or
//! `policies.NAME.FIELD[...]`), so every policy error gets a line and a column.

/// A policy error: the dotted field, what is wrong and what is valid, and (for an error inside
/// a rule's or condition's text) the byte offset in that string.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyDefError {
    /// e.g. `policies.mine.follow[1]`
    pub field: String,
    /// What is wrong and what would be valid.
    pub message: String,
    /// Byte offset inside the field's string value, when the error is in the text.
    pub offset: Option<usize>,
    /// Whether the error is the value's as a whole (its type or range as written): point at
    /// the value rather than the key.
    pub at_value: bool,
}

impl PolicyDefError {
    /// An error about the whole of `field`.
    pub fn new(field: String, message: String) -> PolicyDefError {
        PolicyDefError {
            field,
            message,
            offset: None,
            at_value: false,
        }
    }

    /// An error about the value of `field` as a whole (its type, as written).
    pub fn in_value(field: String, message: String) -> PolicyDefError {
        PolicyDefError {
            at_value: true,
            ..PolicyDefError::new(field, message)
        }
    }

    /// An error at byte `offset` of `field`'s string value (a rule's or condition's text).
    pub fn in_text(field: String, message: String, offset: usize) -> PolicyDefError {
        PolicyDefError {
            offset: Some(offset),
            ..PolicyDefError::new(field, message)
        }
    }
}
