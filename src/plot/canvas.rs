//! The [`Figure`] trait and the two renderings of a figure: an SVG string (text stays text) and
//! a PNG file (for Markdown), both drawn by the same code.
//!
//! Invariant: a figure is drawn by one generic `draw` over any plotters backend, so the SVG and
//! the PNG of a figure cannot disagree about what is drawn.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::error::PlotError;
use super::font::ensure_font;

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

/// Something drawable at a fixed pixel size.
pub trait Figure {
    /// Width and height in pixels (SVG user units).
    fn size(&self) -> (u32, u32);
    /// Draw onto a white root area of [`Figure::size`].
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult;
}

/// Render `fig` to SVG text. `name` (e.g. `paper/figure2`) is used in errors.
pub fn render_svg<F: Figure>(fig: &F, name: &str) -> Result<String, PlotError> {
    ensure_font()?;
    let draw_err = |message: String| PlotError::Draw {
        figure: name.to_string(),
        message,
    };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, fig.size()).into_drawing_area();
        root.fill(&WHITE).msg().map_err(draw_err)?;
        fig.draw(&root).map_err(draw_err)?;
        root.present().msg().map_err(draw_err)?;
    }
    Ok(out)
}

/// Render `fig` to a PNG file at `path`.
pub fn render_png<F: Figure>(fig: &F, name: &str, path: &Path) -> Result<(), PlotError> {
    ensure_font()?;
    let draw_err = |message: String| PlotError::Draw {
        figure: name.to_string(),
        message,
    };
    let root = BitMapBackend::new(path, fig.size()).into_drawing_area();
    root.fill(&WHITE).msg().map_err(draw_err)?;
    fig.draw(&root).map_err(draw_err)?;
    root.present().msg().map_err(draw_err)?;
    Ok(())
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
    use plotters::style::RGBColor;

    /// Ink of our estimates.
    pub const OURS: RGBColor = RGBColor(31, 78, 140);
    /// The paper's values.
    pub const PAPER: RGBColor = RGBColor(204, 102, 0);
    /// Secondary series.
    pub const SECOND: RGBColor = RGBColor(120, 150, 60);
    /// Confidence ribbons.
    pub const RIBBON: RGBColor = RGBColor(150, 150, 150);
    /// Guides and frames.
    pub const GUIDE: RGBColor = RGBColor(110, 110, 110);
    /// Text.
    pub const TEXT: RGBColor = RGBColor(20, 20, 20);
}
