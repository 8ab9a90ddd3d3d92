//! [`write_figures`]: every figure of every study (and each league's ratings), as `<study>/<figure>.svg` and
//! `.png` under one output directory, and the [`FigureFile`] list that names them.
//!
//! The figures are drawn at once on rayon's threads, each writing only its own two files.
//!
//! Invariant: the list is in study order, then [`FigureKind::ALL`] order, and holds only
//! relative paths with `/` separators, so it is the same on every machine and any number of
//! threads.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use super::breakeven::{BreakEvenChart, PaperBreakEven};
use super::canvas::Figure;
use super::error::PlotError;
use super::figure2::Figure2;
use super::folk_share::FolkShare;
use super::league_ratings::LeagueRatings;
use super::render_figure::{render_png, render_svg};
use super::sweep_curve::SweepFigure;
use super::table3_heatmap::Table3Heatmap;
use super::table5_bars::Table5Bars;
use crate::results::{Results, StudyResults};

/// Which figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FigureKind {
    /// The paper's Figure 2.
    Figure2,
    /// Table 3 as a heatmap.
    Table3,
    /// Table 5 as bars.
    Table5,
    /// The folk theorem per matchup.
    Folk,
    /// Break-even Delta per matchup.
    Breakeven,
    /// A sweep's win-rate curve (one per sweep, not per study).
    Sweep,
    /// A league's ratings (one per league, not per study).
    Ratings,
    /// A league of exploit agents: the reduced game's CFR+ exploitability against iterations.
    Exploitability,
}

impl FigureKind {
    /// Every kind, in the order files are written and listed.
    pub const ALL: [FigureKind; 5] = [
        FigureKind::Figure2,
        FigureKind::Table3,
        FigureKind::Table5,
        FigureKind::Folk,
        FigureKind::Breakeven,
    ];

    /// File stem: `figure2`, `table3`, `table5`, `folk`, `breakeven`.
    pub const fn stem(self) -> &'static str {
        match self {
            FigureKind::Figure2 => "figure2",
            FigureKind::Table3 => "table3",
            FigureKind::Table5 => "table5",
            FigureKind::Folk => "folk",
            FigureKind::Breakeven => "breakeven",
            FigureKind::Sweep => "sweep",
            FigureKind::Ratings => "ratings",
            FigureKind::Exploitability => "exploitability",
        }
    }
}

/// One written figure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FigureFile {
    /// The study's name.
    pub study: String,
    /// Which figure.
    pub kind: FigureKind,
    /// `<study>/<stem>.svg`, relative to the output directory.
    pub svg: String,
    /// `<study>/<stem>.png`, relative to the output directory.
    pub png: String,
}

impl FigureFile {
    /// The SVG's path under `dir`.
    pub fn svg_path(&self, dir: &Path) -> PathBuf {
        dir.join(&self.svg)
    }

    /// The PNG's path under `dir`.
    pub fn png_path(&self, dir: &Path) -> PathBuf {
        dir.join(&self.png)
    }
}

fn check_study_name(name: &str) -> Result<(), PlotError> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(PlotError::BadStudyName {
            name: name.to_string(),
        })
    }
}

/// The file names `write_figures` writes for `results`, without drawing anything: what the
/// render stage needs to find the plot stage's outputs. A sweep's figure is listed under the
/// sweep's name as its study, a league's ratings under the league's name.
pub fn figure_files(results: &Results) -> Vec<FigureFile> {
    let file = |name: &str, k: FigureKind| FigureFile {
        study: name.to_string(),
        kind: k,
        svg: format!("{name}/{}.svg", k.stem()),
        png: format!("{name}/{}.png", k.stem()),
    };
    results
        .studies
        .iter()
        .flat_map(|s| FigureKind::ALL.iter().map(|k| file(&s.name, *k)))
        .chain(
            results
                .sweeps
                .iter()
                .map(|s| file(&s.name, FigureKind::Sweep)),
        )
        .chain(
            results
                .leagues
                .iter()
                .map(|l| file(&l.name, FigureKind::Ratings)),
        )
        .chain(
            results
                .leagues
                .iter()
                .filter(|l| l.reduced.is_some())
                .map(|l| file(&l.name, FigureKind::Exploitability)),
        )
        .collect()
}

fn write_one<F: Figure>(
    fig: &F,
    study: &str,
    kind: FigureKind,
    out_dir: &Path,
) -> Result<FigureFile, PlotError> {
    let name = format!("{study}/{}", kind.stem());
    let file = FigureFile {
        study: study.to_string(),
        kind,
        svg: format!("{name}.svg"),
        png: format!("{name}.png"),
    };
    let svg = render_svg(fig, &name)?;
    let svg_path = file.svg_path(out_dir);
    std::fs::write(&svg_path, svg).map_err(|source| PlotError::Io {
        path: svg_path,
        source,
    })?;
    render_png(fig, &name, &file.png_path(out_dir))?;
    Ok(file)
}

