//! Malformed `pipeline.toml` files: each must exit 2 with a one-paragraph message naming the
//! file, the line and column, and the field, and must never panic. Runs the real binary.

use crate::common::{BASE_CONFIG, assert_exit, briscola, stderr, study};

/// One malformed config: how to break the base config, the field the error must name, and a
/// substring of the line the error must point at (if the offending key is present).
struct Case {
    name: &'static str,
    edit: fn(&str) -> String,
    field: &'static str,
    line_of: Option<&'static str>,
}

fn remove_section(text: &str, header: &str) -> String {
    let mut out = Vec::new();
    let mut skipping = false;
    for l in text.lines() {
        if l.starts_with('[') {
            skipping = l == header;
        }
        if !skipping {
            out.push(l);
        }
    }
    out.join("\n") + "\n"
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "missing section",
            edit: |t| remove_section(t, "[test]"),
            field: "test",
            line_of: None,
        },
        Case {
            // A rules field out of its range: named inside the table, with the rule's range
            // (it named only `variants.rep.rules` and said "0 to 255", the Rust type's).
            name: "rules field out of range",
            edit: |t| format!("{t}\n[variants.rep]\nlabel = \"x\"\nrules = {{ target = 500 }}\n"),
            field: "variants.rep.rules.target",
            line_of: Some("rules = { target = 500 }"),
        },
        Case {
            // The file then starts with [simulate]: the error is the file's, not that table's
            // (it read "field `simulate.study`").
            name: "missing first section",
            edit: |t| remove_section(t, "[study]"),
            field: "study",
            line_of: None,
        },
        Case {
            name: "missing field",
            edit: |t| t.replace("seed = 7\n", ""),
            field: "simulate.seed",
            line_of: Some("[simulate]"),
        },
        Case {
            name: "wrong type",
            edit: |t| t.replace("games = 900", "games = \"many\""),
            field: "simulate.games",
            line_of: Some("games = \"many\""),
        },
        Case {
            name: "unknown key",
            edit: |t| t.replace("seed = 7\n", "seed = 7\ngamez = 5\n"),
            field: "simulate.gamez",
            line_of: Some("gamez = 5"),
        },
        Case {
            name: "unknown top-level section",
            edit: |t| format!("{t}\n[plots]\nmin_games_per_bin = 5\n"),
            field: "plots",
            line_of: Some("[plots]"),
        },
        Case {
            name: "unknown policy kind",
            edit: |t| t.replace("kind = \"hoarder\"", "kind = \"montecarlo\""),
            field: "policies.hoarder.kind",
            line_of: Some("kind = \"montecarlo\""),
        },
        Case {
            name: "a threshold on a random policy",
            edit: |t| t.replace("kind = \"hoarder\"", "kind = \"random\""),
            field: "policies.hoarder.threshold",
            line_of: Some("threshold = 10"),
        },
        Case {
            name: "unknown tie-break",
            edit: |t| {
                t.replace(
                    "kind = \"hoarder\"\n",
                    "kind = \"hoarder\"\ntie_break = \"coin\"\n",
                )
            },
            field: "policies.hoarder.tie_break",
            line_of: Some("tie_break = \"coin\""),
        },
        Case {
            name: "negative games",
            edit: |t| t.replace("games = 900", "games = -5"),
            field: "simulate.games",
            line_of: Some("games = -5"),
        },
        Case {
            name: "zero games",
            edit: |t| t.replace("games = 900", "games = 0"),
            field: "simulate.games",
            line_of: Some("games = 0"),
        },
        Case {
            name: "huge games",
            edit: |t| t.replace("games = 900", "games = 5000000000"),
            field: "simulate.games",
            line_of: Some("games = 5000000000"),
        },
        Case {
            name: "policy name with a path separator",
            edit: |t| {
                t.replace("[policies.counter]", "[policies.\"a/b\"]")
                    .replace("\"counter\"]", "\"a/b\"]")
            },
            field: "policies.a/b",
            line_of: Some("[policies.\"a/b\"]"),
        },
        Case {
            name: "policy name with upper case",
            edit: |t| t.replace("[policies.counter]", "[policies.Counter]"),
            field: "policies.Counter",
            line_of: Some("[policies.Counter]"),
        },
        Case {
            name: "duplicate policy in simulate.policies",
            edit: |t| {
                t.replace(
                    "[\"greedy\", \"hoarder\", \"counter\"]",
                    "[\"greedy\", \"hoarder\", \"greedy\"]",
                )
            },
            field: "simulate.policies[2]",
            line_of: Some("policies = [\"greedy\", \"hoarder\", \"greedy\"]"),
        },
        Case {
            name: "undefined policy",
            edit: |t| t.replace("\"hoarder\", \"counter\"]", "\"hoarder\", \"nobody\"]"),
            field: "simulate.policies[2]",
            line_of: Some("\"nobody\"]"),
        },
        Case {
            name: "seed out of .NET int range for dotnet-replay",
            edit: |t| {
                t.replace(
                    "deal_source = \"chacha\"",
                    "deal_source = \"dotnet-replay\"",
                )
                .replace("seed = 7", "seed = 3000000000")
            },
            field: "simulate.seed",
            line_of: Some("seed = 3000000000"),
        },
        Case {
            name: "negative chacha seed",
            edit: |t| t.replace("seed = 7", "seed = -1"),
            field: "simulate.seed",
            line_of: Some("seed = -1"),
        },
        Case {
            name: "unknown deal source",
            edit: |t| t.replace("deal_source = \"chacha\"", "deal_source = \"urandom\""),
            field: "simulate.deal_source",
            line_of: Some("deal_source = \"urandom\""),
        },
        Case {
            name: "confidence above 1",
            edit: |t| t.replacen("confidence = 0.95", "confidence = 1.5", 1),
            field: "test.confidence",
            line_of: Some("confidence = 1.5"),
        },
        Case {
            name: "family alpha of zero",
            edit: |t| t.replace("family_alpha = 0.05", "family_alpha = 0.0"),
            field: "test.family_alpha",
            line_of: Some("family_alpha = 0.0"),
        },
        Case {
            name: "power delta out of range",
            edit: |t| t.replace("power_delta = 0.01", "power_delta = 0.7"),
            field: "test.power_delta",
            line_of: Some("power_delta = 0.7"),
        },
        Case {
            name: "baseline not a policy",
            edit: |t| {
                t.replace(
                    "baseline = [\"greedy\", \"greedy\"]",
                    "baseline = [\"greedy\", \"nobody\"]",
                )
            },
            field: "test.baseline[1]",
            line_of: Some("baseline = "),
        },
        Case {
            name: "baseline of the wrong length",
            edit: |t| {
                t.replace(
                    "baseline = [\"greedy\", \"greedy\"]",
                    "baseline = [\"greedy\"]",
                )
            },
            field: "test.baseline",
            line_of: Some("baseline = "),
        },
        Case {
            name: "reference policy unknown",
            edit: |t| {
                t.replace(
                    "reference_policy = \"greedy\"",
                    "reference_policy = \"nobody\"",
                )
            },
            field: "regress.reference_policy",
            line_of: Some("reference_policy = \"nobody\""),
        },
        Case {
            name: "empty formats",
            edit: |t| t.replace("formats = [\"html\", \"md\"]", "formats = []"),
            field: "render.formats",
            line_of: Some("formats = []"),
        },
        Case {
            name: "unknown format",
            edit: |t| t.replace("formats = [\"html\", \"md\"]", "formats = [\"pdf\"]"),
            field: "render.formats",
            line_of: Some("formats = [\"pdf\"]"),
        },
        Case {
            name: "duplicate format",
            edit: |t| t.replace("formats = [\"html\", \"md\"]", "formats = [\"md\", \"md\"]"),
            field: "render.formats[1]",
            line_of: Some("formats = [\"md\", \"md\"]"),
        },
        Case {
            // It was reported at the first variant's policy list.
            name: "a baseline no study simulates",
            edit: |t| {
                format!("{t}\n[variants.rep]\nlabel = \"x\"\n").replace(
                    "baseline = [\"greedy\", \"greedy\"]",
                    "baseline = [\"greedy\", \"nobody\"]",
                )
            },
            field: "test.baseline[1]",
            line_of: Some("\"nobody\"]"),
        },
        Case {
            // It said "expected a whole number from 0 to 255; valid: 0 to 22".
            name: "negative threshold",
            edit: |t| t.replacen("threshold = 10", "threshold = -1", 1),
            field: "policies.hoarder.threshold",
            line_of: Some("threshold = -1"),
        },
        Case {
            name: "threshold on greedy",
            edit: |t| t.replace("kind = \"greedy\"\n", "kind = \"greedy\"\nthreshold = 10\n"),
            field: "policies.greedy.threshold",
            line_of: Some("threshold = 10"),
        },
        Case {
            name: "threshold out of range",
            edit: |t| t.replacen("threshold = 10", "threshold = 300", 1),
            field: "policies.hoarder.threshold",
            line_of: Some("threshold = 300"),
        },
        Case {
            name: "bad variant override",
            edit: |t| format!("{t}\n[variants.rep]\nlabel = \"x\"\ngames = \"lots\"\n"),
            field: "variants.rep.games",
            line_of: Some("games = \"lots\""),
        },
        Case {
            name: "unknown variant key",
            edit: |t| format!("{t}\n[variants.rep]\nlabel = \"x\"\npolicies = []\n"),
            field: "variants.rep.policies",
            line_of: Some("policies = []"),
        },
        Case {
            name: "variant seed out of .NET range",
            edit: |t| {
                format!(
                    "{t}\n[variants.rep]\nlabel = \"x\"\ndeal_source = \"dotnet-replay\"\nseed = -3000000000\n"
                )
            },
            field: "variants.rep.seed",
            line_of: Some("seed = -3000000000"),
        },
        Case {
            name: "variant named paper",
            edit: |t| format!("{t}\n[variants.paper]\nlabel = \"x\"\nseed = 3\n"),
            field: "variants.paper",
            line_of: Some("[variants.paper]"),
        },
        Case {
            name: "variant overriding nothing",
            edit: |t| format!("{t}\n[variants.same]\nlabel = \"x\"\n"),
            field: "variants.same",
            line_of: Some("[variants.same]"),
        },
        Case {
            name: "duplicate policy in a variant's list",
            edit: |t| {
                format!(
                    "{t}\n[variants.rep]\nlabel = \"x\"\npolicies = [\"greedy\", \"hoarder\", \"counter\", \"hoarder\"]\n"
                )
            },
            field: "variants.rep.policies[3]",
            line_of: Some("\"counter\", \"hoarder\"]"),
        },
        Case {
            name: "undefined policy in a variant's list",
            edit: |t| {
                format!(
                    "{t}\n[variants.rep]\nlabel = \"x\"\npolicies = [\"greedy\", \"hoarder\", \"nobody\"]\n"
                )
            },
            field: "variants.rep.policies[2]",
            line_of: Some("\"nobody\"]"),
        },
        Case {
            name: "variant threshold override on greedy",
            edit: |t| {
                format!(
                    "{t}\n[variants.rep]\nlabel = \"x\"\n\n[variants.rep.policy.greedy]\nthreshold = 5\n"
                )
            },
            field: "variants.rep.policy.greedy.threshold",
            line_of: None,
        },
        Case {
            name: "no policies at all",
            edit: |t| {
                remove_section(
                    &remove_section(
                        &remove_section(t, "[policies.greedy]"),
                        "[policies.hoarder]",
                    ),
                    "[policies.counter]",
                )
            },
            field: "policies",
            line_of: None,
        },
    ]
}

