//! The committed study's report as a reader meets it (issue 25): the real binary runs the
//! committed `pipeline.toml`, and headless Chromium measures `report.html` — the Answers block
//! on the first screen at 1280 x 800, the page's height at 1280 and at 420 px with every fold
//! closed, its size, every figure label inside its canvas, an n on every Figure 2 panel — and
//! prints it to PDF (page count; no element wider than the page under the print stylesheet).
//!
//! Invariant: skips (saying why) without `/usr/bin/chromium`; works in its own temporary
//! directory with a fresh browser profile per load, and never touches the network.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{CHROMIUM, assert_exit, briscola, chromium, study};

/// The limits the issue sets.
const MAX_BYTES: usize = 600_000;
const MAX_HEIGHT_1280: u64 = 30_000;
const MAX_HEIGHT_420: u64 = 60_000;
/// A4 at the print stylesheet's 12 mm side margins, in CSS pixels (186 mm at 96 px per inch).
const PRINT_WIDTH: u32 = 703;

/// The report without its CSP (so a measuring script may run), the script appended.
fn with_script(html: &str, script: &str) -> String {
    let at = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .expect("the report has a CSP");
    let end = at + html[at..].find('>').unwrap() + 1;
    format!("{}{}", &html[..at], &html[end..])
        .replace("</body>", &format!("<script>{script}</script></body>"))
}

/// The `data-*` attributes the probe script set on the host page's body.
fn attributes(dom: &str) -> BTreeMap<String, String> {
    let body = dom.split("<body").nth(1).unwrap_or_default();
    let tag = body.split('>').next().unwrap_or_default();
    tag.split(" data-")
        .skip(1)
        .filter_map(|a| {
            let (k, v) = a.split_once("=\"")?;
            Some((k.to_string(), v.split('"').next()?.replace("&amp;", "&")))
        })
        .collect()
}

/// Load `page` (a whole document) in a window of `size` and return the probe's attributes.
fn load(dir: &Path, name: &str, page: &str, size: (u32, u32)) -> BTreeMap<String, String> {
    let path = dir.join(format!("{name}.html"));
    std::fs::write(&path, page).unwrap();
    let window = format!("--window-size={},{}", size.0, size.1);
    let out = chromium(
        &dir.join(format!("profile-{name}")),
        &[
            "--dump-dom",
            window.as_str(),
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
        ],
        &format!("file://{}", path.display()),
    );
    assert!(out.status.success(), "chromium failed on {name}");
    attributes(&String::from_utf8_lossy(&out.stdout))
}

/// Load `html` in an iframe of `(width, height)` px (headless Chromium will not make a window
/// narrower than 500 px, and its window size is not its viewport's), the probe writing to the
/// host page.
fn load_framed(
    dir: &Path,
    name: &str,
    html: &str,
    (width, height): (u32, u32),
) -> BTreeMap<String, String> {
    let escaped = html
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let host = format!(
        "<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"border:0\" width=\"{width}\" height=\"{height}\" srcdoc=\"{escaped}\"></iframe></body></html>"
    );
    load(dir, name, &host, (width.max(800) + 100, height + 100))
}

/// Sets `data-NAME` on the page that holds the report (itself, or its iframe's parent).
const SET: &str = "const host = (window.parent !== window ? parent.document : document).body; const set = (k, v) => host.setAttribute('data-' + k, String(v));";

/// Height with every fold closed; where the Answers block ends; then, every fold open, the
/// labels that leave their figure's canvas and the Figure 2 panels without an n.
const SCREEN: &str = r#"
for (const d of document.querySelectorAll('details')) d.open = false;
set('vh', window.innerHeight);
set('height', document.documentElement.scrollHeight);
const a = document.getElementById('answers').getBoundingClientRect();
set('answers-top', Math.round(a.top + window.scrollY));
set('answers-bottom', Math.round(a.bottom + window.scrollY));
for (const d of document.querySelectorAll('details')) d.open = true;
const bad = [];
let texts = 0;
for (const svg of document.querySelectorAll('figure svg')) {
  const r = svg.getBoundingClientRect();
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBoundingClientRect();
    if (b.width === 0) continue;
    texts++;
    if (b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1)
      bad.push(t.textContent + ' in ' + svg.closest('figure').id);
  }
}
set('texts', texts);
set('outside', bad.slice(0, 10).join(' | '));
const panels = [];
for (const f of document.querySelectorAll('figure[id$="-figure2"]')) {
  const t = [...f.querySelectorAll('text')].map(x => x.textContent);
  panels.push(f.id + ':' + t.filter(x => x.includes('(G1) vs')).length + ':' + t.filter(x => /^n = [0-9,]+$/.test(x)).length);
}
set('panels', panels.join(' '));
"#;

/// Elements whose right edge passes the frame (every element: in print nothing scrolls).
const WIDE: &str = r#"
for (const d of document.querySelectorAll('details')) d.open = false;
const vw = document.documentElement.clientWidth; const bad = [];
for (const e of document.querySelectorAll('body *')) {
  const r = e.getBoundingClientRect();
  if (r.width > 0 && r.right > vw + 1) bad.push(e.tagName + '#' + e.id + '.' + e.className + ':' + Math.round(r.right));
}
set('vw', vw);
set('sw', document.documentElement.scrollWidth);
set('height', document.documentElement.scrollHeight);
set('wide', bad.slice(0, 10).join(' '));
"#;

