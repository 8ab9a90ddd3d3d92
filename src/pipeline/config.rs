//! The study's configuration: `pipeline.toml` parsed once into a typed, validated [`Config`].
//!
//! Invariant: a `Config` that exists has passed every check in [`Config::validate`]; code that
//! receives one never re-checks names, counts or ranges.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::policy::{PolicyKind, PolicySpec, TieBreak};
use crate::tournament::DealSourceKind;

/// Largest number of games one study may request.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// Errors reading or validating a configuration file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// the file
        path: PathBuf,
        /// the I/O error
        source: std::io::Error,
    },
    /// TOML syntax or type error, with location.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// the file
        path: PathBuf,
        /// 1-based line
        line: usize,
        /// 1-based column
        column: usize,
        /// what is wrong and what would be valid
        message: String,
    },
    /// A value that parses but is not allowed.
    #[error("{path}: field `{field}`: {message}")]
    Invalid {
        /// the file
        path: PathBuf,
        /// dotted path of the field, e.g. `policies.hoarder.threshold`
        field: String,
        /// what is wrong and what would be valid
        message: String,
    },
}

/// `[study]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StudySection {
    /// Title shown on the report.
    pub title: String,
    /// Path (relative to the config file) of the paper's published figures.
    pub published: String,
}

/// `[simulate]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SimulateSection {
    /// Where the deals come from.
    pub deal_source: DealSourceKind,
    /// The seed (for dotnet-replay: a .NET `int`).
    pub seed: i64,
    /// Games requested; each ordered matchup plays `games / k^2`.
    pub games: u64,
    /// Policy names, in matchup order.
    pub policies: Vec<String>,
}

/// `[policies.NAME]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PolicySection {
    /// Which rule.
    pub kind: PolicyKind,
    /// Overtrump threshold (hoarder, counter). Defaults to 10.
    #[serde(default)]
    pub threshold: Option<u8>,
    /// Tie-break reading. Defaults to as-released.
    #[serde(default)]
    pub tie_break: Option<TieBreak>,
}

/// `[variants.NAME]`: a further study, overriding some simulate settings of the main one.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct VariantSection {
    /// Shown in the report.
    pub label: String,
    /// Overrides `simulate.deal_source`.
    #[serde(default)]
    pub deal_source: Option<DealSourceKind>,
    /// Overrides `simulate.seed`.
    #[serde(default)]
    pub seed: Option<i64>,
    /// Overrides `simulate.games`.
    #[serde(default)]
    pub games: Option<u64>,
    /// Overrides every policy's tie-break.
    #[serde(default)]
    pub tie_break: Option<TieBreak>,
}

/// `[test]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TestSection {
    /// Confidence level of Wilson intervals, in (0, 1).
    pub confidence: f64,
    /// Family-wise alpha of H0(2), in (0, 1).
    pub family_alpha: f64,
    /// The (G1, G2) policy pair whose rate is p0.
    pub baseline: [String; 2],
    /// Power analysis: |delta| to detect.
    pub power_delta: f64,
    /// Power analysis: games per cell in the prose's approximation.
    pub power_n: u64,
}

/// `[regress]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RegressSection {
    /// Reference level of the treatment coding.
    pub reference_policy: String,
    /// Confidence level of the Wald intervals.
    pub confidence: f64,
}

/// `[plot]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlotSection {
    /// Bins of Figure 2 with fewer games are omitted.
    pub min_games_per_bin: u64,
}

/// Report formats.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum ReportFormat {
    /// `report.html`, self-contained.
    Html,
    /// `report.md` with PNG figures.
    Md,
}

/// `[render]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RenderSection {
    /// Which reports to write.
    pub formats: Vec<ReportFormat>,
}

