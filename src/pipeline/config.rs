//! The study's configuration: `pipeline.toml` parsed once into a typed, validated [`Config`].
//!
//! Invariant: a `Config` that exists has passed every check in [`Config::validate`]; code that
//! receives one never re-checks names, counts or ranges.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::report::ReportFormat;
use serde::{Deserialize, Serialize};

use crate::policy::{PolicyKind, PolicySpec, TieBreak};
use crate::tournament::DealSourceKind;

/// Largest number of games one study may request.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// Largest allowed overtrump threshold, in points (12 and above mean "never overtrump").
pub const MAX_THRESHOLD: u8 = 22;

/// Errors reading or validating a configuration file. Every variant names the file; the
/// others also name the line and column (1-based) and the dotted field, and say what is valid.
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
    #[error("{path}:{line}:{column}: {}{message}", field_label(.field))]
    Parse {
        /// the file
        path: PathBuf,
        /// 1-based line
        line: usize,
        /// 1-based column
        column: usize,
        /// dotted path of the field, e.g. `simulate.games` (empty when the syntax is broken
        /// before any key)
        field: String,
        /// what is wrong and what would be valid
        message: String,
    },
    /// A value that parses but is not allowed.
    #[error("{path}:{line}:{column}: {}{message}", field_label(.field))]
    Invalid {
        /// the file
        path: PathBuf,
        /// 1-based line of the field (or of its table when the field is absent)
        line: usize,
        /// 1-based column
        column: usize,
        /// dotted path of the field, e.g. `policies.hoarder.threshold`
        field: String,
        /// what is wrong and what would be valid
        message: String,
    },
}

impl ConfigError {
    /// The dotted field the error is about (empty when unknown, e.g. a read error).
    pub fn field(&self) -> &str {
        match self {
            ConfigError::Read { .. } => "",
            ConfigError::Parse { field, .. } | ConfigError::Invalid { field, .. } => field,
        }
    }
}

fn field_label(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!("field `{field}`: ")
    }
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
    /// Games requested in all; each ordered matchup plays `floor(games / k^2)` (the paper's
    /// design). Give this or `games_per_matchup`, not both.
    #[serde(default)]
    pub games: Option<u64>,
    /// Games each ordered matchup plays, whatever the number of policies: adding a policy then
    /// leaves every existing matchup's shard unchanged. Give this or `games`, not both.
    #[serde(default)]
    pub games_per_matchup: Option<u64>,
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
    /// Overrides `simulate.games` (and any `simulate.games_per_matchup`).
    #[serde(default)]
    pub games: Option<u64>,
    /// Overrides `simulate.games_per_matchup` (and any `simulate.games`).
    #[serde(default)]
    pub games_per_matchup: Option<u64>,
    /// Overrides every policy's tie-break.
    #[serde(default)]
    pub tie_break: Option<TieBreak>,
    /// The variant's rules (`rules = { draw_order = "loser-first" }`; see `game::RulesSpec`);
    /// the standard two-player game when absent.
    #[serde(default)]
    pub rules: Option<crate::game::RulesSpec>,
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
    /// `[executor]`: where jobs run; never part of a cache key or of the provenance text.
    #[serde(default)]
    pub executor: super::executor_config::ExecutorSection,
    /// The directory holding the config file (not part of the file).
    #[serde(skip)]
    pub base_dir: PathBuf,
    /// The config file's name, as given (not part of the file; shown in provenance).
    #[serde(skip)]
    pub source_name: String,
    /// The file's text as read (not part of the file; shown in provenance).
    #[serde(skip)]
    pub source_text: String,
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
    /// How many games: in all, or per matchup.
    pub games: GameCount,
    /// The policies, in matchup order, fully specified.
    pub policies: Vec<PolicySpec>,
    /// The rules its games are played under (the standard game for the main study).
    pub rules: crate::game::RulesSpec,
}

/// A study's game count, as the configuration gives it.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum GameCount {
    /// Games requested in all (each matchup plays `floor(n / k^2)`).
    Total(u64),
    /// Games per ordered matchup.
    PerMatchup(u64),
}

impl GameCount {
    fn from_fields(total: Option<u64>, per: Option<u64>) -> Option<GameCount> {
        match (total, per) {
            (Some(t), None) => Some(GameCount::Total(t)),
            (None, Some(p)) => Some(GameCount::PerMatchup(p)),
            _ => None,
        }
    }
}