/// One figure to draw: its files and how to write them.
type Draw<'a> = Box<dyn Fn() -> Result<FigureFile, PlotError> + Send + Sync + 'a>;

/// The figures of one study, written under `out_dir/<study>/`.
pub fn write_study_figures(
    study: &StudyResults,
    paper_breakeven: &[PaperBreakEven],
    out_dir: &Path,
) -> Result<Vec<FigureFile>, PlotError> {
    draw_all(study_draws(study, paper_breakeven, out_dir)?)
}

/// The figures of one study, its directory made.
fn study_draws<'a>(
    study: &'a StudyResults,
    paper_breakeven: &'a [PaperBreakEven],
    out_dir: &'a Path,
) -> Result<Vec<Draw<'a>>, PlotError> {
    make_dir(&study.name, out_dir)?;
    let at = Place {
        name: &study.name,
        out_dir,
    };
    let mut out: Vec<Draw<'a>> = Vec::with_capacity(FigureKind::ALL.len());
    for kind in FigureKind::ALL {
        out.push(match kind {
            FigureKind::Figure2 => at.draw(kind, move || Figure2::new(study)),
            FigureKind::Table3 => at.draw(kind, move || Table3Heatmap::new(study)),
            FigureKind::Table5 => at.draw(kind, move || Table5Bars::new(study)),
            FigureKind::Folk => at.draw(kind, move || FolkShare::new(study)),
            FigureKind::Breakeven => {
                at.draw(kind, move || BreakEvenChart::new(study, paper_breakeven))
            }
            FigureKind::Sweep => continue,
            // a league's figures, not a study's
            FigureKind::Ratings | FigureKind::Exploitability => continue,
        });
    }
    Ok(out)
}

/// Where a figure goes: `out_dir/name/`.
#[derive(Clone, Copy)]
struct Place<'a> {
    name: &'a str,
    out_dir: &'a Path,
}

impl<'a> Place<'a> {
    /// The figure `fig` makes, drawn as `kind` here.
    fn draw<F: Figure>(self, kind: FigureKind, fig: impl Fn() -> F + Send + Sync + 'a) -> Draw<'a> {
        Box::new(move || write_one(&fig(), self.name, kind, self.out_dir))
    }
}

/// Every figure of every study: `out_dir/<study>/{figure2,table3,table5,folk,breakeven}.{svg,png}`.
/// `paper_breakeven` holds the paper's approximate break-even values (from `published.toml`'s
/// `[figure2]`, see `report::published::Published::paper_breakeven`), drawn beside ours.
/// The directories are made (and their names checked) first, in order; the figures are then
/// drawn on rayon's threads, each writing its own two files.
pub fn write_figures(
    results: &Results,
    paper_breakeven: &[PaperBreakEven],
    out_dir: &Path,
) -> Result<Vec<FigureFile>, PlotError> {
    let mut draws: Vec<Draw<'_>> = Vec::new();
    for study in &results.studies {
        draws.extend(study_draws(study, paper_breakeven, out_dir)?);
    }
    let place = |name| -> Result<Place<'_>, PlotError> {
        make_dir(name, out_dir)?;
        Ok(Place { name, out_dir })
    };
    for sweep in &results.sweeps {
        let at = place(&sweep.name)?;
        draws.push(at.draw(FigureKind::Sweep, move || SweepFigure::new(sweep)));
    }
    for league in &results.leagues {
        let at = place(&league.name)?;
        draws.push(at.draw(FigureKind::Ratings, move || LeagueRatings::new(league)));
    }
    for league in &results.leagues {
        if let Some(r) = &league.reduced {
            let at = place(&league.name)?;
            draws.push(at.draw(FigureKind::Exploitability, move || {
                super::exploitability_curve::ExploitabilityCurve::new(r)
            }));
        }
    }
    draw_all(draws)
}

/// Draw every figure, at once on rayon's threads; the files listed, or the first error, in
/// the order given.
fn draw_all(draws: Vec<Draw<'_>>) -> Result<Vec<FigureFile>, PlotError> {
    let done: Vec<Result<FigureFile, PlotError>> = draws.par_iter().map(|draw| draw()).collect();
    done.into_iter().collect()
}

/// Check a figure directory's name (a study's, a sweep's, a league's) and make it under
/// `out_dir`.
fn make_dir(name: &str, out_dir: &Path) -> Result<(), PlotError> {
    check_study_name(name)?;
    let dir = out_dir.join(name);
    std::fs::create_dir_all(&dir).map_err(|source| PlotError::Io { path: dir, source })
}
