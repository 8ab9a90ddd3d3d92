//! The policy language's tokens: words, numbers and operators, each with its byte offset in the
//! rule's text (so an error can point at the column of the offending word).
//!
//! Invariant: tokenising never fails silently: every byte of the input is either whitespace or
//! part of exactly one token, and anything else is an error naming its offset.

use super::LangError;

/// One token and where it starts (byte offset in the rule's text).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// Byte offset of its first character.
    pub at: usize,
}

impl Token<'_> {
    /// Whether the token is a number (an optional minus sign and digits).
    pub fn number(&self) -> Option<i32> {
        let digits = self.text.strip_prefix('-').unwrap_or(self.text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.text.parse().ok()
    }
}

/// Split `text` into tokens: words (`a-z`, digits, `-`, `.`, `_`, starting with a letter),
/// numbers (`-?[0-9]+`) and the operators `<= >= == != < > & ! ( ) ,`.
pub(crate) fn tokenize(text: &str) -> Result<Vec<Token<'_>>, LangError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_lowercase() {
            while i < b.len()
                && (b[i].is_ascii_lowercase()
                    || b[i].is_ascii_digit()
                    || matches!(b[i], b'-' | b'.' | b'_'))
            {
                i += 1;
            }
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else if matches!(c, b'<' | b'>' | b'=' | b'!') && b.get(i + 1) == Some(&b'=') {
            i += 2;
        } else if matches!(c, b'<' | b'>' | b'&' | b'!' | b'(' | b')' | b',') {
            i += 1;
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(LangError::new(
                start,
                format!(
                    "unexpected character `{ch}`; rules use lower-case words, whole numbers and the operators <= >= == != < > & ! ( )"
                ),
            ));
        }
        out.push(Token {
            text: &text[start..i],
            at: start,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::tokenize;

    #[test]
    fn splits_words_numbers_and_operators_with_offsets() {
        let t = tokenize("if gap >= -10 and count(trump & !wins) == 0 then cheapest").unwrap();
        let words: Vec<&str> = t.iter().map(|t| t.text).collect();
        assert_eq!(
            words,
            [
                "if", "gap", ">=", "-10", "and", "count", "(", "trump", "&", "!", "wins", ")",
                "==", "0", "then", "cheapest"
            ]
        );
        assert_eq!(t[3].at, 10);
        assert_eq!(t[3].number(), Some(-10));
        assert_eq!(t[1].number(), None);
    }

    #[test]
    fn rejects_unknown_characters_at_their_offset() {
        let e = tokenize("cheapest of trump | wins").unwrap_err();
        assert_eq!(e.at, 18);
        assert!(e.message.contains('|'), "{}", e.message);
    }
}
