//! The paper's Figure 2: G1's win rate among non-tied games against Delta_briscola, one panel
//! per ordered matchup (rows G1's policy, columns G2's), Wilson ribbon, points and line.
//!
//! Invariant: only bins with `kept == true` are drawn, and each kept bin is drawn as exactly one
//! `<circle>` (nothing else in the figure is a circle), so the SVG can be checked by counting.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{DrawResult, Figure, OrMessage, bold, font, palette};
use super::font::FAMILY;
use super::layout::{matchup_label, policy_names};
use super::ticks::Ticks;
use crate::results::{Figure2Bin, StudyResults};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Pixel size of one panel.
const PANEL: (u32, u32) = (300, 250);
/// Space for the figure title, the shared axis labels.
const TOP: u32 = 36;
const LEFT: u32 = 34;
const BOTTOM: u32 = 40;
const RIGHT: u32 = 12;

/// Figure 2 for one study.
pub struct Figure2<'a> {
    study: &'a StudyResults,
    names: Vec<String>,
}

impl<'a> Figure2<'a> {
    /// The figure for `study`.
    pub fn new(study: &'a StudyResults) -> Figure2<'a> {
        Figure2 {
            study,
            names: policy_names(study),
        }
    }

    fn kept_bins(&self, g1: &str, g2: &str) -> Vec<&'a Figure2Bin> {
        self.study
            .figure2
            .iter()
            .find(|p| p.g1_policy == g1 && p.g2_policy == g2)
            .map(|p| p.bins.iter().filter(|b| b.kept).collect())
            .unwrap_or_default()
    }
}

impl Figure for Figure2<'_> {
    fn size(&self) -> (u32, u32) {
        let k = self.names.len().max(1) as u32;
        (LEFT + k * PANEL.0 + RIGHT, TOP + k * PANEL.1 + BOTTOM)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let (w, h) = self.size();
        let title = format!(
            "Figure 2 ({}): Pr(G1 wins) among non-tied games by Δ_briscola; grey: Wilson 95%",
            self.study.name
        );
        root.draw(&Text::new(title, (LEFT as i32, 10), bold(15)))
            .msg()?;
        let x_label = "Δ_briscola = B_G1 − B_G2";
        root.draw(&Text::new(
            x_label,
            ((LEFT + (w - LEFT - RIGHT) / 2) as i32, (h - 16) as i32),
            font(14).pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .msg()?;
        root.draw(&Text::new(
            "Pr(G1 wins)",
            (12, (TOP + (h - TOP - BOTTOM) / 2) as i32),
            font(14)
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .msg()?;
        let k = self.names.len();
        if k == 0 {
            return Ok(());
        }
        let grid = root.margin(TOP, BOTTOM, LEFT, RIGHT);
        let panels = grid.split_evenly((k, k));
        for (i, g1) in self.names.iter().enumerate() {
            for (j, g2) in self.names.iter().enumerate() {
                draw_panel(&panels[i * k + j], g1, g2, &self.kept_bins(g1, g2))?;
            }
        }
        Ok(())
    }
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    g1: &str,
    g2: &str,
    bins: &[&Figure2Bin],
) -> DrawResult {
    let mut chart = ChartBuilder::on(area)
        .caption(matchup_label(g1, g2), font(13))
        .margin(6)
        .x_label_area_size(20)
        .y_label_area_size(34)
        .build_cartesian_2d(
            Ticks::delta(),
            Ticks::new(0.0..1.0, vec![0.0, 0.25, 0.5, 0.75, 1.0]),
        )
        .msg()?;
    chart
        .configure_mesh()
        .bold_line_style(palette::GUIDE.mix(0.15))
        .light_line_style(TRANSPARENT)
        .axis_style(palette::GUIDE)
        .x_label_formatter(&|v| format!("{}", v.round() as i64))
        .y_label_formatter(&|v| format!("{v:.2}"))
        .label_style(font(11))
        .draw()
        .msg()?;
    let guide = palette::GUIDE.stroke_width(1);
    chart
        .draw_series(DashedLineSeries::new(
            vec![(0.0, 0.0), (0.0, 1.0)],
            4,
            4,
            guide,
        ))
        .msg()?;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(-11.0, 0.5), (11.0, 0.5)],
            4,
            4,
            guide,
        ))
        .msg()?;
    if bins.is_empty() {
        chart
            .draw_series(std::iter::once(Text::new(
                "no bin kept",
                (-4.0, 0.8),
                (FAMILY, 12).into_font().color(&palette::GUIDE),
            )))
            .msg()?;
        return Ok(());
    }
    let mut ribbon: Vec<(f64, f64)> = bins.iter().map(|b| (f64::from(b.delta), b.lo)).collect();
    ribbon.extend(bins.iter().rev().map(|b| (f64::from(b.delta), b.hi)));
    chart
        .draw_series(std::iter::once(Polygon::new(
            ribbon,
            palette::RIBBON.mix(0.45).filled(),
        )))
        .msg()?;
    chart
        .draw_series(LineSeries::new(
            bins.iter().map(|b| (f64::from(b.delta), b.rate)),
            palette::OURS.stroke_width(1),
        ))
        .msg()?;
    chart
        .draw_series(
            bins.iter()
                .map(|b| Circle::new((f64::from(b.delta), b.rate), 3, palette::OURS.filled())),
        )
        .msg()?;
    Ok(())
}
