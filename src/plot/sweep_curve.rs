//! A sweep's figure: the point policy's win rate among non-tied games against the swept
//! parameter, in seat G1, in seat G2 and pooled over both, with Wilson intervals as whiskers
//! and a dashed guide at 0.5; one panel per opponent.
//!
//! Invariant: every (point, opponent) cell is drawn as exactly three markers (one per series)
//! at its own grid position; a grid that is not evenly spaced is drawn at evenly spaced
//! positions labelled with the values, never squeezed.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{Canvas, DrawResult, Figure, OrMessage, bold, font, palette};
use super::extent::fitted_size;
use super::number::fixed;
use super::ticks::Ticks;
use crate::results::sweep::{SeatRate, SweepCell, SweepResults};

/// One drawn line: its colour, its horizontal offset and which rate of a cell it plots.
type Series = (RGBColor, f64, fn(&SweepCell) -> SeatRate);

const PANEL: (u32, u32) = (720, 330);
const TOP: u32 = 64;
const BOTTOM: u32 = 20;

/// The figure of one sweep.
pub struct SweepFigure<'a> {
    sweep: &'a SweepResults,
}

impl<'a> SweepFigure<'a> {
    /// The figure for `sweep`.
    pub fn new(sweep: &'a SweepResults) -> SweepFigure<'a> {
        SweepFigure { sweep }
    }
}

/// The grid values in order (first opponent's cells).
fn values(s: &SweepResults) -> Vec<f64> {
    let first = s.opponents.first().map(String::as_str).unwrap_or_default();
    s.against(first).map(|c| c.value).collect()
}

/// Whether the values are evenly spaced (then the x axis is linear in the value).
fn evenly_spaced(v: &[f64]) -> bool {
    if v.len() < 3 {
        return true;
    }
    let step = v[1] - v[0];
    v.windows(2)
        .all(|w| ((w[1] - w[0]) - step).abs() <= 1e-9 * step.abs().max(1.0))
}

/// The text of a grid value on the axis (rounded to 1e-9, so 0.1 * 3 prints as 0.3), with a
/// Unicode minus.
fn value_text(v: f64) -> String {
    let s = format!("{}", (v * 1e9).round() / 1e9);
    match s.strip_prefix('-') {
        Some(rest) if rest != "0" => format!("−{rest}"),
        Some(rest) => rest.to_string(),
        None => s,
    }
}

impl Figure for SweepFigure<'_> {
    fn size(&self) -> (u32, u32) {
        let n = self.sweep.opponents.len().max(1) as u32;
        (PANEL.0, TOP + n * PANEL.1 + BOTTOM)
    }

    fn title(&self) -> String {
        let s = self.sweep;
        format!("{} ({}): win rate against {}", s.label, s.name, s.parameter)
    }

    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let s = self.sweep;
        let title = self.title();
        let size = fitted_size(&title, 14, PANEL.0 - 32, true);
        root.draw(&Text::new(title, (16, 10), bold(size))).msg()?;
        let legend = [
            (palette::OURS, "in seat G1"),
            (palette::SECOND, "in seat G2"),
            (palette::TEXT, "both seats pooled"),
        ];
        for (i, (colour, text)) in legend.iter().enumerate() {
            let x = 20 + 170 * i as i32;
            root.draw(&Circle::new((x, 44), 4, colour.filled())).msg()?;
            root.draw(&Text::new(*text, (x + 10, 37), font(12))).msg()?;
        }
        root.draw(&Text::new(
            format!("whiskers: Wilson {}%", value_text(100.0 * s.confidence)),
            (530, 37),
            font(12),
        ))
        .msg()?;
        let body = root.margin(TOP, BOTTOM, 0, 0);
        let n = s.opponents.len().max(1);
        let panels = body.split_evenly((n, 1));
        for (panel, opponent) in panels.iter().zip(&s.opponents) {
            let cells: Vec<&SweepCell> = s.against(opponent).collect();
            draw_panel(panel, s, opponent, &cells)?;
        }
        Ok(())
    }
}

