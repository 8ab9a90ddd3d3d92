//! Table 3 as a heatmap: one cell per ordered matchup (rows G1's policy, columns G2's), colour
//! by G1's win rate around 0.5, with the rate and its Wilson interval written in the cell.
//!
//! A colour bar at the right gives the scale; each cell's tooltip gives its games and wins.
//!
//! Invariant: the colour scale is symmetric around 0.5 (blue: G1 wins more, red: less), so a
//! cell's colour alone says which seat the matchup favours.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Canvas, DrawResult, Figure, OrMessage, Tip, bold, font, palette};
use super::extent::fitted_size;
use super::layout::policy_names;
use super::number::grouped;
use super::ticks::Ticks;
use crate::results::{MatchupRate, StudyResults};
use plotters::style::text_anchor::{HPos, Pos, VPos};

const CELL: (u32, u32) = (170, 70);
const TOP: u32 = 74;
const LEFT: u32 = 120;
const MARGIN: u32 = 16;
/// The colour bar: gap from the grid, bar width, room for its tick labels.
const BAR_GAP: u32 = 24;
const BAR_W: u32 = 18;
const BAR_LABELS: u32 = 78;
/// Strips the colour bar is drawn with.
const BAR_STEPS: u32 = 64;

/// The Table 3 heatmap of one study.
pub struct Table3Heatmap<'a> {
    study: &'a StudyResults,
    names: Vec<String>,
}

impl<'a> Table3Heatmap<'a> {
    /// The heatmap for `study`.
    pub fn new(study: &'a StudyResults) -> Table3Heatmap<'a> {
        Table3Heatmap {
            study,
            names: policy_names(study),
        }
    }

    fn cell(&self, g1: &str, g2: &str) -> Option<&'a MatchupRate> {
        self.study
            .table3
            .iter()
            .find(|c| c.g1_policy == g1 && c.g2_policy == g2)
    }

    /// Half-width of the colour scale: the largest distance from 0.5, at least 0.05.
    fn span(&self) -> f64 {
        self.study
            .table3
            .iter()
            .map(|c| (c.rate - 0.5).abs())
            .filter(|d| d.is_finite())
            .fold(0.05, f64::max)
    }
}

