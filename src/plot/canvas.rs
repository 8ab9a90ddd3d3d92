//! The [`Figure`] trait, the [`Canvas`] it draws on (an SVG string or a 2x PNG file, both
//! drawn by the same code), the [`Tip`] element that attaches a tooltip to what follows it, and
//! the fonts and palette the figures share.
//!
//! Invariant: a figure is drawn by one generic `draw` over any [`Canvas`], so the SVG and the
//! PNG of a figure cannot disagree about what is drawn.

use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, BackendTextStyle, DrawingErrorKind, FontStyle};

use super::face::Face;

/// Result of drawing onto a backend; the message is plotters' own.
pub type DrawResult<T = ()> = Result<T, String>;

/// Turn a plotters error into its message.
pub trait OrMessage<T> {
    /// The error as text.
    fn msg(self) -> DrawResult<T>;
}

impl<T, E: std::error::Error + Send + Sync> OrMessage<T> for Result<T, DrawingAreaErrorKind<E>> {
    fn msg(self) -> DrawResult<T> {
        self.map_err(|e| e.to_string())
    }
}

/// A plotters backend the figures draw on: plotters' drawing calls plus tooltips.
pub trait Canvas: DrawingBackend {
    /// Start a group of elements that share the tooltip `title` (an SVG `<title>`; a PNG has
    /// no tooltips and ignores it).
    fn begin_tip(&mut self, title: &str);
    /// End the innermost group begun by [`Canvas::begin_tip`].
    fn end_tip(&mut self);
}

/// An element that begins (`Tip::begin`) or ends (`Tip::end`) a tooltip group.
pub struct Tip(Option<String>);

impl Tip {
    /// Begin a group whose tooltip is `title`.
    pub fn begin(title: impl Into<String>) -> Tip {
        Tip(Some(title.into()))
    }
    /// End the group.
    pub fn end() -> Tip {
        Tip(None)
    }
}

impl<'a> PointCollection<'a, BackendCoord> for &'a Tip {
    type Point = &'a BackendCoord;
    type IntoIter = std::iter::Empty<&'a BackendCoord>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::empty()
    }
}

impl<DB: Canvas> Drawable<DB> for Tip {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        _points: I,
        backend: &mut DB,
        _parent_dim: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match &self.0 {
            Some(t) => backend.begin_tip(t),
            None => backend.end_tip(),
        }
        Ok(())
    }
}

/// Something drawable at a fixed size in logical pixels.
pub trait Figure {
    /// Width and height in logical pixels (SVG user units; the PNG is twice as large).
    fn size(&self) -> (u32, u32);
    /// The figure's title, in label markup: drawn at its top and, without the markup, the
    /// SVG's accessible name.
    fn title(&self) -> String;
    /// Draw onto a white root area of [`Figure::size`].
    fn draw<DB: Canvas>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult;
}

/// The layout box plotters asks a canvas for: a label's width and line height in pixels, from
/// the same [`Face::layout`] the canvases draw with.
pub fn text_box<S: BackendTextStyle>(text: &str, style: &S) -> (u32, u32) {
    match Face::get() {
        Ok(face) => {
            let l = face.layout(text, style.size(), matches!(style.style(), FontStyle::Bold));
            (l.width.ceil() as u32, (l.ascent + l.descent).ceil() as u32)
        }
        Err(_) => (0, 0),
    }
}

/// Regular text of `size` pixels in the text colour.
pub fn font(size: u32) -> TextStyle<'static> {
    (super::font::FAMILY, size)
        .into_font()
        .color(&palette::TEXT)
}

/// Bold text of `size` pixels in the text colour.
pub fn bold(size: u32) -> TextStyle<'static> {
    (super::font::FAMILY, size)
        .into_font()
        .style(FontStyle::Bold)
        .color(&palette::TEXT)
}

/// The palette shared by the figures.
pub mod palette {
    use plotters::style::{RGBAColor, RGBColor};

    /// Ink of our estimates.
    pub const OURS: RGBColor = RGBColor(31, 78, 140);
    /// The paper's values.
    pub const PAPER: RGBColor = RGBColor(204, 102, 0);
    /// Secondary series.
    pub const SECOND: RGBColor = RGBColor(120, 150, 60);
    /// Confidence bands: our ink, translucent.
    pub const BAND: RGBAColor = RGBAColor(31, 78, 140, 0.2);
    /// Guides and frames.
    pub const GUIDE: RGBColor = RGBColor(110, 110, 110);
    /// Text.
    pub const TEXT: RGBColor = RGBColor(20, 20, 20);
}
