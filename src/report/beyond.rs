//! "Beyond the paper": each sweep ready for the templates, with its answer per opponent in one
//! computed sentence (which grid values beat the opponent after Holm's correction, or that none
//! does, and where the pooled win rate peaks).
//!
//! Invariant: every number in a sentence is read from the sweep's results; nothing is typed.

use serde::Serialize;

use super::format::{fixed, pval, signed, thousands};
use crate::results::sweep::{BaselineDiff, SweepCell, SweepResults};

/// One sweep's answer against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepAnswer {
    /// The opponent.
    pub opponent: String,
    /// Grid values whose point beats the opponent (Holm), in grid order.
    pub beating: Vec<f64>,
    /// Grid values whose point loses to it (Holm), in grid order.
    pub losing: Vec<f64>,
    /// The grid value with the highest pooled win rate.
    pub best: Option<f64>,
    /// The answer in one sentence.
    pub sentence: String,
    /// The answer in one short clause, for the report's Answers block: which values beat the
    /// opponent (or that none does) and the best point's pooled rate with its interval.
    pub short: String,
    /// How every point compares with the sweep's baseline point on the same deals, in one
    /// sentence ("" when the sweep has no baseline).
    pub vs_baseline: String,
}

/// A sweep for the templates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepView {
    /// The results.
    pub results: SweepResults,
    /// The report question it answers ("q1", "q3"), or "" for none.
    pub question: String,
    /// What a grid value is called in sentences ("threshold" for a switch).
    pub noun: String,
    /// One answer per opponent, in order.
    pub answers: Vec<SweepAnswer>,
    /// Each cell's grid value as printed (`10`, not `10.0`), in the order of `results.points`.
    pub value_texts: Vec<String>,
    /// Each cell against the baseline, as printed ("the baseline" for the baseline's own cells;
    /// empty when the sweep has no baseline), in the order of `results.points`.
    pub baseline_texts: Vec<String>,
    /// The baseline value as printed ("" when none).
    pub baseline_text: String,
}

/// `v` as a grid value is printed (rounded to 1e-9: `0.1 * 3` prints as `0.3`).
fn value_text(v: f64) -> String {
    let s = format!("{}", (v * 1e9).round() / 1e9);
    match s.strip_prefix('-') {
        Some(rest) if rest != "0" => format!("−{rest}"),
        Some(rest) => rest.to_string(),
        None => s,
    }
}

fn list(param: &str, values: &[f64]) -> String {
    let texts: Vec<String> = values.iter().map(|v| value_text(*v)).collect();
    format!("{param} = {}", texts.join(", "))
}

fn rate_text(c: &SweepCell) -> String {
    format!(
        "{} [{}, {}]",
        fixed(c.both.rate, 3),
        fixed(c.both.lo, 3),
        fixed(c.both.hi, 3)
    )
}

fn answer(s: &SweepResults, noun: &str, opponent: &str) -> SweepAnswer {
    let cells: Vec<&SweepCell> = s.against(opponent).collect();
    let beating: Vec<f64> = cells.iter().filter(|c| c.beats).map(|c| c.value).collect();
    let losing: Vec<f64> = cells.iter().filter(|c| c.loses).map(|c| c.value).collect();
    let best = cells
        .iter()
        .copied()
        .reduce(|a, b| if b.both.rate > a.both.rate { b } else { a });
    let p = &s.parameter;
    let family = format!(
        "Holm's correction over the sweep's {} tests, family α = {}",
        s.points.len(),
        s.family_alpha
    );
    let verdict = if beating.is_empty() {
        format!(
            "No {noun} does: none of the {} points wins significantly more than half of its non-tied games against {opponent} ({family})",
            cells.len()
        )
    } else {
        format!(
            "Yes: {} beat{} {opponent} ({family})",
            list(p, &beating),
            if beating.len() == 1 { "s" } else { "" }
        )
    };
    let shape = match (cells.first(), cells.last(), best) {
        (Some(first), Some(last), Some(b)) => format!(
            "; both seats pooled, the win rate goes from {} at {p} = {} to {} at {p} = {}, highest at {p} = {} with {}",
            rate_text(first),
            value_text(first.value),
            rate_text(last),
            value_text(last.value),
            value_text(b.value),
            rate_text(b)
        ),
        _ => String::new(),
    };
    let losers = if losing.is_empty() {
        String::new()
    } else {
        format!(
            "; {} lose{} to it",
            list(p, &losing),
            if losing.len() == 1 { "s" } else { "" }
        )
    };
    let sentence = format!("{verdict}{shape}{losers}.");
    let short = short_answer(s, noun, opponent, &beating, best);
    SweepAnswer {
        opponent: opponent.to_string(),
        beating,
        losing,
        best: best.map(|b| b.value),
        sentence,
        short,
        vs_baseline: s
            .baseline
            .map_or(String::new(), |b| baseline_sentence(s, opponent, b)),
    }
}

