//! A league's Bradley-Terry ratings on the Elo scale: one row per policy, strongest on top, the
//! point estimate and its interval; the reference policy (fixed at 0) drawn as a hollow point.
//!
//! Invariant: the x axis always includes every interval and 0, so no interval is clipped and the
//! reference line is always in view.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Canvas, DrawResult, Figure, OrMessage, bold, font, palette};
use super::ticks::Ticks;
use crate::results::league::{LeagueResults, Rating};

const ROW: u32 = 34;
const WIDTH: u32 = 760;
const EXTRA: u32 = 110;

/// The ratings chart of one league.
pub struct LeagueRatings<'a> {
    league: &'a LeagueResults,
}

impl<'a> LeagueRatings<'a> {
    /// The chart for `league`.
    pub fn new(league: &'a LeagueResults) -> LeagueRatings<'a> {
        LeagueRatings { league }
    }

    /// Ratings, strongest first (ties in league order).
    fn rows(&self) -> Vec<&'a Rating> {
        let mut rows: Vec<&Rating> = self.league.ratings.iter().collect();
        rows.sort_by_key(|r| r.rank);
        rows
    }
}

impl Figure for LeagueRatings<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, EXTRA + ROW * self.league.ratings.len().max(1) as u32)
    }

    fn title(&self) -> String {
        format!(
            "League {}: Bradley-Terry ratings ({} fixed at 0)",
            self.league.name, self.league.settings.reference
        )
    }

    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let rows = self.rows();
        let n = rows.len();
        let lo = rows
            .iter()
            .map(|r| r.elo.lo)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::min);
        let hi = rows
            .iter()
            .map(|r| r.elo.hi)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let pad = ((hi - lo) * 0.08).max(5.0);
        let (x0, x1) = (lo - pad, hi + pad);
        let labels: Vec<String> = rows.iter().map(|r| r.policy.clone()).collect();
        let label_of = move |v: &f64| -> String {
            let i = v.round();
            if (v - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < labels.len() {
                labels[labels.len() - 1 - i as usize].clone()
            } else {
                String::new()
            }
        };
        let level = (self.league.settings.confidence * 100.0).round();
        let mut chart = ChartBuilder::on(root)
            .caption(
                self.title(),
                bold(super::extent::fitted_size(
                    &self.title(),
                    14,
                    WIDTH - 24,
                    true,
                )),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(150)
            .build_cartesian_2d(x0..x1, Ticks::categories(n))
            .msg()?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .bold_line_style(palette::GUIDE.mix(0.15))
            .light_line_style(TRANSPARENT)
            .x_desc(format!("rating, Elo scale (Wald {level}% interval)"))
            .x_label_formatter(&|v| super::number::fixed(*v, 0))
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
        for (i, r) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let reference = r.policy == self.league.settings.reference;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(r.elo.lo, y), (r.elo.hi, y)],
                    palette::OURS.stroke_width(2),
                )))
                .msg()?;
            let style = if reference {
                palette::OURS.stroke_width(2)
            } else {
                palette::OURS.filled()
            };
            chart
                .draw_series(std::iter::once(Circle::new((r.elo.value, y), 5, style)))
                .msg()?;
        }
        Ok(())
    }
}
