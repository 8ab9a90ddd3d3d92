//! [`render_report`]: the literate report from the templates, as one self-contained
//! `report.html` (SVG and CSS inline, no URL of any kind) and a `report.md` that links PNG
//! copies of the figures by relative path.
//!
//! Invariant: templates see only the [`ReportContext`] and the figures; HTML is autoescaped
//! (Markdown is escaped for `<`, `>`, `&` and `|`), undefined variables are errors, and no
//! clock or environment value reaches the output.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use minijinja::{
    AutoEscape, Environment, Error, ErrorKind, Output, State, UndefinedBehavior, Value,
};
use serde::Deserialize;

use super::context::ReportContext;
use super::error::RenderError;
use super::format;
use super::report_format::ReportFormat;
use crate::plot::{FigureFile, FigureKind};
use crate::stats::p_value::PValue;

/// Template names.
pub const HTML_TEMPLATE: &str = "report.html.j2";
/// Template names.
pub const MD_TEMPLATE: &str = "report.md.j2";

const MD_ESCAPE: &str = "markdown";

/// Escape text for Markdown: no raw HTML, no table breaks.
pub fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("\\|"),
            other => out.push(other),
        }
    }
    out
}

fn to_value<T: serde::Serialize>(x: T) -> Value {
    Value::from(minijinja::value::Serde(x))
}

fn as_f64(v: &Value) -> Option<f64> {
    if v.is_none() || v.is_undefined() {
        return None;
    }
    f64::try_from(v.clone()).ok()
}

fn number_or_dash(v: &Value, f: impl Fn(f64) -> String) -> Result<String, Error> {
    if v.is_none() {
        return Ok("—".into());
    }
    as_f64(v)
        .map(f)
        .ok_or_else(|| Error::new(ErrorKind::InvalidOperation, format!("not a number: {v}")))
}

/// The template environment: loader, strict undefined, escaping and the report's filters
/// (`num`, `fix`, `signed`, `sci`, `sig`, `short`, `pval`, `p_is`, `z`), all from [`format`].
/// There is no percentage filter: a rate or share is a proportion everywhere (`fix`), as the
/// paper prints it, so the report never mixes 0.6295 and 62.95%.
pub fn environment(templates_dir: &Path) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_loader(minijinja::path_loader(templates_dir));
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
    {
        env.set_syntax(syntax);
    }
    env.set_auto_escape_callback(|name| {
        let n = name.trim_end_matches(".j2").trim_end_matches(".jinja");
        if n.ends_with(".html") || n.ends_with(".htm") || n.ends_with(".xml") {
            AutoEscape::Html
        } else if n.ends_with(".md") {
            AutoEscape::Custom(Cow::Borrowed(MD_ESCAPE))
        } else {
            AutoEscape::None
        }
    });
    env.set_formatter(|out: &mut Output, state: &mut State, value: &Value| {
        if matches!(state.auto_escape(), AutoEscape::Custom(name) if name == MD_ESCAPE) {
            let text = value.to_string();
            let text = if value.is_safe() {
                text
            } else {
                escape_markdown(&text)
            };
            out.write_str(&text).map_err(Error::from)
        } else {
            minijinja::escape_formatter(out, state, value)
        }
    });
    env.add_filter("num", |v: Value| {
        number_or_dash(&v, |x| format::thousands(x.round() as i128))
    });
    env.add_filter("fix", |v: Value, d: Option<usize>| {
        number_or_dash(&v, |x| format::fixed(x, d.unwrap_or(3)))
    });
    env.add_filter("signed", |v: Value, d: Option<usize>| {
        number_or_dash(&v, |x| format::signed(x, d.unwrap_or(3)))
    });
    env.add_filter("sci", |v: Value, d: Option<usize>| {
        number_or_dash(&v, |x| format::scientific(x, d.unwrap_or(2)))
    });
    env.add_filter("sig", |v: Value, d: Option<usize>| {
        number_or_dash(&v, |x| format::sig(x, d.unwrap_or(3)))
    });
    env.add_filter("short", |v: Value, d: Option<usize>| {
        number_or_dash(&v, |x| format::short(x, d.unwrap_or(4)))
    });
    env.add_filter("z", |v: Value| number_or_dash(&v, |x| format::signed(x, 2)));
    env.add_filter(
        "pval",
        |v: Value, sig: Option<usize>| -> Result<String, Error> {
            let p = PValue::deserialize(v.clone()).map_err(|e| {
                Error::new(
                    ErrorKind::InvalidOperation,
                    format!("pval expects a p-value object, got {v}: {e}"),
                )
            })?;
            Ok(format::pval(&p, sig.unwrap_or(2)))
        },
    );
    env.add_filter(
        "p_is",
        |v: Value, sig: Option<usize>| -> Result<String, Error> {
            let p = PValue::deserialize(v.clone()).map_err(|e| {
                Error::new(
                    ErrorKind::InvalidOperation,
                    format!("p_is expects a p-value object, got {v}: {e}"),
                )
            })?;
            Ok(format::p_is(&p, sig.unwrap_or(2)))
        },
    );
    env
}

