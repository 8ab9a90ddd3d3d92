//! The template context: per study its results, scorecard and conclusions; the cross-study
//! comparison; the findings; provenance. This is everything a template may print.
//!
//! Invariant: built from `Results` and the published figures only (plus provenance strings), so
//! two builds from the same inputs serialise to the same bytes.

use serde::Serialize;
use std::collections::BTreeSet;

use super::conclusions::Conclusions;
use super::error::RenderError;
use super::findings::{Finding, findings};
use super::provenance::Provenance;
use super::published::Published;
use super::published_key::Section;
use super::scorecard::{ScoreInputs, Scorecard, StudyKind, Verdict, score};
use super::study_verdict::{Outcome, StudyVerdict, verdict};
use crate::plot::policy_names;
use crate::results::{Results, StudyResults};

pub use super::study_view::{StudyView, Table3Row};

/// One study's value in a comparison row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComparisonCell {
    /// Study name.
    pub study: String,
    /// Its value as the scorecard prints it.
    pub ours: String,
    /// Its z against the paper.
    pub z: Option<f64>,
    /// Its verdict.
    pub verdict: Verdict,
}

/// One published figure across all studies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComparisonRow {
    /// Published key.
    pub key: String,
    /// Section.
    pub section: String,
    /// Label.
    pub label: String,
    /// The paper's value.
    pub paper: String,
    /// One per study, in study order.
    pub cells: Vec<ComparisonCell>,
}

/// The whole context.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportContext {
    /// Report title (from `[study] title`).
    pub title: String,
    /// Studies in configuration order; the first is the main one.
    pub studies: Vec<StudyView>,
    /// Published figures (except interval bounds) across all studies.
    pub comparison: Vec<ComparisonRow>,
    /// What the paper gets wrong or leaves unsaid (only when the main study replays the paper
    /// and published figures are given).
    pub findings: Vec<Finding>,
    /// Every study's top-line verdict, in study order.
    pub verdicts: Vec<StudyVerdict>,
    /// True when some study is scored against the paper.
    pub scored: bool,
    /// Where it all came from.
    pub provenance: Provenance,
    /// Figure 2's minimum games per bin, as configured.
    pub min_games_per_bin: u64,
    /// The rule variants' part (team games, the draw-order test, other variants).
    pub variants: super::variants::VariantsView,
    /// The sweeps of "Beyond the paper", in name order.
    pub sweeps: Vec<super::beyond::SweepView>,
    /// Every league, in configuration order.
    pub leagues: Vec<super::league_view::LeagueView>,
    /// How exploitable the deterministic policies are (exploit agents against their targets,
    /// beside plain search); no rows without an exploit agent in a league.
    pub exploitability: super::exploitability::ExploitView,
    /// The first screen: every question in one computed line, and the scored verdicts.
    pub answers: super::answers::Answers,
}

fn view(
    study: &StudyResults,
    published: &Published,
    inputs: &ScoreInputs,
    replay: Option<&StudyResults>,
) -> StudyView {
    let policies = policy_names(study);
    let table3_rows = policies
        .iter()
        .map(|g1| Table3Row {
            g1: g1.clone(),
            cells: policies
                .iter()
                .map(|g2| {
                    study
                        .table3
                        .iter()
                        .find(|c| c.g1_policy == *g1 && c.g2_policy == *g2)
                        .cloned()
                })
                .collect(),
        })
        .collect();
    let scorecard = score(study, published, inputs);
    let kind = StudyKind::of(study);
    StudyView {
        name: study.name.clone(),
        label: study.label.clone(),
        kind,
        kind_description: if kind == StudyKind::Own && !scorecard.rows.is_empty() {
            "a study of its own design, compared with the paper on request".to_string()
        } else {
            kind.description().to_string()
        },
        verdict: verdict(study, &scorecard, replay, published),
        policies,
        non_tied: study.table3.iter().map(|c| c.non_tied).sum(),
        ties: study.table3.iter().map(|c| c.ties).sum(),
        table3_rows,
        results: study.clone(),
        scorecard,
        conclusions: Conclusions::of(study),
    }
}

impl ReportContext {
    /// Build the context. `min_games_per_bin` is the configured Figure 2 threshold.
    pub fn build(
        title: &str,
        results: &Results,
        published: &Published,
        min_games_per_bin: u64,
        provenance: Provenance,
    ) -> Result<ReportContext, RenderError> {
        Self::build_comparing(
            title,
            results,
            published,
            min_games_per_bin,
            &BTreeSet::new(),
            provenance,
        )
    }

