//! [`Legend`]: one row of legend entries (a swatch and its label) drawn across the top of a
//! figure, each entry placed after the previous label's measured width.
//!
//! Invariant: entries never overlap: each starts after the previous label's width from
//! [`super::face::Face::layout`], the same width both canvases draw.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{Canvas, DrawResult, OrMessage, font, text_box};

/// A legend entry's sample mark.
#[derive(Clone, Copy, Debug)]
pub enum Swatch {
    /// A filled point on a line over a band (an estimate with its interval).
    PointBand(RGBColor, RGBAColor),
    /// A filled point.
    Point(RGBColor),
    /// A hollow square (a published value).
    Square(RGBColor),
    /// A filled bar.
    Bar(RGBColor),
    /// A dashed guide line.
    Dashed(RGBColor),
    /// A horizontal interval with a point.
    Interval(RGBColor),
}

/// A row of legend entries.
pub struct Legend {
    entries: Vec<(Swatch, String)>,
}

const SWATCH: i32 = 22;
const GAP: i32 = 8;
const SPACING: i32 = 22;
const SIZE: u32 = 12;

impl Legend {
    /// A legend with `entries` in order.
    pub fn new(entries: Vec<(Swatch, String)>) -> Legend {
        Legend { entries }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True without entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Width of the row in pixels.
    pub fn width(&self) -> i32 {
        let style = font(SIZE);
        self.entries
            .iter()
            .map(|(_, l)| SWATCH + GAP + text_box(l, &style).0 as i32)
            .sum::<i32>()
            + SPACING * (self.entries.len() as i32 - 1).max(0)
    }

    /// Draw the row with its vertical middle at `y`, starting at `x`.
    pub fn draw<DB: Canvas>(
        &self,
        root: &DrawingArea<DB, Shift>,
        (x, y): (i32, i32),
    ) -> DrawResult {
        let style = font(SIZE);
        let mut x = x;
        for (swatch, label) in &self.entries {
            draw_swatch(root, *swatch, (x, y))?;
            let tx = x + SWATCH + GAP;
            root.draw(&Text::new(
                label.clone(),
                (tx, y),
                style.clone().pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .msg()?;
            x = tx + text_box(label, &style).0 as i32 + SPACING;
        }
        Ok(())
    }
}

fn draw_swatch<DB: Canvas>(
    root: &DrawingArea<DB, Shift>,
    swatch: Swatch,
    (x, y): (i32, i32),
) -> DrawResult {
    let mid = x + SWATCH / 2;
    match swatch {
        Swatch::PointBand(ink, band) => {
            root.draw(&Rectangle::new(
                [(x, y - 6), (x + SWATCH, y + 6)],
                band.filled(),
            ))
            .msg()?;
            root.draw(&PathElement::new(
                vec![(x, y), (x + SWATCH, y)],
                ink.stroke_width(1),
            ))
            .msg()?;
            root.draw(&Circle::new((mid, y), 3, ink.filled())).msg()?;
        }
        Swatch::Point(ink) => {
            root.draw(&Circle::new((mid, y), 4, ink.filled())).msg()?;
        }
        Swatch::Square(ink) => {
            root.draw(&Rectangle::new(
                [(mid - 4, y - 4), (mid + 4, y + 4)],
                ink.stroke_width(2),
            ))
            .msg()?;
        }
        Swatch::Bar(ink) => {
            root.draw(&Rectangle::new(
                [(x + 4, y - 6), (x + SWATCH - 4, y + 6)],
                ink.filled(),
            ))
            .msg()?;
        }
        Swatch::Dashed(ink) => {
            for i in 0..3 {
                let x0 = x + i * 8;
                root.draw(&PathElement::new(
                    vec![(x0, y), (x0 + 4, y)],
                    ink.stroke_width(1),
                ))
                .msg()?;
            }
        }
        Swatch::Interval(ink) => {
            root.draw(&PathElement::new(
                vec![(x, y), (x + SWATCH, y)],
                ink.stroke_width(2),
            ))
            .msg()?;
            root.draw(&Circle::new((mid, y), 4, ink.filled())).msg()?;
        }
    }
    Ok(())
}
