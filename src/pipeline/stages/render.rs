//! Render stage: `results.json` and the literate report (HTML and Markdown).
//!
//! Invariant: the report's numbers all come from the results it reads; its params include the
//! templates' bytes and the published figures, so editing a template re-runs only this stage.

use crate::pipeline::config::Config;
use crate::pipeline::job::{Job, StageName};

use super::plot::{load_results, metas, result_deps};
use super::write_json;

/// The stage's code fingerprint.
pub const CODE: &str = env!("BRISCOLA_CODE_RENDER");
/// Output: every statistic, machine-readable.
pub const RESULTS_FILE: &str = "results.json";

/// The render job.
pub fn job(cfg: &Config) -> Job {
    let metas = metas(cfg);
    let deps = result_deps(&metas);
    let params = serde_json::json!({ "studies": metas, "formats": cfg.render.formats });
    Job {
        id: "render".into(),
        stage: StageName::Render,
        deps,
        params,
        code: CODE.to_string(),
        publish: Some(String::new()),
        note: None,
        body: Box::new(move |inputs, out| {
            let r = load_results(inputs, &metas)?;
            write_json(&out.join(RESULTS_FILE), &r)
        }),
    }
}
