//! Tests of the figures: the golden structure of Figure 2 and byte-for-byte determinism.
//!
//! Invariant: every test builds its data from `results::fixture`, never from files on disk.

use super::svg_canvas::escape_into as svg_escape;
use super::*;
use crate::results::fixture;
use plotters::coord::ranged1d::Ranged;

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

/// The text content of every `<text>` element, with the `<tspan>` markup removed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            let mut out = String::new();
            let mut in_tag = false;
            for c in body.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => out.push(c),
                    _ => {}
                }
            }
            out
        })
        .collect()
}

/// Width and height of a PNG file, from its IHDR chunk, and its chunk types in order.
fn png_header(bytes: &[u8]) -> ((u32, u32), Vec<String>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let size = (be(&bytes[16..20]), be(&bytes[20..24]));
    let mut chunks = Vec::new();
    let mut at = 8;
    while at + 8 <= bytes.len() {
        let len = be(&bytes[at..at + 4]) as usize;
        chunks.push(String::from_utf8_lossy(&bytes[at + 4..at + 8]).into_owned());
        at += 12 + len;
    }
    (size, chunks)
}

#[test]
fn figure2_has_one_panel_per_matchup_and_one_tooltip_circle_per_kept_bin() {
    let names = ["greedy", "hoarder", "counter"];
    let results = fixture::results(&names);
    let study = &results.studies[0];
    let svg = render_svg(&Figure2::new(study), "paper/figure2").unwrap();
    let texts = texts(&svg);
    for (g1, g2) in matchups(&names.map(String::from)) {
        let title = matchup_label(&g1, &g2);
        assert_eq!(
            texts.iter().filter(|t| **t == title).count(),
            1,
            "panel title {title:?} once"
        );
    }
    let kept: Vec<_> = study
        .figure2
        .iter()
        .flat_map(|p| p.bins.iter().filter(|b| b.kept).map(move |b| (p, b)))
        .collect();
    let dropped: usize = study
        .figure2
        .iter()
        .map(|p| p.bins.iter().filter(|b| !b.kept).count())
        .sum();
    assert!(dropped > 0, "the fixture has bins below the minimum");
    // one circle per kept bin, each in its own tooltip group naming its games; one legend circle
    assert_eq!(count(&svg, "<circle"), kept.len() + 1);
    assert_eq!(count(&svg, "<g><title>"), kept.len());
    for (p, b) in &kept {
        let tip = format!(
            "<g><title>{}</title>\n",
            escape(&figure2::bin_tip(&p.g1_policy, &p.g2_policy, b))
        );
        assert_eq!(count(&svg, &tip), 1, "{tip}");
        let (wins, n) = (number::grouped(b.wins), number::grouped(b.n));
        assert!(
            tip.contains(&format!("won {wins} of {n} non-tied")),
            "{tip}"
        );
    }
    // text stays text, with real subscripts: Δ with subscript "briscola", B with subscript G1
    assert!(
        texts.iter().any(|t| t == "Δbriscola = BG1 − BG2"),
        "{texts:?}"
    );
    assert!(svg.contains(">Δ<tspan dy=\""));
    assert!(
        svg.contains("font-size=\"9.8\">G1</tspan>"),
        "subscript at 0.7 of 14"
    );
    assert!(
        !svg.contains("_{") && !svg.contains("Δ_"),
        "no markup left in the SVG"
    );
    assert!(texts.iter().any(|t| t == "Pr(G1 wins)"));
    // every x tick the fitted axis has is drawn, with a Unicode minus, once per panel
    let fig = Figure2::new(study);
    let x = fig.x_axis();
    assert!(!x.values().is_empty());
    for v in x.values() {
        let label = x.label(*v);
        assert!(!label.starts_with('-'), "{label}");
        assert!(
            texts.iter().filter(|t| **t == label).count() >= 3,
            "x tick {label}"
        );
    }
    assert!(!svg.contains("<image"), "no raster inside the SVG");
}

