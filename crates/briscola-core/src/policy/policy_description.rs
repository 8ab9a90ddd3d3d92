//! A policy "as the engine understands it": the rules a spec compiles to (the shipped
//! definition for a built-in kind, with its threshold and tie-break reading filled in), and the
//! tree of a switch or epsilon policy. What `briscola policies NAME` prints.
//!
//! Invariant: the description is printed from the compiled program, not from the text the user
//! wrote, so it shows canonical rules (the same for every spelling of the same policy).

use std::fmt::Write;

use super::builtin_defs::builtin_program;
use super::lang::{RuleProgram, parse_condition};
use super::{PolicyDef, PolicyKind, PolicySpec};

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
    let what = match p.kind {
        PolicyKind::Greedy => "built-in greedy (Definition 1)".to_string(),
        PolicyKind::Hoarder => {
            format!("built-in hoarder (Definition 2), threshold {}", p.threshold)
        }
        PolicyKind::Counter => {
            format!("built-in counter (Definition 3), threshold {}", p.threshold)
        }
        PolicyKind::Rules => "rules".to_string(),
        PolicyKind::Switch => "switch".to_string(),
        PolicyKind::Epsilon => "epsilon".to_string(),
        PolicyKind::Search => "search (PIMC: sampled worlds solved by alpha-beta)".to_string(),
        PolicyKind::Random => {
            "built-in random: a uniformly random card of the hand (seat stream)".to_string()
        }
        PolicyKind::Onnx => "onnx (a policy network)".to_string(),
        PolicyKind::Exploit => {
            "exploit (a best response: worlds consistent with its target's plays, searched with the target's moves from its policy)".to_string()
        }
    };
    let _ = writeln!(out, "{pad}{}: {what}", p.name);
    let program = |prog: Option<RuleProgram>, out: &mut String| {
        if let Some(prog) = prog {
            for line in prog.to_string().lines() {
                let _ = writeln!(out, "{pad}  {line}");
            }
        }
    };
    match (&p.def, p.kind) {
        (None, k) => program(builtin_program(k, p.threshold, p.tie_break), out),
        (Some(PolicyDef::Rules { lead, follow }), _) => {
            program(RuleProgram::compile(lead, follow, p.tie_break).ok(), out)
        }
        (
            Some(PolicyDef::Switch {
                play,
                when,
                otherwise,
            }),
            _,
        ) => {
            let when = parse_condition(when).map_or_else(|e| e.to_string(), |c| c.to_string());
            let _ = writeln!(out, "{pad}  while {when}:");
            describe_into(play, depth + 2, out);
            let _ = writeln!(out, "{pad}  otherwise:");
            describe_into(otherwise, depth + 2, out);
        }
        (Some(PolicyDef::Epsilon { base, eps, moves }), _) => {
            let _ = writeln!(
                out,
                "{pad}  with probability {} on {} moves: a uniformly random card of the hand (seat stream); otherwise:",
                eps.0,
                match moves {
                    super::EpsMoves::Lead => "leader",
                    super::EpsMoves::All => "all",
                }
            );
            describe_into(base, depth + 2, out);
        }
        (
            Some(PolicyDef::Exploit {
                target,
                worlds,
                horizon,
            }),
            _,
        ) => {
            let _ = writeln!(
                out,
                "{pad}  {worlds} worlds per decision, each searched {horizon} tricks ahead (to the end once the stock is empty); the target:"
            );
            describe_into(target, depth + 2, out);
        }
        (Some(PolicyDef::Search { worlds, horizon }), _) => {
            let _ = writeln!(
                out,
                "{pad}  {worlds} worlds per decision, each solved {horizon} tricks ahead (exactly to the end once the stock is empty)"
            );
        }
        (
            Some(PolicyDef::Onnx {
                model,
                sha256,
                encoding,
                output,
                sampling,
                ..
            }),
            _,
        ) => {
            let _ = writeln!(out, "{pad}  model {model} (sha256 {sha256})");
            let _ = writeln!(
                out,
                "{pad}  encoding {}, output {output}, {} over the cards in hand (seat stream)",
                encoding.as_str(),
                sampling.as_str()
            );
        }
    }
    if let Some(s) = &p.stream {
        let _ = writeln!(out, "{pad}  (deals and seat streams keyed by `{s}`)");
    }
}
