//! Figures: Figure 2 and the report's supporting charts, as SVG (inlined in the HTML report) and
//! PNG (linked from the Markdown report), drawn with plotters and the embedded DejaVu Sans.
//!
//! Invariant: the same inputs give byte-identical files (no timestamps, no random ids, no system
//! fonts).
//!
//! Entry point: [`write_figures`].

mod breakeven;
mod canvas;
mod error;
mod figure2;
mod folk_share;
mod font;
mod layout;
mod league_ratings;
mod table3_heatmap;
mod table5_bars;
mod ticks;
mod write;

pub use breakeven::{BreakEvenChart, PaperBreakEven};
pub use canvas::{Figure, render_png, render_svg};
pub use error::PlotError;
pub use figure2::Figure2;
pub use folk_share::FolkShare;
pub use font::ensure_font;
pub use layout::{matchup_label, matchups, policy_names};
pub use league_ratings::LeagueRatings;
pub use table3_heatmap::Table3Heatmap;
pub use table5_bars::Table5Bars;
pub use ticks::Ticks;
pub use write::{FigureFile, FigureKind, figure_files, write_figures, write_study_figures};

#[cfg(test)]
mod tests;
