//! How the report writes numbers: thousands separators, fixed decimals, percentages, signed
//! differences with a true minus sign, p-values. Used by the template filters and by the
//! findings' prose, so a number looks the same wherever it is printed.
//!
//! Invariant: every function is total: NaN and infinities print as "n/a" or "∞", never panic.

use crate::stats::p_value::PValue;

/// `1234567` -> `1,234,567` (negative numbers keep a true minus).
pub fn thousands(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("−{out}") } else { out }
}

fn special(x: f64) -> Option<String> {
    if x.is_nan() {
        Some("n/a".into())
    } else if x.is_infinite() {
        Some(if x > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        })
    } else {
        None
    }
}

/// Fixed decimals with a true minus sign.
pub fn fixed(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let s = format!("{x:.decimals$}");
    if s.starts_with('-')
        && s.trim_start_matches('-')
            .chars()
            .any(|c| c.is_ascii_digit() && c != '0')
    {
        s.replacen('-', "−", 1)
    } else {
        s.trim_start_matches('-').to_string()
    }
}

/// Fixed decimals with an explicit sign (`+0.012`, `−0.004`).
pub fn signed(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let s = fixed(x, decimals);
    if s.starts_with('−') || s.chars().all(|c| c == '0' || c == '.') {
        s
    } else {
        format!("+{s}")
    }
}

/// A proportion as a percentage: `0.62951` -> `62.95%` (2 decimals).
pub fn pct(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    format!("{}%", fixed(100.0 * x, decimals))
}

/// A p-value with `sig` significant digits, or its bound.
pub fn pval(p: &PValue, sig: usize) -> String {
    match p.value {
        None => p.display(sig),
        Some(v) if v >= 1e-3 => format!("{v:.*}", sig.max(1) + 1)
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string(),
        Some(v) => scientific(v, sig.saturating_sub(1)),
    }
}

/// `6.25e-3` as `6.25 × 10⁻³` (mantissa with `decimals` decimals).
pub fn scientific(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let s = format!("{x:.decimals$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    let sup: String = exp
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            '9' => '⁹',
            other => other,
        })
        .collect();
    let mantissa = mantissa.replacen('-', "−", 1);
    if exp == "0" {
        mantissa
    } else {
        format!("{mantissa} × 10{sup}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(thousands(975_263), "975,263");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(-1_000), "−1,000");
        assert_eq!(fixed(-0.0004, 3), "0.000");
        assert_eq!(fixed(-1.26, 1), "−1.3");
        assert_eq!(signed(0.0123, 3), "+0.012");
        assert_eq!(signed(-0.0123, 3), "−0.012");
        assert_eq!(pct(0.62951, 2), "62.95%");
        assert_eq!(fixed(f64::NAN, 2), "n/a");
        assert_eq!(pval(&PValue::from_value(7.74e-29), 2), "7.7 × 10⁻²⁹");
        assert_eq!(scientific(6.25e-3, 2), "6.25 × 10⁻³");
        assert_eq!(scientific(-1.5, 1), "−1.5");
        assert_eq!(pval(&PValue::from_value(0.65), 2), "0.65");
        assert_eq!(pval(&PValue::from_value(0.0), 2), "< 1e-300");
    }
}
