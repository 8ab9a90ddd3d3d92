//! The hostile-input edge of [`super::pipeline_config::Config`]: reading a config file with a size cap,
//! decoding its bytes as UTF-8 with a line:column for the first bad byte, naming the table
//! header a syntax error sits in, the exactly-two-element list reader, and shortening overlong
//! words in messages.
//!
//! Invariant: whatever the bytes of a config file, what reaches the TOML parser is at most
//! [`MAX_CONFIG_BYTES`] of valid UTF-8, and every error message it produces stays short (no
//! word of a message is longer than [`MAX_SHOWN_CHARS`] characters plus a note of its length).

use std::path::Path;

use serde::{Deserialize, Deserializer};

use super::config_error::{ConfigError, MAX_CONFIG_BYTES};
use crate::pipeline::line_col::line_col;

/// Longest word (e.g. a name) shown in full in an error message.
pub const MAX_SHOWN_CHARS: usize = 64;

/// The bytes of `path`, refusing (without reading further) a file over [`MAX_CONFIG_BYTES`].
pub fn read_capped(path: &Path) -> Result<Vec<u8>, ConfigError> {
    use crate::files::ReadError;
    crate::files::read_capped(path, MAX_CONFIG_BYTES).map_err(|e| match e {
        ReadError::Io(source) => ConfigError::Read {
            path: path.to_path_buf(),
            source,
        },
        ReadError::TooLarge(_) => ConfigError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_CONFIG_BYTES,
        },
        ReadError::NotAFile(kind) => ConfigError::Read {
            path: path.to_path_buf(),
            source: std::io::Error::other(format!(
                "it is a {kind}; give the path of a pipeline.toml file"
            )),
        },
    })
}

/// `bytes` as text, or an error at the line and column of the first byte that is not UTF-8.
pub fn utf8<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, ConfigError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = e.valid_up_to();
        // The prefix is valid UTF-8 by definition of `valid_up_to`.
        let before = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let (line, column) = line_col(before, before.len());
        ConfigError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            field: String::new(),
            message: format!(
                "this is not UTF-8 text: byte 0x{:02X} cannot start or continue a character; a pipeline.toml must be saved as UTF-8",
                bytes[good]
            ),
        }
    })
}

/// The table named by the `[header` on the line holding `offset`, if that line is a (possibly
/// unclosed) table header: a syntax error there is about that table, not the one before it.
pub fn header_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = text.get(start..end)?.trim();
    let inner = line.strip_prefix('[')?;
    let inner = inner.trim_start_matches('[');
    let inner = inner.split('#').next().unwrap_or_default();
    let name = inner.trim_end().trim_end_matches(']').trim();
    let name: String = name
        .split('.')
        .map(|part| part.trim().trim_matches('"'))
        .collect::<Vec<_>>()
        .join(".");
    (!name.is_empty()).then_some(name)
}

/// A list that must hold exactly two strings (serde's `[T; 2]` ignores extra elements).
pub fn exactly_two<'de, D: Deserializer<'de>>(d: D) -> Result<[String; 2], D::Error> {
    let v = Vec::<String>::deserialize(d)?;
    let n = v.len();
    <[String; 2]>::try_from(v)
        .map_err(|_| serde::de::Error::invalid_length(n, &"a list of exactly two names"))
}

/// `error` with every overlong word of its field and message shortened by [`clip`].
pub fn clip_error(error: ConfigError) -> ConfigError {
    match error {
        ConfigError::Parse {
            path,
            line,
            column,
            field,
            message,
        } => ConfigError::Parse {
            path,
            line,
            column,
            field: clip(&field),
            message: clip(&message),
        },
        ConfigError::Invalid {
            path,
            line,
            column,
            field,
            message,
        } => ConfigError::Invalid {
            path,
            line,
            column,
            field: clip(&field),
            message: clip(&message),
        },
        other => other,
    }
}

/// `text` with each run of more than [`MAX_SHOWN_CHARS`] characters that are neither
/// whitespace nor a backtick cut to its first [`MAX_SHOWN_CHARS`] characters, an ellipsis and
/// its length, e.g. `aaaa…(10000 characters)`.
pub fn clip(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let n = word.chars().count();
        if n > MAX_SHOWN_CHARS {
            out.extend(word.chars().take(MAX_SHOWN_CHARS));
            out.push_str(&format!("…({n} characters)"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() || c == '`' {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_short_words_and_cuts_long_ones() {
        assert_eq!(clip("name `greedy` is fine"), "name `greedy` is fine");
        let long = "a".repeat(10_000);
        let c = clip(&format!("name `{long}` is not allowed"));
        assert!(c.len() < 200, "{c}");
        assert!(c.contains("…(10000 characters)"), "{c}");
        assert!(c.ends_with("` is not allowed"), "{c}");
    }

    #[test]
    fn header_at_names_an_unclosed_header() {
        let text = "[study]\ntitle = \"x\"\n[simulate\nseed = 1\n";
        let off = text.find("[simulate").unwrap() + 9;
        assert_eq!(header_at(text, off).as_deref(), Some("simulate"));
        assert_eq!(header_at(text, 3).as_deref(), Some("study"));
        assert_eq!(header_at(text, text.find("title").unwrap()), None);
        assert_eq!(
            header_at("[policies.\"greedy\" # c\n", 5).as_deref(),
            Some("policies.greedy")
        );
    }

    #[test]
    fn utf8_error_has_line_and_column() {
        let bytes = b"[study]\ntitle = \"a\xffb\"\n";
        match utf8(bytes, Path::new("p.toml")) {
            Err(ConfigError::Parse {
                line,
                column,
                message,
                ..
            }) => {
                assert_eq!((line, column), (2, 11));
                assert!(message.contains("0xFF"), "{message}");
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }
}