/// Blend white towards blue (rate > 0.5) or red (rate < 0.5).
fn colour(rate: f64, span: f64) -> RGBColor {
    let t = if rate.is_finite() {
        ((rate - 0.5) / span).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let (r, g, b) = if t >= 0.0 {
        (66.0, 120.0, 190.0)
    } else {
        (200.0, 80.0, 70.0)
    };
    let a = t.abs() * 0.75;
    let mix = |c: f64| (255.0 * (1.0 - a) + c * a).round() as u8;
    RGBColor(mix(r), mix(g), mix(b))
}

impl Table3Heatmap<'_> {
    /// The colour bar's ticks: nice values over 0.5 ± the colour scale's half-width.
    pub fn bar_ticks(&self) -> Ticks {
        let span = self.span();
        Ticks::fitted(0.5 - span, 0.5 + span, 0.0, 6, 0.0)
    }

    /// The colour legend at the grid's right: the scale from 0.5 − span (bottom, red) to
    /// 0.5 + span (top, blue), ticked.
    fn draw_colour_bar<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let k = self.names.len().max(1) as u32;
        let span = self.span();
        let x0 = (LEFT + k * CELL.0 + BAR_GAP) as i32;
        let (y0, h) = (TOP as i32, (k * CELL.1) as i32);
        root.draw(&Text::new(
            "G1 win rate",
            (x0 - 4, y0 - 14),
            font(12).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .msg()?;
        for i in 0..BAR_STEPS as i32 {
            let top = y0 + h * i / BAR_STEPS as i32;
            let bottom = y0 + h * (i + 1) / BAR_STEPS as i32;
            let rate = 0.5 + span * (1.0 - (2.0 * f64::from(i) + 1.0) / f64::from(BAR_STEPS));
            root.draw(&Rectangle::new(
                [(x0, top), (x0 + BAR_W as i32, bottom)],
                colour(rate, span).filled(),
            ))
            .msg()?;
        }
        root.draw(&Rectangle::new(
            [(x0, y0), (x0 + BAR_W as i32, y0 + h)],
            palette::GUIDE.stroke_width(1),
        ))
        .msg()?;
        let ticks = self.bar_ticks();
        for v in ticks.values() {
            let y = y0 + ((0.5 + span - v) / (2.0 * span) * f64::from(h)).round() as i32;
            let xr = x0 + BAR_W as i32;
            root.draw(&PathElement::new(
                vec![(xr, y), (xr + 4, y)],
                palette::GUIDE.stroke_width(1),
            ))
            .msg()?;
            root.draw(&Text::new(
                ticks.label(*v),
                (xr + 7, y),
                font(12).pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .msg()?;
        }
        Ok(())
    }
}

impl Figure for Table3Heatmap<'_> {
    fn size(&self) -> (u32, u32) {
        let k = self.names.len().max(1) as u32;
        (
            LEFT + k * CELL.0 + BAR_GAP + BAR_W + BAR_LABELS,
            TOP + k * CELL.1 + MARGIN,
        )
    }

    fn title(&self) -> String {
        format!(
            "Table 3 ({}): G1 win rate, Wilson 95% interval",
            self.study.name
        )
    }

    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        let centre = Pos::new(HPos::Center, VPos::Center);
        root.draw(&Text::new(
            self.title(),
            (MARGIN as i32, 10),
            bold(fitted_size(
                &self.title(),
                15,
                self.size().0 - 2 * MARGIN,
                true,
            )),
        ))
        .msg()?;
        self.draw_colour_bar(root)?;
        root.draw(&Text::new(
            "G2's policy →",
            ((LEFT + self.names.len() as u32 * CELL.0 / 2) as i32, 36),
            font(12).pos(centre),
        ))
        .msg()?;
        root.draw(&Text::new(
            "G1's policy ↓",
            (MARGIN as i32, (TOP - 14) as i32),
            font(12),
        ))
        .msg()?;
        let span = self.span();
        for (j, g2) in self.names.iter().enumerate() {
            let x = (LEFT + j as u32 * CELL.0 + CELL.0 / 2) as i32;
            root.draw(&Text::new(
                g2.clone(),
                (x, (TOP - 14) as i32),
                font(13).pos(centre),
            ))
            .msg()?;
        }
        for (i, g1) in self.names.iter().enumerate() {
            let y0 = (TOP + i as u32 * CELL.1) as i32;
            root.draw(&Text::new(
                g1.clone(),
                (MARGIN as i32, y0 + CELL.1 as i32 / 2),
                font(13).pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .msg()?;
            for (j, g2) in self.names.iter().enumerate() {
                let x0 = (LEFT + j as u32 * CELL.0) as i32;
                let (x1, y1) = (x0 + CELL.0 as i32, y0 + CELL.1 as i32);
                let cx = x0 + CELL.0 as i32 / 2;
                match self.cell(g1, g2) {
                    Some(c) => {
                        root.draw(&Tip::begin(format!(
                            "{g1} (G1) vs {g2} (G2): G1 won {} of {} non-tied games ({} ties), rate {:.3} (Wilson 95% {:.3}–{:.3})",
                            grouped(c.g1_wins), grouped(c.non_tied), grouped(c.ties), c.rate, c.lo, c.hi
                        )))
                        .msg()?;
                        root.draw(&Rectangle::new(
                            [(x0, y0), (x1, y1)],
                            colour(c.rate, span).filled(),
                        ))
                        .msg()?;
                        root.draw(&Text::new(
                            format!("{:.3}", c.rate),
                            (cx, y0 + 24),
                            bold(16).pos(centre),
                        ))
                        .msg()?;
                        root.draw(&Text::new(
                            format!("[{:.3}, {:.3}]", c.lo, c.hi),
                            (cx, y0 + 48),
                            font(12).pos(centre),
                        ))
                        .msg()?;
                        root.draw(&Tip::end()).msg()?;
                    }
                    None => {
                        root.draw(&Text::new("no data", (cx, y0 + 35), font(12).pos(centre)))
                            .msg()?;
                    }
                }
                root.draw(&Rectangle::new(
                    [(x0, y0), (x1, y1)],
                    palette::GUIDE.stroke_width(1),
                ))
                .msg()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_is_white_at_half_and_symmetric_in_strength() {
        assert_eq!(colour(0.5, 0.1), RGBColor(255, 255, 255));
        let up = colour(0.6, 0.1);
        let down = colour(0.4, 0.1);
        assert!(up.2 > up.0, "above 0.5 is blue");
        assert!(down.0 > down.2, "below 0.5 is red");
        assert_eq!(colour(f64::NAN, 0.1), RGBColor(255, 255, 255));
    }
}
