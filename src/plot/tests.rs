//! Tests of the figures: the golden structure of Figure 2 and byte-for-byte determinism.
//!
//! Invariant: every test builds its data from `results::fixture`, never from files on disk.

use super::*;
use crate::results::fixture;

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

#[test]
fn figure2_has_one_panel_per_matchup_and_one_circle_per_kept_bin() {
    let names = ["greedy", "hoarder", "counter"];
    let results = fixture::results(&names);
    let study = &results.studies[0];
    let svg = render_svg(&Figure2::new(study), "paper/figure2").unwrap();
    let mut panels = 0;
    for (g1, g2) in matchups(&names.map(String::from)) {
        let title = format!(">\n{}\n</text>", matchup_label(&g1, &g2));
        assert_eq!(count(&svg, &title), 1, "panel title {title:?} once");
        panels += 1;
    }
    assert_eq!(panels, 9);
    let kept: usize = study
        .figure2
        .iter()
        .map(|p| p.bins.iter().filter(|b| b.kept).count())
        .sum();
    let dropped: usize = study
        .figure2
        .iter()
        .map(|p| p.bins.iter().filter(|b| !b.kept).count())
        .sum();
    assert!(dropped > 0, "the fixture has bins below the minimum");
    assert_eq!(count(&svg, "<circle"), kept);
    // text stays text, with the paper's notation
    assert!(svg.contains("Δ_briscola = B_G1 − B_G2"));
    assert!(svg.contains("Pr(G1 wins)"));
    for tick in ["-10", "-8", "-2", "0", "2", "8", "10"] {
        assert!(
            svg.contains(&format!(">\n{tick}\n</text>")),
            "x tick {tick}"
        );
    }
    assert!(!svg.contains("<image"), "no raster inside the SVG");
}

#[test]
fn figure2_scales_to_k_policies() {
    for names in [vec!["a"], vec!["a", "b"], vec!["a", "b", "c", "d"]] {
        let results = fixture::results(&names);
        let svg = render_svg(&Figure2::new(&results.studies[0]), "k").unwrap();
        let titles = count(&svg, " (G1) vs ");
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
    let with = render_svg(&BreakEvenChart::new(&results.studies[0], &paper), "b").unwrap();
    let without = render_svg(&BreakEvenChart::new(&results.studies[0], &[]), "b").unwrap();
    assert_eq!(count(&with, "<rect") - count(&without, "<rect"), 2);
}
