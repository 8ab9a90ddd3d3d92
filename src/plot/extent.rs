//! [`text_outside`]: every label of a figure's SVG whose extent passes the canvas, measured
//! with the same [`Face`] metrics the canvases lay text out with; and [`fitted_size`], the
//! largest font size at which a label fits a width (how titles avoid being clipped).
//!
//! Invariant: a label's box is its advance width (subscripts measured at full size, so never
//! narrower than drawn) by the face's ascent and descent, anchored and rotated as the SVG says;
//! a label is reported when that box leaves the `viewBox` by more than half a pixel.

use super::face::Face;

/// The smallest size [`fitted_size`] shrinks a label to.
pub const MIN_SIZE: u32 = 9;

/// The largest font size not above `size` (and not below [`MIN_SIZE`]) at which `text` (label
/// markup) is at most `width` pixels wide.
pub fn fitted_size(text: &str, size: u32, width: u32, bold: bool) -> u32 {
    let Ok(face) = Face::get() else { return size };
    (MIN_SIZE..=size.max(MIN_SIZE))
        .rev()
        .find(|s| face.layout(text, f64::from(*s), bold).width <= f64::from(width))
        .unwrap_or(MIN_SIZE)
}

/// One `<text>` element as the SVG canvas writes it.
struct Label {
    x: f64,
    y: f64,
    anchor: String,
    size: f64,
    bold: bool,
    /// Rotation in degrees about `centre` (the SVG's `rotate(angle x y)`).
    rotate: f64,
    centre: (f64, f64),
    text: String,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    Some(tag[at..].split('"').next()?.to_string())
}

fn number(tag: &str, name: &str) -> f64 {
    attr(tag, name).and_then(|v| v.parse().ok()).unwrap_or(0.0)
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The text of an element's content, tags removed.
fn content(body: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    unescape(&out)
}

fn labels(svg: &str) -> Vec<Label> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|t| {
            let open = t.find('>')?;
            let tag = format!(" {}", &t[..open]);
            let body = &t[open + 1..t.find("</text>")?];
            let rotation: Vec<f64> = attr(&tag, "transform")
                .and_then(|r| Some(r.strip_prefix("rotate(")?.trim_end_matches(')').to_string()))
                .map(|r| {
                    r.split_whitespace()
                        .filter_map(|x| x.parse().ok())
                        .collect()
                })
                .unwrap_or_default();
            let (rotate, centre) = match rotation.as_slice() {
                [a, x, y] => (*a, (*x, *y)),
                [a] => (*a, (0.0, 0.0)),
                _ => (0.0, (0.0, 0.0)),
            };
            Some(Label {
                x: number(&tag, "x"),
                y: number(&tag, "y"),
                anchor: attr(&tag, "text-anchor").unwrap_or_else(|| "start".into()),
                size: number(&tag, "font-size"),
                bold: attr(&tag, "font-weight").is_some_and(|w| w == "bold"),
                rotate,
                centre,
                text: content(body),
            })
        })
        .collect()
}

/// The canvas size from the root element's `viewBox`.
fn canvas(svg: &str) -> (f64, f64) {
    let vb = attr(svg.split('>').next().unwrap_or_default(), "viewBox").unwrap_or_default();
    let v: Vec<f64> = vb
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    match v.as_slice() {
        [_, _, w, h] => (*w, *h),
        _ => (0.0, 0.0),
    }
}

/// The label's box corners on the canvas: laid out from its baseline point `(x, y)`, then
/// rotated about the transform's centre.
fn corners(face: &Face, l: &Label) -> [(f64, f64); 4] {
    let lay = face.layout(&l.text, l.size, l.bold);
    let left = l.x
        + match l.anchor.as_str() {
            "middle" => -lay.width / 2.0,
            "end" => -lay.width,
            _ => 0.0,
        };
    let (top, bottom) = (l.y - lay.ascent, l.y + lay.descent);
    let (cos, sin) = (l.rotate.to_radians().cos(), l.rotate.to_radians().sin());
    let (cx, cy) = l.centre;
    [
        (left, top),
        (left + lay.width, top),
        (left, bottom),
        (left + lay.width, bottom),
    ]
    .map(|(px, py)| {
        let (dx, dy) = (px - cx, py - cy);
        (cx + dx * cos - dy * sin, cy + dx * sin + dy * cos)
    })
}

/// Every label of `svg` (as written by the figures' SVG canvas) whose box leaves the canvas,
/// each as `"text" (left, top)-(right, bottom) outside W x H`.
pub fn text_outside(svg: &str) -> Vec<String> {
    let Ok(face) = Face::get() else {
        return vec!["the embedded font did not load".into()];
    };
    let (w, h) = canvas(svg);
    labels(svg)
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .filter_map(|l| {
            let c = corners(face, l);
            let left = c.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let right = c.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
            let top = c.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let bottom = c.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
            let out = left < -0.5 || top < -0.5 || right > w + 0.5 || bottom > h + 0.5;
            out.then(|| {
                format!(
                    "{:?} ({left:.0}, {top:.0})-({right:.0}, {bottom:.0}) outside {w} x {h}",
                    l.text
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_past_the_right_edge_is_reported_and_one_inside_is_not() {
        let svg = "<svg width=\"100\" height=\"50\" viewBox=\"0 0 100 50\">\n<text x=\"10\" y=\"20\" text-anchor=\"start\" font-size=\"12\">ok</text>\n<text x=\"60\" y=\"20\" text-anchor=\"start\" font-size=\"12\">far too long a label</text>\n</svg>\n";
        let out = text_outside(svg);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].contains("far too long"));
    }

    #[test]
    fn a_rotated_label_is_measured_rotated() {
        // 270°: the label runs upwards from its anchor, centred on it.
        let svg = "<svg viewBox=\"0 0 40 200\">\n<text x=\"14\" y=\"100\" text-anchor=\"middle\" font-size=\"14\" transform=\"rotate(270 14 100)\">Pr(G1 wins)</text>\n</svg>";
        assert!(text_outside(svg).is_empty(), "{:?}", text_outside(svg));
        let tall = "<svg viewBox=\"0 0 40 50\">\n<text x=\"14\" y=\"25\" text-anchor=\"middle\" font-size=\"14\" transform=\"rotate(270 14 25)\">Pr(G1 wins)</text>\n</svg>";
        assert_eq!(text_outside(tall).len(), 1);
    }

    #[test]
    fn fitted_size_shrinks_a_long_title_until_it_fits() {
        let face = Face::get().unwrap();
        let t = "greedy, then counter once the stock holds at most k cards (switch-counter-stock): win rate against k";
        let s = fitted_size(t, 14, 688, true);
        assert!(s < 14);
        assert!(face.layout(t, f64::from(s), true).width <= 688.0);
        assert_eq!(fitted_size("short", 14, 688, true), 14);
    }
}
