//! The top-line verdict of one study: reproduced, reproduced except where the paper is
//! inconsistent with itself, replicated, did not replicate (and which conclusion failed), a
//! variant's expected differences, or not scored. Printed first in the report and written to
//! `results.json`.
//!
//! Invariant: the verdict is computed from the study's scorecard and its own conclusions,
//! compared with the paper's (the replay study's when there is one, else the published
//! figures); a replication "did not replicate" exactly when one of the paper's conclusions
//! (a pairwise rejection, the dominance chain, the folk theorem) does not hold in it.

use serde::Serialize;

use super::conclusions::Conclusions;
use super::format::{pval, thousands};
use super::published::Published;
use super::scorecard::{Scorecard, StudyKind, Verdict};
use crate::results::StudyResults;

/// The kind of top-line outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A replay that reproduces every compared figure.
    Reproduced,
    /// A replay that reproduces every figure except some where the paper contradicts itself.
    PaperInconsistent,
    /// A replay with figures that differ for no reason the paper gives: a failure.
    NotReproduced,
    /// A replication whose conclusions all agree with the paper's.
    Replicated,
    /// A replication in which at least one of the paper's conclusions does not hold.
    DidNotReplicate,
    /// A variant of the paper's policies on its deals: differences are expected.
    Variant,
    /// A study of its own design: nothing to score.
    NotScored,
    /// A study of its own design scored against the paper on request (`compare_to_paper`).
    ComparedOnRequest,
}

impl Outcome {
    /// Short text.
    pub const fn label(self) -> &'static str {
        match self {
            Outcome::Reproduced => "reproduced",
            Outcome::PaperInconsistent => "reproduced; the paper is inconsistent with itself",
            Outcome::NotReproduced => "NOT reproduced",
            Outcome::Replicated => "replicated",
            Outcome::DidNotReplicate => "did not replicate",
            Outcome::Variant => "a variant: differences expected",
            Outcome::NotScored => "not scored against the paper",
            Outcome::ComparedOnRequest => "its own design, compared with the paper on request",
        }
    }
}

/// One pairwise cell whose rejection differs from the paper's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RejectionChange {
    /// G1's policy.
    pub g1: String,
    /// G2's policy.
    pub g2: String,
    /// Does the paper reject it?
    pub paper_rejects: bool,
    /// Does this study?
    pub study_rejects: bool,
    /// This study's Bonferroni p, as printed.
    pub p_bonferroni: String,
}

/// A study's top-line verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StudyVerdict {
    /// Study name.
    pub study: String,
    /// What kind of study.
    pub kind: StudyKind,
    /// The outcome.
    pub outcome: Outcome,
    /// [`Outcome::label`].
    pub outcome_label: String,
    /// One sentence with the counts behind it.
    pub headline: String,
    /// Conclusions of the paper that do not hold in this study (replications), in prose.
    pub non_replications: Vec<String>,
    /// Pairwise cells whose rejection differs from the paper's.
    pub rejection_changes: Vec<RejectionChange>,
}

/// The paper's pairwise rejections as (g1, g2, rejects): from the replay study when there is
/// one, else from the published figures (every non-baseline cell rejects except those whose
/// Bonferroni p the paper prints at or above the family alpha).
pub fn paper_rejections(
    replay: Option<&StudyResults>,
    study: &StudyResults,
    published: &Published,
) -> Vec<(String, String, bool)> {
    if let Some(r) = replay {
        return r
            .pairwise
            .cells
            .iter()
            .map(|c| (c.g1_policy.clone(), c.g2_policy.clone(), c.reject))
            .collect();
    }
    let alpha = study.pairwise.alpha_family;
    study
        .pairwise
        .cells
        .iter()
        .map(|c| {
            let key = format!("pairwise.{}_{}_p_bonferroni", c.g1_policy, c.g2_policy);
            let rejects = published.number(&key).is_none_or(|p| p < alpha);
            (c.g1_policy.clone(), c.g2_policy.clone(), rejects)
        })
        .collect()
}

fn rejection_changes(
    study: &StudyResults,
    paper: &[(String, String, bool)],
) -> Vec<RejectionChange> {
    study
        .pairwise
        .cells
        .iter()
        .filter_map(|c| {
            let (_, _, p) = paper
                .iter()
                .find(|(a, b, _)| *a == c.g1_policy && *b == c.g2_policy)?;
            (*p != c.reject).then(|| RejectionChange {
                g1: c.g1_policy.clone(),
                g2: c.g2_policy.clone(),
                paper_rejects: *p,
                study_rejects: c.reject,
                p_bonferroni: pval(&c.p_bonferroni, 2),
            })
        })
        .collect()
}

/// The paper's conclusions that do not hold in `study`, in prose, with the pairwise cells.
fn non_replications(
    study: &StudyResults,
    own: &Conclusions,
    paper: Option<&Conclusions>,
    paper_rejections: &[(String, String, bool)],
) -> (Vec<String>, Vec<RejectionChange>) {
    let changes = rejection_changes(study, paper_rejections);
    let mut out = Vec::new();
    if !changes.is_empty() {
        let paper_n = paper_rejections.iter().filter(|x| x.2).count();
        let cells: Vec<String> = changes
            .iter()
            .map(|c| {
                format!(
                    "{} vs {} {} (Bonferroni p = {}; the paper: {})",
                    c.g1,
                    c.g2,
                    if c.study_rejects {
                        "rejects"
                    } else {
                        "does not reject"
                    },
                    c.p_bonferroni,
                    if c.paper_rejects {
                        "rejects"
                    } else {
                        "does not reject"
                    }
                )
            })
            .collect();
        out.push(format!(
            "H0(2) does not replicate in full: {}; {} of {} cells reject, against the paper's {}.",
            cells.join("; "),
            thousands(own.pairwise_rejected as i128),
            thousands(own.pairwise_tests as i128),
            thousands(paper_n as i128)
        ));
    }
    if let Some(p) = paper {
        if p.chain_text != own.chain_text {
            out.push(format!(
                "The dominance order differs: {} here, {} in the paper.",
                own.chain_text, p.chain_text
            ));
        }
        if p.folk_deterministic_rejected != own.folk_deterministic_rejected {
            out.push(format!(
                "The folk theorem's deterministic form is {} here, {} in the paper.",
                if own.folk_deterministic_rejected {
                    "rejected"
                } else {
                    "not rejected"
                },
                if p.folk_deterministic_rejected {
                    "rejected"
                } else {
                    "not rejected"
                }
            ));
        }
    }
    (out, changes)
}

