//! Plot stage: every figure of every study, from the test and regress outputs.
//!
//! Invariant: figures are byte-identical for identical results.

use crate::analysis::results_assembly::{StudyMeta, results, study_results};
use crate::pipeline::config::pipeline_config::Config;
use crate::pipeline::execution::job::{Job, JobInputs, StageName};
use crate::report::published::Published;
use crate::results::Results;

use super::read_json;

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_PLOT");

/// Study metadata for every study of `cfg`.
pub fn metas(cfg: &Config) -> Vec<StudyMeta> {
    cfg.studies()
        .iter()
        .map(|s| StudyMeta {
            name: s.name.clone(),
            label: s.label.clone(),
            settings: crate::results::StudySettings {
                deal_source: s.deal_source().as_str().to_string(),
                seed: s.seed(),
                games_requested: s.games_requested(),
                games_per_matchup: s.games_per_matchup(),
                games_total: s.games_per_matchup()
                    * (s.policies().len() * s.policies().len()) as u64,
                policies: s.policies().to_vec(),
                rules: (s.rules() != crate::game::RulesSpec::default())
                    .then(|| serde_json::to_string(&s.rules()).unwrap_or_default()),
                reading: (!s.reading().is_verbatim()).then(|| s.reading().as_str().to_string()),
            },
        })
        .collect()
}

/// The sweeps and leagues whose results the plot and render stages read beside the studies',
/// by name, in configuration order.
#[derive(Clone, Debug)]
pub struct Extras {
    /// Sweep names.
    pub sweeps: Vec<String>,
    /// League names.
    pub leagues: Vec<String>,
}

impl Extras {
    /// Those of `cfg`.
    pub fn of(cfg: &Config) -> Extras {
        Extras {
            sweeps: cfg.sweeps.keys().cloned().collect(),
            leagues: cfg.leagues.keys().cloned().collect(),
        }
    }

    /// Name them in a job's params, each list only when it is not empty (so a config without
    /// sweeps or leagues keeps its jobs' keys).
    pub fn add_params(&self, params: &mut serde_json::Value) {
        if !self.sweeps.is_empty() {
            params["sweeps"] = serde_json::json!(self.sweeps);
        }
        if !self.leagues.is_empty() {
            params["leagues"] = serde_json::json!(self.leagues);
        }
    }
}

/// The test and regress job ids every study contributes, then every sweep's job, then every
/// league's fit.
pub fn result_deps(metas: &[StudyMeta], extras: &Extras) -> Vec<String> {
    metas
        .iter()
        .flat_map(|m| {
            [
                super::test::job_id(&m.name),
                super::regress::job_id(&m.name),
            ]
        })
        .chain(extras.sweeps.iter().map(|s| super::sweep::job_id(s)))
        .chain(extras.leagues.iter().map(|l| super::league::job_id(l)))
        .collect()
}

/// Read every study's results from the test and regress outputs, applying the plot section's
/// minimum games per Figure 2 bin.
pub fn load_results(
    inputs: &JobInputs,
    metas: &[StudyMeta],
    extras: &Extras,
    min_games_per_bin: u64,
) -> Result<Results, Box<dyn std::error::Error + Send + Sync>> {
    let mut studies = Vec::new();
    for m in metas {
        let mut tests: crate::analysis::study_tests::StudyTests = read_json(
            inputs,
            &super::test::job_id(&m.name),
            super::test::TESTS_FILE,
        )?;
        crate::analysis::study_tests::apply_min_games_per_bin(
            &mut tests.figure2,
            &mut tests.breakeven,
            min_games_per_bin,
        );
        let t4 = read_json(
            inputs,
            &super::regress::job_id(&m.name),
            super::regress::TABLE4_FILE,
        )?;
        studies.push(study_results(m, tests, t4));
    }
    Ok(results(
        studies,
        super::sweep::load(inputs, &extras.sweeps)?,
        super::league::load(inputs, &extras.leagues)?,
    ))
}

/// The plot job; `published` are the paper's figures (its break-even points are drawn).
pub fn job(cfg: &Config, published: &Published) -> Job {
    let metas = metas(cfg);
    let extras = Extras::of(cfg);
    let deps = result_deps(&metas, &extras);
    let paper_breakeven = published.paper_breakeven();
    let min_bin = cfg.plot.min_games_per_bin;
    let mut params = serde_json::json!({
        "studies": metas,
        "min_games_per_bin": min_bin,
        "paper_breakeven": paper_breakeven,
    });
    extras.add_params(&mut params);
    Job {
        id: "plot".into(),
        stage: StageName::Plot,
        deps,
        params,
        code: CODE.to_string(),
        publish: Some(crate::pipeline::store::layout::FIGURES_PUBLISH.into()),
        note: None,
        body: Box::new(move |inputs, out| {
            let r = load_results(inputs, &metas, &extras, min_bin)?;
            crate::plot::write_figures(&r, &paper_breakeven, out)?;
            Ok(())
        }),
    }
}