/// The whole file, as parsed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `[study]`
    pub study: StudySection,
    /// `[simulate]`
    pub simulate: SimulateSection,
    /// `[policies.*]`
    pub policies: BTreeMap<String, PolicySection>,
    /// `[variants.*]`
    #[serde(default)]
    pub variants: BTreeMap<String, VariantSection>,
    /// `[test]`
    pub test: TestSection,
    /// `[regress]`
    pub regress: RegressSection,
    /// `[plot]`
    pub plot: PlotSection,
    /// `[render]`
    pub render: RenderSection,
    /// The directory holding the config file (not part of the file).
    #[serde(skip)]
    pub base_dir: PathBuf,
}

/// One concrete study to simulate and analyse: the main one ("paper") or a variant.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Study {
    /// `paper` for the main study, else the variant's name.
    pub name: String,
    /// Human label.
    pub label: String,
    /// Deal source.
    pub deal_source: DealSourceKind,
    /// Seed.
    pub seed: i64,
    /// Games requested.
    pub games: u64,
    /// The policies, in matchup order, fully specified.
    pub policies: Vec<PolicySpec>,
}

impl Study {
    /// Games each ordered matchup plays: `floor(games / k^2)`.
    pub fn games_per_matchup(&self) -> u64 {
        let k = self.policies.len() as u64;
        self.games / (k * k)
    }
}

