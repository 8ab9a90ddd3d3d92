//! Table 5 as grouped bars per policy: the share of briscola plays won and the share "wasted"
//! on a zero-point card (left panel, 0 to 1), and the mean points per winning briscola play on
//! its own axis (right panel).
//!
//! Invariant: shares and points never share an axis, so no bar is read on the wrong scale.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{DrawResult, Figure, OrMessage, bold, font, palette};
use super::ticks::Ticks;
use crate::results::StudyResults;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const HEIGHT: u32 = 340;
const PER_POLICY: u32 = 130;
const TOP: u32 = 56;

/// The Table 5 bars of one study.
pub struct Table5Bars<'a> {
    study: &'a StudyResults,
}

impl<'a> Table5Bars<'a> {
    /// The bars for `study`.
    pub fn new(study: &'a StudyResults) -> Table5Bars<'a> {
        Table5Bars { study }
    }

    fn panel_width(&self) -> u32 {
        80 + PER_POLICY * self.study.table5.len().max(1) as u32
    }
}

impl Figure for Table5Bars<'_> {
    fn size(&self) -> (u32, u32) {
        (2 * self.panel_width() + 20, HEIGHT)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.draw(&Text::new(
            format!(
                "Table 5 ({}): how each policy uses its briscole",
                self.study.name
            ),
            (16, 10),
            bold(15),
        ))
        .msg()?;
        // legend of the left panel
        let legend = [
            (palette::OURS, "won"),
            (palette::PAPER, "wasted (vs a 0-point card)"),
        ];
        let mut x = 16;
        for (c, label) in legend {
            root.draw(&Rectangle::new([(x, 34), (x + 12, 46)], c.filled()))
                .msg()?;
            root.draw(&Text::new(label, (x + 16, 34), font(12))).msg()?;
            x += 40 + 7 * label.len() as i32;
        }
        let body = root.margin(TOP, 0, 0, 0);
        let (left, right) = body.split_horizontally(self.panel_width() + 10);
        let rows = &self.study.table5;
        let k = rows.len();
        let names: Vec<String> = rows.iter().map(|r| r.policy.clone()).collect();
        let name_of = move |v: &f64| -> String {
            let i = v.round();
            if (v - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        };

        // Left: shares.
        let mut chart = ChartBuilder::on(&left)
            .caption("share of its briscola plays", font(13))
            .margin(8)
            .x_label_area_size(24)
            .y_label_area_size(40)
            .build_cartesian_2d(
                Ticks::categories(k),
                Ticks::new(0.0..1.05, vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
            )
            .msg()?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .bold_line_style(palette::GUIDE.mix(0.15))
            .light_line_style(TRANSPARENT)
            .x_label_formatter(&name_of)
            .y_label_formatter(&|v| format!("{v:.1}"))
            .label_style(font(12))
            .draw()
            .msg()?;
        for (i, r) in rows.iter().enumerate() {
            let x = i as f64;
            for (off, v, c) in [
                (-0.36, r.win_rate, palette::OURS),
                (0.02, r.wasted_fraction, palette::PAPER),
            ] {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x + off, 0.0), (x + off + 0.34, v)],
                        c.filled(),
                    )))
                    .msg()?;
                chart
                    .draw_series(std::iter::once(Text::new(
                        format!("{v:.3}"),
                        (x + off + 0.17, v),
                        font(11).pos(Pos::new(HPos::Center, VPos::Bottom)),
                    )))
                    .msg()?;
            }
        }

        // Right: points per win.
        let top = rows
            .iter()
            .map(|r| r.mean_points_per_win)
            .filter(|v| v.is_finite())
            .fold(1.0, f64::max)
            * 1.2;
        let mut chart = ChartBuilder::on(&right)
            .caption("mean trick points per winning briscola play", font(13))
            .margin(8)
            .x_label_area_size(24)
            .y_label_area_size(40)
            .build_cartesian_2d(Ticks::categories(k), 0f64..top)
            .msg()?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .bold_line_style(palette::GUIDE.mix(0.15))
            .light_line_style(TRANSPARENT)
            .x_label_formatter(&name_of)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style(font(12))
            .draw()
            .msg()?;
        for (i, r) in rows.iter().enumerate() {
            let x = i as f64;
            let v = r.mean_points_per_win;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.2, 0.0), (x + 0.2, v)],
                    palette::SECOND.filled(),
                )))
                .msg()?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{v:.2}"),
                    (x, v),
                    font(11).pos(Pos::new(HPos::Center, VPos::Bottom)),
                )))
                .msg()?;
        }
        Ok(())
    }
}
