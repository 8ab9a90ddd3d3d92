//! The one font every figure uses: DejaVu Sans from the `dejavu` crate, registered with
//! plotters under the family name `sans-serif`.
//!
//! Invariant: registration happens at most once per process and never consults system fonts, so
//! the glyph metrics (and hence the bytes of every SVG and PNG) do not depend on the machine.

use std::sync::OnceLock;

use plotters::style::{FontStyle, register_font};

use super::error::PlotError;

/// The family name figures ask for; SVG files say `font-family="sans-serif"`.
pub const FAMILY: &str = "sans-serif";

static REGISTERED: OnceLock<Result<(), &'static str>> = OnceLock::new();

/// Register DejaVu Sans (regular and bold) as `sans-serif`, once.
pub fn ensure_font() -> Result<(), PlotError> {
    let outcome = REGISTERED.get_or_init(|| {
        register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular()).map_err(|_| "normal")?;
        register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold()).map_err(|_| "bold")?;
        Ok(())
    });
    outcome.map_err(|style| PlotError::Font { style })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_twice_without_error() {
        ensure_font().unwrap();
        ensure_font().unwrap();
    }
}