fn figures_value(figs: BTreeMap<String, BTreeMap<String, BTreeMap<String, Value>>>) -> Value {
    Value::from(
        figs.into_iter()
            .map(|(study, kinds)| {
                let kinds: BTreeMap<String, Value> = kinds
                    .into_iter()
                    .map(|(k, m)| (k, Value::from(m)))
                    .collect();
                (study, Value::from(kinds))
            })
            .collect::<BTreeMap<String, Value>>(),
    )
}

/// Make an inline copy of an SVG: drop the XML namespace URL (HTML5 does not need it), so the
/// HTML holds no URL at all.
fn inline_svg(svg: &str) -> String {
    svg.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
}

fn template_err(template: &str, e: &Error) -> RenderError {
    let mut message = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        message.push_str(&format!(": {s}"));
        src = s.source();
    }
    RenderError::Template {
        template: template.to_string(),
        message,
    }
}

/// Replace the `<!--toc-->` marker with a list of the `<h2>` headings that sit directly in a
/// `<section id="...">`, in order, so the table of contents always matches the headings.
pub fn with_toc(html: &str) -> String {
    let mut items = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<section id=\"") {
        rest = &rest[i + "<section id=\"".len()..];
        let Some(q) = rest.find('"') else { break };
        let id = &rest[..q];
        let Some(h) = rest.find("<h2>") else { break };
        let Some(e) = rest[h..].find("</h2>") else {
            break;
        };
        // only a heading before the next section belongs to this one
        if rest[..h].contains("<section id=") {
            continue;
        }
        let title = &rest[h + 4..h + e];
        items.push_str(&format!("<li><a href=\"#{id}\">{title}</a></li>"));
    }
    html.replacen("<!--toc-->", &format!("<ol>{items}</ol>"), 1)
}

/// Where the figures are, for the report: the caller (the pipeline's render stage, from its
/// layout) says where to read each figure and how the report links it; the report spells no
/// path of its own.
pub struct FigureLocations<'a> {
    /// A figure's relative name (e.g. `paper/figure2.svg`) -> a readable file.
    pub file: &'a dyn Fn(&str) -> PathBuf,
    /// A figure's relative name (e.g. `paper/figure2.png`) -> the link the Markdown report
    /// writes, relative to the report.
    pub link: &'a dyn Fn(&str) -> String,
}

