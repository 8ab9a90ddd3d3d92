//! The source files each stage's code fingerprint covers: the table `src/build.rs` hashes into
//! `BRISCOLA_CODE_<STAGE>`, shared here so tests can say which stages an edit re-runs.
//!
//! Invariant: a stage's fingerprint covers every module its job body calls and nothing else, so
//! editing report code re-runs only `render`, and editing a figure's code only `plot` and
//! `render`.

include!("stage_sources.in");

/// The stages (upper-case, as in `BRISCOLA_CODE_<STAGE>`) whose fingerprint covers `path`
/// (a path relative to the crate root, `/`-separated), in pipeline order.
///
/// ```
/// use briscola::pipeline::stage_sources::stages_covering;
/// assert_eq!(stages_covering("src/report/scorecard.rs"), vec!["RENDER"]);
/// ```
pub fn stages_covering(path: &str) -> Vec<&'static str> {
    STAGE_SOURCES
        .iter()
        .filter(|(_, paths)| {
            paths
                .iter()
                .any(|p| path == *p || path.starts_with(&format!("{p}/")))
        })
        .map(|(stage, _)| *stage)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::stages_covering;

    #[test]
    fn editing_report_code_reruns_only_render() {
        for f in [
            "src/report/scorecard.rs",
            "src/report/findings.rs",
            "src/report/context.rs",
            "src/report/render.rs",
        ] {
            assert_eq!(stages_covering(f), vec!["RENDER"], "{f}");
        }
    }

    #[test]
    fn editing_a_figure_reruns_only_plot_and_render() {
        for f in ["src/plot/figure2.rs", "src/plot/table3_heatmap.rs"] {
            assert_eq!(stages_covering(f), vec!["PLOT", "RENDER"], "{f}");
        }
    }

    #[test]
    fn test_fixtures_are_in_no_fingerprint() {
        assert!(stages_covering("src/results/fixture.rs").is_empty());
    }

    #[test]
    fn every_listed_path_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for (stage, paths) in super::STAGE_SOURCES {
            for p in *paths {
                assert!(
                    root.join(p).exists(),
                    "{stage} lists {p}, which does not exist"
                );
            }
        }
    }

    #[test]
    fn engine_edits_rerun_simulate_and_aggregate() {
        assert_eq!(
            stages_covering("crates/briscola-core/src/game/play.rs"),
            // The league's fit solves the reduced game (issue 29), which plays on the engine.
            vec!["SIMULATE", "AGGREGATE", "LEAGUE"]
        );
    }
}