    /// [`ReportContext::build`], scoring the studies named in `compare_to_paper` against the
    /// paper even when their design is their own (`compare_to_paper = true` in the config).
    pub fn build_comparing(
        title: &str,
        results: &Results,
        published: &Published,
        min_games_per_bin: u64,
        compare_to_paper: &BTreeSet<String>,
        provenance: Provenance,
    ) -> Result<ReportContext, RenderError> {
        if results.studies.is_empty() {
            return Err(RenderError::Results("no study to report on".into()));
        }
        let inputs = ScoreInputs {
            min_games_per_bin: Some(min_games_per_bin),
            compare_to_paper: compare_to_paper.clone(),
        };
        let replay = results
            .studies
            .iter()
            .find(|s| StudyKind::of(s) == StudyKind::Replay);
        let studies: Vec<StudyView> = results
            .studies
            .iter()
            .map(|s| view(s, published, &inputs, replay))
            .collect();
        let verdicts: Vec<StudyVerdict> = studies.iter().map(|s| s.verdict.clone()).collect();
        let scored = studies.iter().any(|s| !s.scorecard.rows.is_empty());
        let papers_findings = scored && studies[0].kind == StudyKind::Replay;
        let mut all_findings = if papers_findings {
            findings(results, &cards_of(&studies), published)
        } else {
            Vec::new()
        };
        all_findings.splice(0..0, non_replication_findings(&studies));
        let comparison = studies[0]
            .scorecard
            .rows
            .iter()
            .filter(|r| {
                r.verdict != Verdict::NotCompared
                    && !r.published_key.is_bound()
                    && r.published_key.section() != Section::Design
            })
            .map(|r| ComparisonRow {
                key: r.key.clone(),
                section: r.section.clone(),
                label: r.label.clone(),
                paper: r.paper.clone(),
                cells: studies
                    .iter()
                    .filter_map(|s| {
                        let row = s.scorecard.rows.iter().find(|x| x.key == r.key)?;
                        Some(ComparisonCell {
                            study: s.name.clone(),
                            ours: row.ours.clone(),
                            z: row.z,
                            verdict: row.verdict,
                        })
                    })
                    .collect(),
            })
            .collect();
        let variants = super::variants::VariantsView::of(results);
        let sweeps: Vec<super::beyond::SweepView> = results
            .sweeps
            .iter()
            .map(super::beyond::sweep_view)
            .collect();
        let leagues: Vec<super::league_view::LeagueView> = results
            .leagues
            .iter()
            .map(super::league_view::LeagueView::new)
            .collect();
        // The exploit rows' gain intervals at the first league's level (every league's is the
        // pipeline's default unless set).
        let conf = results
            .leagues
            .first()
            .map_or(0.95, |l| l.settings.confidence);
        let z = crate::stats::z_critical(1.0 - conf).unwrap_or(1.959_963_984_540_054);
        let exploitability = super::exploitability::ExploitView::of(
            &results.leagues,
            z,
            &super::format::pct(conf, 0),
        );
        let answers = super::answers::Answers::of(&studies, &sweeps, &variants, &leagues)
            .with_exploitability(&exploitability);
        Ok(ReportContext {
            title: title.to_string(),
            findings: all_findings,
            verdicts,
            scored,
            studies,
            comparison,
            provenance,
            min_games_per_bin,
            variants,
            sweeps,
            leagues,
            exploitability,
            answers,
        })
    }
}

fn cards_of(studies: &[StudyView]) -> Vec<Scorecard> {
    studies.iter().map(|s| s.scorecard.clone()).collect()
}

/// A finding for every replication in which one of the paper's conclusions does not hold:
/// these come first, since they are what a reader of a replication most needs to know.
fn non_replication_findings(studies: &[StudyView]) -> Vec<Finding> {
    studies
        .iter()
        .filter(|s| s.verdict.outcome == Outcome::DidNotReplicate)
        .map(|s| Finding {
            id: format!("non-replication-{}", s.name),
            title: format!(
                "Study “{}” does not replicate every conclusion of the paper",
                s.name
            ),
            paper_says: "§5: every non-baseline cell but counter vs counter rejects H0(2) at the Bonferroni-adjusted level; greedy dominates both refinements.".into(),
            we_find: format!(
                "{} ({}: {})",
                s.verdict.non_replications.join(" "),
                s.name,
                s.label
            ),
            table: (!s.verdict.rejection_changes.is_empty()).then(|| {
                super::findings::FindingTable {
                    caption: format!(
                        "Pairwise cells of study “{}” whose Bonferroni decision differs from the paper's.",
                        s.name
                    ),
                    headers: vec![
                        "matchup".into(),
                        "Bonferroni p".into(),
                        "rejects here".into(),
                        "rejects in the paper".into(),
                    ],
                    rows: s
                        .verdict
                        .rejection_changes
                        .iter()
                        .map(|c| {
                            vec![
                                format!("{} vs {}", c.g1, c.g2),
                                c.p_bonferroni.clone(),
                                if c.study_rejects { "yes" } else { "no" }.into(),
                                if c.paper_rejects { "yes" } else { "no" }.into(),
                            ]
                        })
                        .collect(),
                }
            }),
        })
        .collect()
}
