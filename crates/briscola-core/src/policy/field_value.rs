//! One value of a `[policies.NAME]` field as the study file wrote it (TOML's kinds of value),
//! read by the policy kind that owns the field into the type it wants ([`FieldValue::read`]).
//!
//! Invariant: reading goes through serde, so a wrong type or range is serde's own sentence
//! made plain ([`plain_message`]): the same words as every other field of the study file.

use std::collections::BTreeMap;

use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
use serde::de::{DeserializeOwned, IntoDeserializer, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// A field's value, any TOML kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    /// `true` / `false`
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Text(String),
    /// An array.
    List(Vec<FieldValue>),
    /// An inline table.
    Table(BTreeMap<String, FieldValue>),
}

impl FieldValue {
    /// The value as a `T` (a number, a string, a list, a unit enum by its name, a struct from a
    /// table), or serde's sentence made plain.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, String> {
        T::deserialize(ValueDe(self)).map_err(|e| plain_message(&e.to_string()))
    }
}

/// A user's text as a message quotes it: its first 20 characters, control characters escaped
/// ("\0"), then "..." if it was longer (so a line of a megabyte, or of NUL bytes, is not
/// echoed whole).
pub fn shown_text(t: &str) -> String {
    let mut out: String = t.chars().take(20).flat_map(char::escape_debug).collect();
    if t.chars().nth(20).is_some() {
        out.push_str("...");
    }
    out
}