impl Study {
    /// Games each ordered matchup plays.
    pub fn games_per_matchup(&self) -> u64 {
        let k = self.policies.len() as u64;
        match self.games {
            GameCount::Total(n) => n / (k * k),
            GameCount::PerMatchup(p) => p,
        }
    }

    /// Games requested in all (for `PerMatchup`, the total played).
    pub fn games_requested(&self) -> u64 {
        let k = self.policies.len() as u64;
        match self.games {
            GameCount::Total(n) => n,
            GameCount::PerMatchup(p) => p * k * k,
        }
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
        let doc = toml::de::DeTable::parse(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            let (line, column) = line_col(text, offset);
            // Best effort: the key whose value is broken, from a recovering parse.
            let (partial, _) = toml::de::DeTable::parse_recoverable(text);
            let field = Locator {
                text,
                doc: partial.get_ref(),
            }
            .field_at(offset)
            .unwrap_or_default();
            ConfigError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                field,
                message: format!(
                    "this is not valid TOML: {}; see https://toml.io for the syntax (strings in double quotes, one `key = value` per line, sections as [name])",
                    e.message()
                ),
            }
        })?;
        let locator = Locator {
            text,
            doc: doc.get_ref(),
        };
        let mut cfg: Config = toml::from_str(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            let (field, message) = explain_serde_error(e.message(), locator.field_at(offset));
            let (line, column) = line_col(text, offset);
            ConfigError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                field,
                message,
            }
        })?;
        cfg.base_dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        cfg.source_name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "pipeline.toml".into());
        cfg.source_text = super::executor_config::without_executor_section(text).ok_or_else(|| {
            ConfigError::Invalid {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                field: "executor".into(),
                message: "write the executor settings as one `[executor]` table (a header line followed by its keys), not inline, so they can be kept out of the report".into(),
            }
        })?;
        cfg.validate().map_err(|(field, message)| {
            let (line, column) = locator.position_of(&field);
            ConfigError::Invalid {
                path: path.to_path_buf(),
                line,
                column,
                field,
                message,
            }
        })?;
        Ok(cfg)
    }

    /// Every semantic check; the error is (dotted field, what is wrong and what is valid).
    fn validate(&self) -> Result<(), (String, String)> {
        let bad = |field: &str, message: String| (field.to_string(), message);
        let defined = || self.policies.keys().cloned().collect::<Vec<_>>().join(", ");
        self.executor.validate()?;
        if self.policies.is_empty() {
            return Err(bad(
                "policies",
                "no policy is defined; add at least one [policies.NAME] section with `kind = \"greedy\"`, \"hoarder\" or \"counter\"".into(),
            ));
        }
        for name in self.policies.keys() {
            check_name(name).map_err(|m| bad(&format!("policies.{name}"), m))?;
        }
        for name in self.variants.keys() {
            check_name(name).map_err(|m| bad(&format!("variants.{name}"), m))?;
            if name == "paper" {
                return Err(bad(
                    "variants.paper",
                    "`paper` is the main study's name (the [simulate] section); rename the variant, e.g. [variants.replication]".into(),
                ));
            }
        }
        let sim = &self.simulate;
        if sim.policies.is_empty() {
            return Err(bad(
                "simulate.policies",
                format!(
                    "the list is empty; list at least one defined policy (defined: {})",
                    defined()
                ),
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, p) in sim.policies.iter().enumerate() {
            if !seen.insert(p) {
                return Err(bad(
                    &format!("simulate.policies[{i}]"),
                    format!(
                        "policy `{p}` is listed twice; each name may appear once in the matchup order"
                    ),
                ));
            }
            if !self.policies.contains_key(p) {
                return Err(bad(
                    &format!("simulate.policies[{i}]"),
                    format!(
                        "`{p}` has no [policies.{p}] section; use one of the defined policies ({}) or add that section",
                        defined()
                    ),
                ));
            }
        }
        for (name, p) in &self.policies {
            if p.kind == PolicyKind::Greedy && p.threshold.is_some() {
                return Err(bad(
                    &format!("policies.{name}.threshold"),
                    "a greedy policy has no threshold; remove the field (it applies to kind = \"hoarder\" and \"counter\")".into(),
                ));
            }
            if let Some(t) = p.threshold
                && t > MAX_THRESHOLD
            {
                return Err(bad(
                    &format!("policies.{name}.threshold"),
                    format!(
                        "{t} points is out of range; use 0 to {MAX_THRESHOLD} (a led card is worth at most 11 points, so 12 or more means never overtrump)"
                    ),
                ));
            }
        }
        let k = sim.policies.len();
        let main_games = match GameCount::from_fields(sim.games, sim.games_per_matchup) {
            Some(g) => g,
            None => {
                return Err(bad(
                    "simulate.games",
                    if sim.games.is_some() {
                        "give either games (in all) or games_per_matchup, not both".into()
                    } else {
                        "missing: give games (in all, e.g. 1_000_000) or games_per_matchup (e.g. 111_111)".into()
                    },
                ));
            }
        };
        check_count(main_games, k, "simulate").map_err(|(f, m)| bad(&f, m))?;
        check_seed(sim.deal_source, sim.seed).map_err(|m| bad("simulate.seed", m))?;
        for (name, v) in &self.variants {
            if v.deal_source.is_none()
                && v.seed.is_none()
                && v.games.is_none()
                && v.games_per_matchup.is_none()
                && v.tie_break.is_none()
                && v.rules.is_none()
            {
                return Err(bad(
                    &format!("variants.{name}"),
                    "the variant overrides nothing, so it would repeat the main study; set at least one of deal_source, seed, games, tie_break".into(),
                ));
            }
            let ds = v.deal_source.unwrap_or(sim.deal_source);
            let seed_field = if v.seed.is_some() {
                format!("variants.{name}.seed")
            } else {
                format!("variants.{name}.deal_source")
            };
            check_seed(ds, v.seed.unwrap_or(sim.seed)).map_err(|m| bad(&seed_field, m))?;
            let g = match GameCount::from_fields(v.games, v.games_per_matchup) {
                Some(g) => g,
                None if v.games.is_none() => main_games,
                None => {
                    return Err(bad(
                        &format!("variants.{name}.games"),
                        "give either games (in all) or games_per_matchup, not both".into(),
                    ));
                }
            };
            check_count(g, k, &format!("variants.{name}")).map_err(|(f, m)| bad(&f, m))?;
            if let Some(r) = v.rules {
                let field = format!("variants.{name}.rules");
                let policies: Vec<PolicySpec> = self
                    .simulate
                    .policies
                    .iter()
                    .filter(|n| self.policies.contains_key(*n))
                    .map(|n| self.policy_spec(n, v.tie_break))
                    .collect();
                crate::pipeline::study_rules::check(r, &policies).map_err(|m| bad(&field, m))?;
            }
        }
        for (field, v) in [
            ("test.confidence", self.test.confidence),
            ("test.family_alpha", self.test.family_alpha),
            ("regress.confidence", self.regress.confidence),
        ] {
            if !(v > 0.0 && v < 1.0) {
                return Err(bad(
                    field,
                    format!(
                        "{v} is not strictly between 0 and 1; use a probability such as 0.95 (confidence) or 0.05 (alpha)"
                    ),
                ));
            }
        }
        if !(self.test.power_delta > 0.0 && self.test.power_delta < 0.5) {
            return Err(bad(
                "test.power_delta",
                format!(
                    "{} is not strictly between 0 and 0.5; use a win-rate difference such as 0.01",
                    self.test.power_delta
                ),
            ));
        }
        if self.test.power_n == 0 {
            return Err(bad(
                "test.power_n",
                "0 games cannot detect anything; use at least 1 (the prose uses 110000)".into(),
            ));
        }
        for (i, p) in self.test.baseline.iter().enumerate() {
            if !sim.policies.contains(p) {
                return Err(bad(
                    &format!("test.baseline[{i}]"),
                    format!(
                        "`{p}` is not one of the simulated policies; use names from simulate.policies ({})",
                        sim.policies.join(", ")
                    ),
                ));
            }
        }
        if !sim.policies.contains(&self.regress.reference_policy) {
            return Err(bad(
                "regress.reference_policy",
                format!(
                    "`{}` is not one of the simulated policies; use a name from simulate.policies ({})",
                    self.regress.reference_policy,
                    sim.policies.join(", ")
                ),
            ));
        }
        if self.render.formats.is_empty() {
            return Err(bad(
                "render.formats",
                "the list is empty; list at least one of \"html\", \"md\"".into(),
            ));
        }
        let mut seen_formats = std::collections::BTreeSet::new();
        for (i, f) in self.render.formats.iter().enumerate() {
            if !seen_formats.insert(*f) {
                return Err(bad(
                    &format!("render.formats[{i}]"),
                    "this format is listed twice; list each of \"html\", \"md\" at most once"
                        .into(),
                ));
            }
        }
        if self.study.published.trim().is_empty() {
            return Err(bad(
                "study.published",
                "the path is empty; give the paper's figures file relative to this config, e.g. \"templates/published.toml\"".into(),
            ));
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
            games: self.main_games(),
            policies: policies(None),
            rules: Default::default(),
        }];
        for (name, v) in &self.variants {
            out.push(Study {
                name: name.clone(),
                label: v.label.clone(),
                deal_source: v.deal_source.unwrap_or(self.simulate.deal_source),
                seed: v.seed.unwrap_or(self.simulate.seed),
                games: GameCount::from_fields(v.games, v.games_per_matchup)
                    .unwrap_or_else(|| self.main_games()),
                policies: policies(v.tie_break),
                rules: v.rules.unwrap_or_default(),
            });
        }
        out
    }

    /// The main study's game count (validated: exactly one of the two fields is set).
    fn main_games(&self) -> GameCount {
        GameCount::from_fields(self.simulate.games, self.simulate.games_per_matchup)
            .unwrap_or(GameCount::Total(0))
    }

    /// Path of the published-figures file.
    pub fn published_path(&self) -> PathBuf {
        self.base_dir.join(&self.study.published)
    }
}