fn y_axis(cells: &[&SweepCell]) -> Ticks {
    let (mut lo, mut hi) = (0.5f64, 0.5f64);
    for c in cells {
        for r in [c.as_g1, c.as_g2, c.both] {
            lo = lo.min(r.lo);
            hi = hi.max(r.hi);
        }
    }
    let step = if hi - lo > 0.4 {
        0.1
    } else if hi - lo > 0.12 {
        0.05
    } else {
        0.02
    };
    let lo = ((lo / step).floor() * step).max(0.0);
    let hi = ((hi / step).ceil() * step).min(1.0);
    let n = ((hi - lo) / step).round() as i64;
    Ticks::new(
        lo..hi.max(lo + step),
        (0..=n).map(|i| lo + i as f64 * step).collect(),
    )
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &SweepResults,
    opponent: &str,
    cells: &[&SweepCell],
) -> DrawResult {
    let vals = values(s);
    let linear = evenly_spaced(&vals);
    let xs: Vec<f64> = if linear {
        vals.clone()
    } else {
        (0..vals.len()).map(|i| i as f64).collect()
    };
    let (x0, x1) = match (xs.first(), xs.last()) {
        (Some(a), Some(b)) if b > a => (*a, *b),
        (Some(a), _) => (*a - 1.0, *a + 1.0),
        _ => (0.0, 1.0),
    };
    let pad = (x1 - x0) * 0.03;
    let every = (xs.len() / 18).max(1);
    let ticks: Vec<f64> = xs.iter().step_by(every).copied().collect();
    let labels: Vec<(f64, String)> = xs
        .iter()
        .zip(&vals)
        .map(|(x, v)| (*x, value_text(*v)))
        .collect();
    let label_of = move |x: &f64| -> String {
        labels
            .iter()
            .find(|(p, _)| (p - x).abs() < 1e-9)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    };
    let mut chart = ChartBuilder::on(area)
        .caption(format!("against {opponent}"), font(13))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(Ticks::new(x0 - pad..x1 + pad, ticks), y_axis(cells))
        .msg()?;
    chart
        .configure_mesh()
        .bold_line_style(palette::GUIDE.mix(0.15))
        .light_line_style(TRANSPARENT)
        .axis_style(palette::GUIDE)
        .x_desc(s.parameter.clone())
        .y_desc("win rate (non-tied games)")
        .x_label_formatter(&label_of)
        .y_label_formatter(&|v| fixed(*v, 2))
        .label_style(font(11))
        .axis_desc_style(font(12))
        .draw()
        .msg()?;
    chart
        .draw_series(DashedLineSeries::new(
            vec![(x0 - pad, 0.5), (x1 + pad, 0.5)],
            4,
            4,
            palette::GUIDE.stroke_width(1),
        ))
        .msg()?;
    let offset = (x1 - x0).max(1.0) * 0.006;
    let series: [Series; 3] = [
        (palette::OURS, -offset, |c| c.as_g1),
        (palette::SECOND, offset, |c| c.as_g2),
        (palette::TEXT, 0.0, |c| c.both),
    ];
    for (colour, dx, rate) in series {
        let pts: Vec<(f64, SeatRate)> = xs
            .iter()
            .zip(cells)
            .map(|(x, c)| (x + dx, rate(c)))
            .collect();
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|(x, r)| (*x, r.rate)),
                colour.mix(0.6).stroke_width(1),
            ))
            .msg()?;
        chart
            .draw_series(pts.iter().map(|(x, r)| {
                PathElement::new(vec![(*x, r.lo), (*x, r.hi)], colour.stroke_width(1))
            }))
            .msg()?;
        chart
            .draw_series(
                pts.iter()
                    .map(|(x, r)| Circle::new((*x, r.rate), 3, colour.filled())),
            )
            .msg()?;
    }
    if cells.is_empty() {
        chart
            .draw_series(std::iter::once(Text::new(
                "no points",
                (x0, 0.5),
                font(12).pos(Pos::new(HPos::Left, VPos::Center)),
            )))
            .msg()?;
    }
    Ok(())
}