/// The short answer (see [`SweepAnswer::short`]).
fn short_answer(
    s: &SweepResults,
    noun: &str,
    opponent: &str,
    beating: &[f64],
    best: Option<&SweepCell>,
) -> String {
    let p = &s.parameter;
    let head = if beating.is_empty() {
        format!("no {noun} beats {opponent}")
    } else {
        format!(
            "{} beat{} {opponent}",
            list(p, beating),
            if beating.len() == 1 { "s" } else { "" }
        )
    };
    match best {
        Some(b) => format!(
            "{head} (Holm), best {p} = {}: {}",
            value_text(b.value),
            rate_text(b)
        ),
        None => head,
    }
}

/// A mean score difference and its interval, as a difference of proportions (the report's
/// one format for rates): `−0.0112 [−0.0160, −0.0064]` (four decimals, so an interval that
/// excludes 0 never prints a bound of 0).
fn diff_text(d: &BaselineDiff) -> String {
    format!(
        "{} [{}, {}]",
        signed(d.mean, 4),
        signed(d.lo, 4),
        signed(d.hi, 4)
    )
}

/// Every point against the baseline `b` (same opponent, same deals), in one sentence.
fn baseline_sentence(s: &SweepResults, opponent: &str, b: f64) -> String {
    let p = &s.parameter;
    let compared: Vec<(&SweepCell, BaselineDiff)> = s
        .against(opponent)
        .filter_map(|c| c.vs_baseline.map(|d| (c, d)))
        .collect();
    let pick = |f: fn(&BaselineDiff) -> bool| -> Vec<f64> {
        compared
            .iter()
            .filter(|(_, d)| f(d))
            .map(|(c, _)| c.value)
            .collect()
    };
    let (worse, better) = (pick(|d| d.worse), pick(|d| d.better));
    let same = pick(|d| !d.worse && !d.better);
    let mut parts = Vec::new();
    for (values, one, many) in [
        (&worse, "scores less", "score less"),
        (&better, "scores more", "score more"),
        (
            &same,
            "is not distinguishable from it",
            "are not distinguishable from it",
        ),
    ] {
        if !values.is_empty() {
            let what = if values.len() == 1 { one } else { many };
            parts.push(format!("{} {what}", list(p, values)));
        }
    }
    let nearest = compared
        .iter()
        .min_by(|x, y| (x.0.value - b).abs().total_cmp(&(y.0.value - b).abs()))
        .map(|(c, d)| {
            format!(
                "; at {p} = {} the difference in mean score is {}",
                value_text(c.value),
                diff_text(d)
            )
        })
        .unwrap_or_default();
    let deals = compared.first().map_or(0, |(_, d)| d.deals);
    format!(
        "Compared with {p} = {} on the same deals (mean score per deal, win 1 and tie ½, both seat orders; paired t intervals over {} deals, Holm over the sweep's {} comparisons, family α = {}): {}{nearest}.",
        value_text(b),
        thousands(deals as i128),
        s.points.iter().filter(|c| c.vs_baseline.is_some()).count(),
        s.family_alpha,
        parts.join("; ")
    )
}