fn check_name(name: &str) -> Result<(), String> {
    let rule = "use 1-40 characters a-z, 0-9, '-' or '_', starting with a letter (names become file and job names)";
    if name.contains(['/', '\\']) || name.contains("..") {
        return Err(format!("name `{name}` contains a path separator; {rule}"));
    }
    if name.contains("-vs-") {
        return Err(format!(
            "name `{name}` contains `-vs-`, which separates the two policies in matchup names; {rule}"
        ));
    }
    let ok = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if ok {
        Ok(())
    } else {
        Err(format!("name `{name}` is not allowed; {rule}"))
    }
}

fn check_count(g: GameCount, k: usize, section: &str) -> Result<(), (String, String)> {
    match g {
        GameCount::Total(n) => check_games(n, k).map_err(|m| (format!("{section}.games"), m)),
        GameCount::PerMatchup(p) => {
            let cells = (k * k) as u64;
            if p == 0 {
                Err((
                    format!("{section}.games_per_matchup"),
                    "0 games per matchup; use at least 1".into(),
                ))
            } else if p.saturating_mul(cells) > MAX_GAMES {
                Err((
                    format!("{section}.games_per_matchup"),
                    format!(
                        "{p} games per matchup over {cells} matchups is more than the limit of {MAX_GAMES} games"
                    ),
                ))
            } else {
                Ok(())
            }
        }
    }
}

