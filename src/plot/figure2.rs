//! The paper's Figure 2: G1's win rate among non-tied games against Delta_briscola, one panel
//! per ordered matchup (rows G1's policy, columns G2's), Wilson ribbon, points and line.
//!
//! Axes are shared by all panels and fitted to the kept bins (Δ with half a bin's margin, rates
//! with the intervals and one half); every bin's interval is drawn as a capped bar over the band
//! and its games and wins are its point's tooltip.
//!
//! Invariant: only bins with `kept == true` are drawn, and each kept bin is drawn as exactly one
//! `<circle>` inside its own tooltip group (the legend's sample point is the only other circle),
//! so the SVG can be checked by counting.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Canvas, DrawResult, Figure, OrMessage, Tip, bold, font, palette};
use super::extent::fitted_size;
use super::font::FAMILY;
use super::layout::{matchup_label, policy_names};
use super::legend::{Legend, Swatch};
use super::number::{fixed, grouped};
use super::ticks::Ticks;
use crate::results::{Figure2Bin, StudyResults};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Pixel size of one panel.
const PANEL: (u32, u32) = (300, 270);
/// Space for the figure title and legend, the shared axis labels.
const TOP: u32 = 62;
const LEFT: u32 = 34;
const BOTTOM: u32 = 44;
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

    /// The panel's non-tied games, every bin (kept or not): the n it states.
    pub fn games(&self, g1: &str, g2: &str) -> u64 {
        self.study
            .figure2
            .iter()
            .filter(|p| p.g1_policy == g1 && p.g2_policy == g2)
            .flat_map(|p| &p.bins)
            .map(|b| b.n)
            .sum()
    }

    fn all_kept(&self) -> impl Iterator<Item = &'a Figure2Bin> {
        self.study
            .figure2
            .iter()
            .flat_map(|p| p.bins.iter().filter(|b| b.kept))
    }

    /// The shared Δ axis: the kept bins' range with half a bin's margin, integer ticks.
    pub fn x_axis(&self) -> Ticks {
        let (lo, hi) = self
            .all_kept()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), b| {
                (lo.min(f64::from(b.delta)), hi.max(f64::from(b.delta)))
            });
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (-1.0, 1.0) };
        Ticks::fitted(lo.min(0.0), hi.max(0.0), 0.6, 10, 1.0)
    }

    /// The shared rate axis: every kept bin's interval and one half, within 0..1.
    pub fn y_axis(&self) -> Ticks {
        let (lo, hi) = self
            .all_kept()
            .filter(|b| b.lo.is_finite() && b.hi.is_finite())
            .fold((0.5f64, 0.5f64), |(lo, hi), b| (lo.min(b.lo), hi.max(b.hi)));
        let pad = 0.03;
        Ticks::fitted((lo - pad).max(0.0), (hi + pad).min(1.0), 0.0, 6, 0.05)
    }
}

/// The tooltip of one bin: its Δ, games and wins (the n per bin the figure otherwise hides).
pub fn bin_tip(g1: &str, g2: &str, b: &Figure2Bin) -> String {
    format!(
        "{} — Δ = {}: G1 won {} of {} non-tied games, rate {:.3} (Wilson 95% {:.3}–{:.3})",
        matchup_label(g1, g2),
        fixed(f64::from(b.delta), 0),
        grouped(b.wins),
        grouped(b.n),
        b.rate,
        b.lo,
        b.hi
    )
}

