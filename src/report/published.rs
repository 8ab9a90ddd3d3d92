//! The paper's published figures (`templates/published.toml`), read as data with the text of
//! every number as printed, so the scorecard can infer how many digits the paper gave.
//!
//! Invariant: entries are in file order and each keeps its exact source text (`0.490` stays
//! `0.490`, not `0.49`), which is the only source of a figure's printed precision.

use std::path::Path;

use sha2::{Digest, Sha256};
use toml::de::{DeTable, DeValue};

use super::error::RenderError;
use super::published_key::{PolicyPairs, PublishedKey};
use crate::plot::PaperBreakEven;

/// A published leaf value.
#[derive(Clone, Debug, PartialEq)]
pub enum PubValue {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
}

impl PubValue {
    /// As a number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            PubValue::Int(i) => Some(*i as f64),
            PubValue::Float(f) => Some(*f),
            _ => None,
        }
    }
}

/// How many digits a number was printed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `d` digits after the decimal point (0 for integers).
    Decimals(u32),
    /// `s` significant digits (scientific notation).
    Significant(u32),
}

impl Precision {
    /// Infer from a number as written: `0.490` -> 3 decimals, `7.7e-29` -> 2 significant,
    /// `46_542` -> 0 decimals.
    pub fn infer(text: &str) -> Precision {
        let t: String = text.chars().filter(|c| *c != '_' && *c != '+').collect();
        let t = t.trim_start_matches('-');
        if let Some(pos) = t.find(['e', 'E']) {
            let mantissa = &t[..pos];
            let digits = mantissa
                .chars()
                .filter(char::is_ascii_digit)
                .skip_while(|c| *c == '0')
                .count();
            Precision::Significant(digits.max(1) as u32)
        } else if let Some(pos) = t.find('.') {
            Precision::Decimals((t.len() - pos - 1) as u32)
        } else {
            Precision::Decimals(0)
        }
    }

    /// `x` rounded to this precision, as text.
    pub fn format(self, x: f64) -> String {
        match self {
            Precision::Decimals(d) => format!("{:.*}", d as usize, x),
            Precision::Significant(s) => format!("{:.*e}", s.saturating_sub(1) as usize, x),
        }
    }

    /// `x` with `extra` more digits than this precision, for showing ours beside the paper's.
    /// Significant digits of a number between 1 and 10^7 are written without an exponent.
    /// Written by the report's formatter (true minus, `× 10ᵏ`, thousands separators).
    pub fn format_finer(self, x: f64, extra: u32) -> String {
        match self {
            Precision::Decimals(d) => super::format::fixed(x, (d + extra) as usize),
            Precision::Significant(s) if x.abs() >= 1.0 && x.abs() < 1e7 => {
                let mag = x.abs().log10().floor() as i32;
                let decimals = (s as i32 + extra as i32 - 1 - mag).max(0) as usize;
                if decimals == 0 {
                    super::format::thousands(x.round() as i128)
                } else {
                    super::format::fixed(x, decimals)
                }
            }
            Precision::Significant(s) => super::format::sig(x, (s + extra) as usize),
        }
    }

    /// Half a unit in the last printed place, at `x`'s magnitude.
    pub fn half_ulp(self, x: f64) -> f64 {
        match self {
            Precision::Decimals(d) => 0.5 * 10f64.powi(-(d as i32)),
            Precision::Significant(s) => {
                let mag = if x == 0.0 {
                    0
                } else {
                    x.abs().log10().floor() as i32
                };
                0.5 * 10f64.powi(mag - (s as i32 - 1))
            }
        }
    }
}

/// One published leaf: `table3.greedy_greedy.rate = 0.490`.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedEntry {
    /// Dotted key; array elements as `key[i]`.
    pub key: String,
    /// The value.
    pub value: PubValue,
    /// The value exactly as written in the file.
    pub text: String,
}

impl PublishedEntry {
    /// The printed precision inferred from [`PublishedEntry::text`].
    pub fn precision(&self) -> Precision {
        Precision::infer(&self.text)
    }

    /// The value as the paper prints it, in the report's notation: integers of five digits or
    /// more with thousands separators, everything else with the digits as written (`0.490`,
    /// `7.7 × 10⁻²⁹`, `−1.0`).
    pub fn printed(&self) -> String {
        match &self.value {
            PubValue::Str(s) => s.clone(),
            PubValue::Int(i) if i.abs() >= 10_000 => super::format::thousands(i128::from(*i)),
            _ => super::format::as_written(&self.text.replace('_', "")),
        }
    }
}