fn check_games(games: u64, k: usize) -> Result<(), String> {
    let cells = (k * k) as u64;
    if games < cells {
        return Err(format!(
            "{games} games is fewer than one per ordered matchup; {k} policies make {cells} ordered matchups, so use at least {cells} (and at most {MAX_GAMES})"
        ));
    }
    if games > MAX_GAMES {
        return Err(format!(
            "{games} games is more than the limit of {MAX_GAMES}; use {cells} to {MAX_GAMES}"
        ));
    }
    Ok(())
}

fn check_seed(ds: DealSourceKind, seed: i64) -> Result<(), String> {
    match ds {
        DealSourceKind::DotnetReplay if seed < i32::MIN as i64 || seed > i32::MAX as i64 => {
            Err(format!(
                "{seed} is not a .NET int; with deal_source = \"dotnet-replay\" the seed must lie in -2147483648..=2147483647 (or use deal_source = \"chacha\")"
            ))
        }
        DealSourceKind::Chacha if seed < 0 => Err(format!(
            "{seed} is negative; with deal_source = \"chacha\" the seed must lie in 0..=9223372036854775807"
        )),
        _ => Ok(()),
    }
}

/// What each field accepts, for error messages (`*` matches any one table name).
const FIELD_HINTS: &[(&str, &str)] = &[
    (
        "study",
        "a [study] section with title = \"...\" and published = \"templates/published.toml\"",
    ),
    ("study.title", "a string"),
    (
        "study.published",
        "a path relative to this file, as a string",
    ),
    (
        "simulate",
        "a [simulate] section with deal_source, seed, games (or games_per_matchup) and policies",
    ),
    ("simulate.deal_source", "\"dotnet-replay\" or \"chacha\""),
    (
        "simulate.seed",
        "an integer (a .NET int for dotnet-replay, >= 0 for chacha)",
    ),
    (
        "simulate.games",
        "a whole number from k*k (k = number of policies) up to 1000000000",
    ),
    (
        "simulate.games_per_matchup",
        "a whole number >= 1 (games per ordered matchup)",
    ),
    (
        "simulate.policies",
        "a list of policy names defined as [policies.NAME], e.g. [\"greedy\", \"hoarder\"]",
    ),
    ("policies", "one [policies.NAME] section per policy"),
    (
        "policies.*",
        "a table with kind = \"greedy\" | \"hoarder\" | \"counter\", optional threshold and tie_break",
    ),
    ("policies.*.kind", "\"greedy\", \"hoarder\" or \"counter\""),
    (
        "policies.*.threshold",
        "a whole number of points from 0 to 22 (hoarder and counter only)",
    ),
    ("policies.*.tie_break", "\"as-released\" or \"as-written\""),
    ("variants", "one [variants.NAME] section per further study"),
    (
        "variants.*",
        "a table with label and any of deal_source, seed, games, tie_break",
    ),
    ("variants.*.label", "a string"),
    ("variants.*.deal_source", "\"dotnet-replay\" or \"chacha\""),
    (
        "variants.*.seed",
        "an integer (a .NET int for dotnet-replay, >= 0 for chacha)",
    ),
    (
        "variants.*.games",
        "a whole number from k*k up to 1000000000",
    ),
    (
        "variants.*.games_per_matchup",
        "a whole number >= 1 (games per ordered matchup)",
    ),
    ("variants.*.tie_break", "\"as-released\" or \"as-written\""),
    (
        "variants.*.rules",
        "an inline table of rules fields: players, deck, hand_size, trump (\"face-up\" or \"none\"), draw_order (\"winner-first\" or \"loser-first\"), redraw_ace_three, scoperta, must_follow_suit, target, first_leader",
    ),
    (
        "test",
        "a [test] section with confidence, family_alpha, baseline, power_delta and power_n",
    ),
    (
        "test.confidence",
        "a number strictly between 0 and 1, e.g. 0.95",
    ),
    (
        "test.family_alpha",
        "a number strictly between 0 and 1, e.g. 0.05",
    ),
    (
        "test.baseline",
        "a list of exactly two simulated policy names, e.g. [\"greedy\", \"greedy\"]",
    ),
    (
        "test.power_delta",
        "a number strictly between 0 and 0.5, e.g. 0.01",
    ),
    ("test.power_n", "a whole number >= 1, e.g. 110000"),
    (
        "regress",
        "a [regress] section with reference_policy and confidence",
    ),
    (
        "regress.reference_policy",
        "the name of a simulated policy, e.g. \"greedy\"",
    ),
    (
        "regress.confidence",
        "a number strictly between 0 and 1, e.g. 0.95",
    ),
    ("plot", "a [plot] section with min_games_per_bin"),
    ("plot.min_games_per_bin", "a whole number >= 0, e.g. 50"),
    ("render", "a [render] section with formats"),
    (
        "render.formats",
        "a non-empty list drawn from \"html\" and \"md\"",
    ),
];

