//! [`Face`]: the embedded DejaVu Sans (regular and bold) as `ab_glyph` fonts, and the layout of
//! one label: its runs (plain and subscript, from [`super::markup`]), each glyph's advance and
//! kerning, and the label's width, ascent and descent in pixels.
//!
//! Invariant: the SVG and the PNG canvas both place text from [`Face::layout`], so a label's
//! anchor, baseline and width are the same number in both files (the PNG draws the glyphs at
//! exactly these positions; the SVG writes the same baseline and anchor).

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId};
use plotters_backend::text_anchor::{HPos, VPos};

use super::markup::{Run, runs};

/// Font size of a subscript run, relative to the label's.
pub const SUB_SIZE: f64 = 0.7;
/// How far a subscript's baseline sits below the label's, in ems of the label's size.
pub const SUB_DROP: f64 = 0.22;
/// The distance from the baseline up to the middle of a line of text, in ems (half DejaVu
/// Sans' cap height, 0.729 em): where a vertically centred label's baseline goes.
const MIDDLE: f64 = 0.365;

/// The two embedded faces.
pub struct Face {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
}

/// One glyph of a laid-out label.
#[derive(Clone, Copy, Debug)]
pub struct PlacedGlyph {
    /// The glyph.
    pub id: GlyphId,
    /// Pen position of its origin, relative to the label's start on its baseline (pixels;
    /// y grows downwards, so a subscript has y > 0).
    pub x: f64,
    /// See `x`.
    pub y: f64,
    /// Font size (pixels per em) of the glyph's run.
    pub size: f64,
}

/// One run of a laid-out label, for the SVG's `<tspan>`s.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedRun {
    /// The run's text.
    pub text: String,
    /// A subscript run.
    pub sub: bool,
}

/// A laid-out label.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The runs in order.
    pub runs: Vec<PlacedRun>,
    /// Every glyph.
    pub glyphs: Vec<PlacedGlyph>,
    /// Advance width of the whole label (pixels).
    pub width: f64,
    /// Above the baseline (pixels, positive).
    pub ascent: f64,
    /// Below the baseline (pixels, positive).
    pub descent: f64,
    /// The label's font size (pixels per em).
    pub size: f64,
    /// Bold face.
    pub bold: bool,
}

impl Layout {
    /// Offset from a text anchor point to the start of the label's baseline: `Left`/`Top`
    /// anchors at the label's left edge and top (its ascent), `Center` at its middle,
    /// `Right`/`Bottom` at its right edge and bottom (its descent).
    pub fn offset(&self, h: HPos, v: VPos) -> (f64, f64) {
        let dx = match h {
            HPos::Left => 0.0,
            HPos::Center => -self.width / 2.0,
            HPos::Right => -self.width,
        };
        let dy = match v {
            VPos::Top => self.ascent,
            VPos::Center => MIDDLE * self.size,
            VPos::Bottom => -self.descent,
        };
        (dx, dy)
    }
}

static FACE: OnceLock<Result<Face, &'static str>> = OnceLock::new();

impl Face {
    /// The embedded faces, parsed once per process.
    pub fn get() -> Result<&'static Face, &'static str> {
        FACE.get_or_init(|| {
            let regular = FontRef::try_from_slice(dejavu::sans::regular()).map_err(|_| "normal")?;
            let bold = FontRef::try_from_slice(dejavu::sans::bold()).map_err(|_| "bold")?;
            Ok(Face { regular, bold })
        })
        .as_ref()
        .map_err(|e| *e)
    }

    /// The font of a style.
    pub fn font(&self, bold: bool) -> &FontRef<'static> {
        if bold { &self.bold } else { &self.regular }
    }

    /// `ab_glyph`'s pixel scale for a font size in pixels per em.
    pub fn px_scale(&self, bold: bool, size: f64) -> ab_glyph::PxScale {
        let f = self.font(bold);
        let upem = f.units_per_em().unwrap_or(2048.0);
        ab_glyph::PxScale::from((size as f32) * f.height_unscaled() / upem)
    }

    /// Lay out `markup` (plain text with `_{...}` subscripts) at `size` pixels per em.
    pub fn layout(&self, markup: &str, size: f64, bold: bool) -> Layout {
        let font = self.font(bold);
        let upem = f64::from(font.units_per_em().unwrap_or(2048.0));
        let mut glyphs = Vec::new();
        let mut placed = Vec::new();
        let mut x = 0.0;
        let mut prev: Option<(GlyphId, bool)> = None;
        for Run { text, sub } in runs(markup) {
            let (run_size, y) = if sub {
                (size * SUB_SIZE, SUB_DROP * size)
            } else {
                (size, 0.0)
            };
            let per_unit = run_size / upem;
            for c in text.chars() {
                let id = font.glyph_id(c);
                if let Some((p, psub)) = prev
                    && psub == sub
                {
                    x += f64::from(font.kern_unscaled(p, id)) * per_unit;
                }
                glyphs.push(PlacedGlyph {
                    id,
                    x,
                    y,
                    size: run_size,
                });
                x += f64::from(font.h_advance_unscaled(id)) * per_unit;
                prev = Some((id, sub));
            }
            placed.push(PlacedRun {
                text: text.to_string(),
                sub,
            });
        }
        let ascent = f64::from(font.ascent_unscaled()) / upem * size;
        let descent = -f64::from(font.descent_unscaled()) / upem * size;
        Layout {
            runs: placed,
            glyphs,
            width: x,
            ascent,
            descent,
            size,
            bold,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_is_the_sum_of_advances_and_grows_with_size() {
        let face = Face::get().unwrap();
        let a = face.layout("among", 12.0, false);
        let b = face.layout("among", 24.0, false);
        assert!((b.width - 2.0 * a.width).abs() < 1e-9);
        // A sans-serif word of five lower-case letters at 12 px: about 2.5 to 3.5 em.
        assert!((30.0..42.0).contains(&a.width), "{}", a.width);
        // Glyphs advance monotonically: no glyph overlaps or jumps (the "am ong" artefact).
        let xs: Vec<f64> = a.glyphs.iter().map(|g| g.x).collect();
        assert!(xs.windows(2).all(|w| w[1] > w[0]));
    }

    #[test]
    fn subscripts_are_smaller_and_lowered() {
        let face = Face::get().unwrap();
        let l = face.layout("B_{G1}", 20.0, false);
        assert_eq!(l.runs.len(), 2);
        assert_eq!(l.glyphs.len(), 3);
        assert_eq!(l.glyphs[0].y, 0.0);
        assert!(l.glyphs[1].y > 0.0 && l.glyphs[1].size < 20.0);
        let plain = face.layout("BG1", 20.0, false);
        assert!(l.width < plain.width, "a subscript takes less room");
    }
}
