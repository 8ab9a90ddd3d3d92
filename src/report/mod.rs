//! The report: the scorecard against the paper's published figures, the findings, the
//! template context and the rendering of `report.html` and `report.md`.
//!
//! Invariant: every number the templates print comes from the pipeline's results (or the
//! published figures they are compared with), never typed into a template.
//!
//! Entry points: [`published::Published::load`], [`context::ReportContext::build`],
//! [`render::render_report`].

pub mod answers;
pub mod beyond;
pub mod conclusions;
pub mod context;
pub mod error;
pub mod exploitability;
pub mod findings;
pub mod format;
pub mod league_view;
pub mod provenance;
pub mod published;
pub mod published_key;
pub mod render;
pub mod report_format;
pub mod scorecard;
pub mod study_verdict;
pub mod study_view;
pub mod variants;

pub use context::ReportContext;
pub use error::RenderError;
pub use provenance::Provenance;
pub use published::Published;
pub use render::render_report;
pub use report_format::ReportFormat;

#[cfg(test)]
mod tests;
