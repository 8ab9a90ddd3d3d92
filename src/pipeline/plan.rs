//! The study as a list of jobs: [`plan`] turns a [`Config`] into jobs in dependency order.
//!
//! Invariant: job ids, params and publish directories are pure functions of the config, and
//! every job's deps come earlier in the list.
//
// PLACEHOLDER: replaced by the lead's real plan. The stages below only write small
// deterministic text files shaped like the real pipeline (one simulate and one aggregate job
// per study and ordered matchup, test and regress per study, one plot, one render) so the
// runner, the CLI and the integration tests work end to end before the real stages exist.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use super::config::Config;
use super::content_store::sha256_hex;
use super::job::{Job, JobInputs, JobResult, StageName};
use crate::tournament::DealSourceKind;

/// Errors building the plan.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// The config cannot be turned into jobs.
    #[error("cannot plan the study: {0}")]
    Other(String),
}

const CODE: &str = concat!("placeholder-stages-", env!("CARGO_PKG_VERSION"));

/// Concatenate every input file (in dep, then name order) into one text, prefixed by `params`.
fn concat_inputs(
    inputs: &JobInputs,
    params: &Value,
) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let mut s = format!("params {params}\n");
    for (dep, files) in &inputs.files {
        for (name, path) in files {
            let text = fs::read_to_string(path)?;
            let _ = writeln!(s, "== {dep}/{name} ({} bytes)", text.len());
            s.push_str(&text);
        }
    }
    Ok(s)
}

fn write(out: &Path, name: &str, text: &str) -> JobResult {
    fs::write(out.join(name), text)?;
    Ok(())
}

/// The jobs of the study, in dependency order.
pub fn plan(cfg: &Config) -> Result<Vec<Job>, PlanError> {
    let mut jobs = Vec::new();
    let mut all_tests = Vec::new();
    for study in cfg.studies() {
        let tied = study.deal_source == DealSourceKind::DotnetReplay;
        let note = tied.then(|| {
            "dotnet-replay: one random stream deals every matchup in order, so any policy change re-simulates all of this study's matchups".to_string()
        });
        let per = study.games_per_matchup();
        let mut aggregates = Vec::new();
        for (i, a) in study.policies.iter().enumerate() {
            for (j, b) in study.policies.iter().enumerate() {
                let matchup = format!("{}-vs-{}", a.name, b.name);
                let sim_id = format!("simulate/{}/{matchup}", study.name);
                let mut params = json!({
                    "deal_source": study.deal_source.as_str(),
                    "seed": study.seed,
                    "games": per,
                    "g1": a,
                    "g2": b,
                });
                if tied {
                    params["stream"] = json!({
                        "policies": study.policies,
                        "matchup_index": i * study.policies.len() + j,
                    });
                }
                let body_params = params.clone();
                jobs.push(Job {
                    id: sim_id.clone(),
                    stage: StageName::Simulate,
                    deps: vec![],
                    params,
                    code: CODE.into(),
                    publish: Some(format!("{}/simulate/{matchup}", study.name)),
                    note: note.clone(),
                    body: Box::new(move |_inputs, out| {
                        let seed = sha256_hex(body_params.to_string().as_bytes());
                        let mut s = String::from("game,g1_wins\n");
                        for g in 0..per.min(500) {
                            let h = sha256_hex(format!("{seed}/{g}").as_bytes());
                            let win = u8::from(h.as_bytes()[0].is_multiple_of(2));
                            let _ = writeln!(s, "{g},{win}");
                        }
                        write(out, "games.csv", &s)
                    }),
                });
                let agg_id = format!("aggregate/{}/{matchup}", study.name);
                let dep = sim_id.clone();
                jobs.push(Job {
                    id: agg_id.clone(),
                    stage: StageName::Aggregate,
                    deps: vec![sim_id],
                    params: json!({}),
                    code: CODE.into(),
                    publish: Some(format!("{}/aggregate/{matchup}", study.name)),
                    note: None,
                    body: Box::new(move |inputs, out| {
                        let path = inputs.get(&dep, "games.csv").ok_or("games.csv missing")?;
                        let text = fs::read_to_string(path)?;
                        let wins = text.lines().skip(1).filter(|l| l.ends_with(",1")).count();
                        let games = text.lines().skip(1).count();
                        write(
                            out,
                            "counts.json",
                            &format!("{{\"games\": {games}, \"g1_wins\": {wins}}}\n"),
                        )
                    }),
                });
                aggregates.push(agg_id);
            }
        }
        for (stage, section, file) in [
            (
                StageName::Test,
                serde_json::to_value(&cfg.test).unwrap_or(Value::Null),
                "tests.txt",
            ),
            (
                StageName::Regress,
                serde_json::to_value(&cfg.regress).unwrap_or(Value::Null),
                "table4.txt",
            ),
        ] {
            let id = format!("{stage}/{}", study.name);
            let p = section.clone();
            jobs.push(Job {
                id: id.clone(),
                stage,
                deps: aggregates.clone(),
                params: section,
                code: CODE.into(),
                publish: Some(format!("{}/{stage}", study.name)),
                note: None,
                body: Box::new(move |inputs, out| write(out, file, &concat_inputs(inputs, &p)?)),
            });
            all_tests.push(id);
        }
    }
    let plot_params = serde_json::to_value(&cfg.plot).unwrap_or(Value::Null);
    let pp = plot_params.clone();
    jobs.push(Job {
        id: "plot".into(),
        stage: StageName::Plot,
        deps: all_tests.clone(),
        params: plot_params,
        code: CODE.into(),
        publish: Some("figures".into()),
        note: None,
        body: Box::new(move |inputs, out| {
            let text = concat_inputs(inputs, &pp)?;
            write(
                out,
                "figure2.svg",
                &format!("<svg><!-- {} --></svg>\n", sha256_hex(text.as_bytes())),
            )
        }),
    });
    let mut render_deps = all_tests;
    render_deps.push("plot".into());
    let formats: Vec<String> = cfg
        .render
        .formats
        .iter()
        .map(|f| {
            serde_json::to_value(f)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default()
        })
        .collect();
    let render_params = json!({ "render": cfg.render, "title": cfg.study.title });
    let rp = render_params.clone();
    jobs.push(Job {
        id: "render".into(),
        stage: StageName::Render,
        deps: render_deps,
        params: render_params,
        code: CODE.into(),
        publish: Some(String::new()),
        note: None,
        body: Box::new(move |inputs, out| {
            let text = concat_inputs(inputs, &rp)?;
            let mut by_format = BTreeMap::new();
            for f in &formats {
                by_format.insert(format!("report.{f}"), format!("{f} report\n{text}"));
            }
            for (name, body) in by_format {
                write(out, &name, &body)?;
            }
            Ok(())
        }),
    });
    Ok(jobs)
}