/// The published figures (the default is none: no study is scored against a paper).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Published {
    /// Every leaf, in file order.
    pub entries: Vec<PublishedEntry>,
    /// sha256 of the file's bytes, hex.
    pub sha256: String,
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl Published {
    /// Read and parse `path`.
    pub fn load(path: &Path) -> Result<Published, RenderError> {
        let text = std::fs::read_to_string(path).map_err(|source| RenderError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Published::parse(&text, &path.display().to_string())
    }

    /// Parse `text`; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Published, RenderError> {
        let err = |offset: usize, message: String| {
            let (line, column) = line_col(text, offset);
            RenderError::Published {
                origin: origin.to_string(),
                line,
                column,
                message,
            }
        };
        let doc = DeTable::parse(text)
            .map_err(|e| err(e.span().map_or(0, |s| s.start), e.message().to_string()))?;
        let mut entries: Vec<(usize, PublishedEntry)> = Vec::new();
        let mut stack: Vec<(String, &toml::Spanned<DeValue<'_>>)> = Vec::new();
        for (k, v) in doc.get_ref().iter() {
            stack.push((k.get_ref().to_string(), v));
        }
        while let Some((key, v)) = stack.pop() {
            let span = v.span();
            let raw = text.get(span.clone()).unwrap_or("").trim().to_string();
            let value = match leaf(&key, v, &raw, &mut stack) {
                Ok(Some(value)) => value,
                Ok(None) => continue,
                Err(message) => return Err(err(span.start, message)),
            };
            entries.push((
                span.start,
                PublishedEntry {
                    key,
                    value,
                    text: raw,
                },
            ));
        }
        entries.sort_by_key(|(start, _)| *start);
        // An error, not a warning: a published file with no number to compare leaves a report
        // with 0 scored figures that looks finished; it is always a mistake (an empty file, or
        // numbers written as strings), and as an error it stops `run` before any simulation.
        if !entries.iter().any(|(_, e)| e.value.as_f64().is_some()) {
            return Err(err(
                0,
                "no published figure is a number (the file is empty, or its values are strings or lists of strings), so the report would score 0 figures; write figures as TOML numbers under tables, e.g. [table3] greedy_greedy = { rate = 0.490, lo = 0.487, hi = 0.493 }".into(),
            ));
        }
        let published = Published {
            entries: entries.into_iter().map(|(_, e)| e).collect(),
            sha256: hex::encode(Sha256::digest(text.as_bytes())),
        };
        // Numbers under keys the report does not know (another TOML file named by mistake,
        // e.g. the study file itself) would leave every study "not compared" just the same.
        let known = |e: &PublishedEntry| {
            e.value.as_f64().is_some()
                && !matches!(
                    super::published_key::PublishedKey::parse(&e.key, &published),
                    super::published_key::PublishedKey::Unrecognised { .. }
                )
        };
        if !published.entries.iter().any(known) {
            // Some number is there (checked above): the first is under a key the report does
            // not know.
            let first = published
                .entries
                .iter()
                .find(|e| e.value.as_f64().is_some())
                .map_or(String::new(), |e| crate::policy::shown_text(&e.key));
            return Err(err(
                0,
                format!(
                    "no number in it is a figure the report knows (the first is `{first}`), so the report would score 0 figures; name the paper's figures file (e.g. templates/published.toml), whose keys are the report's, e.g. [table3] greedy_greedy = {{ rate = 0.490, lo = 0.487, hi = 0.493 }}"
                ),
            ));
        }
        Ok(published)
    }

    /// The entry under `key`.
    pub fn get(&self, key: &str) -> Option<&PublishedEntry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The number under `key`.
    pub fn number(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(|e| e.value.as_f64())
    }

    /// The paper's policy names (`design.policies`), in its order.
    pub fn policies(&self) -> Vec<String> {
        match self.get("design.policies").map(|e| &e.value) {
            Some(PubValue::Str(s)) => s.split(", ").map(str::to_string).collect(),
            _ => Vec::new(),
        }
    }

    /// Split `a_b` into two of the paper's policy names.
    pub fn split_pair(&self, s: &str) -> Option<(String, String)> {
        PolicyPairs::split_pair(self, s)
    }

    /// The paper's approximate break-even values, `figure2.break_even_delta_<g1>_<g2>`.
    pub fn paper_breakeven(&self) -> Vec<PaperBreakEven> {
        self.entries
            .iter()
            .filter_map(|e| match PublishedKey::parse(&e.key, self) {
                PublishedKey::BreakEven(pair) => Some(PaperBreakEven {
                    g1_policy: pair.g1,
                    g2_policy: pair.g2,
                    delta: e.value.as_f64()?,
                }),
                _ => None,
            })
            .collect()
    }
}

/// The figure `v` (under `key`, written `raw`) holds, or `None` after pushing its children on
/// `stack` (a table, or a list that is not all strings); an error message for a value that is
/// not a figure.
fn leaf<'a>(
    key: &str,
    v: &'a toml::Spanned<DeValue<'a>>,
    raw: &str,
    stack: &mut Vec<(String, &'a toml::Spanned<DeValue<'a>>)>,
) -> Result<Option<PubValue>, String> {
    Ok(Some(match v.get_ref() {
        DeValue::Table(t) => {
            for (k, c) in t.iter() {
                stack.push((format!("{key}.{}", k.get_ref()), c));
            }
            return Ok(None);
        }
        DeValue::Array(a) => {
            if a.iter().all(|c| matches!(c.get_ref(), DeValue::String(_))) {
                let joined: Vec<&str> = a.iter().filter_map(|c| c.get_ref().as_str()).collect();
                return Ok(Some(PubValue::Str(joined.join(", "))));
            }
            for (i, c) in a.iter().enumerate() {
                stack.push((format!("{key}[{i}]"), c));
            }
            return Ok(None);
        }
        DeValue::Integer(_) => PubValue::Int(
            raw.replace('_', "")
                .parse()
                .map_err(|_| format!("`{raw}` is not a decimal integer"))?,
        ),
        DeValue::Float(_) => PubValue::Float(
            raw.replace('_', "")
                .parse()
                .map_err(|_| format!("`{raw}` is not a number"))?,
        ),
        DeValue::String(s) => PubValue::Str(s.to_string()),
        DeValue::Boolean(b) => PubValue::Bool(*b),
        DeValue::Datetime(_) => return Err(format!("`{key}`: dates are not figures")),
    }))
}