fn number(a: &BTreeMap<String, String>, k: &str) -> u64 {
    a.get(k)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("the probe did not set {k}: {a:?}"))
}

/// Pages of a PDF as Chromium writes it (one `/Type /Page` dictionary per page).
fn pdf_pages(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    text.matches("/Type /Page").count() - text.matches("/Type /Pages").count()
}

#[test]
fn the_committed_report_leads_with_its_answers_and_prints() {
    if !Path::new(CHROMIUM).exists() {
        println!(
            "SKIPPED: {CHROMIUM} not found; install it (apt-get install chromium) to run this test"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("pipeline.toml")).unwrap();
    let dir = study(&text);
    assert_exit(&briscola(&["run"], dir.path()), 0);
    let out = dir.path().join("outputs");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    println!("report.html: {} bytes", html.len());
    assert!(
        html.len() <= MAX_BYTES,
        "report.html is {} bytes",
        html.len()
    );
    // Provenance has its own page, linked with its hash; the report keeps no job table.
    let prov = std::fs::read(out.join("provenance.html")).unwrap();
    let sha = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(&prov))
    };
    assert!(html.contains("href=\"provenance.html\"") && html.contains(&sha));
    assert!(!html.contains("id=\"provenance-jobs\""));
    assert!(String::from_utf8_lossy(&prov).contains("id=\"provenance-jobs\""));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Answers") && md.contains("(provenance.md)"));

    let work = tempfile::tempdir().unwrap();
    let screen = load_framed(
        work.path(),
        "screen",
        &with_script(&html, &format!("{SET}{SCREEN}")),
        (1280, 800),
    );
    println!("at 1280 x 800: {screen:?}");
    assert_eq!(number(&screen, "vh"), 800);
    assert!(
        number(&screen, "answers-bottom") <= 800,
        "the Answers block ends below the first screen: {screen:?}"
    );
    let h1280 = number(&screen, "height");
    assert!(h1280 <= MAX_HEIGHT_1280, "{h1280} px tall at 1280");
    assert!(number(&screen, "texts") > 300, "too few labels measured");
    assert_eq!(screen["outside"], "", "labels outside their canvas");
    // the inline Figure 2 states an n in each panel
    for p in screen["panels"].split(' ') {
        let f: Vec<&str> = p.split(':').collect();
        assert!(f[1] != "0" && f[1] == f[2], "panels without n: {p}");
    }
    // every figure file (the further studies' are linked, not inlined): no label outside its
    // canvas, measured with the figures' own font metrics; every Figure 2 panel states its n
    let mut figure2s = 0;
    for study in std::fs::read_dir(out.join("figures")).unwrap() {
        for f in std::fs::read_dir(study.unwrap().path()).unwrap() {
            let path = f.unwrap().path();
            if path.extension().is_none_or(|e| e != "svg") {
                continue;
            }
            let svg = std::fs::read_to_string(&path).unwrap();
            let outside = briscola::plot::text_outside(&svg);
            assert!(outside.is_empty(), "{}: {outside:?}", path.display());
            if path.ends_with("figure2.svg") {
                figure2s += 1;
                let panels = svg.matches("(G2)</text>").count();
                let ns = svg.matches(">n = ").count();
                assert!(
                    panels > 0 && ns == panels,
                    "{}: {panels} panels, {ns} n",
                    path.display()
                );
            }
        }
    }
    assert!(figure2s >= 9, "{figure2s} Figure 2 files");

    let phone = load_framed(
        work.path(),
        "phone",
        &with_script(&html, &format!("{SET}{WIDE}")),
        (420, 2000),
    );
    println!("at 420: {phone:?}");
    let h420 = number(&phone, "height");
    assert!(h420 <= MAX_HEIGHT_420, "{h420} px tall at 420");

    // The print stylesheet, applied on screen at the page's width: nothing passes the page.
    let printed = with_script(&html, &format!("{SET}{WIDE}")).replace("@media print", "@media all");
    let page = load_framed(work.path(), "print", &printed, (PRINT_WIDTH, 2000));
    println!("print layout at {PRINT_WIDTH} px: {page:?}");
    assert_eq!(page["wide"], "", "elements wider than the printed page");
    let pdf_path = work.path().join("report.pdf");
    let pdf_arg = format!("--print-to-pdf={}", pdf_path.display());
    let o = chromium(
        &work.path().join("profile-pdf"),
        &[pdf_arg.as_str(), "--no-pdf-header-footer"],
        &format!("file://{}", out.join("report.html").display()),
    );
    assert!(o.status.success(), "print to PDF failed");
    let pages = pdf_pages(&std::fs::read(&pdf_path).unwrap());
    println!("report.pdf: {pages} pages");
    assert!((10..=120).contains(&pages), "{pages} pages");
}
