//! [`PngCanvas`]: the figures' raster backend. Figures draw in logical pixels (the SVG's user
//! units); the canvas draws them [`SCALE`] times larger on plotters' bitmap, and draws text
//! itself from [`Face::layout`] with `ab_glyph`.
//!
//! Why its own text: plotters 0.3.7's `ab_glyph` text (`style/font/ab_glyph.rs`) places every
//! glyph's bitmap at the pen position rounded to a whole pixel and drops the glyph's pixel-bounds
//! offset (its left side bearing), so narrow or wide glyphs sit a pixel off their neighbours:
//! the "am ong", "B _G1" and raised-dot "1·00" artefacts. Here each glyph is outlined at its
//! exact (fractional) pen position and its coverage is placed at its own pixel bounds, then the
//! label's coverage is blended once.
//!
//! Invariant: the PNG's pixels are [`SCALE`]× the SVG's user units, and every label sits where
//! the SVG's does (both take the anchor and baseline from the same [`Face::layout`]).

use ab_glyph::{Font, point};
use plotters::prelude::BitMapBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};

use super::canvas::Canvas;
use super::face::Face;

/// Device pixels per logical pixel: the PNGs are drawn at 2x.
pub const SCALE: u32 = 2;

/// A bitmap at [`SCALE`]× a figure's logical size.
pub struct PngCanvas<'a> {
    inner: BitMapBackend<'a>,
    logical: (u32, u32),
}

type Err<'a> = DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

/// A style with its stroke width scaled.
struct Scaled<'s, S>(&'s S);

impl<S: BackendStyle> BackendStyle for Scaled<'_, S> {
    fn color(&self) -> BackendColor {
        self.0.color()
    }
    fn stroke_width(&self) -> u32 {
        self.0.stroke_width() * SCALE
    }
}

fn up(p: BackendCoord) -> BackendCoord {
    (p.0 * SCALE as i32, p.1 * SCALE as i32)
}

impl<'a> PngCanvas<'a> {
    /// A canvas for a figure of logical `size`, written to `path` (a PNG of `SCALE * size`
    /// pixels) when presented.
    pub fn new(path: &'a std::path::Path, size: (u32, u32)) -> PngCanvas<'a> {
        PngCanvas {
            inner: BitMapBackend::new(path, (size.0 * SCALE, size.1 * SCALE)),
            logical: size,
        }
    }

    /// A canvas for a figure of logical `size` drawing into `buffer` (RGB bytes, `3 * SCALE² *
    /// w * h` of them).
    pub fn with_buffer(buffer: &'a mut [u8], size: (u32, u32)) -> PngCanvas<'a> {
        PngCanvas {
            inner: BitMapBackend::with_buffer(buffer, (size.0 * SCALE, size.1 * SCALE)),
            logical: size,
        }
    }

    fn blend(&mut self, x: i32, y: i32, color: BackendColor, coverage: f64) -> Result<(), Err<'a>> {
        if coverage > 0.0 {
            self.inner
                .draw_pixel((x, y), color.mix(coverage.min(1.0)))?;
        }
        Ok(())
    }
}

impl Canvas for PngCanvas<'_> {
    fn begin_tip(&mut self, _title: &str) {}
    fn end_tip(&mut self) {}
}

