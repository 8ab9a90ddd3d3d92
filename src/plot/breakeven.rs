//! Break-even Delta per ordered matchup: where G1's win rate crosses 0.5 (interpolated between
//! kept bins), with the paper's values read off its Figure 2 drawn beside ours.
//!
//! The Δ axis is fitted to the values drawn (ours, the paper's and 0), never a fixed −10..10.
//!
//! Invariant: a matchup whose kept bins never cross 0.5 is labelled "no crossing", never drawn at
//! a made-up position.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Canvas, DrawResult, Figure, OrMessage, Tip, bold, font, palette};
use super::extent::fitted_size;
use super::layout::matchup_label;
use super::legend::{Legend, Swatch};
use super::number::fixed;
use super::ticks::Ticks;
use crate::results::StudyResults;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const ROW: u32 = 30;
const WIDTH: u32 = 760;
const EXTRA: u32 = 150;

/// A published break-even value for one ordered matchup.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaperBreakEven {
    /// G1's policy.
    pub g1_policy: String,
    /// G2's policy.
    pub g2_policy: String,
    /// The paper's approximate Delta.
    pub delta: f64,
}

/// The break-even chart of one study.
pub struct BreakEvenChart<'a> {
    study: &'a StudyResults,
    paper: &'a [PaperBreakEven],
}

impl<'a> BreakEvenChart<'a> {
    /// The chart for `study`, with the paper's values `paper` (may be empty).
    pub fn new(study: &'a StudyResults, paper: &'a [PaperBreakEven]) -> BreakEvenChart<'a> {
        BreakEvenChart { study, paper }
    }
}

impl BreakEvenChart<'_> {
    fn paper_value(&self, g1: &str, g2: &str) -> Option<f64> {
        self.paper
            .iter()
            .find(|p| p.g1_policy == g1 && p.g2_policy == g2)
            .map(|p| p.delta)
            .filter(|d| d.is_finite())
    }

    /// The Δ axis: every drawn value (ours and the paper's) and 0, with a margin.
    pub fn x_axis(&self) -> Ticks {
        let values = self
            .study
            .breakeven
            .iter()
            .flat_map(|b| {
                [
                    b.delta.filter(|d| d.is_finite()),
                    self.paper_value(&b.g1_policy, &b.g2_policy),
                ]
            })
            .flatten()
            .chain([0.0]);
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        let pad = ((hi - lo) * 0.08).max(0.3);
        Ticks::fitted(lo, hi, pad, 8, 0.0)
    }

    /// The legend: our crossing, the paper's value.
    pub fn legend(&self) -> Legend {
        let mut entries = vec![(
            Swatch::Point(palette::OURS),
            "ours (interpolated crossing of 0.5)".to_string(),
        )];
        if !self.paper.is_empty() {
            entries.push((
                Swatch::Square(palette::PAPER),
                "paper (read off its Figure 2)".to_string(),
            ));
        }
        entries.push((Swatch::Dashed(palette::GUIDE), "Δ = 0".to_string()));
        Legend::new(entries)
    }
}

impl Figure for BreakEvenChart<'_> {
    fn size(&self) -> (u32, u32) {
        (
            WIDTH,
            EXTRA + ROW * self.study.breakeven.len().max(1) as u32,
        )
    }

    fn title(&self) -> String {
        format!(
            "Break-even Δ_{{briscola}} ({}): where Pr(G1 wins) = 0.5",
            self.study.name
        )
    }

    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let rows = &self.study.breakeven;
        let n = rows.len().max(1);
        let labels: Vec<String> = rows
            .iter()
            .map(|b| matchup_label(&b.g1_policy, &b.g2_policy))
            .collect();
        let label_of = move |v: &f64| -> String {
            let i = v.round();
            if (v - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < labels.len() {
                labels[labels.len() - 1 - i as usize].clone()
            } else {
                String::new()
            }
        };
        root.draw(&Text::new(
            self.title(),
            (16, 10),
            bold(fitted_size(&self.title(), 15, self.size().0 - 32, true)),
        ))
        .msg()?;
        self.legend().draw(root, (16, 42))?;
        let x_axis = self.x_axis();
        let (x0, x1) = (x_axis.range().start, x_axis.range().end);
        let body = root.margin(58, 0, 0, 0);
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(230)
            .build_cartesian_2d(x_axis.clone(), Ticks::categories(n))
            .msg()?;
        chart
            .configure_mesh()
            .bold_line_style(palette::GUIDE.mix(0.15))
            .light_line_style(TRANSPARENT)
            .x_desc("Δ_{briscola} = B_{G1} − B_{G2} at which G1 breaks even")
            .x_label_formatter(&|v| x_axis.label(*v))
            .y_label_formatter(&label_of)
            .label_style(font(12))
            .axis_desc_style(font(13))
            .draw()
            .msg()?;
        if x0 <= 0.0 && 0.0 <= x1 {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.0, -0.5), (0.0, n as f64 - 0.5)],
                    4,
                    4,
                    palette::GUIDE.stroke_width(1),
                ))
                .msg()?;
        }
        for (i, b) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let label = matchup_label(&b.g1_policy, &b.g2_policy);
            match b.delta {
                Some(d) if d.is_finite() => {
                    body.draw(&Tip::begin(format!("{label}: ours Δ = {}", fixed(d, 2))))
                        .msg()?;
                    chart
                        .draw_series(std::iter::once(Circle::new(
                            (d, y),
                            4,
                            palette::OURS.filled(),
                        )))
                        .msg()?;
                    body.draw(&Tip::end()).msg()?;
                }
                _ => {
                    chart
                        .draw_series(std::iter::once(Text::new(
                            "no crossing",
                            (x0, y),
                            font(12).pos(Pos::new(HPos::Left, VPos::Center)),
                        )))
                        .msg()?;
                }
            }
            if let Some(x) = self.paper_value(&b.g1_policy, &b.g2_policy) {
                let half = 0.012 * (x1 - x0);
                body.draw(&Tip::begin(format!("{label}: paper Δ ≈ {}", fixed(x, 1))))
                    .msg()?;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - half, y - 0.17), (x + half, y + 0.17)],
                        palette::PAPER.stroke_width(2),
                    )))
                    .msg()?;
                body.draw(&Tip::end()).msg()?;
            }
        }
        Ok(())
    }
}
