//! The label markup of the figures: plain text with subscripts written `_{...}`, as in
//! `Δ_{briscola} = B_{G1} − B_{G2}`, split into [`Run`]s.
//!
//! Invariant: the runs' texts concatenated are the label with the markup removed, and nothing
//! else is markup: a `_` not followed by `{`, or a `_{` never closed, is literal text.

/// One run of a label: plain or subscript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run<'a> {
    /// The run's text.
    pub text: &'a str,
    /// Drawn as a subscript (smaller, lowered).
    pub sub: bool,
}

/// Split `markup` into runs; empty runs are left out.
///
/// ```
/// use briscola::plot::markup::{Run, runs};
/// assert_eq!(
///     runs("B_{G1} − x_1"),
///     vec![
///         Run { text: "B", sub: false },
///         Run { text: "G1", sub: true },
///         Run { text: " − x_1", sub: false },
///     ]
/// );
/// ```
pub fn runs(markup: &str) -> Vec<Run<'_>> {
    let mut out = Vec::new();
    let mut rest = markup;
    while let Some(start) = rest.find("_{") {
        let Some(len) = rest[start + 2..].find('}') else {
            break;
        };
        push(&mut out, &rest[..start], false);
        push(&mut out, &rest[start + 2..start + 2 + len], true);
        rest = &rest[start + 3 + len..];
    }
    push(&mut out, rest, false);
    out
}

/// The label without its markup (what a screen reader or a text search should see).
pub fn plain(markup: &str) -> String {
    runs(markup).iter().map(|r| r.text).collect()
}

fn push<'a>(out: &mut Vec<Run<'a>>, text: &'a str, sub: bool) {
    if !text.is_empty() {
        out.push(Run { text, sub });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unclosed_and_bare_underscores_are_literal() {
        assert_eq!(
            runs("my_policy_{x"),
            vec![Run {
                text: "my_policy_{x",
                sub: false
            }]
        );
        assert_eq!(
            plain("Δ_{briscola} = B_{G1} − B_{G2}"),
            "Δbriscola = BG1 − BG2"
        );
        assert_eq!(runs(""), vec![]);
        assert_eq!(runs("_{}"), vec![]);
    }
}
