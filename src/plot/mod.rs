//! Figures: Figure 2 and the report's supporting charts, as SVG and PNG.
//!
//! Invariant: the same inputs give byte-identical files (no timestamps, no random ids).
