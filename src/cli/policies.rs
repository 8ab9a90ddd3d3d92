//! `briscola policies`: the built-in definitions (to copy into `pipeline.toml`), any named
//! policy as the engine understands it, and the policy language's vocabulary.
//!
//! Invariant: the command only reads (the config, if named); it writes nothing but stdout.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use briscola::pipeline::config::Config;
use briscola::policy::builtin_defs::rules_of;
use briscola::policy::{BUILTIN_KINDS, PolicyKind, PolicySpec, TieBreak, lang};

use super::error::{CliError, Exit, report};

/// `briscola policies [NAME]`
#[derive(Debug, Args)]
pub struct PoliciesArgs {
    /// A policy to print as the engine understands it: one defined in the config, or a
    /// built-in (greedy, hoarder, counter, random). Without it: list the built-ins and the
    /// config's.
    pub name: Option<String>,
    /// The study file whose `[policies]` to read (optional for built-ins).
    #[arg(long, value_name = "FILE", default_value = "pipeline.toml")]
    pub config: PathBuf,
    /// Print the policy language's vocabulary (orders, card classes, conditions).
    #[arg(long)]
    pub language: bool,
}

macro_rules! outln {
    ($($arg:tt)*) => {{
        $crate::cli::error::note_stdout(writeln!(std::io::stdout().lock(), $($arg)*));
    }};
}

/// Run `briscola policies`.
pub fn policies(a: PoliciesArgs) -> Exit {
    if a.language {
        if let Some(name) = &a.name {
            return report(&CliError::Usage(format!(
                "--language prints the policy language's reference and takes no policy name (got `{name}`); give `briscola policies {name}` for the policy"
            )));
        }
        print_language();
        return Exit::Ok;
    }
    // The config is optional unless the name is not a built-in.
    let explicit = a.config != std::path::Path::new("pipeline.toml");
    let cfg = if explicit || a.config.exists() {
        match Config::load(&a.config) {
            Ok(c) => Some(c),
            Err(e) => return report(&CliError::Config(e)),
        }
    } else {
        None
    };
    let Some(name) = a.name else {
        print_list(cfg.as_ref());
        return Exit::Ok;
    };
    let spec = match Config::named_policy(cfg.as_ref(), &name, None) {
        Some(spec) => spec,
        None => {
            let defined = cfg
                .as_ref()
                .map(|c| c.policies.keys().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            return report(&CliError::Usage(format!(
                "no policy named `{name}`; use a built-in ({}, search){}",
                PolicyKind::builtin_names(),
                if defined.is_empty() {
                    String::new()
                } else {
                    format!(" or one defined in {} ({defined})", a.config.display())
                }
            )));
        }
    };
    outln!("{}", spec.describe().to_string().trim_end());
    Exit::Ok
}

fn print_list(cfg: Option<&Config>) {
    outln!("Built-in policies (the paper's Definitions 1-3, as shipped definitions).");
    outln!("Copy one into pipeline.toml and edit it to make a new policy:");
    for k in BUILTIN_KINDS {
        let Some((lead, follow)) = rules_of(k, 10) else {
            continue;
        };
        let quote = |v: &[String]| {
            let items: Vec<String> = v.iter().map(|s| format!("  \"{s}\",")).collect();
            format!("[\n{}\n]", items.join("\n"))
        };
        outln!();
        outln!("[policies.my-{}]", k.as_str());
        outln!("kind = \"rules\"");
        outln!("tie_break = \"as-released\"");
        outln!("lead = {}", quote(&lead));
        outln!("follow = {}", quote(&follow));
    }
    outln!();
    outln!("Built-in agents (use by name, or as [policies.NAME] kind = \"...\"):");
    for k in BUILTIN_KINDS
        .into_iter()
        .filter(|k| rules_of(*k, 10).is_none())
    {
        let d = PolicySpec::paper(k, TieBreak::AsReleased)
            .describe()
            .to_string();
        outln!("  {}", d.trim_end());
    }
    if let Some(c) = cfg {
        outln!();
        outln!("Defined in {}:", c.source_name);
        for (name, section) in &c.policies {
            // The resolved kind (a rules policy that is a built-in is shown as that built-in).
            let kind = c.policy_spec(name, None).map_or(section.kind, |s| s.kind);
            outln!("  {name} ({})", kind.as_str());
        }
        outln!("`briscola policies NAME` prints one as the engine understands it.");
    }
}

fn print_language() {
    outln!("A rules policy: kind = \"rules\", lead = [RULE, ...], follow = [RULE, ...].");
    outln!("RULE is `[if CONDITION then] ORDER [of CLASSES]`; the first rule whose condition");
    outln!("holds and whose choice is non-empty decides; each list ends with a rule that always");
    outln!("chooses (e.g. \"cheapest\"). Composition: kind = \"switch\" (play, while, otherwise)");
    outln!("and kind = \"epsilon\" (base, eps, moves = \"lead\" | \"all\").");
    for (group, items) in lang::vocabulary() {
        outln!();
        outln!("{group}:");
        for (term, meaning) in items {
            outln!("  {term:<24} {meaning}");
        }
    }
}
