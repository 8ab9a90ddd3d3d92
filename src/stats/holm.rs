//! Holm's step-down adjustment of a family of p-values, as R's `p.adjust(p, "holm")`, in log
//! space so that bounds below 1e-300 stay bounds.
//!
//! Invariant: the adjusted values are returned in the input's order, each is at least its raw
//! p-value, and they are monotone in the raw p-values (ties keep their input order).

use super::binom_test::bonferroni;
use super::p_value::PValue;

/// Holm-adjusted p-values: with the raw values sorted ascending p(1) <= ... <= p(m),
/// adj(i) = max over j <= i of min(1, (m - j + 1) p(j)), returned in the input's order.
///
/// ```
/// use briscola::stats::{PValue, holm};
/// let adj = holm(&[PValue::from_value(0.01), PValue::from_value(0.04), PValue::from_value(0.03)]);
/// assert!((adj[0].value.unwrap() - 0.03).abs() < 1e-15);
/// assert!((adj[1].value.unwrap() - 0.06).abs() < 1e-15);
/// ```
pub fn holm(p: &[PValue]) -> Vec<PValue> {
    let m = p.len() as u64;
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].log10.total_cmp(&p[b].log10));
    let mut out = vec![PValue::from_value(1.0); p.len()];
    let mut running: Option<PValue> = None;
    for (rank, &i) in order.iter().enumerate() {
        let adjusted = bonferroni(p[i], m - rank as u64);
        let kept = match running {
            Some(r) if r.log10 >= adjusted.log10 => r,
            _ => adjusted,
        };
        running = Some(kept);
        out[i] = kept;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values: R 4.2.2, `p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.5, 0.04), "holm")`.
    #[test]
    fn equals_r_p_adjust_holm() {
        let raw = [0.01, 0.04, 0.03, 0.005, 0.5, 0.04];
        let expected = [0.05, 0.12, 0.12, 0.03, 0.5, 0.12];
        let adj = holm(&raw.map(PValue::from_value));
        for (a, e) in adj.iter().zip(expected) {
            assert!((a.value.unwrap() - e).abs() < 1e-15, "{a:?} vs {e}");
        }
    }

    /// Expected values: R 4.2.2, `p.adjust(sapply(c(5210, 5100, 4900, 5000), function(k)
    /// binom.test(k, 10000, 0.5)$p.value), "holm")`.
    #[test]
    fn equals_r_on_binomial_tests() {
        let raw: Vec<PValue> = [5210, 5100, 4900, 5000]
            .iter()
            .map(|&k| crate::stats::binom_test(k, 10_000, 0.5).unwrap())
            .collect();
        let expected = [
            0.000_111_297_675_188_363_68,
            0.139_756_583_114_842_07,
            0.139_756_583_114_842_07,
            1.0,
        ];
        for (a, e) in holm(&raw).iter().zip(expected) {
            assert!((a.value.unwrap() - e).abs() <= 1e-12 * e, "{a:?} vs {e}");
        }
    }

    #[test]
    fn bounds_stay_bounds_and_order_is_kept() {
        let tiny = PValue::from_log10(-400.0);
        let adj = holm(&[PValue::from_value(0.2), tiny]);
        assert!(adj[1].is_bound());
        assert!((adj[1].log10 - (-400.0 + 2f64.log10())).abs() < 1e-12);
        assert_eq!(adj[0].value, Some(0.2));
        assert!(holm(&[]).is_empty());
    }
}
