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

/// serde's words for Rust types in the words of a study file ("expected u8" -> "expected a
/// whole number from 0 to 255"): every config error goes through here.
pub fn plain_message(message: &str) -> String {
    message
        .replace("expected u64", "expected a whole number >= 0")
        .replace(
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        )
        .replace("expected u8", "expected a whole number from 0 to 255")
        .replace("expected i64", "expected an integer")
        .replace("expected f64", "expected a number")
        .replace(" as i128", "")
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
}