#[test]
fn figure2_axes_are_fitted_to_the_kept_bins() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let study = &results.studies[0];
    let kept = || {
        study
            .figure2
            .iter()
            .flat_map(|p| p.bins.iter().filter(|b| b.kept))
    };
    let dmin = f64::from(kept().map(|b| b.delta).min().unwrap());
    let dmax = f64::from(kept().map(|b| b.delta).max().unwrap());
    let fig = Figure2::new(study);
    let r = fig.x_axis().range();
    assert!(
        r.start <= dmin && r.start >= dmin.min(0.0) - 1.0,
        "{r:?} vs {dmin}"
    );
    assert!(
        r.end >= dmax && r.end <= dmax.max(0.0) + 1.0,
        "{r:?} vs {dmax}"
    );
    let y = fig.y_axis().range();
    for b in kept() {
        assert!(
            y.start <= b.lo && b.hi <= y.end,
            "{y:?} holds [{}, {}]",
            b.lo,
            b.hi
        );
    }
    assert!(y.start <= 0.5 && 0.5 <= y.end);
    assert!(y.start >= 0.0 && y.end <= 1.0);
}

#[test]
fn figure2_scales_to_k_policies() {
    for names in [vec!["a"], vec!["a", "b"], vec!["a", "b", "c", "d"]] {
        let results = fixture::results(&names);
        let svg = render_svg(&Figure2::new(&results.studies[0]), "k").unwrap();
        let titles = texts(&svg)
            .iter()
            .filter(|t| t.contains(" (G1) vs "))
            .count();
        assert_eq!(titles, names.len() * names.len());
    }
}

#[test]
fn writing_twice_gives_identical_bytes() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let paper = vec![PaperBreakEven {
        g1_policy: "greedy".into(),
        g2_policy: "counter".into(),
        delta: -1.0,
    }];
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let fa = write_figures(&results, &paper, a.path()).unwrap();
    let fb = write_figures(&results, &paper, b.path()).unwrap();
    assert_eq!(fa, fb);
    assert_eq!(fa.len(), 3 * FigureKind::ALL.len());
    for f in &fa {
        for rel in [&f.svg, &f.png] {
            let x = std::fs::read(a.path().join(rel)).unwrap();
            let y = std::fs::read(b.path().join(rel)).unwrap();
            assert!(!x.is_empty());
            assert!(x == y, "{rel} differs between runs");
        }
    }
    assert_eq!(fa, figure_files(&results), "names known without drawing");
    assert_eq!(fa[0].svg, "paper/figure2.svg");
    assert_eq!(fa[0].png, "paper/figure2.png");
}

/// The figures are drawn at once on rayon's threads: one thread and four give the same list
/// and the same bytes in every file.
#[test]
fn the_figures_bytes_do_not_depend_on_the_thread_count() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let lists: Vec<Vec<FigureFile>> = [1, 4]
        .iter()
        .zip(&dirs)
        .map(|(&n, dir)| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            pool.install(|| write_figures(&results, &[], dir.path()).unwrap())
        })
        .collect();
    assert_eq!(lists[0], lists[1]);
    for f in &lists[0] {
        for rel in [&f.svg, &f.png] {
            let x = std::fs::read(dirs[0].path().join(rel)).unwrap();
            let y = std::fs::read(dirs[1].path().join(rel)).unwrap();
            assert!(
                !x.is_empty() && x == y,
                "{rel} differs between 1 and 4 threads"
            );
        }
    }
}

#[test]
fn markup_in_names_is_escaped_in_svg() {
    let results = fixture::results(&["greedy", "<script>x</script>"]);
    let svg = render_svg(&Figure2::new(&results.studies[0]), "esc").unwrap();
    assert!(!svg.contains("<script>"));
    assert!(svg.contains("&lt;script&gt;"));
}

#[test]
fn bad_study_name_is_an_error_not_a_path() {
    let mut results = fixture::results(&["greedy"]);
    results.studies[0].name = "../evil".into();
    let dir = tempfile::tempdir().unwrap();
    let err = write_figures(&results, &[], dir.path()).unwrap_err();
    assert!(matches!(err, PlotError::BadStudyName { .. }), "{err}");
}

#[test]
fn breakeven_draws_paper_values_as_squares() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let paper = vec![
        PaperBreakEven {
            g1_policy: "greedy".into(),
            g2_policy: "counter".into(),
            delta: -1.0,
        },
        PaperBreakEven {
            g1_policy: "counter".into(),
            g2_policy: "greedy".into(),
            delta: 2.0,
        },
    ];
    let chart = BreakEvenChart::new(&results.studies[0], &paper);
    let with = render_svg(&chart, "b").unwrap();
    let without = render_svg(&BreakEvenChart::new(&results.studies[0], &[]), "b").unwrap();
    // two squares in tooltip groups, one more in the legend
    assert_eq!(count(&with, "<rect") - count(&without, "<rect"), 3);
    assert_eq!(count(&with, ": paper Δ ≈ "), 2);
    assert!(with.contains("<title>counter (G1) vs greedy (G2): paper Δ ≈ 2.0</title>"));
    assert_eq!(chart.legend().len(), 3);
    // the axis holds ours, the paper's and 0, and is far narrower than −10..10
    let r = chart.x_axis().range();
    for b in &results.studies[0].breakeven {
        if let Some(d) = b.delta {
            assert!(r.start < d && d < r.end, "{d} in {r:?}");
        }
    }
    assert!(r.start < -1.0 && r.end > 2.0 && r.start <= 0.0);
    assert!(r.end - r.start < 20.0, "{r:?}");
}