/// GitHub's anchor for a Markdown heading: lower case, punctuation dropped (hyphens and
/// underscores kept), spaces as hyphens.
fn md_anchor(title: &str) -> String {
    title
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Replace the `<!--toc-->` marker line of the Markdown report with a list of its `## `
/// headings (after the marker), linked, so the contents always match the headings, including
/// sections a partial template adds.
pub fn with_md_toc(md: &str) -> String {
    let Some(at) = md.find("<!--toc-->") else {
        return md.to_string();
    };
    let mut fenced = false;
    let items: String = md[at..]
        .lines()
        .filter(|l| {
            if l.starts_with("```") {
                fenced = !fenced;
            }
            !fenced
        })
        .filter_map(|l| l.strip_prefix("## "))
        .map(|t| format!("- [{}]({})\n", t.trim(), format_args!("#{}", md_anchor(t))))
        .collect();
    md.replacen("<!--toc-->\n", &items, 1)
}

/// The provenance page's templates.
pub const PROVENANCE_HTML_TEMPLATE: &str = "provenance.html.j2";
/// See [`PROVENANCE_HTML_TEMPLATE`].
pub const PROVENANCE_MD_TEMPLATE: &str = "provenance.md.j2";

/// The figures of the report in one format: study -> figure stem -> {present, svg | png}.
fn figure_slots(
    ctx: &ReportContext,
    figures: &[FigureFile],
    locations: &FigureLocations<'_>,
    html: bool,
) -> Result<Value, RenderError> {
    let mut figs: BTreeMap<String, BTreeMap<String, BTreeMap<String, Value>>> = BTreeMap::new();
    for s in &ctx.studies {
        let entry = figs.entry(s.name.clone()).or_default();
        for k in FigureKind::ALL {
            let mut m = BTreeMap::new();
            m.insert("present".to_string(), Value::from(false));
            m.insert("svg".to_string(), Value::from(()));
            m.insert("png".to_string(), Value::from(()));
            m.insert("href".to_string(), Value::from(()));
            entry.insert(k.stem().to_string(), m);
        }
    }
    for f in figures {
        let slot = figs
            .entry(f.study.clone())
            .or_default()
            .entry(f.kind.stem().to_string())
            .or_default();
        slot.insert("present".to_string(), Value::from(true));
        // the SVG file beside the report, for a figure the HTML links rather than inlines
        slot.insert("href".to_string(), Value::from((locations.link)(&f.svg)));
        if html {
            let path = (locations.file)(&f.svg);
            let svg = std::fs::read_to_string(&path)
                .map_err(|source| RenderError::Read { path, source })?;
            slot.insert("svg".to_string(), Value::from_safe_string(inline_svg(&svg)));
        } else {
            let rel = (locations.link)(&f.png);
            let path = (locations.file)(&f.png);
            if !path.is_file() {
                return Err(RenderError::Read {
                    path,
                    source: std::io::Error::new(std::io::ErrorKind::NotFound, "figure missing"),
                });
            }
            slot.insert("png".to_string(), Value::from(rel));
        }
    }
    Ok(figures_value(figs))
}

/// The provenance page of one format: its file name and text.
fn render_provenance(
    env: &Environment<'_>,
    ctx: &ReportContext,
    html: bool,
) -> Result<(&'static str, String), RenderError> {
    let (name, out) = if html {
        (PROVENANCE_HTML_TEMPLATE, "provenance.html")
    } else {
        (PROVENANCE_MD_TEMPLATE, "provenance.md")
    };
    let tmpl = env.get_template(name).map_err(|e| template_err(name, &e))?;
    let text = tmpl
        .render(minijinja::context! {
            title => &ctx.title,
            provenance => to_value(&ctx.provenance),
        })
        .map_err(|e| template_err(name, &e))?;
    Ok((out, text))
}

/// The main report of one format, linking its provenance page `(file, sha256)`.
fn render_main(
    env: &Environment<'_>,
    ctx: &ReportContext,
    figures: Value,
    provenance_file: (&str, &str),
    html: bool,
) -> Result<String, RenderError> {
    let name = if html { HTML_TEMPLATE } else { MD_TEMPLATE };
    let tmpl = env.get_template(name).map_err(|e| template_err(name, &e))?;
    let c = ctx;
    let text = tmpl
        .render(minijinja::context! {
            title => &c.title,
            studies => to_value(&c.studies),
            main => to_value(&c.studies[0]),
            comparison => to_value(&c.comparison),
            findings => to_value(&c.findings),
            scored => c.scored,
            provenance => to_value(&c.provenance),
            provenance_file => minijinja::context! {
                name => provenance_file.0,
                sha256 => provenance_file.1,
            },
            answers => to_value(&c.answers),
            min_games_per_bin => c.min_games_per_bin,
            variants => to_value(&c.variants),
            verdicts => to_value(
                super::scorecard::Verdict::ALL.iter().map(|v| v.label()).collect::<Vec<_>>()
            ),
            figures => figures,
            sweeps => to_value(&c.sweeps),
            leagues => to_value(&c.leagues),
            exploitability => to_value(&c.exploitability),
        })
        .map_err(|e| template_err(name, &e))?;
    Ok(if html {
        with_toc(&text)
    } else {
        with_md_toc(&text)
    })
}

/// Render the report.
///
/// - `figures`: as returned by `plot::write_figures`, found through `locations`.
/// - writes, per format, the provenance page (`provenance.html`, `provenance.md`) and then
///   the report (`report.html` with SVGs inline, `report.md` linking the PNGs by
///   `locations.link`), which names its provenance page's sha256.
///
/// Returns the written files, relative to `out_dir`, in writing order.
pub fn render_report(
    ctx: &ReportContext,
    templates_dir: &Path,
    figures: &[FigureFile],
    locations: &FigureLocations<'_>,
    out_dir: &Path,
    formats: &[ReportFormat],
) -> Result<Vec<String>, RenderError> {
    use sha2::{Digest, Sha256};
    let env = environment(templates_dir);
    let mut written = Vec::new();
    let write = |rel: &str, bytes: &[u8]| -> Result<(), RenderError> {
        let path = out_dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| RenderError::Write {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(&path, bytes).map_err(|source| RenderError::Write { path, source })
    };
    for fmt in formats {
        let html = *fmt == ReportFormat::Html;
        let (prov_name, prov_text) = render_provenance(&env, ctx, html)?;
        write(prov_name, prov_text.as_bytes())?;
        written.push(prov_name.to_string());
        let prov_sha = hex::encode(Sha256::digest(prov_text.as_bytes()));
        let figs = figure_slots(ctx, figures, locations, html)?;
        let text = render_main(&env, ctx, figs, (prov_name, &prov_sha), html)?;
        let out_name = if html { "report.html" } else { "report.md" };
        write(out_name, text.as_bytes())?;
        written.push(out_name.to_string());
    }
    Ok(written)
}