impl Config {
    /// Read, parse and validate `path`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(&text, path)
    }

    /// Parse and validate `text`, naming `path` in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let mut cfg: Config = toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|s| line_col(text, s.start))
                .unwrap_or((1, 1));
            ConfigError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: e.message().to_string(),
            }
        })?;
        cfg.base_dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        cfg.validate(path)?;
        Ok(cfg)
    }

    fn validate(&self, path: &Path) -> Result<(), ConfigError> {
        let bad = |field: &str, message: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            field: field.to_string(),
            message,
        };
        for name in self.policies.keys() {
            check_name(name).map_err(|m| bad(&format!("policies.{name}"), m))?;
        }
        for name in self.variants.keys() {
            check_name(name).map_err(|m| bad(&format!("variants.{name}"), m))?;
            if name == "paper" {
                return Err(bad(
                    "variants.paper",
                    "`paper` is the main study's name; choose another variant name".into(),
                ));
            }
        }
        let sim = &self.simulate;
        if sim.policies.is_empty() {
            return Err(bad("simulate.policies", "list at least one policy".into()));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, p) in sim.policies.iter().enumerate() {
            if !seen.insert(p) {
                return Err(bad(
                    &format!("simulate.policies[{i}]"),
                    format!("policy `{p}` is listed twice; each name may appear once"),
                ));
            }
            if !self.policies.contains_key(p) {
                return Err(bad(
                    &format!("simulate.policies[{i}]"),
                    format!(
                        "no [policies.{p}] section; defined policies: {}",
                        self.policies.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
        }
        for (name, p) in &self.policies {
            if p.kind == PolicyKind::Greedy && p.threshold.is_some() {
                return Err(bad(
                    &format!("policies.{name}.threshold"),
                    "a greedy policy has no threshold; remove the field (it applies to hoarder and counter)".into(),
                ));
            }
            if let Some(t) = p.threshold {
                if t > 22 {
                    return Err(bad(
                        &format!("policies.{name}.threshold"),
                        format!("{t} is more than any led card is worth; use 0 to 11 points"),
                    ));
                }
            }
        }
        check_games(sim.games, sim.policies.len()).map_err(|m| bad("simulate.games", m))?;
        check_seed(sim.deal_source, sim.seed).map_err(|m| bad("simulate.seed", m))?;
        for (name, v) in &self.variants {
            let ds = v.deal_source.unwrap_or(sim.deal_source);
            check_seed(ds, v.seed.unwrap_or(sim.seed))
                .map_err(|m| bad(&format!("variants.{name}.seed"), m))?;
            check_games(v.games.unwrap_or(sim.games), sim.policies.len())
                .map_err(|m| bad(&format!("variants.{name}.games"), m))?;
        }
        for (field, v) in [
            ("test.confidence", self.test.confidence),
            ("test.family_alpha", self.test.family_alpha),
            ("regress.confidence", self.regress.confidence),
        ] {
            if !(v > 0.0 && v < 1.0) {
                return Err(bad(field, format!("{v} is not strictly between 0 and 1")));
            }
        }
        if !(self.test.power_delta > 0.0 && self.test.power_delta < 0.5) {
            return Err(bad(
                "test.power_delta",
                format!("{} is not strictly between 0 and 0.5", self.test.power_delta),
            ));
        }
        if self.test.power_n == 0 {
            return Err(bad("test.power_n", "must be at least 1".into()));
        }
        for (i, p) in self.test.baseline.iter().enumerate() {
            if !sim.policies.contains(p) {
                return Err(bad(
                    &format!("test.baseline[{i}]"),
                    format!("`{p}` is not in simulate.policies ({})", sim.policies.join(", ")),
                ));
            }
        }
        if !sim.policies.contains(&self.regress.reference_policy) {
            return Err(bad(
                "regress.reference_policy",
                format!(
                    "`{}` is not in simulate.policies ({})",
                    self.regress.reference_policy,
                    sim.policies.join(", ")
                ),
            ));
        }
        if self.render.formats.is_empty() {
            return Err(bad("render.formats", "list at least one of \"html\", \"md\"".into()));
        }
        Ok(())
    }

    /// The fully specified policy `name` (must be defined), with an optional tie-break override.
    pub fn policy_spec(&self, name: &str, tie_override: Option<TieBreak>) -> PolicySpec {
        let p = &self.policies[name];
        PolicySpec {
            name: name.to_string(),
            kind: p.kind,
            threshold: match p.kind {
                PolicyKind::Greedy => 0,
                _ => p.threshold.unwrap_or(10),
            },
            tie_break: tie_override.or(p.tie_break).unwrap_or(TieBreak::AsReleased),
        }
    }

    /// The main study followed by the variants, in name order.
    pub fn studies(&self) -> Vec<Study> {
        let policies = |tie: Option<TieBreak>| -> Vec<PolicySpec> {
            self.simulate
                .policies
                .iter()
                .map(|n| self.policy_spec(n, tie))
                .collect()
        };
        let mut out = vec![Study {
            name: "paper".into(),
            label: "Exact replay of the published tournament".into(),
            deal_source: self.simulate.deal_source,
            seed: self.simulate.seed,
            games: self.simulate.games,
            policies: policies(None),
        }];
        for (name, v) in &self.variants {
            out.push(Study {
                name: name.clone(),
                label: v.label.clone(),
                deal_source: v.deal_source.unwrap_or(self.simulate.deal_source),
                seed: v.seed.unwrap_or(self.simulate.seed),
                games: v.games.unwrap_or(self.simulate.games),
                policies: policies(v.tie_break),
            });
        }
        out
    }

    /// Path of the published-figures file.
    pub fn published_path(&self) -> PathBuf {
        self.base_dir.join(&self.study.published)
    }
}

fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if ok {
        Ok(())
    } else {
        Err(format!(
            "name `{name}` is not allowed; use 1-40 characters a-z, 0-9, '-' or '_', starting with a letter (names become file names)"
        ))
    }
}

fn check_games(games: u64, k: usize) -> Result<(), String> {
    let cells = (k * k) as u64;
    if games < cells {
        return Err(format!(
            "{games} games is fewer than one per ordered matchup ({k} policies need at least {cells})"
        ));
    }
    if games > MAX_GAMES {
        return Err(format!("{games} games is more than the limit of {MAX_GAMES}"));
    }
    Ok(())
}

fn check_seed(ds: DealSourceKind, seed: i64) -> Result<(), String> {
    match ds {
        DealSourceKind::DotnetReplay if seed < i32::MIN as i64 || seed > i32::MAX as i64 => Err(
            format!("{seed} is not a .NET int; dotnet-replay seeds lie in -2147483648..=2147483647"),
        ),
        DealSourceKind::Chacha if seed < 0 => {
            Err(format!("{seed} is negative; chacha seeds lie in 0..=9223372036854775807"))
        }
        _ => Ok(()),
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    (line, column)
}
