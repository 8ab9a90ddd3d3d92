//! Render stage: `results.json` and the literate report (HTML and Markdown).
//!
//! Invariant: the report's numbers all come from the results it reads; its params include the
//! templates' bytes, the published figures and the config text, so editing a template re-runs
//! only this stage.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::pipeline::config::pipeline_config::Config;
use crate::pipeline::execution::job::{Job, StageName};
use crate::pipeline::store::layout::{FIGURES_PUBLISH, Layout, REPORT_PUBLISH};
use crate::report::context::ReportContext;
use crate::report::provenance::Provenance;
use crate::report::published::Published;
use crate::report::render::{FigureLocations, render_report};

use super::plot::{Extras, load_results, metas, result_deps};
use super::write_json;

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_RENDER");
/// Output: every statistic, machine-readable.
pub const RESULTS_FILE: &str = "results.json";

/// The render job. `templates` maps each template file name to its text; `published_text` is
/// the published-figures file's text.
pub fn job(cfg: &Config, templates: BTreeMap<String, String>, published_text: String) -> Job {
    let metas = metas(cfg);
    let extras = Extras::of(cfg);
    let mut deps = result_deps(&metas, &extras);
    deps.push("plot".to_string());
    let compare_to_paper: BTreeSet<String> = cfg
        .studies()
        .iter()
        .filter(|s| s.compare_to_paper)
        .map(|s| s.name.clone())
        .collect();
    let mut params = serde_json::json!({
        "studies": metas,
        "formats": cfg.render.formats,
        "title": cfg.study.title,
        "min_games_per_bin": cfg.plot.min_games_per_bin,
        "templates": templates,
        "published": { "path": cfg.study.published, "text": published_text },
        "config": { "name": cfg.source_name, "text": cfg.source_text },
    });
    extras.add_params(&mut params);
    // only when asked, so configs without it keep their params
    if !compare_to_paper.is_empty() {
        params["compare_to_paper"] = serde_json::json!(compare_to_paper);
    }
    let formats = cfg.render.formats.clone();
    let title = cfg.study.title.clone();
    let min_bin = cfg.plot.min_games_per_bin;
    let published_path = cfg.study.published.clone().unwrap_or_default();
    let config_name = cfg.source_name.clone();
    let config_text = cfg.source_text.clone();
    Job {
        id: "render".into(),
        stage: StageName::Render,
        deps,
        params,
        code: CODE.to_string(),
        publish: Some(REPORT_PUBLISH.into()),
        note: None,
        body: Box::new(move |inputs, out| {
            let results = load_results(inputs, &metas, &extras, min_bin)?;
            let published = if published_path.is_empty() {
                Published::default()
            } else {
                Published::parse(&published_text, &published_path)?
            };
            let prov = Provenance::new(
                &config_name,
                &config_text,
                &published_path,
                &published,
                &results,
                job_provenance(&inputs.ancestors),
            );
            let ctx = ReportContext::build_comparing(
                &title,
                &results,
                &published,
                min_bin,
                &compare_to_paper,
                prov,
            )?;
            // Every statistic, then the report's verdicts and findings (issue 11).
            write_json(
                &out.join(RESULTS_FILE),
                &ResultsFile {
                    results: &results,
                    verdicts: &ctx.verdicts,
                    findings: &ctx.findings,
                },
            )?;
            let figures = crate::plot::figure_files(&results);
            // The templates are rendered from a private copy of the exact bytes hashed into
            // this job's key, never from the live directory.
            let tdir = out.join(".templates");
            std::fs::create_dir_all(&tdir)?;
            for (name, text) in &templates {
                std::fs::write(tdir.join(name), text)?;
            }
            let plot_files = inputs.files.get("plot").cloned().unwrap_or_default();
            let resolve = |rel: &str| -> PathBuf {
                plot_files
                    .get(rel)
                    .cloned()
                    .unwrap_or_else(|| PathBuf::from(rel))
            };
            let link = |rel: &str| Layout::link(REPORT_PUBLISH, FIGURES_PUBLISH, rel);
            let locations = FigureLocations {
                file: &resolve,
                link: &link,
            };
            let result = render_report(&ctx, &tdir, &figures, &locations, out, &formats);
            std::fs::remove_dir_all(&tdir)?;
            result?;
            Ok(())
        }),
    }
}

/// `results.json`: the results contract's fields, then each study's verdict and the findings.
#[derive(serde::Serialize)]
struct ResultsFile<'a> {
    #[serde(flatten)]
    results: &'a crate::results::Results,
    verdicts: &'a [crate::report::study_verdict::StudyVerdict],
    findings: &'a [crate::report::findings::Finding],
}

/// The report's view of the render job's ancestors (the report knows no pipeline type).
fn job_provenance(
    ancestors: &std::collections::BTreeMap<String, crate::pipeline::execution::job::AncestorInfo>,
) -> Vec<crate::report::provenance::JobProvenance> {
    use crate::report::provenance::{JobProvenance, OutputHash};
    ancestors
        .iter()
        .map(|(id, a)| JobProvenance {
            id: id.clone(),
            stage: a.stage.as_str().to_string(),
            key: a.key.clone(),
            outputs: a
                .outputs
                .iter()
                .map(|(n, h)| OutputHash {
                    name: n.clone(),
                    sha256: h.clone(),
                })
                .collect(),
        })
        .collect()
}
