//! The folk theorem per matchup: the share of decided, briscola-unequal games won by the
//! briscola-majority holder, with Wilson intervals, one row per ordered matchup and a last row
//! for all games pooled (the paper's 0.6295).
//!
//! Invariant: the x axis always includes the pooled interval and every matchup's interval, so no
//! interval is clipped; the folk theorem's claim (a share of 1) is stated in the title instead.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Canvas, DrawResult, Figure, OrMessage, Tip, bold, font, palette};
use super::extent::fitted_size;
use super::layout::matchup_label;
use super::number::grouped;
use super::ticks::Ticks;
use crate::results::StudyResults;

const ROW: u32 = 30;
const WIDTH: u32 = 760;
const EXTRA: u32 = 110;

/// The folk-theorem share chart of one study.
pub struct FolkShare<'a> {
    study: &'a StudyResults,
}

impl<'a> FolkShare<'a> {
    /// The chart for `study`.
    pub fn new(study: &'a StudyResults) -> FolkShare<'a> {
        FolkShare { study }
    }

    /// (label, rate, lo, hi, pooled?, tooltip) rows, top to bottom.
    fn rows(&self) -> Vec<(String, f64, f64, f64, bool, String)> {
        let f = &self.study.folk_theorem;
        let tip = |label: &str, wins: u64, games: u64, rate: f64, lo: f64, hi: f64| {
            format!(
                "{label}: the majority holder won {} of {} decided, briscola-unequal games, {rate:.4} (Wilson 95% {lo:.4}–{hi:.4})",
                grouped(wins),
                grouped(games)
            )
        };
        let mut rows: Vec<_> = f
            .per_matchup
            .iter()
            .map(|c| {
                let label = matchup_label(&c.g1_policy, &c.g2_policy);
                let t = tip(&label, c.majority_wins, c.games, c.rate, c.lo, c.hi);
                (label, c.rate, c.lo, c.hi, false, t)
            })
            .collect();
        let label = "all matchups pooled".to_string();
        let t = tip(&label, f.majority_wins, f.games, f.rate, f.lo, f.hi);
        rows.push((label, f.rate, f.lo, f.hi, true, t));
        rows
    }

    /// The share axis: every interval, with a margin, within 0..1.
    pub fn x_axis(&self) -> Ticks {
        let rows = self.rows();
        let finite = |v: &f64| v.is_finite();
        let lo = rows
            .iter()
            .map(|r| r.2)
            .filter(finite)
            .fold(f64::INFINITY, f64::min);
        let hi = rows
            .iter()
            .map(|r| r.3)
            .filter(finite)
            .fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo < hi { (lo, hi) } else { (0.0, 1.0) };
        let pad = ((hi - lo) * 0.1).max(0.005);
        Ticks::fitted((lo - pad).max(0.0), (hi + pad).min(1.0), 0.0, 7, 0.0)
    }
}

impl Figure for FolkShare<'_> {
    fn size(&self) -> (u32, u32) {
        (WIDTH, EXTRA + ROW * self.rows().len() as u32)
    }

    fn title(&self) -> String {
        format!(
            "Folk theorem ({}): share won by the briscola-majority holder (the folklore says 1)",
            self.study.name
        )
    }

    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let rows = self.rows();
        let n = rows.len();
        let x_axis = self.x_axis();
        let labels: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let label_of = move |v: &f64| -> String {
            let i = v.round();
            if (v - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < labels.len() {
                labels[labels.len() - 1 - i as usize].clone()
            } else {
                String::new()
            }
        };
        let mut chart = ChartBuilder::on(root)
            .caption(
                self.title(),
                bold(fitted_size(&self.title(), 15, self.size().0 - 24, true)),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(230)
            .build_cartesian_2d(x_axis.clone(), Ticks::categories(n))
            .msg()?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .bold_line_style(palette::GUIDE.mix(0.15))
            .light_line_style(TRANSPARENT)
            .x_desc("share of games won by the player holding more briscole (Wilson 95%)")
            .x_label_formatter(&|v| x_axis.label(*v))
            .y_label_formatter(&label_of)
            .label_style(font(13))
            .axis_desc_style(font(13))
            .draw()
            .msg()?;
        let pooled = self.study.folk_theorem.rate;
        if pooled.is_finite() {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(pooled, -0.5), (pooled, n as f64 - 0.5)],
                    4,
                    4,
                    palette::GUIDE.stroke_width(1),
                ))
                .msg()?;
        }
        for (i, (_, rate, lo, hi, is_pooled, tip)) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let colour = if *is_pooled {
                palette::PAPER
            } else {
                palette::OURS
            };
            root.draw(&Tip::begin(tip.clone())).msg()?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(*lo, y), (*hi, y)],
                    colour.stroke_width(2),
                )))
                .msg()?;
            chart
                .draw_series(std::iter::once(Circle::new((*rate, y), 4, colour.filled())))
                .msg()?;
            root.draw(&Tip::end()).msg()?;
        }
        Ok(())
    }
}
