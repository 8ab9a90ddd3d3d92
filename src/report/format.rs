//! How the report writes numbers — the one formatter of the HTML and Markdown reports, their
//! template filters, the scorecard and the findings' prose: thousands separators, fixed
//! decimals, significant digits, percentages, signed differences, p-values as `a × 10⁻ᵏ`, all
//! with a true minus sign (U+2212), so a number looks the same wherever it is printed.
//!
//! Invariant: every function is total (NaN prints "n/a", infinities "∞"), never panics, and
//! never writes Rust's `e` notation (`3.63e2`) or an ASCII hyphen as a minus.

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

/// A p-value with `sig` significant digits: fixed from 0.001 up (`0.65`, `0.0012`), else
/// `7.7 × 10⁻²⁹`. Below the double range the value is written from its logarithm
/// (`3.2 × 10⁻⁴²⁰`); an underflow with no logarithm is the bound `< 10⁻³⁰⁰`.
pub fn pval(p: &PValue, sig: usize) -> String {
    let sig = sig.max(1);
    match p.value {
        None if p.log10.is_finite() && p.log10 < PValue::FLOOR.log10() => {
            let exp = p.log10.floor();
            let mantissa = 10f64.powf(p.log10 - exp);
            // rounding the mantissa up to 10 moves the exponent
            let m = format!("{mantissa:.*}", sig - 1);
            let (m, exp) = if m.starts_with("10") {
                (format!("{:.*}", sig - 1, 1.0), exp + 1.0)
            } else {
                (m, exp)
            };
            format!("{m} × 10{}", superscript(exp as i64))
        }
        None => format!("< 10{}", superscript(PValue::FLOOR.log10() as i64)),
        Some(v) if v >= 1e-3 => format!("{v:.*}", sig + 1)
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string(),
        Some(v) => scientific(v, sig - 1),
    }
}

/// A p-value in a sentence: `p = 0.65`, `p = 7.7 × 10⁻²⁹`, or the bound `p < 10⁻³⁰⁰`.
pub fn p_is(p: &PValue, sig: usize) -> String {
    let s = pval(p, sig);
    if s.starts_with('<') {
        format!("p {s}")
    } else {
        format!("p = {s}")
    }
}

/// How many times one positive number is another (p-values are compared this way, never by
/// their difference): `×1.54`, `×159`, and past a thousandfold the order of magnitude, `×10²⁰`.
pub fn ratio(r: f64) -> String {
    if let Some(s) = special(r) {
        return s;
    }
    if r > 0.0 && !(1e-3..1e3).contains(&r) {
        return format!("×10{}", superscript(r.log10().round() as i64));
    }
    format!("×{}", sig(r, 3))
}

/// `x` with `sig` significant digits: plain from 0.001 up to ten million (thousands
/// separators from 10,000), otherwise `1.08 × 10⁵`. Trailing zeros are kept: they are digits.
pub fn sig(x: f64, sig: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let sig = sig.max(1);
    if x == 0.0 {
        return "0".into();
    }
    let ax = x.abs();
    // the magnitude after rounding to `sig` digits (9.996 at 3 digits is 10.0)
    let rounded: f64 = format!("{ax:.*e}", sig - 1).parse().unwrap_or(ax);
    if !(1e-3..1e7).contains(&rounded) {
        return scientific(x, sig - 1);
    }
    let mag = rounded.log10().floor() as i64;
    let decimals = (sig as i64 - 1 - mag).max(0) as usize;
    if decimals == 0 {
        let n = (x / 10f64.powi((mag + 1 - sig as i64).max(0) as i32)).round()
            * 10f64.powi((mag + 1 - sig as i64).max(0) as i32);
        if n.abs() >= 10_000.0 {
            return thousands(n as i128);
        }
        return fixed(n, 0);
    }
    fixed(x, decimals)
}

/// [`sig`] without trailing zeros: at most `max_sig` significant digits (`0.05`, `0.025`,
/// `2.5 × 10⁻⁴`), for inputs (a configured α or δ) rather than estimates.
pub fn short(x: f64, max_sig: usize) -> String {
    let s = sig(x, max_sig);
    match s.split_once(" × ") {
        Some((m, e)) if m.contains('.') => {
            format!("{} × {e}", m.trim_end_matches('0').trim_end_matches('.'))
        }
        None if s.contains('.') => s.trim_end_matches('0').trim_end_matches('.').to_string(),
        _ => s,
    }
}

