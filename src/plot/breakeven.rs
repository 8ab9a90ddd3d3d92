//! Break-even Delta per ordered matchup: where G1's win rate crosses 0.5 (interpolated between
//! kept bins), with the paper's values read off its Figure 2 drawn beside ours.
//!
//! Invariant: a matchup whose kept bins never cross 0.5 is labelled "no crossing", never drawn at
//! a made-up position.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{DrawResult, Figure, OrMessage, bold, font, palette};
use super::layout::matchup_label;
use super::ticks::Ticks;
use crate::results::StudyResults;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const ROW: u32 = 30;
const WIDTH: u32 = 760;
const EXTRA: u32 = 130;

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

impl Figure for BreakEvenChart<'_> {
    fn size(&self) -> (u32, u32) {
        (
            WIDTH,
            EXTRA + ROW * self.study.breakeven.len().max(1) as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
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
            format!(
                "Break-even Δ_briscola ({}): where Pr(G1 wins) = 0.5",
                self.study.name
            ),
            (16, 10),
            bold(14),
        ))
        .msg()?;
        root.draw(&Circle::new((250, 42), 4, palette::OURS.filled()))
            .msg()?;
        root.draw(&Text::new(
            "ours (interpolated crossing of 0.5)",
            (260, 35),
            font(12),
        ))
        .msg()?;
        root.draw(&Rectangle::new(
            [(500, 38), (508, 46)],
            palette::PAPER.stroke_width(2),
        ))
        .msg()?;
        root.draw(&Text::new(
            "paper (read off its Figure 2)",
            (514, 35),
            font(12),
        ))
        .msg()?;
        let body = root.margin(56, 0, 0, 0);
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(230)
            .build_cartesian_2d(Ticks::delta(), Ticks::categories(n))
            .msg()?;
        chart
            .configure_mesh()
            .bold_line_style(palette::GUIDE.mix(0.15))
            .light_line_style(TRANSPARENT)
            .x_desc("Δ_briscola = B_G1 − B_G2 at which G1 breaks even")
            .x_label_formatter(&|v| format!("{}", v.round() as i64))
            .y_label_formatter(&label_of)
            .label_style(font(12))
            .axis_desc_style(font(12))
            .draw()
            .msg()?;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, -0.5), (0.0, n as f64 - 0.5)],
                4,
                4,
                palette::GUIDE.stroke_width(1),
            ))
            .msg()?;
        for (i, b) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            match b.delta {
                Some(d) if d.is_finite() => {
                    chart
                        .draw_series(std::iter::once(Circle::new(
                            (d.clamp(-11.0, 11.0), y),
                            4,
                            palette::OURS.filled(),
                        )))
                        .msg()?;
                }
                _ => {
                    chart
                        .draw_series(std::iter::once(Text::new(
                            "no crossing",
                            (-10.5, y),
                            font(11).pos(Pos::new(HPos::Left, VPos::Center)),
                        )))
                        .msg()?;
                }
            }
            if let Some(p) = self
                .paper
                .iter()
                .find(|p| p.g1_policy == b.g1_policy && p.g2_policy == b.g2_policy)
            {
                let x = p.delta.clamp(-11.0, 11.0);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x - 0.18, y - 0.15), (x + 0.18, y + 0.15)],
                        palette::PAPER.stroke_width(2),
                    )))
                    .msg()?;
            }
        }
        Ok(())
    }
}
