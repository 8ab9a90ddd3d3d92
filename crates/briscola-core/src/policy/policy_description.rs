//! A policy "as the engine understands it": the rules a spec compiles to (the shipped
//! definition for a built-in kind, with its threshold and tie-break reading filled in), and the
//! tree of a switch or epsilon policy. What `briscola policies NAME` prints.
//!
//! Invariant: the description is printed from the compiled program, not from the text the user
//! wrote, so it shows canonical rules (the same for every spelling of the same policy).

use std::fmt::Write;

use super::PolicySpec;
use super::lang::RuleProgram;

/// One policy's description, several lines, each ending in a newline.
pub struct PolicyDescription(String);

impl std::fmt::Display for PolicyDescription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PolicySpec {
    /// The spec as the engine understands it.
    ///
    /// ```
    /// use briscola_core::policy::{PolicyKind, PolicySpec, TieBreak};
    /// let d = PolicySpec::paper(PolicyKind::Hoarder, TieBreak::AsWritten).describe().to_string();
    /// assert!(d.contains("follow 2: if led.points >= 10 then cheapest-by-points of trump & wins"));
    /// assert!(d.contains("tie_break as-written"));
    /// ```
    pub fn describe(&self) -> PolicyDescription {
        let mut out = String::new();
        describe_into(self, 0, &mut out);
        PolicyDescription(out)
    }
}

fn describe_into(p: &PolicySpec, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let seam = p.kind.seam();
    let _ = writeln!(out, "{pad}{}: {}", p.name, seam.summary(p));
    seam.describe(p, &mut Describer { out, depth });
    if let Some(s) = &p.stream {
        let _ = writeln!(out, "{pad}  (deals and seat streams keyed by `{s}`)");
    }
}

/// Where a kind writes the lines under its summary ([`super::KindSeam::describe`]).
pub struct Describer<'a> {
    out: &'a mut String,
    depth: usize,
}

impl Describer<'_> {
    /// One line under the policy's summary.
    pub fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}  {text}", "  ".repeat(self.depth));
    }

    /// A policy it is built from, described beneath (one level further in).
    pub fn policy(&mut self, spec: &PolicySpec) {
        describe_into(spec, self.depth + 2, self.out);
    }

    /// A rule program's lines (none if it does not compile: a hand-edited spec).
    pub fn program(&mut self, program: Option<RuleProgram>) {
        if let Some(prog) = program {
            for line in prog.to_string().lines() {
                self.line(line);
            }
        }
    }
}