/// [`sig`] with an explicit sign (`+362`, `−0.0031`, `+1.2 × 10⁻⁴`).
pub fn signed_sig(x: f64, digits: usize) -> String {
    let s = sig(x, digits);
    if s.starts_with('−') || x == 0.0 || special(x).is_some() {
        s
    } else {
        format!("+{s}")
    }
}

/// A number as written in a data file (`7.7e-29`, `-1.0`, `0.490`), in the report's notation
/// with its digits kept: `7.7 × 10⁻²⁹`, `−1.0`, `0.490`. Anything else is returned unchanged.
pub fn as_written(text: &str) -> String {
    let t = text.trim();
    let (mantissa, exp) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (t, None),
    };
    let numeric = |s: &str| {
        let s = s.strip_prefix(['-', '+']).unwrap_or(s);
        !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    if !numeric(mantissa)
        || exp.is_some_and(|e| e.trim_start_matches(['-', '+']).parse::<u32>().is_err())
    {
        return text.to_string();
    }
    let mantissa = mantissa.trim_start_matches('+').replacen('-', "−", 1);
    match exp.and_then(|e| e.parse::<i64>().ok()) {
        None | Some(0) => mantissa,
        Some(e) if mantissa == "1" => format!("10{}", superscript(e)),
        Some(e) => format!("{mantissa} × 10{}", superscript(e)),
    }
}

fn superscript(exp: i64) -> String {
    exp.to_string()
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
        .collect()
}

/// `6.25e-3` as `6.25 × 10⁻³` (mantissa with `decimals` decimals).
pub fn scientific(x: f64, decimals: usize) -> String {
    if let Some(s) = special(x) {
        return s;
    }
    let s = format!("{x:.decimals$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    let mantissa = mantissa.replacen('-', "−", 1);
    match exp.parse::<i64>() {
        Ok(0) | Err(_) => mantissa,
        Ok(e) => format!("{mantissa} × 10{}", superscript(e)),
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
        assert_eq!(pval(&PValue::from_value(0.0), 2), "< 10⁻³⁰⁰");
        assert_eq!(pval(&PValue::from_log10(-420.5), 2), "3.2 × 10⁻⁴²¹");
        assert_eq!(pval(&PValue::from_value(1.9e-5), 2), "1.9 × 10⁻⁵");
        assert_eq!(pval(&PValue::from_value(1.0), 2), "1");
        assert_eq!(p_is(&PValue::from_value(0.0), 2), "p < 10⁻³⁰⁰");
        assert_eq!(p_is(&PValue::from_value(0.65), 2), "p = 0.65");
        assert_eq!(ratio(1.538), "×1.54");
        assert_eq!(ratio(5.23e19), "×10²⁰");
        assert_eq!(ratio(1e-5), "×10⁻⁵");
    }

    #[test]
    fn numbers_as_written_keep_their_digits() {
        assert_eq!(as_written("7.7e-29"), "7.7 × 10⁻²⁹");
        assert_eq!(as_written("1e-300"), "10⁻³⁰⁰");
        assert_eq!(as_written("-1.0"), "−1.0");
        assert_eq!(as_written("0.490"), "0.490");
        assert_eq!(as_written("greedy"), "greedy");
        assert_eq!(as_written("1e"), "1e");
    }

    #[test]
    fn significant_digits() {
        assert_eq!(sig(108_362.0, 3), "108,000");
        assert_eq!(sig(362.0, 3), "362");
        assert_eq!(signed_sig(362.4, 3), "+362");
        assert_eq!(signed_sig(-0.003_14, 2), "−0.0031");
        assert_eq!(sig(0.4906, 3), "0.491");
        assert_eq!(sig(0.490, 3), "0.490");
        assert_eq!(sig(9.996, 3), "10.0");
        assert_eq!(sig(1.2e-4, 2), "1.2 × 10⁻⁴");
        assert_eq!(sig(-3.08e-213, 3), "−3.08 × 10⁻²¹³");
        assert_eq!(sig(2.5e8, 2), "2.5 × 10⁸");
        assert_eq!(sig(0.0, 3), "0");
        assert_eq!(short(0.05, 4), "0.05");
        assert_eq!(short(0.025, 4), "0.025");
        assert_eq!(short(2.5e-4, 4), "2.5 × 10⁻⁴");
        assert_eq!(short(110_000.0, 4), "110,000");
        assert_eq!(signed_sig(0.0, 3), "0");
        for x in [1e-12, 0.5, 12.5, 1e9, -7.0] {
            let s = sig(x, 3);
            assert!(!s.contains('e') && !s.contains('-'), "{x} -> {s}");
        }
    }
}