fn count(card: &Scorecard, v: Verdict) -> usize {
    card.rows.iter().filter(|r| r.verdict == v).count()
}

/// How a study's scorecard rows fall: compared, agreeing as printed, within Monte Carlo
/// error, differing, and of the differing rows those where the paper contradicts itself.
struct Tally {
    compared: usize,
    agree: usize,
    within: usize,
    inconsistent: usize,
    differs: usize,
    unexplained: usize,
}

impl Tally {
    /// The tally of `card`'s rows.
    fn of(card: &Scorecard) -> Tally {
        let inconsistent = card.rows.iter().filter(|r| r.paper_inconsistent).count();
        let differs = count(card, Verdict::Differs);
        Tally {
            compared: card
                .rows
                .iter()
                .filter(|r| r.verdict != Verdict::NotCompared)
                .count(),
            agree: count(card, Verdict::Exact) + count(card, Verdict::PrintedPrecision),
            within: count(card, Verdict::WithinMcError),
            inconsistent,
            differs,
            unexplained: differs - inconsistent,
        }
    }
}

/// The verdict of `study` (its scorecard `card`); `replay` is the replay study's results when
/// the report has one.
pub fn verdict(
    study: &StudyResults,
    card: &Scorecard,
    replay: Option<&StudyResults>,
    published: &Published,
) -> StudyVerdict {
    let kind = card.kind;
    let t = Tally::of(card);
    let (agree, compared, differs) = (t.agree, t.compared, t.differs);
    let mut non = (Vec::new(), Vec::new());
    let (outcome, headline) = match kind {
        StudyKind::Own if compared > 0 => (
            Outcome::ComparedOnRequest,
            format!(
                "A study of its own design, set beside the paper's figures because its configuration asks for it (compare_to_paper): {agree} of {compared} compared figures agree at the printed precision and {differs} differ, which says how far the published figures carry over to this design, not whether they were reproduced."
            ),
        ),
        StudyKind::Own => (
            Outcome::NotScored,
            "A study of its own design: its numbers stand on their own, none is compared with the paper's.".to_string(),
        ),
        _ if compared == 0 => (
            Outcome::NotScored,
            "No published figures were given ([study] published), so nothing is compared.".to_string(),
        ),
        StudyKind::Replay => replay_outcome(&t),
        StudyKind::Replication => {
            let own = Conclusions::of(study);
            let paper_c = replay.map(Conclusions::of);
            let rejections = paper_rejections(replay, study, published);
            non = non_replications(study, &own, paper_c.as_ref(), &rejections);
            replication_outcome(&t, card, non.0.is_empty())
        }
        StudyKind::Variant => (
            Outcome::Variant,
            format!(
                "The paper's deals with other policy or rules settings: {differs} of {compared} compared figures differ, as expected (they show how much the published figures depend on the setting); {agree} agree."
            ),
        ),
    };
    StudyVerdict {
        study: study.name.clone(),
        kind,
        outcome,
        outcome_label: outcome.label().to_string(),
        headline,
        non_replications: non.0,
        rejection_changes: non.1,
    }
}

/// A replay's outcome and headline: reproduced, reproduced except where the paper contradicts
/// itself, or not reproduced.
fn replay_outcome(t: &Tally) -> (Outcome, String) {
    let (inconsistent, unexplained) = (t.inconsistent, t.unexplained);
    let outcome = if unexplained > 0 {
        Outcome::NotReproduced
    } else if inconsistent > 0 {
        Outcome::PaperInconsistent
    } else {
        Outcome::Reproduced
    };
    let mut h = format!(
        "{} of {} compared figures reproduced exactly or at the printed precision",
        t.agree, t.compared
    );
    if inconsistent > 0 {
        h.push_str(&format!(
            "; the other {inconsistent} are places where the paper contradicts itself (a restated figure or a design quantity it rounds wrongly), see the findings"
        ));
    }
    if unexplained > 0 {
        h.push_str(&format!(
            "; {unexplained} differ for no reason the paper gives: a failure to reproduce"
        ));
    }
    h.push('.');
    (outcome, h)
}

/// A replication's outcome and headline; `all_hold` when every conclusion of the paper holds
/// in it.
fn replication_outcome(t: &Tally, card: &Scorecard, all_hold: bool) -> (Outcome, String) {
    let outcome = if all_hold {
        Outcome::Replicated
    } else {
        Outcome::DidNotReplicate
    };
    let h = format!(
        "On independent deals, {} of {} compared figures agree at the printed precision and {} more within Monte Carlo error (|z| < 2); {} are further off ({} expected by chance among {} with a z-score). {}",
        t.agree,
        t.compared,
        t.within,
        t.differs,
        super::format::fixed(card.beyond_two_expected, 1),
        card.with_z,
        if all_hold {
            "Every conclusion of the paper holds in it."
        } else {
            "Not every conclusion of the paper holds in it (below)."
        }
    );
    (outcome, h)
}
