//! [`SvgCanvas`]: the figures' SVG backend. Shapes as SVG elements, labels as one `<text>` each
//! with `<tspan>` subscripts, and tooltip groups (`<g><title>…</title>…</g>`) that plotters' own
//! SVG backend cannot write.
//!
//! Invariant: the output is a function of the drawing calls alone (no ids, no clock, numbers
//! printed with a fixed number of decimals), and every label is real, escaped text.

use std::convert::Infallible;
use std::fmt::Write as _;

use plotters_backend::text_anchor::HPos;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};

use super::canvas::Canvas;
use super::face::{Face, SUB_DROP, SUB_SIZE};

/// The font stack SVG text asks for: DejaVu Sans (whose metrics laid the labels out) first.
pub const FONT_STACK: &str = "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', sans-serif";

/// An SVG document being drawn into a borrowed string.
pub struct SvgCanvas<'a> {
    size: (u32, u32),
    body: &'a mut String,
    open_groups: usize,
    finished: bool,
    /// Consecutive open paths of one stroke, merged into one `<path>` (a dashed guide is a
    /// hundred two-point paths): its stroke attributes and its `d` so far.
    pending: Option<(String, String)>,
}

impl<'a> SvgCanvas<'a> {
    /// A canvas of `size` pixels (SVG user units) writing into `target`, with `title` as the
    /// document's accessible name. The document is complete once the canvas is presented.
    pub fn new(target: &'a mut String, size: (u32, u32), title: &str) -> SvgCanvas<'a> {
        let (w, h) = size;
        let _ = write!(
            target,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" font-family=\"{FONT_STACK}\">\n<title>"
        );
        escape_into(target, title);
        target.push_str("</title>\n");
        SvgCanvas {
            size,
            body: target,
            open_groups: 0,
            finished: false,
            pending: None,
        }
    }

    /// Write the merged paths, if any: every other element is drawn after them.
    fn flush(&mut self) {
        if let Some((stroke, d)) = self.pending.take() {
            let _ = writeln!(self.body, "<path fill=\"none\"{stroke} d=\"{d}\"/>");
        }
    }

    fn paint(&mut self, color: BackendColor, attr: &str) {
        let (r, g, b) = color.rgb;
        let _ = write!(self.body, " {attr}=\"#{r:02x}{g:02x}{b:02x}\"");
        if color.alpha < 1.0 {
            let _ = write!(self.body, " {attr}-opacity=\"{}\"", num(color.alpha));
        }
    }

    /// A closed shape's paint: filled with the style's colour, or outlined with it.
    fn fill_or_stroke<S: BackendStyle>(&mut self, s: &S, fill: bool) {
        if fill {
            self.paint(s.color(), "fill");
        } else {
            self.body.push_str(" fill=\"none\"");
            let _ = write!(self.body, " stroke-width=\"{}\"", s.stroke_width());
            self.paint(s.color(), "stroke");
        }
    }

    fn points(&mut self, pts: impl IntoIterator<Item = BackendCoord>) {
        self.body.push_str(" points=\"");
        for (i, (x, y)) in pts.into_iter().enumerate() {
            if i > 0 {
                self.body.push(' ');
            }
            let _ = write!(self.body, "{x},{y}");
        }
        self.body.push('"');
    }
}

/// A number with at most two decimals and no trailing zeros.
fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Escape text for SVG content and attribute values.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

impl Canvas for SvgCanvas<'_> {
    fn begin_tip(&mut self, title: &str) {
        self.flush();
        self.body.push_str("<g><title>");
        escape_into(self.body, title);
        self.body.push_str("</title>\n");
        self.open_groups += 1;
    }

    fn end_tip(&mut self) {
        self.flush();
        if self.open_groups > 0 {
            self.body.push_str("</g>\n");
            self.open_groups -= 1;
        }
    }
}

type R = Result<(), DrawingErrorKind<Infallible>>;