/// One cell against the baseline, for the tables.
fn baseline_cell_text(s: &SweepResults, c: &SweepCell) -> String {
    match (s.baseline, c.vs_baseline) {
        (None, _) => String::new(),
        (Some(_), None) => "the baseline".into(),
        (Some(_), Some(d)) => format!("{} (p {})", diff_text(&d), pval(&d.p_holm, 2)),
    }
}

/// The view of `s`.
pub fn sweep_view(s: &SweepResults) -> SweepView {
    let noun = match s.kind.as_str() {
        "switch" => "threshold",
        "epsilon" => "exploration rate",
        _ => "value",
    }
    .to_string();
    let answers = s.opponents.iter().map(|o| answer(s, &noun, o)).collect();
    SweepView {
        results: s.clone(),
        question: s.question.clone().unwrap_or_default(),
        noun,
        answers,
        value_texts: s.points.iter().map(|c| value_text(c.value)).collect(),
        baseline_texts: s.points.iter().map(|c| baseline_cell_text(s, c)).collect(),
        baseline_text: s.baseline.map_or(String::new(), value_text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::sweep::SeatRate;
    use crate::stats::PValue;

    fn cell(value: f64, wins: u64, beats: bool, loses: bool) -> SweepCell {
        let r = SeatRate {
            wins,
            non_tied: 1000,
            ties: 0,
            rate: wins as f64 / 1000.0,
            lo: wins as f64 / 1000.0 - 0.03,
            hi: wins as f64 / 1000.0 + 0.03,
        };
        SweepCell {
            value,
            policy: format!("s-k{value}"),
            opponent: "greedy".into(),
            as_g1: r,
            as_g2: r,
            both: r,
            p_value: PValue::from_value(0.5),
            p_holm: PValue::from_value(0.5),
            beats,
            loses,
            vs_baseline: None,
        }
    }

    fn sweep(points: Vec<SweepCell>) -> SweepResults {
        SweepResults {
            name: "s".into(),
            label: "S".into(),
            question: Some("q3".into()),
            parameter: "k".into(),
            kind: "switch".into(),
            seed: 1,
            games_per_matchup: 500,
            confidence: 0.95,
            family_alpha: 0.05,
            correction: "holm".into(),
            opponents: vec!["greedy".into()],
            points,
            baseline: None,
        }
    }

    #[test]
    fn says_no_threshold_does_when_none_beats() {
        let v = sweep_view(&sweep(vec![
            cell(0.0, 500, false, false),
            cell(1.0, 510, false, false),
            cell(2.0, 400, false, true),
        ]));
        let a = &v.answers[0];
        assert!(a.beating.is_empty());
        assert_eq!(a.losing, [2.0]);
        assert_eq!(a.best, Some(1.0));
        assert!(
            a.sentence
                .starts_with("No threshold does: none of the 3 points"),
            "{}",
            a.sentence
        );
        assert!(
            a.sentence
                .contains("highest at k = 1 with 0.510 [0.480, 0.540]"),
            "{}",
            a.sentence
        );
        assert!(a.sentence.ends_with("k = 2 loses to it."), "{}", a.sentence);
    }

    #[test]
    fn names_the_thresholds_that_beat() {
        let v = sweep_view(&sweep(vec![
            cell(0.0, 560, true, false),
            cell(1.0, 570, true, false),
            cell(2.0, 500, false, false),
        ]));
        let a = &v.answers[0];
        assert_eq!(a.beating, [0.0, 1.0]);
        assert!(
            a.sentence.starts_with("Yes: k = 0, 1 beat greedy"),
            "{}",
            a.sentence
        );
    }
}
