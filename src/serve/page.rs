//! The web table's one page: HTML, CSS and script in one file, the cards drawn by the page
//! itself (Italian suits as inline SVG shapes, French suits as text), so the page makes no
//! request but to its own API.
//!
//! Invariant: the page names no other origin (a test checks there is no `http` URL in it) and
//! works without any file beside the binary.

/// The page.
pub const PAGE: &str = include_str!("page.html");