impl DrawingBackend for SvgCanvas<'_> {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> R {
        Ok(())
    }

    fn present(&mut self) -> R {
        self.flush();
        if !self.finished {
            while self.open_groups > 0 {
                self.end_tip();
            }
            self.body.push_str("</svg>\n");
            self.finished = true;
        }
        Ok(())
    }

    fn draw_pixel(&mut self, p: BackendCoord, color: BackendColor) -> R {
        self.flush();
        if color.alpha > 0.0 {
            let _ = write!(
                self.body,
                "<rect x=\"{}\" y=\"{}\" width=\"1\" height=\"1\"",
                p.0, p.1
            );
            self.paint(color, "fill");
            self.body.push_str("/>\n");
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, s: &S) -> R {
        self.flush();
        if s.color().alpha > 0.0 {
            let _ = write!(
                self.body,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke-width=\"{}\"",
                from.0,
                from.1,
                to.0,
                to.1,
                s.stroke_width()
            );
            self.paint(s.color(), "stroke");
            self.body.push_str("/>\n");
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        s: &S,
        fill: bool,
    ) -> R {
        self.flush();
        if s.color().alpha > 0.0 {
            let _ = write!(
                self.body,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
                a.0,
                a.1,
                b.0 - a.0,
                b.1 - a.1
            );
            self.fill_or_stroke(s, fill);
            self.body.push_str("/>\n");
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> R {
        if s.color().alpha > 0.0 {
            let mut stroke = String::new();
            std::mem::swap(self.body, &mut stroke);
            let _ = write!(self.body, " stroke-width=\"{}\"", s.stroke_width());
            self.paint(s.color(), "stroke");
            std::mem::swap(self.body, &mut stroke);
            if self.pending.as_ref().is_some_and(|p| p.0 != stroke) {
                self.flush();
            }
            let d = &mut self
                .pending
                .get_or_insert_with(|| (stroke, String::new()))
                .1;
            for (i, (x, y)) in path.into_iter().enumerate() {
                let _ = write!(d, "{}{x} {y}", if i == 0 { "M" } else { "L" });
            }
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        c: BackendCoord,
        radius: u32,
        s: &S,
        fill: bool,
    ) -> R {
        self.flush();
        if s.color().alpha > 0.0 {
            let _ = write!(
                self.body,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{radius}\"",
                c.0, c.1
            );
            self.fill_or_stroke(s, fill);
            self.body.push_str("/>\n");
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> R {
        self.flush();
        if s.color().alpha > 0.0 {
            self.body.push_str("<polygon");
            self.paint(s.color(), "fill");
            self.points(vert);
            self.body.push_str("/>\n");
        }
        Ok(())
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> R {
        self.flush();
        let color = style.color();
        if color.alpha == 0.0 || text.is_empty() {
            return Ok(());
        }
        let Ok(face) = Face::get() else {
            return Ok(());
        };
        let bold = matches!(style.style(), FontStyle::Bold);
        let layout = face.layout(text, style.size(), bold);
        let anchor = style.anchor();
        let (_, dy) = layout.offset(anchor.h_pos, anchor.v_pos);
        let text_anchor = match anchor.h_pos {
            HPos::Left => "start",
            HPos::Center => "middle",
            HPos::Right => "end",
        };
        let (x, y) = pos;
        let _ = write!(
            self.body,
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"{text_anchor}\" font-size=\"{}\"",
            num(f64::from(y) + dy),
            num(style.size())
        );
        if bold {
            self.body.push_str(" font-weight=\"bold\"");
        }
        self.paint(color, "fill");
        let angle = match style.transform() {
            FontTransform::Rotate90 => 90,
            FontTransform::Rotate180 => 180,
            FontTransform::Rotate270 => 270,
            _ => 0,
        };
        if angle != 0 {
            let _ = write!(self.body, " transform=\"rotate({angle} {x} {y})\"");
        }
        self.body.push('>');
        let drop = SUB_DROP * style.size();
        let mut lowered = false;
        for run in &layout.runs {
            if run.sub {
                let _ = write!(
                    self.body,
                    "<tspan dy=\"{}\" font-size=\"{}\">",
                    num(drop),
                    num(style.size() * SUB_SIZE)
                );
                escape_into(self.body, &run.text);
                self.body.push_str("</tspan>");
                lowered = true;
            } else if lowered {
                let _ = write!(self.body, "<tspan dy=\"{}\">", num(-drop));
                escape_into(self.body, &run.text);
                self.body.push_str("</tspan>");
                lowered = false;
            } else {
                escape_into(self.body, &run.text);
            }
        }
        self.body.push_str("</text>\n");
        Ok(())
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Infallible>> {
        Ok(super::canvas::text_box(text, style))
    }
}
