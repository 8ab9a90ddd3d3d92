//! Tests of the rendered report: the Markdown snapshot, escaping of hostile names, the
//! self-containment of the HTML.
//!
//! Invariant: every test renders from `results::fixture` with fixed provenance, so snapshots do
//! not depend on the machine or the clock.

use std::path::{Path, PathBuf};

use super::context::ReportContext;
use super::provenance::Provenance;
use super::provenance::{JobProvenance, OutputHash};
use super::published::Published;
use super::render::{FigureLocations, render_report};
use super::report_format::ReportFormat;
use crate::plot::write_figures;
use crate::results::Results;
use crate::results::fixture;

fn templates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("templates")
}

fn published() -> Published {
    Published::parse(
        include_str!("../../templates/published.toml"),
        "templates/published.toml",
    )
    .unwrap()
}

fn context(results: &Results) -> ReportContext {
    let published = published();
    let ancestors = vec![JobProvenance {
        id: "test/paper".to_string(),
        stage: "test".to_string(),
        key: "ab".repeat(32),
        outputs: vec![OutputHash {
            name: "results.json".to_string(),
            sha256: "cd".repeat(32),
        }],
    }];
    let mut prov = Provenance::new(
        "pipeline.toml",
        "[study]\ntitle = \"fixture\"\n",
        "templates/published.toml",
        &published,
        results,
        ancestors,
    );
    prov.rustc_version = "rustc (fixture)".into();
    ReportContext::build("Fixture report", results, &published, 50, prov).unwrap()
}

/// Render `results` into a temporary directory; returns (dir, html, md).
fn render(results: &Results) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    // The pipeline publishes the plot stage's files under outputs/figures/ and the report at
    // outputs/: mirror that layout.
    let figs_dir = dir.path().join("out/figures");
    let figs = write_figures(results, &published().paper_breakeven(), &figs_dir).unwrap();
    let out = dir.path().join("out");
    let written = render_report(
        &context(results),
        &templates(),
        &figs,
        &FigureLocations {
            file: &|rel: &str| figs_dir.join(rel),
            link: &|rel: &str| format!("figures/{rel}"),
        },
        &out,
        &[ReportFormat::Html, ReportFormat::Md],
    )
    .unwrap();
    assert!(written.contains(&"report.html".to_string()));
    assert!(written.contains(&"report.md".to_string()));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    (dir, html, md)
}

#[test]
fn markdown_snapshot() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let (dir, _, md) = render(&results);
    insta::assert_snapshot!("report_md_three_policies", md);
    // every linked PNG exists where the plot stage publishes it, relative to the report
    for line in md.lines().filter(|l| l.starts_with("![")) {
        let rel = line.split("](").nth(1).unwrap().trim_end_matches(')');
        assert!(dir.path().join("out").join(rel).is_file(), "{rel}");
    }
}

#[test]
fn html_is_self_contained() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let (_dir, html, _) = render(&results);
    for bad in [
        "http://", "https://", "<link", "<script", "src=", "url(", "@import",
    ] {
        assert!(!html.contains(bad), "report.html contains {bad:?}");
    }
    assert!(html.contains("default-src 'none'"));
    assert_eq!(
        html.matches("<svg").count(),
        5 + 2 * 2,
        "main figures + 2 per other study"
    );
    for id in [
        "scorecard-paper",
        "table3-paper",
        "table4-paper",
        "table5-paper",
        "fig-paper-figure2",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
    }
}

#[test]
fn markup_in_a_policy_name_is_shown_not_executed() {
    let evil = "<script>alert('x')</script>";
    let results = fixture::results(&["greedy", evil]);
    let (_dir, html, md) = render(&results);
    assert!(!html.contains("<script"), "raw script tag in HTML");
    assert!(
        html.contains("&lt;script&gt;"),
        "escaped name shown in HTML"
    );
    let outside_code: String = md.split("```").step_by(2).collect();
    assert!(
        !outside_code.contains("<script"),
        "raw script tag in Markdown"
    );
    assert!(md.contains("&lt;script&gt;"));
}

#[test]
fn two_renders_are_identical() {
    let results = fixture::results(&["greedy", "hoarder"]);
    let (_a, h1, m1) = render(&results);
    let (_b, h2, m2) = render(&results);
    assert!(h1 == h2);
    assert!(m1 == m2);
}

#[test]
fn a_misspelt_variable_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("report.md.j2"), "{{ no_such_thing }}").unwrap();
    let results = fixture::results(&["greedy"]);
    let err = render_report(
        &context(&results),
        dir.path(),
        &[],
        &FigureLocations {
            file: &|rel: &str| dir.path().join(rel),
            link: &|rel: &str| rel.to_string(),
        },
        dir.path(),
        &[ReportFormat::Md],
    )
    .unwrap_err();
    assert!(err.to_string().contains("report.md.j2"), "{err}");
}

#[test]
fn markdown_contents_list_every_heading_after_the_marker() {
    let md = super::render::with_md_toc(
        "# T\n\n## Contents\n\n<!--toc-->\n\n## H0(1): the folk theorem\n\n```\n## not a heading\n```\n\n## Beyond the paper\n",
    );
    assert!(
        md.contains("- [H0(1): the folk theorem](#h01-the-folk-theorem)\n- [Beyond the paper](#beyond-the-paper)\n"),
        "{md}"
    );
    assert!(!md.contains("not a heading]"));
    assert!(!md.contains("<!--toc-->"));
    assert!(!md.contains("[Contents]"));
}