impl Figure for Figure2<'_> {
    fn size(&self) -> (u32, u32) {
        let k = self.names.len().max(1) as u32;
        (LEFT + k * PANEL.0 + RIGHT, TOP + k * PANEL.1 + BOTTOM)
    }

    fn title(&self) -> String {
        format!(
            "Figure 2 ({}): Pr(G1 wins) among non-tied games by Δ_{{briscola}}",
            self.study.name
        )
    }

    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let (w, h) = self.size();
        root.draw(&Text::new(
            self.title(),
            (LEFT as i32, 10),
            bold(fitted_size(&self.title(), 15, w - LEFT - RIGHT, true)),
        ))
        .msg()?;
        legend().draw(root, (LEFT as i32, 40))?;
        let x_label = "Δ_{briscola} = B_{G1} − B_{G2}";
        root.draw(&Text::new(
            x_label,
            ((LEFT + (w - LEFT - RIGHT) / 2) as i32, (h - 16) as i32),
            font(14).pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .msg()?;
        root.draw(&Text::new(
            "Pr(G1 wins)",
            (14, (TOP + (h - TOP - BOTTOM) / 2) as i32),
            font(14)
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .msg()?;
        let k = self.names.len();
        if k == 0 {
            return Ok(());
        }
        let axes = (self.x_axis(), self.y_axis());
        let grid = root.margin(TOP, BOTTOM, LEFT, RIGHT);
        let panels = grid.split_evenly((k, k));
        for (i, g1) in self.names.iter().enumerate() {
            for (j, g2) in self.names.iter().enumerate() {
                let bins = self.kept_bins(g1, g2);
                draw_panel(
                    &panels[i * k + j],
                    (g1.as_str(), g2.as_str()),
                    self.games(g1, g2),
                    &bins,
                    &axes,
                )?;
            }
        }
        Ok(())
    }
}

/// The legend above the panels: what the points, the band, the bars and the guides are.
pub fn legend() -> Legend {
    Legend::new(vec![
        (
            Swatch::PointBand(palette::OURS, palette::BAND),
            "G1's win rate per Δ; band and bars: Wilson 95% interval".to_string(),
        ),
        (
            Swatch::Dashed(palette::GUIDE),
            "Δ = 0 and rate 0.5".to_string(),
        ),
    ])
}

/// The panel's n, in its plotting area's lower right corner (where a rate rising with Δ leaves
/// room).
pub fn n_label(n: u64) -> String {
    format!("n = {}", grouped(n))
}

fn draw_panel<DB: Canvas>(
    area: &DrawingArea<DB, Shift>,
    (g1, g2): (&str, &str),
    games: u64,
    bins: &[&Figure2Bin],
    (x_axis, y_axis): &(Ticks, Ticks),
) -> DrawResult {
    let mut chart = ChartBuilder::on(area)
        .caption(matchup_label(g1, g2), font(13))
        .margin(6)
        .x_label_area_size(22)
        .y_label_area_size(38)
        .build_cartesian_2d(x_axis.clone(), y_axis.clone())
        .msg()?;
    chart
        .configure_mesh()
        .bold_line_style(palette::GUIDE.mix(0.15))
        .light_line_style(TRANSPARENT)
        .axis_style(palette::GUIDE)
        .x_label_formatter(&|v| x_axis.label(*v))
        .y_label_formatter(&|v| y_axis.label(*v))
        .label_style(font(12))
        .draw()
        .msg()?;
    let plot = chart.plotting_area().strip_coord_spec();
    let (pw, ph) = plot.dim_in_pixel();
    plot.draw(&Text::new(
        n_label(games),
        (pw as i32 - 4, ph as i32 - 4),
        (FAMILY, 11)
            .into_font()
            .color(&palette::GUIDE)
            .pos(Pos::new(HPos::Right, VPos::Bottom)),
    ))
    .msg()?;
    let guide = palette::GUIDE.stroke_width(1);
    let (x0, x1) = (x_axis.range().start, x_axis.range().end);
    let (y0, y1) = (y_axis.range().start, y_axis.range().end);
    chart
        .draw_series(DashedLineSeries::new(
            vec![(0.0, y0), (0.0, y1)],
            4,
            4,
            guide,
        ))
        .msg()?;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(x0, 0.5), (x1, 0.5)],
            4,
            4,
            guide,
        ))
        .msg()?;
    if bins.is_empty() {
        chart
            .draw_series(std::iter::once(Text::new(
                "no bin kept",
                (0.0, (y0 + y1) / 2.0),
                (FAMILY, 12)
                    .into_font()
                    .color(&palette::GUIDE)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            )))
            .msg()?;
        return Ok(());
    }
    let mut ribbon: Vec<(f64, f64)> = bins.iter().map(|b| (f64::from(b.delta), b.lo)).collect();
    ribbon.extend(bins.iter().rev().map(|b| (f64::from(b.delta), b.hi)));
    chart
        .draw_series(std::iter::once(Polygon::new(
            ribbon,
            palette::BAND.filled(),
        )))
        .msg()?;
    // The interval of every bin as a bar with caps, drawn over the band: where the band is
    // thinner than a point, the caps still show it.
    for b in bins {
        let x = f64::from(b.delta);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x, b.lo), (x, b.hi)],
                palette::OURS.mix(0.6).stroke_width(1),
            )))
            .msg()?;
        for v in [b.lo, b.hi] {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x - 0.22, v), (x + 0.22, v)],
                    palette::OURS.mix(0.6).stroke_width(1),
                )))
                .msg()?;
        }
    }
    chart
        .draw_series(LineSeries::new(
            bins.iter().map(|b| (f64::from(b.delta), b.rate)),
            palette::OURS.stroke_width(1),
        ))
        .msg()?;
    for b in bins {
        area.draw(&Tip::begin(bin_tip(g1, g2, b))).msg()?;
        chart
            .draw_series(std::iter::once(Circle::new(
                (f64::from(b.delta), b.rate),
                2,
                palette::OURS.filled(),
            )))
            .msg()?;
        area.draw(&Tip::end()).msg()?;
    }
    Ok(())
}