impl<'a> DrawingBackend for PngCanvas<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.logical
    }

    fn ensure_prepared(&mut self) -> Result<(), Err<'a>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Err<'a>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, p: BackendCoord, color: BackendColor) -> Result<(), Err<'a>> {
        let (x, y) = up(p);
        let s = SCALE as i32;
        self.inner.draw_rect((x, y), (x + s, y + s), &color, true)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Err<'a>> {
        self.inner.draw_line(up(from), up(to), &Scaled(style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Err<'a>> {
        self.inner.draw_rect(up(a), up(b), &Scaled(style), fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Err<'a>> {
        self.inner
            .draw_path(path.into_iter().map(up), &Scaled(style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Err<'a>> {
        self.inner
            .draw_circle(up(c), radius * SCALE, &Scaled(style), fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Err<'a>> {
        self.inner
            .fill_polygon(vert.into_iter().map(up), &Scaled(style))
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), Err<'a>> {
        let color = style.color();
        if color.alpha == 0.0 || text.is_empty() {
            return Ok(());
        }
        let face = Face::get().map_err(|e| DrawingErrorKind::FontError(e.into()))?;
        let bold = matches!(style.style(), FontStyle::Bold);
        let scale = f64::from(SCALE);
        let layout = face.layout(text, style.size() * scale, bold);
        let anchor = style.anchor();
        let (dx, dy) = layout.offset(anchor.h_pos, anchor.v_pos);
        // Coverage of the whole label in label coordinates (origin at the anchor), summed over
        // glyphs and blended once, so touching glyphs do not darken their shared pixels.
        let font = face.font(bold);
        let mut cover: std::collections::BTreeMap<(i32, i32), f64> = Default::default();
        for g in &layout.glyphs {
            let glyph = g.id.with_scale_and_position(
                face.px_scale(bold, g.size),
                point((g.x + dx) as f32, (g.y + dy) as f32),
            );
            if let Some(outline) = font.outline_glyph(glyph) {
                let b = outline.px_bounds();
                let (x0, y0) = (b.min.x as i32, b.min.y as i32);
                outline.draw(|x, y, c| {
                    *cover.entry((x0 + x as i32, y0 + y as i32)).or_default() += f64::from(c);
                });
            }
        }
        let (px, py) = up(pos);
        let transform = style.transform();
        for ((lx, ly), c) in cover {
            let (x, y) = match transform {
                FontTransform::Rotate90 => (px - ly - 1, py + lx),
                FontTransform::Rotate180 => (px - lx - 1, py - ly - 1),
                FontTransform::Rotate270 => (px + ly, py - lx - 1),
                _ => (px + lx, py + ly),
            };
            self.blend(x, y, color, c)?;
        }
        Ok(())
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), Err<'a>> {
        Ok(super::canvas::text_box(text, style))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};

    const SIZE: (u32, u32) = (120, 40);

    /// Draw `text` at 30 px with its baseline's left end at (10, 30) and return, per device
    /// column, the (top, bottom) rows holding ink.
    fn ink(text: &str) -> Vec<Option<(usize, usize)>> {
        super::super::font::ensure_font().unwrap();
        let (w, h) = ((SIZE.0 * SCALE) as usize, (SIZE.1 * SCALE) as usize);
        let mut buf = vec![255u8; 3 * w * h];
        {
            let root = PngCanvas::with_buffer(&mut buf, SIZE).into_drawing_area();
            let style = ("sans-serif", 30)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Bottom));
            // Bottom anchors the descent: the baseline sits the descent above y.
            let descent = Face::get().unwrap().layout(text, 30.0, false).descent;
            let y = 30 + descent.round() as i32;
            root.draw(&Text::new(text, (10, y), style)).unwrap();
            root.present().unwrap();
        }
        (0..w)
            .map(|x| {
                let rows: Vec<usize> = (0..h).filter(|y| buf[3 * (y * w + x)] < 128).collect();
                Some((*rows.first()?, *rows.last()?))
            })
            .collect()
    }

    #[test]
    fn a_glyph_keeps_its_left_side_bearing() {
        // DejaVu Sans "o": left side bearing 113 of 2048 units per em; at 30 px x 2 that is
        // 3.3 device pixels. plotters 0.3.7's text drew the ink from the pen position itself.
        let cols = ink("o");
        let first = cols.iter().position(Option::is_some).unwrap();
        assert!(
            (20 + 2..=20 + 5).contains(&first),
            "first ink column {first}"
        );
    }

    #[test]
    fn a_full_stop_sits_on_the_baseline_with_its_digits() {
        // "1.0": the dot's lowest ink row is the digits' (no raised "1·0").
        let face = Face::get().unwrap();
        let layout = face.layout("1.0", 30.0, false);
        let cols = ink("1.0");
        let bottom = |from: f64, to: f64| {
            let (a, b) = ((20.0 + from * 2.0) as usize, (20.0 + to * 2.0) as usize);
            cols[a..b].iter().flatten().map(|r| r.1).max().unwrap()
        };
        let x = |i: usize| layout.glyphs[i].x;
        let one = bottom(x(0), x(1));
        let dot = bottom(x(1), x(2));
        assert!(
            one.abs_diff(dot) <= 1,
            "digit bottom {one}, dot bottom {dot}"
        );
        assert!(one.abs_diff(60) <= 1, "baseline at device row 60: {one}");
    }

    #[test]
    fn every_glyph_starts_at_its_pen_position_plus_its_bearing() {
        // The "am ong" artefact: glyphs drawn at their rounded pen position without bearing.
        let face = Face::get().unwrap();
        let font = face.font(false);
        let layout = face.layout("among", 30.0, false);
        let cols = ink("among");
        let upem = f64::from(font.units_per_em().unwrap());
        let pens: Vec<f64> = layout.glyphs.iter().map(|g| 20.0 + 2.0 * g.x).collect();
        for (i, g) in layout.glyphs.iter().enumerate() {
            let lsb = f64::from(font.h_side_bearing_unscaled(g.id)) / upem * 60.0;
            let from = pens[i].floor() as usize;
            let to = pens.get(i + 1).map_or(cols.len(), |p| p.floor() as usize);
            let first = from + cols[from..to].iter().position(Option::is_some).unwrap();
            let expected = pens[i] + lsb;
            assert!(
                (first as f64 - expected).abs() <= 1.0,
                "glyph {i}: ink from column {first}, expected {expected:.1}"
            );
        }
    }
}
