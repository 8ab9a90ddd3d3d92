//! Figures: Figure 2 and the report's supporting charts, as SVG (inlined in the HTML report, with
//! tooltips) and 2x PNG (linked from the Markdown report), drawn with plotters on the figures' own
//! canvases ([`SvgCanvas`], [`PngCanvas`]) and the embedded DejaVu Sans laid out by [`Face`].
//!
//! `benches/ggplot_figures.R` draws Figure 2, the Table 3 heatmap and the break-even chart again
//! with ggplot2 from `results.json`, as a reference to look at beside ours (not part of the report).
//!
//! Invariant: the same inputs give byte-identical files (no timestamps, no random ids, no system
//! fonts).
//!
//! Entry point: [`write_figures`].

mod breakeven;
mod canvas;
mod error;
mod exploitability_curve;
mod extent;
mod face;
mod figure2;
mod folk_share;
mod font;
mod layout;
mod league_ratings;
mod legend;
pub mod markup;
mod number;
mod png_canvas;
mod render_figure;
mod svg_canvas;
mod sweep_curve;
mod table3_heatmap;
mod table5_bars;
mod ticks;
mod write;

pub use breakeven::{BreakEvenChart, PaperBreakEven};
pub use canvas::{Canvas, Figure, Tip};
pub use error::PlotError;
pub use exploitability_curve::ExploitabilityCurve;
pub use extent::{fitted_size, text_outside};
pub use face::Face;
pub use figure2::Figure2;
pub use folk_share::FolkShare;
pub use font::ensure_font;
pub use layout::{matchup_label, matchups, policy_names};
pub use league_ratings::LeagueRatings;
pub use legend::{Legend, Swatch};
pub use png_canvas::{PngCanvas, SCALE};
pub use render_figure::{render_png, render_svg};
pub use svg_canvas::SvgCanvas;
pub use sweep_curve::SweepFigure;
pub use table3_heatmap::Table3Heatmap;
pub use table5_bars::Table5Bars;
pub use ticks::Ticks;
pub use write::{FigureFile, FigureKind, figure_files, write_figures, write_study_figures};

#[cfg(test)]
mod tests;