/// 1-based line of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("test bug: `{needle}` not in the config"))
}

#[test]
fn the_base_config_is_valid() {
    let dir = study(BASE_CONFIG);
    let out = briscola(&["status", "--config", "pipeline.toml"], dir.path());
    assert_exit(&out, 0);
}

#[test]
fn every_malformed_config_exits_2_naming_file_line_and_field() {
    let cases = cases();
    assert!(cases.len() >= 20);
    let mut failures = Vec::new();
    for case in &cases {
        let text = (case.edit)(BASE_CONFIG);
        assert_ne!(
            text, BASE_CONFIG,
            "test bug: case `{}` changed nothing",
            case.name
        );
        let dir = study(&text);
        let out = briscola(&["status", "--config", "pipeline.toml"], dir.path());
        let err = stderr(&out);
        let mut problems = Vec::new();
        if out.status.code() != Some(2) {
            problems.push(format!("exit code {:?}, want 2", out.status.code()));
        }
        if err.contains("panicked") {
            problems.push("panicked".into());
        }
        if !err.contains(&format!("field `{}`", case.field)) {
            problems.push(format!("does not name field `{}`", case.field));
        }
        if !err.contains("pipeline.toml:") {
            problems.push("does not name the file".into());
        }
        if let Some(needle) = case.line_of {
            let want = format!("pipeline.toml:{}:", line_of(&text, needle));
            if !err.contains(&want) {
                problems.push(format!("does not point at {want}"));
            }
        }
        // A field's own range, never its storage type's beside it.
        for storage in ["0 to 255", "0 to 65535", "0 to 4294967295"] {
            if err.contains(storage) {
                problems.push(format!("gives the storage type's range {storage}"));
            }
        }
        if err.trim().contains("\n\n") || err.trim().lines().count() != 1 {
            problems.push("is not one paragraph".into());
        }
        if !out.stdout.is_empty() {
            problems.push("wrote to stdout".into());
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {}\n    stderr: {}",
                case.name,
                problems.join("; "),
                err.trim()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn toml_syntax_error_names_file_line_and_column() {
    let text = BASE_CONFIG.replace("games = 900", "games = 900 900");
    let dir = study(&text);
    let out = briscola(&["status", "--config", "pipeline.toml"], dir.path());
    assert_exit(&out, 2);
    let err = stderr(&out);
    let line = line_of(&text, "games = 900 900");
    assert!(err.contains(&format!("pipeline.toml:{line}:9:")), "{err}");
    assert!(err.contains("not valid TOML"), "{err}");
    assert!(err.contains("field `simulate.games`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn missing_config_file_exits_2_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = briscola(&["run", "--config", "nope.toml"], dir.path());
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("nope.toml"), "{}", stderr(&out));
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = briscola(&["run", "--force", "nonsense"], dir.path());
    assert_exit(&out, 2);
    let out = briscola(&["frobnicate"], dir.path());
    assert_exit(&out, 2);
}
