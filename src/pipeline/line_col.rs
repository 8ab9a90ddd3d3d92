//! [`line_col`]: the one place a byte offset into a TOML text (a config, the lock) becomes the
//! 1-based line and column an error message names.
//!
//! Invariant: columns count characters, not bytes, and an offset past the end is the end.

/// The 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, column)
}