/// The hint for a dotted field, matching `*` against any one table name and ignoring `[i]`.
fn field_hint(field: &str) -> Option<&'static str> {
    let base = match field.find('[') {
        Some(i) => &field[..i],
        None => field,
    };
    let parts: Vec<&str> = base.split('.').collect();
    FIELD_HINTS.iter().find_map(|(pat, hint)| {
        let pp: Vec<&str> = pat.split('.').collect();
        (pp.len() == parts.len() && pp.iter().zip(&parts).all(|(a, b)| *a == "*" || a == b))
            .then_some(*hint)
    })
}

/// Turn serde's terse message into one that names the field and says what is valid.
/// `at` is the field at the error's position; returns (field, message).
fn explain_serde_error(message: &str, at: Option<String>) -> (String, String) {
    let at = at.unwrap_or_default();
    let join = |table: &str, key: &str| {
        if table.is_empty() {
            key.to_string()
        } else {
            format!("{table}.{key}")
        }
    };
    let backticked = |m: &str, prefix: &str| -> Option<String> {
        let rest = m.strip_prefix(prefix)?;
        let end = rest.find('`')?;
        Some(rest[..end].to_string())
    };
    if let Some(key) = backticked(message, "missing field `") {
        let field = join(&at, &key);
        let what = if at.is_empty() {
            format!("the [{key}] section is missing")
        } else {
            format!("the required field `{key}` is missing")
        };
        let msg = match field_hint(&field) {
            Some(h) => format!("{what}; expected {h}"),
            None => what,
        };
        return (field, msg);
    }
    if let Some(key) = backticked(message, "unknown field `") {
        // `at` already ends with the unknown key (the span is the key itself).
        let field = if at.ends_with(&key) {
            at.clone()
        } else {
            join(&at, &key)
        };
        let valid = message
            .split_once(", expected ")
            .map(|(_, e)| e.to_string())
            .unwrap_or_else(|| "no other keys".into());
        return (
            field,
            format!("unknown key `{key}` (misspelt or misplaced?); valid keys here: {valid}"),
        );
    }
    let plain = message
        .replace("expected u64", "expected a whole number >= 0")
        .replace("expected u8", "expected a whole number from 0 to 255")
        .replace("expected i64", "expected an integer")
        .replace("expected f64", "expected a number")
        .replace(" as i128", "");
    let msg = match field_hint(&at) {
        Some(h) => format!("{plain}; valid: {h}"),
        None => plain,
    };
    (at, msg)
}

