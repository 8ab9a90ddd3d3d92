//! The figures' number formats: [`fixed`] decimals with a Unicode minus for ticks and values,
//! [`grouped`] counts with thousands separators for tooltips.
//!
//! Invariant: no figure prints a hyphen-minus or a negative zero, and every count of games is
//! grouped in threes, as the report prints them.

/// `v` with `decimals` decimals and a Unicode minus (never a negative zero): the figures' one
/// number format.
pub fn fixed(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().any(|c| c != '0' && c != '.') => format!("−{rest}"),
        Some(rest) => rest.to_string(),
        None => s,
    }
}

/// `n` with a comma between groups of three digits: `1234567` -> `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(fixed(0.25, 2), "0.25");
        assert_eq!(fixed(-1.5, 1), "−1.5");
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
    }
}
