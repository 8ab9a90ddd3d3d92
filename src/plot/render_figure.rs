//! Rendering a [`Figure`] onto its two canvases: [`render_svg`] (SVG text) and [`render_png`] (a
//! PNG file at [`SCALE`](super::SCALE) times the figure's logical size).
//!
//! Invariant: both render the figure through the same `draw` after filling the canvas white, so
//! the SVG and the PNG of a figure show the same drawing.

use std::path::Path;

use plotters::prelude::*;

use super::canvas::{Figure, OrMessage};
use super::error::PlotError;
use super::font::ensure_font;
use super::markup::plain;
use super::png_canvas::PngCanvas;
use super::svg_canvas::SvgCanvas;

/// Render `fig` to SVG text. `name` (e.g. `paper/figure2`) is used in errors.
pub fn render_svg<F: Figure>(fig: &F, name: &str) -> Result<String, PlotError> {
    ensure_font()?;
    let draw_err = |message: String| PlotError::Draw {
        figure: name.to_string(),
        message,
    };
    let mut out = String::new();
    {
        let root = SvgCanvas::new(&mut out, fig.size(), &plain(&fig.title())).into_drawing_area();
        root.fill(&WHITE).msg().map_err(draw_err)?;
        fig.draw(&root).map_err(draw_err)?;
        root.present().msg().map_err(draw_err)?;
    }
    Ok(out)
}

/// Render `fig` to a PNG file at `path`, [`SCALE`](super::SCALE) times its logical size.
pub fn render_png<F: Figure>(fig: &F, name: &str, path: &Path) -> Result<(), PlotError> {
    ensure_font()?;
    let draw_err = |message: String| PlotError::Draw {
        figure: name.to_string(),
        message,
    };
    let root = PngCanvas::new(path, fig.size()).into_drawing_area();
    root.fill(&WHITE).msg().map_err(draw_err)?;
    fig.draw(&root).map_err(draw_err)?;
    root.present().msg().map_err(draw_err)?;
    Ok(())
}
