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
        5,
        "the main study's figures inline; the other studies' are linked"
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
    std::fs::write(dir.path().join("provenance.md.j2"), "{{ title }}").unwrap();
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

#[test]
fn the_answers_come_first_and_every_link_has_its_target() {
    let results = fixture::results(&["greedy", "hoarder", "counter"]);
    let (dir, html, md) = render(&results);
    let ctx = context(&results);
    let answers = &ctx.answers.questions;
    assert!(
        answers.len() >= 4,
        "H0(1), H0(2), H0(3) and Table 5 at least"
    );
    // first in both reports: before the contents and every other section
    let at = html.find("id=\"answers\"").unwrap();
    assert!(at < html.find("<nav").unwrap());
    assert!(at < html.find("id=\"design\"").unwrap());
    assert!(md.find("## Answers").unwrap() < md.find("## Contents").unwrap());
    for a in answers {
        assert!(
            html.contains(&format!("href=\"#{}\"", a.anchor)),
            "{}",
            a.anchor
        );
        assert!(
            html.contains(&format!("id=\"{}\"", a.anchor)),
            "no #{} in the HTML",
            a.anchor
        );
        assert!(
            md.contains(&format!("<a id=\"{}\"></a>", a.anchor)),
            "no #{} in the Markdown",
            a.anchor
        );
        assert!(
            a.answer.contains('[') && a.answer.contains(']'),
            "no interval: {}",
            a.answer
        );
    }
    // the findings stay in both reports
    assert!(!ctx.findings.is_empty());
    assert!(html.contains("id=\"findings\""));
    assert!(md.contains("## What the paper gets wrong or leaves unsaid"));
    // one verdict line per scored study, the verb agreeing with its count
    assert_eq!(
        ctx.answers.verdicts.len(),
        ctx.studies
            .iter()
            .filter(|s| !s.scorecard.rows.is_empty())
            .count()
    );
    for v in &ctx.answers.verdicts {
        for phrase in v.counts.split(", ") {
            assert!(
                !phrase.ends_with(" differs") || phrase == "1 differs",
                "{phrase}"
            );
        }
    }
    // provenance in its own file, named by its hash; the report keeps no job table
    let prov = std::fs::read(dir.path().join("out/provenance.html")).unwrap();
    let sha = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(&prov))
    };
    assert!(html.contains(&sha));
    assert!(!html.contains("id=\"provenance-jobs\""));
    assert!(std::path::Path::new(&dir.path().join("out/provenance.md")).is_file());
    // one number format: rates as proportions, no percentages of rates
    let decimal_pct = regex_like_decimal_percent(&html);
    assert!(
        decimal_pct.is_empty(),
        "percentages in the report: {decimal_pct:?}"
    );
}

/// Every `12.3%` or `12.3 %` (a decimal followed by a percent sign) in `text`.
fn regex_like_decimal_percent(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, _) in text.match_indices('%') {
        let mut j = i;
        while j > 0 && b[j - 1] == b' ' {
            j -= 1;
        }
        let end = j;
        while j > 0 && (b[j - 1].is_ascii_digit() || b[j - 1] == b'.') {
            j -= 1;
        }
        if text[j..end].contains('.') {
            out.push(text[j..=i].to_string());
        }
    }
    out
}
