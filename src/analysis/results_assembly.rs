//! Assembling every study's test and regression outputs into one [`Results`].
//!
//! Invariant: studies appear in configuration order (the main study first).

use serde::{Deserialize, Serialize};

use super::study_tests::StudyTests;
use crate::results::sweep::SweepResults;
use crate::results::{Results, StudyResults, StudySettings, Table4};

/// What the plot and render stages know about a study before reading its results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyMeta {
    /// Study name.
    pub name: String,
    /// Label.
    pub label: String,
    /// Settings.
    pub settings: StudySettings,
}

/// Combine one study's parts.
pub fn study_results(meta: &StudyMeta, tests: StudyTests, table4: Table4) -> StudyResults {
    StudyResults {
        name: meta.name.clone(),
        label: meta.label.clone(),
        settings: meta.settings.clone(),
        table3: tests.table3,
        folk_theorem: tests.folk_theorem,
        pairwise: tests.pairwise,
        power: tests.power,
        table4,
        table5: tests.table5,
        figure2: tests.figure2,
        correlations: tests.correlations,
        breakeven: tests.breakeven,
    }
}

/// All studies, sweeps and leagues.
pub fn results(
    studies: Vec<StudyResults>,
    sweeps: Vec<SweepResults>,
    leagues: Vec<crate::results::league::LeagueResults>,
) -> Results {
    Results {
        studies,
        sweeps,
        leagues,
    }
}