/// serde's words for Rust types in the words of a study file ("expected u8" -> "expected a
/// whole number from 0 to 255", "expected struct RulesSpec" -> "expected a table of named
/// fields"): every config error goes through here, and so do the HTTP API's, the game
/// records' and the solve files' errors.
pub fn plain_message(message: &str) -> String {
    let mut m = message.to_string();
    for (rust, words) in [
        ("u64", "a whole number >= 0"),
        ("usize", "a whole number >= 0"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u16", "a whole number from 0 to 65535"),
        ("u8", "a whole number from 0 to 255"),
        ("i64", "an integer"),
        ("i32", "an integer from -2147483648 to 2147483647"),
        ("i16", "an integer from -32768 to 32767"),
        ("i8", "an integer from -128 to 127"),
        ("f64", "a number"),
        ("f32", "a number"),
    ] {
        m = replace_word(
            &m,
            &format!("expected {rust}"),
            &format!("expected {words}"),
        );
    }
    m = m.replace(" as i128", "");
    m = replace_word(&m, "expected a sequence", "expected a list");
    // "expected struct Name with 3 elements" / "expected struct Name" / "enum Name" and the
    // other shapes serde names by their Rust type.
    // Variants first: "expected struct variant A::B" is not "expected struct" of a name.
    m = replace_named(&m, "struct variant ", |_| "a table".to_string());
    m = replace_named(&m, "tuple variant ", |_| "a list".to_string());
    m = replace_named(&m, "expected struct ", |elements| match elements {
        Some(n) => format!("expected a list of {n} values"),
        None => "expected a table of named fields".to_string(),
    });
    m = replace_named(&m, "expected tuple struct ", |elements| match elements {
        Some(n) => format!("expected a list of {n} values"),
        None => "expected a list of values".to_string(),
    });
    for (prefix, words) in [
        (
            "any variant of untagged enum ",
            "any of the forms this field takes",
        ),
        (
            "expected internally tagged enum ",
            "expected one of this field's forms",
        ),
        (
            "expected adjacently tagged enum ",
            "expected one of this field's forms",
        ),
        ("expected enum ", "expected one of this field's names"),
    ] {
        m = replace_named(&m, prefix, |_| words.to_string());
    }
    m
}

/// A plain message about a value (`plain_message`'s) with the field's own valid values in
/// place of serde's "expected" clause, which names the storage type's range ("invalid value:
/// integer `300`, expected a whole number from 0 to 255" for a threshold of 0 to 22).
pub fn with_valid(plain: &str, valid: &str) -> String {
    let what = plain.split_once(", expected ").map_or(plain, |(w, _)| w);
    format!("{what}; valid: {valid}")
}

/// `text` with `from` replaced where it is a whole word (not the start of a longer one:
/// "expected u8" is not the start of "expected u80").
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let after = &rest[i + from.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `text` with each `prefix` followed by a Rust type name (`Name`, `Enum::Variant`) replaced
/// by `words(elements)`, where `elements` is N when the name is followed by " with N
/// elements" (consumed too); anything after stays as it was (serde_json's " at line L column
/// C", toml's ", expected ..."): the name itself never reaches the user.
fn replace_named(text: &str, prefix: &str, words: impl Fn(Option<&str>) -> String) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        out.push_str(&rest[..i]);
        let after = &rest[i + prefix.len()..];
        let name_end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(after.len());
        let tail = &after[name_end..];
        let counted = tail.strip_prefix(" with ").and_then(|t| {
            let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
            let n = &t[..digits];
            let end = t[digits..].strip_prefix(" elements")?;
            (!n.is_empty()).then_some((n, end))
        });
        match counted {
            Some((n, end)) => {
                out.push_str(&words(Some(n)));
                rest = end;
            }
            None => {
                out.push_str(&words(None));
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A [`FieldValue`] as a serde deserializer.
struct ValueDe<'a>(&'a FieldValue);

impl<'de> IntoDeserializer<'de, Error> for ValueDe<'_> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> Deserializer<'de> for ValueDe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            FieldValue::Bool(b) => v.visit_bool(*b),
            FieldValue::Int(i) => v.visit_i64(*i),
            FieldValue::Float(f) => v.visit_f64(*f),
            FieldValue::Text(s) => v.visit_str(s),
            FieldValue::List(l) => v.visit_seq(SeqDeserializer::new(l.iter().map(ValueDe))),
            FieldValue::Table(t) => v.visit_map(MapDeserializer::new(
                t.iter().map(|(k, x)| (k.as_str(), ValueDe(x))),
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_some(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            FieldValue::Text(s) => v.visit_enum(s.as_str().into_deserializer()),
            _ => self.deserialize_any(v).map_err(|_: Error| {
                serde::de::Error::custom(format!(
                    "expected one of {} ({name})",
                    variants
                        .iter()
                        .map(|x| format!("\"{x}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_their_types_and_wrong_ones_are_plain_sentences() {
        assert_eq!(FieldValue::Int(16).read::<u32>(), Ok(16));
        assert_eq!(
            FieldValue::Int(3).read::<f64>(),
            Ok(3.0),
            "an integer is a number"
        );
        let e = FieldValue::Int(300).read::<u8>().unwrap_err();
        assert!(e.contains("300") && e.contains("0 to 255"), "{e}");
        let e = FieldValue::Text("x".into()).read::<u32>().unwrap_err();
        assert!(
            e.contains("string \"x\"") && e.contains("whole number"),
            "{e}"
        );
        let list = FieldValue::List(vec![FieldValue::Text("a".into())]);
        assert_eq!(list.read::<Vec<String>>(), Ok(vec!["a".to_string()]));
        let moves = FieldValue::Text("all".into()).read::<crate::policy::EpsMoves>();
        assert_eq!(moves, Ok(crate::policy::EpsMoves::All));
        let e = FieldValue::Text("some".into())
            .read::<crate::policy::EpsMoves>()
            .unwrap_err();
        assert!(e.contains("`some`") && e.contains("`lead`"), "{e}");
    }

    /// The field's own range replaces the storage type's; a message without an "expected"
    /// clause keeps its words.
    #[test]
    fn the_fields_range_replaces_the_storage_types() {
        let plain = plain_message("invalid value: integer `300`, expected u8");
        assert_eq!(
            with_valid(&plain, "0 to 22"),
            "invalid value: integer `300`; valid: 0 to 22"
        );
        assert_eq!(
            with_valid("too large", "0 to 22"),
            "too large; valid: 0 to 22"
        );
    }

    /// serde's sentences (serde 1.0, serde_json 1.0, toml 1.x) as the user reads them: no
    /// Rust type name survives.
    #[test]
    fn rust_type_names_become_words() {
        for (serde, plain) in [
            (
                "invalid value: integer `500`, expected u8",
                "invalid value: integer `500`, expected a whole number from 0 to 255",
            ),
            (
                "invalid type: string \"x\", expected u16 at line 1 column 9",
                "invalid type: string \"x\", expected a whole number from 0 to 65535 at line 1 column 9",
            ),
            (
                "invalid type: string \"loser-first\", expected struct RulesSpec",
                "invalid type: string \"loser-first\", expected a table of named fields",
            ),
            (
                "invalid length 0, expected struct GameRecord with 11 elements",
                "invalid length 0, expected a list of 11 values",
            ),
            (
                "data did not match any variant of untagged enum GridValues",
                "data did not match any of the forms this field takes",
            ),
            (
                "invalid type: map, expected enum Suit, at line 2",
                "invalid type: map, expected one of this field's names, at line 2",
            ),
            ("expected u80 is not a type", "expected u80 is not a type"),
            (
                "invalid type: string \"x\", expected a sequence",
                "invalid type: string \"x\", expected a list",
            ),
            // serde_json adds the position after the element count.
            (
                "invalid type: sequence, expected struct NewGame with 3 elements at line 1 column 2",
                "invalid type: sequence, expected a list of 3 values at line 1 column 2",
            ),
            (
                "invalid type: map, expected struct NewGame at line 1 column 0",
                "invalid type: map, expected a table of named fields at line 1 column 0",
            ),
            (
                "invalid type: integer `5`, expected internally tagged enum DealRecord",
                "invalid type: integer `5`, expected one of this field's forms",
            ),
            (
                "invalid type: sequence, expected struct variant Kind::Rules",
                "invalid type: sequence, expected a table",
            ),
            (
                "expected tuple struct Pair with 2 elements",
                "expected a list of 2 values",
            ),
        ] {
            assert_eq!(plain_message(serde), plain, "{serde}");
        }
    }
}
