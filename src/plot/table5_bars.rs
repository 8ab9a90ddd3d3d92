//! Table 5 as grouped bars per policy: the share of briscola plays won and the share "wasted"
//! on a zero-point card (left panel, 0 to 1), and the mean points per winning briscola play on
//! its own axis (right panel).
//!
//! One legend above both panels names all three series; each bar's counts are its tooltip.
//!
//! Invariant: shares and points never share an axis, so no bar is read on the wrong scale.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Canvas, DrawResult, Figure, OrMessage, Tip, bold, font, palette};
use super::extent::fitted_size;
use super::legend::{Legend, Swatch};
use super::number::grouped;
use super::ticks::Ticks;
use crate::results::StudyResults;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const HEIGHT: u32 = 340;
const PER_POLICY: u32 = 130;
const TOP: u32 = 60;

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

impl Table5Bars<'_> {
    /// One legend for both panels: the two shares (left) and the points per win (right).
    pub fn legend(&self) -> Legend {
        Legend::new(vec![
            (Swatch::Bar(palette::OURS), "won (left)".to_string()),
            (
                Swatch::Bar(palette::PAPER),
                "wasted on a 0-point card (left)".to_string(),
            ),
            (
                Swatch::Bar(palette::SECOND),
                "trick points per winning play (right)".to_string(),
            ),
        ])
    }
}

/// A bar with its value written on top and its counts as tooltip.
fn bar<DB: Canvas, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    area: &DrawingArea<DB, Shift>,
    (x0, x1): (f64, f64),
    value: f64,
    text: String,
    colour: RGBColor,
    tip: String,
) -> DrawResult {
    area.draw(&Tip::begin(tip)).msg()?;
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(x0, 0.0), (x1, value)],
            colour.filled(),
        )))
        .msg()?;
    area.draw(&Tip::end()).msg()?;
    chart
        .draw_series(std::iter::once(Text::new(
            text,
            ((x0 + x1) / 2.0, value),
            font(12).pos(Pos::new(HPos::Center, VPos::Bottom)),
        )))
        .msg()?;
    Ok(())
}

impl Figure for Table5Bars<'_> {
    fn size(&self) -> (u32, u32) {
        (2 * self.panel_width() + 20, HEIGHT)
    }

    fn title(&self) -> String {
        format!(
            "Table 5 ({}): how each policy uses its briscole",
            self.study.name
        )
    }

    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.draw(&Text::new(
            self.title(),
            (16, 10),
            bold(fitted_size(&self.title(), 15, self.size().0 - 32, true)),
        ))
        .msg()?;
        self.legend().draw(root, (16, 42))?;
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
            .label_style(font(13))
            .draw()
            .msg()?;
        for (i, r) in rows.iter().enumerate() {
            let x = i as f64;
            let won = format!(
                "{}: won {} of {} briscola plays ({:.3})",
                r.policy,
                grouped(r.wins),
                grouped(r.n_played),
                r.win_rate
            );
            let wasted = format!(
                "{}: {} of {} briscola plays against a 0-point card ({:.3})",
                r.policy,
                grouped(r.wasted),
                grouped(r.n_played),
                r.wasted_fraction
            );
            for (off, v, c, tip) in [
                (-0.36, r.win_rate, palette::OURS, won),
                (0.02, r.wasted_fraction, palette::PAPER, wasted),
            ] {
                let span = (x + off, x + off + 0.34);
                bar(&mut chart, &left, span, v, format!("{v:.3}"), c, tip)?;
            }
        }

        // Right: points per win, on an axis fitted to the tallest bar and its label.
        let tallest = rows
            .iter()
            .map(|r| r.mean_points_per_win)
            .filter(|v| v.is_finite())
            .fold(1.0, f64::max);
        let y_right = Ticks::fitted(0.0, tallest * 1.15, 0.0, 6, 0.0);
        let mut chart = ChartBuilder::on(&right)
            .caption("mean trick points per winning briscola play", font(13))
            .margin(8)
            .x_label_area_size(24)
            .y_label_area_size(40)
            .build_cartesian_2d(Ticks::categories(k), y_right.clone())
            .msg()?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .bold_line_style(palette::GUIDE.mix(0.15))
            .light_line_style(TRANSPARENT)
            .x_label_formatter(&name_of)
            .y_label_formatter(&|v| y_right.label(*v))
            .label_style(font(13))
            .draw()
            .msg()?;
        for (i, r) in rows.iter().enumerate() {
            let x = i as f64;
            let v = r.mean_points_per_win;
            let tip = format!(
                "{}: {} trick points over {} winning briscola plays ({v:.2} per win)",
                r.policy,
                grouped(r.points_won),
                grouped(r.wins)
            );
            bar(
                &mut chart,
                &right,
                (x - 0.2, x + 0.2),
                v,
                format!("{v:.2}"),
                palette::SECOND,
                tip,
            )?;
        }
        Ok(())
    }
}