#[test]
fn pngs_are_twice_the_svg_size_without_metadata_chunks() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let dir = tempfile::tempdir().unwrap();
    let files = write_figures(&results, &[], dir.path()).unwrap();
    for f in &files {
        let svg = std::fs::read_to_string(f.svg_path(dir.path())).unwrap();
        let w: u32 = attr(&svg, "width").parse().unwrap();
        let h: u32 = attr(&svg, "height").parse().unwrap();
        let (size, chunks) = png_header(&std::fs::read(f.png_path(dir.path())).unwrap());
        assert_eq!(size, (SCALE * w, SCALE * h), "{}", f.png);
        assert_eq!(SCALE, 2);
        for c in &chunks {
            assert!(
                ["IHDR", "IDAT", "IEND"].contains(&c.as_str()),
                "{}: chunk {c}",
                f.png
            );
        }
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("<title>"), "{}: an accessible name", f.svg);
        assert!(svg.ends_with("</svg>\n"));
        assert_eq!(count(&svg, "<g>"), count(&svg, "</g>"), "{}", f.svg);
    }
}

#[test]
fn heatmap_has_a_colour_bar_and_table5_one_legend_for_both_panels() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let study = &results.studies[0];
    let heat = Table3Heatmap::new(study);
    let svg = render_svg(&heat, "t3").unwrap();
    let texts = texts(&svg);
    assert!(texts.iter().any(|t| t == "G1 win rate"));
    let ticks = heat.bar_ticks();
    assert!(ticks.values().len() >= 3);
    for v in ticks.values() {
        assert!(texts.contains(&ticks.label(*v)), "colour bar tick {v}");
    }
    assert_eq!(count(&svg, "<g><title>"), 9, "one tooltip per cell");
    let bars = Table5Bars::new(study);
    let svg = render_svg(&bars, "t5").unwrap();
    let texts = self::texts(&svg);
    assert_eq!(bars.legend().len(), 3);
    for label in [
        "won (left)",
        "wasted on a 0-point card (left)",
        "trick points per winning play (right)",
    ] {
        assert!(texts.iter().any(|t| t == label), "legend entry {label}");
    }
    assert_eq!(count(&svg, "<g><title>"), 3 * study.table5.len());
}

fn attr<'a>(svg: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let start = svg.find(&key).unwrap() + key.len();
    &svg[start..start + svg[start..].find('"').unwrap()]
}

fn escape(s: &str) -> String {
    let mut out = String::new();
    svg_escape(&mut out, s);
    out
}

#[test]
fn no_figure_text_leaves_its_canvas() {
    // Long study names stretch every title; the fitted title sizes keep them on the canvas.
    let mut results = fixture::results(&["greedy", "hoarder", "counter"]);
    for s in &mut results.studies {
        s.name = format!("{}-with-a-long-name", s.name);
    }
    let dir = tempfile::tempdir().unwrap();
    let files = write_figures(&results, &[], dir.path()).unwrap();
    assert!(files.len() >= 5);
    for f in &files {
        let svg = std::fs::read_to_string(f.svg_path(dir.path())).unwrap();
        let outside = text_outside(&svg);
        assert!(outside.is_empty(), "{}: {outside:?}", f.svg);
    }
}

#[test]
fn every_figure2_panel_states_its_n() {
    let names = ["greedy", "hoarder", "counter"];
    let results = fixture::results(&names);
    let study = &results.studies[0];
    let fig = Figure2::new(study);
    let svg = render_svg(&fig, "paper/figure2").unwrap();
    let texts = texts(&svg);
    for (g1, g2) in matchups(&names.map(String::from)) {
        let n = fig.games(&g1, &g2);
        assert!(n > 0);
        let label = figure2::n_label(n);
        assert!(texts.contains(&label), "{g1} vs {g2}: no {label:?}");
    }
}
