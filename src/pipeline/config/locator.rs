//! Where a dotted field of the study file is (its key's or its value's line and column), and
//! which field a byte offset falls in: every config error is placed through here.
//!
//! Invariant: a field the document does not hold is placed at its nearest ancestor present
//! (else line 1, column 1), never an error of its own.

use crate::pipeline::line_col::line_col;

/// Finds the dotted field at a byte offset, and the position of a dotted field, in the parsed
/// document (keys and values keep their spans).
pub(super) struct Locator<'a> {
    pub(super) text: &'a str,
    pub(super) doc: &'a toml::de::DeTable<'a>,
}

impl Locator<'_> {
    /// The most specific field whose key or value span contains `offset`.
    pub(super) fn field_at(&self, offset: usize) -> Option<String> {
        fn walk(table: &toml::de::DeTable<'_>, offset: usize, prefix: &str) -> Option<String> {
            for (k, v) in table.iter() {
                let name = if prefix.is_empty() {
                    k.get_ref().to_string()
                } else {
                    format!("{prefix}.{}", k.get_ref())
                };
                if k.span().contains(&offset) {
                    return Some(name);
                }
                match v.get_ref() {
                    toml::de::DeValue::Table(t) => {
                        if v.span().contains(&offset) || v.span().start == offset {
                            return Some(name);
                        }
                        if let Some(f) = walk(t, offset, &name) {
                            return Some(f);
                        }
                    }
                    toml::de::DeValue::Array(a) => {
                        for (i, e) in a.iter().enumerate() {
                            if e.span().contains(&offset) {
                                if let toml::de::DeValue::Table(t) = e.get_ref()
                                    && let Some(f) = walk(t, offset, &format!("{name}[{i}]"))
                                {
                                    return Some(f);
                                }
                                return Some(name);
                            }
                        }
                        if v.span().contains(&offset) {
                            return Some(name);
                        }
                    }
                    _ => {
                        if v.span().contains(&offset) {
                            return Some(name);
                        }
                    }
                }
            }
            None
        }
        walk(self.doc, offset, "")
    }

    /// 1-based (line, column) of `field` (dotted, with optional `[i]` indices), or of its
    /// nearest present ancestor; (1, 1) if none is present.
    pub(super) fn position_of(&self, field: &str) -> (usize, usize) {
        let mut best: Option<usize> = None;
        let mut table = Some(self.doc);
        for part in field.split('.') {
            let (key, index) = match part.split_once('[') {
                Some((k, rest)) => (k, rest.trim_end_matches(']').parse::<usize>().ok()),
                None => (part, None),
            };
            let Some(t) = table else { break };
            let Some((k, v)) = t.iter().find(|(k, _)| k.get_ref().as_ref() == key) else {
                break;
            };
            best = Some(k.span().start);
            table = None;
            match (v.get_ref(), index) {
                (toml::de::DeValue::Array(a), Some(i)) => {
                    if let Some(e) = a.get(i) {
                        best = Some(e.span().start);
                    }
                }
                (toml::de::DeValue::Table(inner), _) => table = Some(inner),
                _ => {}
            }
        }
        best.map(|o| line_col(self.text, o)).unwrap_or((1, 1))
    }

    /// 1-based (line, column) of byte `offset` inside the string value of `field` (a key, or
    /// an array element with `[i]`); the field's own position when the value is not a plain
    /// one-line string.
    pub(super) fn position_inside(&self, field: &str, offset: usize) -> (usize, usize) {
        let start = self.value_start(field);
        match start {
            Some(s)
                if matches!(self.text.as_bytes().get(s), Some(b'"' | b'\''))
                    && !self.text[s + 1..].starts_with("\"\"")
                    && !self.text[s + 1..(s + 1 + offset).min(self.text.len())]
                        .contains(['\\', '\n']) =>
            {
                line_col(self.text, s + 1 + offset)
            }
            _ => self.position_of(field),
        }
    }

    /// Line and column where `field`'s value starts (else where its key is).
    pub(super) fn value_position(&self, field: &str) -> (usize, usize) {
        match self.value_start(field) {
            Some(s) => line_col(self.text, s),
            None => self.position_of(field),
        }
    }

    /// Byte offset where `field`'s value starts.
    fn value_start(&self, field: &str) -> Option<usize> {
        let mut table = self.doc;
        let parts: Vec<&str> = field.split('.').collect();
        for (n, part) in parts.iter().enumerate() {
            let (key, index) = match part.split_once('[') {
                Some((k, rest)) => (k, rest.trim_end_matches(']').parse::<usize>().ok()),
                None => (*part, None),
            };
            let (_, v) = table.iter().find(|(k, _)| k.get_ref().as_ref() == key)?;
            let last = n + 1 == parts.len();
            match (v.get_ref(), index) {
                (toml::de::DeValue::Array(a), Some(i)) if last => {
                    return Some(a.get(i)?.span().start);
                }
                (toml::de::DeValue::Table(inner), None) if !last => table = inner,
                (_, None) if last => return Some(v.span().start),
                _ => return None,
            }
        }
        None
    }
}