/// Finds the dotted field at a byte offset, and the position of a dotted field, in the parsed
/// document (keys and values keep their spans).
struct Locator<'a> {
    text: &'a str,
    doc: &'a toml::de::DeTable<'a>,
}

impl Locator<'_> {
    /// The most specific field whose key or value span contains `offset`.
    fn field_at(&self, offset: usize) -> Option<String> {
        fn walk(table: &toml::de::DeTable<'_>, offset: usize, prefix: &str) -> Option<String> {
            for (k, v) in table.iter() {
                let name = if prefix.is_empty() {
                    k.get_ref().to_string()
                } else {
                    format!("{prefix}.{}", k.get_ref())
                };
                if k.span().contains(&offset) {
                    return Some(name);
                }
                match v.get_ref() {
                    toml::de::DeValue::Table(t) => {
                        if v.span().contains(&offset) || v.span().start == offset {
                            return Some(name);
                        }
                        if let Some(f) = walk(t, offset, &name) {
                            return Some(f);
                        }
                    }
                    toml::de::DeValue::Array(a) => {
                        for (i, e) in a.iter().enumerate() {
                            if e.span().contains(&offset) {
                                if let toml::de::DeValue::Table(t) = e.get_ref()
                                    && let Some(f) = walk(t, offset, &format!("{name}[{i}]"))
                                {
                                    return Some(f);
                                }
                                return Some(name);
                            }
                        }
                        if v.span().contains(&offset) {
                            return Some(name);
                        }
                    }
                    _ => {
                        if v.span().contains(&offset) {
                            return Some(name);
                        }
                    }
                }
            }
            None
        }
        walk(self.doc, offset, "")
    }

    /// 1-based (line, column) of `field` (dotted, with optional `[i]` indices), or of its
    /// nearest present ancestor; (1, 1) if none is present.
    fn position_of(&self, field: &str) -> (usize, usize) {
        let mut best: Option<usize> = None;
        let mut table = Some(self.doc);
        for part in field.split('.') {
            let (key, index) = match part.split_once('[') {
                Some((k, rest)) => (k, rest.trim_end_matches(']').parse::<usize>().ok()),
                None => (part, None),
            };
            let Some(t) = table else { break };
            let Some((k, v)) = t.iter().find(|(k, _)| k.get_ref().as_ref() == key) else {
                break;
            };
            best = Some(k.span().start);
            table = None;
            match (v.get_ref(), index) {
                (toml::de::DeValue::Array(a), Some(i)) => {
                    if let Some(e) = a.get(i) {
                        best = Some(e.span().start);
                    }
                }
                (toml::de::DeValue::Table(inner), _) => table = Some(inner),
                _ => {}
            }
        }
        best.map(|o| line_col(self.text, o)).unwrap_or((1, 1))
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, column)
}