impl PolicyPairs for Published {
    fn split_pair(&self, s: &str) -> Option<(String, String)> {
        let names = self.policies();
        names.iter().find_map(|a| {
            let rest = s.strip_prefix(a.as_str())?.strip_prefix('_')?;
            names
                .iter()
                .any(|b| b == rest)
                .then(|| (a.clone(), rest.to_string()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_from_text() {
        assert_eq!(Precision::infer("0.490"), Precision::Decimals(3));
        assert_eq!(Precision::infer("0.4905"), Precision::Decimals(4));
        assert_eq!(Precision::infer("46_542"), Precision::Decimals(0));
        assert_eq!(Precision::infer("7.7e-29"), Precision::Significant(2));
        assert_eq!(Precision::infer("1e-300"), Precision::Significant(1));
        assert_eq!(Precision::infer("-1.0"), Precision::Decimals(1));
        assert_eq!(Precision::Decimals(3).format(0.4904), "0.490");
        assert_eq!(Precision::Significant(2).format(7.74e-29), "7.7e-29");
    }

    /// Lists of strings are one text entry, other lists one entry per item, and a value that is
    /// not a figure is an error naming its line and column.
    #[test]
    fn lists_and_non_figures() {
        let text =
            "[design]\ngames_total = 9\n[t]\nnames = [\"a\", \"b\"]\nrange = [0.25, 1_000]\n";
        let p = Published::parse(text, "p.toml").unwrap();
        assert_eq!(
            p.get("t.names").unwrap().value,
            PubValue::Str("a, b".into())
        );
        assert_eq!(p.get("t.range[0]").unwrap().value, PubValue::Float(0.25));
        assert_eq!(p.get("t.range[1]").unwrap().value, PubValue::Int(1000));
        let e = Published::parse("[t]\nx = 1\nwhen = 2026-11-25\n", "p.toml").unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("p.toml") && m.contains("t.when") && m.contains("dates"),
            "{m}"
        );
        assert!(m.contains(":3:"), "{m}");
        // Numbers, but none the report knows: an error naming the first number's key (not the
        // first key: `design.policies` is one the report knows, as a list of names).
        let e = Published::parse(
            "[design]\npolicies = [\"a\"]\n[t]\nname = \"s\"\nx = 1\n",
            "p.toml",
        )
        .unwrap_err();
        let m = e.to_string();
        assert!(m.contains("report knows") && m.contains("`t.x`"), "{m}");
    }

    #[test]
    fn parses_the_reference_file_in_order_with_source_text() {
        let text = include_str!("../../templates/published.toml");
        let p = Published::parse(text, "published.toml").unwrap();
        let first = &p.entries[0];
        assert_eq!(first.key, "design.games_total");
        assert_eq!(first.value, PubValue::Int(999_999));
        let e = p.get("table3.greedy_greedy.rate").unwrap();
        assert_eq!(e.text, "0.490");
        assert_eq!(e.precision(), Precision::Decimals(3));
        assert_eq!(
            p.get("folk_theorem.per_matchup_rate_range[1]")
                .unwrap()
                .text,
            "0.66"
        );
        assert_eq!(p.policies(), vec!["greedy", "hoarder", "counter"]);
        assert_eq!(
            p.split_pair("greedy_counter"),
            Some(("greedy".to_string(), "counter".to_string()))
        );
        let be = p.paper_breakeven();
        assert_eq!(be.len(), 2);
        assert_eq!(be[0].delta, -1.0);
        assert_eq!(p.sha256.len(), 64);
        let idx = |k: &str| p.entries.iter().position(|e| e.key == k).unwrap();
        assert!(idx("table3.greedy_greedy.rate") < idx("table3.greedy_greedy.lo"));
        assert!(idx("table4.n") < idx("table4.intercept.or"));
    }

    #[test]
    fn bad_toml_names_line_and_column() {
        let e = Published::parse("[a]\nx = = 1\n", "bad.toml").unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("bad.toml:2:"), "{msg}");
    }
}
