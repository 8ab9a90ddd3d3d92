//! The study's configuration: `pipeline.toml` parsed once into a typed, validated [`Config`].
//!
//! Invariant: a `Config` that exists has passed every check in [`Config::validate`]; code that
//! receives one never re-checks names, counts or ranges.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::report::ReportFormat;
use serde::{Deserialize, Serialize};

pub use super::study::{GameCount, Study};
use crate::policy::{PolicyKind, PolicySpec, TieBreak, threshold_problem};
pub use crate::policy::{PolicyResolver, PolicySection};
use crate::tournament::{DealSourceKind, TournamentSpec};

pub use crate::tournament::MAX_GAMES;
use crate::tournament::{GamesProblem, per_matchup_problem, total_games_problem};

pub use crate::policy::MAX_THRESHOLD;

pub use super::config_error::{ConfigError, MAX_CONFIG_BYTES};
use super::field_hints::explain_serde_error;
use super::locator::Locator;
use super::study_names::check_name;
use crate::pipeline::line_col::line_col;

/// `[study]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StudySection {
    /// Title shown on the report.
    pub title: String,
    /// The main study's name (job ids, `outputs/tables/<name>/`, the report). Defaults to
    /// [`DEFAULT_MAIN_NAME`].
    #[serde(default)]
    pub name: Option<String>,
    /// The main study's label in the report. Defaults to [`DEFAULT_MAIN_LABEL`].
    #[serde(default)]
    pub label: Option<String>,
    /// Path (relative to the config file) of the paper's published figures. Without it, no
    /// study is scored against the paper.
    #[serde(default)]
    pub published: Option<String>,
    /// Directory of the report templates, relative to the config file (default `templates`):
    /// a study file kept elsewhere (e.g. `benches/`) points it at the repository's.
    #[serde(default)]
    pub templates: Option<String>,
    /// Score the main study against the paper even when its design is not the paper's (off by
    /// default: a study of its own design is not scored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare_to_paper: Option<bool>,
}

/// The main study's name when `[study] name` is not given.
pub const DEFAULT_MAIN_NAME: &str = "main";
/// The main study's label when `[study] label` is not given.
pub const DEFAULT_MAIN_LABEL: &str = "Main study";

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
    /// Whether every study's shards also write the 20-row-per-game trick table
    /// (`tricks.parquet`). Off by default: the analysis needs only counts tallied while
    /// playing, and `briscola export tricks` regenerates the table from the seed.
    #[serde(default)]
    pub trick_log: bool,
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
    /// How a follower reads "win the trick" when its partner is winning (`"verbatim"`, the
    /// default, or `"partner-aware"`; games with partners only).
    #[serde(default)]
    pub reading: Option<crate::policy::FollowReading>,
    /// Overrides `simulate.policies` (names of defined policies, in matchup order).
    #[serde(default)]
    pub policies: Option<Vec<String>>,
    /// `[variants.NAME.policy.POLICY]`: overrides one policy's parameters in this study only.
    #[serde(default)]
    pub policy: BTreeMap<String, PolicyOverride>,
    /// Score this study against the paper even when its design is not the paper's (off by
    /// default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare_to_paper: Option<bool>,
}

impl VariantSection {
    /// True when the variant sets nothing that would make it differ from the main study.
    fn overrides_nothing(&self) -> bool {
        self.deal_source.is_none()
            && self.seed.is_none()
            && self.games.is_none()
            && self.games_per_matchup.is_none()
            && self.tie_break.is_none()
            && self.rules.is_none()
            && self.reading.is_none()
            && self.policies.is_none()
            && self.policy.is_empty()
    }
}

/// `[variants.NAME.policy.POLICY]`: one policy's parameters, changed for one study.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PolicyOverride {
    /// Overrides `policies.POLICY.threshold`.
    #[serde(default)]
    pub threshold: Option<u8>,
    /// Overrides `policies.POLICY.tie_break` (and the variant's `tie_break`).
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
    #[serde(deserialize_with = "super::config_input::exactly_two")]
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
    /// `[sweeps.*]`: template policies expanded over a grid (see [`super::sweep_config`]).
    #[serde(default)]
    pub sweeps: BTreeMap<String, super::sweep_config::SweepSection>,
    /// `[leagues.*]`: round robins on paired deals, rated (see [`super::league_config`]).
    #[serde(default)]
    pub leagues: BTreeMap<String, super::league_config::LeagueSection>,
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
    /// What validation derived: policies, studies, sweeps and leagues, resolved once.
    #[serde(skip)]
    resolved: super::resolved_config::ResolvedConfig,
}

impl Config {
    /// Read, parse and validate `path` (at most [`MAX_CONFIG_BYTES`] are read).
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let bytes = super::config_input::read_capped(path)?;
        Config::parse_bytes(&bytes, path)
    }

    /// [`Config::parse`] for raw bytes: text that is not UTF-8 is an error at its line and
    /// column.
    pub fn parse_bytes(bytes: &[u8], path: &Path) -> Result<Config, ConfigError> {
        Config::parse(super::config_input::utf8(bytes, path)?, path)
    }

    /// Parse and validate `text`, naming `path` in errors. Overlong words in a message (a
    /// 10,000-character name) are shortened, so a message stays a line.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        Config::parse_unclipped(text, path).map_err(super::config_input::clip_error)
    }

    fn parse_unclipped(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let doc = toml::de::DeTable::parse(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            let (line, column) = line_col(text, offset);
            // Best effort: the key whose value is broken, from a recovering parse.
            let (partial, _) = toml::de::DeTable::parse_recoverable(text);
            let field = super::config_input::header_at(text, offset)
                .or_else(|| {
                    Locator {
                        text,
                        doc: partial.get_ref(),
                    }
                    .field_at(offset)
                })
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
            // An error about the file as a whole (a missing top-level section) has the empty
            // span at its start (toml 1.x): it belongs to no table, though the first one may
            // start there too.
            let whole = e.span().is_some_and(|s| s.is_empty() && s.start == 0);
            let at = if whole {
                None
            } else {
                locator.field_at(offset)
            };
            let (field, message) = match at.as_deref().and_then(|f| rules_field_error(text, f)) {
                Some(named) => named,
                None => explain_serde_error(e.message(), at),
            };
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
        // Every defined policy first: the study checks in `validate` resolve them.
        PolicyResolver::new(&cfg.policies, &cfg.base_dir)
            .check_all()
            .map_err(|e| {
                let (line, column) = match (e.offset, e.at_value) {
                    (Some(o), _) => locator.position_inside(&e.field, o),
                    (None, true) => locator.value_position(&e.field),
                    (None, false) => locator.position_of(&e.field),
                };
                ConfigError::Invalid {
                    path: path.to_path_buf(),
                    line,
                    column,
                    field: e.field,
                    message: e.message,
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
        let sweeps = super::sweep_config::sweeps(&cfg.sweep_context(), &cfg.sweeps).map_err(
            |(field, message)| {
                let (line, column) = locator.position_of(&field);
                ConfigError::Invalid {
                    path: path.to_path_buf(),
                    line,
                    column,
                    field,
                    message,
                }
            },
        )?;
        cfg.resolved = cfg.resolve(sweeps).map_err(|(field, message)| {
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

    /// The typed plan of a checked config: every defined policy under each tie-break override,
    /// the studies (distinct designs), the expanded `sweeps` and the leagues. Runs after the
    /// policy check, so a bad policy is its own error before any study resolves it.
    fn resolve(
        &self,
        sweeps: Vec<super::sweep_config::Sweep>,
    ) -> Result<super::resolved_config::ResolvedConfig, (String, String)> {
        let mut policies = BTreeMap::new();
        for name in self.policies.keys() {
            for tie in super::resolved_config::tie_overrides() {
                policies.insert((name.clone(), tie), self.resolve_spec(name, tie)?);
            }
        }
        let studies = self.build_studies()?;
        check_distinct_designs(&studies)?;
        let mut leagues = Vec::new();
        for (name, l) in &self.leagues {
            let mut specs = BTreeMap::new();
            for p in &l.policies {
                specs.insert(p.clone(), self.resolve_spec(p, None)?);
            }
            leagues.push(super::league_config::League::resolve(name, l, |p| {
                specs[p].clone()
            })?);
        }
        Ok(super::resolved_config::ResolvedConfig {
            policies,
            studies,
            sweeps,
            leagues,
        })
    }

    /// What expanding the sweeps needs of this configuration.
    fn sweep_context(&self) -> super::sweep_config::SweepContext<'_> {
        super::sweep_config::SweepContext {
            studies: std::iter::once(self.main_name().to_string())
                .chain(self.variants.keys().cloned())
                .collect(),
            policies: &self.policies,
            base_dir: &self.base_dir,
        }
    }

    /// Every `[sweeps.*]` section, expanded (at load), in name order.
    pub fn sweeps(&self) -> &[super::sweep_config::Sweep] {
        &self.resolved.sweeps
    }

    /// Every semantic check; the error is (dotted field, what is wrong and what is valid).
    fn validate(&self) -> Result<(), (String, String)> {
        self.executor.validate()?;
        self.check_names()?;
        self.check_simulate_policies()?;
        // Before the variants: a baseline or reference the main study lacks is a mistake at
        // that field, not at the first variant's list.
        self.check_baseline_and_reference()?;
        let main_games = self.check_simulate_games()?;
        for (name, v) in &self.variants {
            self.check_variant(name, v, main_games)?;
        }
        self.check_leagues()?;
        self.check_test_settings()?;
        self.check_render_formats()?;
        self.check_published()
    }

    /// The defined policy names, comma-separated, for messages.
    fn defined_policies(&self) -> String {
        self.policies.keys().cloned().collect::<Vec<_>>().join(", ")
    }

    /// At least one policy is defined, and every policy, the study and every variant has an
    /// allowed name (a variant's not the main study's).
    fn check_names(&self) -> Result<(), (String, String)> {
        if self.policies.is_empty() {
            return Err(bad(
                "policies",
                "no policy is defined; add at least one [policies.NAME] section with `kind = \"greedy\"`, \"hoarder\" or \"counter\"".into(),
            ));
        }
        for name in self.policies.keys() {
            check_name(name).map_err(|m| bad(&format!("policies.{name}"), m))?;
        }
        if let Some(n) = &self.study.name {
            check_name(n).map_err(|m| bad("study.name", m))?;
        }
        for name in self.variants.keys() {
            check_name(name).map_err(|m| bad(&format!("variants.{name}"), m))?;
            if *name == self.main_name() {
                return Err(bad(
                    &format!("variants.{name}"),
                    format!(
                        "`{name}` is the main study's name ([study] name, the [simulate] section); rename the variant, e.g. [variants.{}]",
                        super::study_names::renamed(name, "variant")
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `[simulate] policies` is a non-empty list of distinct defined policies.
    fn check_simulate_policies(&self) -> Result<(), (String, String)> {
        self.check_policy_list("simulate.policies", &self.simulate.policies)
    }

    /// The policy list `list` (the field `field`) is non-empty and names distinct defined
    /// policies.
    fn check_policy_list(&self, field: &str, list: &[String]) -> Result<(), (String, String)> {
        if list.is_empty() {
            return Err(bad(
                field,
                format!(
                    "the list is empty; list at least one defined policy (defined: {})",
                    self.defined_policies()
                ),
            ));
        }
        for (i, p) in list.iter().enumerate() {
            let at = format!("{field}[{i}]");
            if list[..i].contains(p) {
                return Err(bad(
                    &at,
                    format!(
                        "policy `{p}` is listed twice; each name may appear once in the matchup order"
                    ),
                ));
            }
            if !self.policies.contains_key(p) {
                return Err(bad(
                    &at,
                    format!(
                        "`{p}` has no [policies.{p}] section; use one of the defined policies ({}) or add that section",
                        self.defined_policies()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The main study's game count (exactly one of games, games_per_matchup, within the
    /// limits) and seed; the count is the variants' default.
    fn check_simulate_games(&self) -> Result<GameCount, (String, String)> {
        let sim = &self.simulate;
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
        check_count(main_games, sim.policies.len(), "simulate")?;
        check_seed(sim.deal_source, sim.seed).map_err(|m| bad("simulate.seed", m))?;
        Ok(main_games)
    }

    /// One `[variants.NAME]`: it overrides something, and its policies, seed, game count
    /// (`main_games` unless it sets its own) and rules are valid.
    fn check_variant(
        &self,
        name: &str,
        v: &VariantSection,
        main_games: GameCount,
    ) -> Result<(), (String, String)> {
        let sim = &self.simulate;
        if v.overrides_nothing() {
            return Err(bad(
                &format!("variants.{name}"),
                "the variant overrides nothing, so it would repeat the main study; set at least one of deal_source, seed, games, tie_break, rules, reading, policies or a [variants.NAME.policy.POLICY] table".into(),
            ));
        }
        self.check_variant_policies(name, v)?;
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
        let kv = v.policies.as_ref().map_or(sim.policies.len(), Vec::len);
        check_count(g, kv, &format!("variants.{name}"))?;
        if v.rules.is_some() || v.reading.is_some() {
            let field = if v.rules.is_some() {
                format!("variants.{name}.rules")
            } else {
                format!("variants.{name}.reading")
            };
            super::study_rules::check(
                v.rules.unwrap_or_default(),
                v.reading.unwrap_or_default(),
                &self.variant_policies(v)?,
            )
            .map_err(|m| bad(&field, m))?;
        }
        Ok(())
    }

    /// `[test]` and `[regress]`: probabilities in (0, 1) and a usable power setting (their
    /// baseline and reference policies are checked before the variants).
    fn check_test_settings(&self) -> Result<(), (String, String)> {
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
        Ok(())
    }

    /// The test baseline and the regression reference are simulated policies.
    fn check_baseline_and_reference(&self) -> Result<(), (String, String)> {
        let sim = &self.simulate;
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
        Ok(())
    }

    /// `[render] formats` is a non-empty list without repeats.
    fn check_render_formats(&self) -> Result<(), (String, String)> {
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
        Ok(())
    }

    /// `[study] published` is not empty, and no study asks to be compared with the paper
    /// when there are no published figures.
    fn check_published(&self) -> Result<(), (String, String)> {
        if self
            .study
            .published
            .as_ref()
            .is_some_and(|p| p.trim().is_empty())
        {
            return Err(bad(
                "study.published",
                "the path is empty; give the paper's figures file relative to this config, e.g. \"templates/published.toml\", or leave the field out".into(),
            ));
        }
        if self.study.published.is_none() {
            let asked = std::iter::once(("study".to_string(), self.study.compare_to_paper))
                .chain(
                    self.variants
                        .iter()
                        .map(|(n, v)| (format!("variants.{n}"), v.compare_to_paper)),
                )
                .find(|(_, c)| *c == Some(true));
            if let Some((section, _)) = asked {
                return Err(bad(
                    &format!("{section}.compare_to_paper"),
                    "there are no published figures to compare with; set [study] published = \"templates/published.toml\" (the paper's figures) or remove compare_to_paper".into(),
                ));
            }
        }
        Ok(())
    }

    /// A variant's own policy list and `[variants.NAME.policy.*]` overrides name defined
    /// policies, keep thresholds in range, and keep the test baseline and regression reference.
    fn check_variant_policies(
        &self,
        name: &str,
        v: &VariantSection,
    ) -> Result<(), (String, String)> {
        let list = v.policies.as_ref().unwrap_or(&self.simulate.policies);
        self.check_policy_list(&format!("variants.{name}.policies"), list)?;
        for (p, o) in &v.policy {
            let field = format!("variants.{name}.policy.{p}");
            if !list.contains(p) {
                return Err(bad(
                    &field,
                    format!(
                        "`{p}` is not one of this study's policies ({})",
                        list.join(", ")
                    ),
                ));
            }
            if let Some(message) = o
                .threshold
                .and_then(|t| threshold_problem(self.policies[p].kind, t))
            {
                return Err(bad(&format!("{field}.threshold"), message));
            }
        }
        for (what, p) in [
            ("test.baseline[0]", &self.test.baseline[0]),
            ("test.baseline[1]", &self.test.baseline[1]),
            ("regress.reference_policy", &self.regress.reference_policy),
        ] {
            if !list.contains(p) {
                return Err(bad(
                    &format!("variants.{name}.policies"),
                    format!(
                        "`{p}` ({what}) is not among this study's policies; every study must include it"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The main study's name.
    pub fn main_name(&self) -> &str {
        self.study.name.as_deref().unwrap_or(DEFAULT_MAIN_NAME)
    }

    /// The fully specified policy `name` as `[policies.NAME]` defines it (resolved at load),
    /// with an optional tie-break override; `None` if the file does not define `name`.
    pub fn policy_spec(&self, name: &str, tie_override: Option<TieBreak>) -> Option<&PolicySpec> {
        self.resolved
            .policies
            .get(&(name.to_string(), tie_override))
    }

    /// The one way a command turns a policy name into a spec: the study file's
    /// `[policies.NAME]` when `cfg` defines it, else a built-in kind or the default search
    /// agent ([`PolicyResolver::builtin`]), as the file's own studies resolve a bare name.
    pub fn named_policy(
        cfg: Option<&Config>,
        name: &str,
        tie: Option<TieBreak>,
    ) -> Option<PolicySpec> {
        match cfg.and_then(|c| c.policy_spec(name, tie)) {
            Some(spec) => Some(spec.clone()),
            None => PolicyResolver::builtin(name, tie),
        }
    }

    /// `name` resolved as the file's policies see it (a defined policy, a built-in kind or the
    /// default search agent): while the config is being checked and resolved, and for names
    /// it does not define.
    fn resolve_spec(
        &self,
        name: &str,
        tie: Option<TieBreak>,
    ) -> Result<PolicySpec, (String, String)> {
        PolicyResolver::new(&self.policies, &self.base_dir)
            .resolve(name, tie)
            .map_err(|e| (e.field, e.message))
    }

    /// The main study followed by the variants, in name order (resolved at load).
    pub fn studies(&self) -> &[Study] {
        &self.resolved.studies
    }

    /// The main study followed by the variants: each study's tournament through the same
    /// checks `briscola simulate` runs.
    fn build_studies(&self) -> Result<Vec<Study>, (String, String)> {
        let policies = |tie: Option<TieBreak>| -> Result<Vec<PolicySpec>, (String, String)> {
            self.simulate
                .policies
                .iter()
                .map(|n| self.resolve_spec(n, tie))
                .collect()
        };
        let main_games = self.main_games();
        let mut out = vec![Study {
            name: self.main_name().to_string(),
            label: self
                .study
                .label
                .clone()
                .unwrap_or_else(|| DEFAULT_MAIN_LABEL.to_string()),
            games: main_games,
            tournament: self
                .tournament(
                    policies(None)?,
                    self.simulate.deal_source,
                    self.simulate.seed,
                    main_games,
                )
                .map_err(|m| ("simulate".to_string(), m))?,
            compare_to_paper: self.study.compare_to_paper.unwrap_or(false),
        }];
        for (name, v) in &self.variants {
            let games = GameCount::from_fields(v.games, v.games_per_matchup).unwrap_or(main_games);
            let tournament = self
                .tournament(
                    self.variant_policies(v)?,
                    v.deal_source.unwrap_or(self.simulate.deal_source),
                    v.seed.unwrap_or(self.simulate.seed),
                    games,
                )
                .map_err(|m| (format!("variants.{name}"), m))?;
            out.push(Study {
                name: name.clone(),
                label: v.label.clone(),
                games,
                tournament: tournament
                    .with_rules(v.rules.unwrap_or_default(), v.reading.unwrap_or_default()),
                compare_to_paper: v.compare_to_paper.unwrap_or(false),
            });
        }
        Ok(out)
    }

    /// A study's tournament, through the same checks `briscola simulate` runs
    /// ([`TournamentSpec::new`]; validation has already refused what they refuse, so an error
    /// here is a check missing from [`Config::validate`], reported as one).
    fn tournament(
        &self,
        policies: Vec<PolicySpec>,
        deal_source: DealSourceKind,
        seed: i64,
        games: GameCount,
    ) -> Result<TournamentSpec, String> {
        let per = games.per_matchup(policies.len());
        Ok(TournamentSpec::new(policies, deal_source, seed, per)
            .map_err(|e| e.to_string())?
            .with_trick_log(self.simulate.trick_log))
    }

    /// A variant's policies: its own list (or the main one), each with the variant's tie-break
    /// and its `[variants.NAME.policy.*]` overrides applied.
    fn variant_policies(&self, v: &VariantSection) -> Result<Vec<PolicySpec>, (String, String)> {
        v.policies
            .as_ref()
            .unwrap_or(&self.simulate.policies)
            .iter()
            .filter(|n| self.policies.contains_key(*n))
            .map(|n| {
                let o = v.policy.get(n);
                let mut spec = self.resolve_spec(n, o.and_then(|o| o.tie_break).or(v.tie_break))?;
                if let Some(t) = o.and_then(|o| o.threshold)
                    && spec.kind != PolicyKind::Greedy
                {
                    spec.threshold = t;
                }
                Ok(spec)
            })
            .collect()
    }

    /// The main study's game count (validated: exactly one of the two fields is set).
    fn main_games(&self) -> GameCount {
        GameCount::from_fields(self.simulate.games, self.simulate.games_per_matchup)
            .unwrap_or(GameCount::Total(0))
    }

    /// The report templates' directory: `[study] templates`, else `templates/`, beside the
    /// config file.
    pub fn templates_dir(&self) -> PathBuf {
        self.base_dir
            .join(self.study.templates.as_deref().unwrap_or("templates"))
    }

    /// Every `[leagues.NAME]` check (see [`super::league_config::check`]).
    fn check_leagues(&self) -> Result<(), (String, String)> {
        let defined: Vec<String> = self.policies.keys().cloned().collect();
        let mut taken: Vec<String> = self.variants.keys().cloned().collect();
        taken.push(self.main_name().to_string());
        taken.extend(self.sweeps.keys().cloned());
        for (name, l) in &self.leagues {
            check_name(name).map_err(|m| (format!("leagues.{name}"), m))?;
            super::league_config::check(name, l, &defined, &taken)?;
            if let Some(rules) = l.rules {
                let specs = l
                    .policies
                    .iter()
                    .map(|p| self.resolve_spec(p, None))
                    .collect::<Result<Vec<_>, _>>()?;
                super::study_rules::check_league(rules, &specs).map_err(|(i, m)| match i {
                    Some(i) => (format!("leagues.{name}.policies[{i}]"), m),
                    None => (format!("leagues.{name}.rules"), m),
                })?;
            }
        }
        Ok(())
    }

    /// Every league, in name order (resolved at load).
    pub fn leagues(&self) -> &[super::league_config::League] {
        &self.resolved.leagues
    }

    /// Path of the published-figures file, if one is configured.
    pub fn published_path(&self) -> Option<PathBuf> {
        self.study.published.as_ref().map(|p| self.base_dir.join(p))
    }
}

/// A validation error: the dotted `field` and what is wrong with it.
/// Where `field` is a study's or league's `rules` table that does not read: the field inside
/// it at fault (`variants.x.rules.target`) and what it takes
/// ([`crate::game::RulesSpec::field_valid`]); serde's error names only the table, and its range
/// is the Rust type's ("0 to 255"), not the rule's.
fn rules_field_error(text: &str, field: &str) -> Option<(String, String)> {
    use crate::game::RulesSpec;
    if !field.ends_with(".rules") {
        return None;
    }
    let doc: toml::Table = toml::from_str(text).ok()?;
    let mut v = doc.get(field.split('.').next()?)?;
    for part in field.split('.').skip(1) {
        v = v.as_table()?.get(part)?;
    }
    let table = v.as_table()?;
    // The first field that fails on its own beside the standard game's values.
    let usual = toml::Table::try_from(RulesSpec::default()).ok()?;
    let (key, serde) = table.iter().find_map(|(k, x)| {
        let mut one = usual.clone();
        one.insert(k.clone(), x.clone());
        toml::Value::Table(one)
            .try_into::<RulesSpec>()
            .err()
            .map(|e| (k.clone(), e.message().trim().to_string()))
    })?;
    let given = table.get(&key).map(ToString::to_string).unwrap_or_default();
    let message = match RulesSpec::field_valid(&key) {
        Some(valid) => format!("{key} = {given} is not a value it takes; {valid}"),
        None => crate::policy::plain_message(&serde),
    };
    Some((format!("{field}.{key}"), message))
}

fn bad(field: &str, message: String) -> (String, String) {
    (field.to_string(), message)
}

/// Two studies with the same deals and policies would simulate the same games twice: an error
/// naming both.
fn check_distinct_designs(studies: &[Study]) -> Result<(), (String, String)> {
    for (i, a) in studies.iter().enumerate() {
        for b in &studies[..i] {
            // The same tournament (policies, deals, seed, games per matchup, rules, reading).
            if a.tournament == b.tournament {
                let field = if i == 0 {
                    "simulate".to_string()
                } else {
                    format!("variants.{}", a.name)
                };
                return Err((
                    field,
                    format!(
                        "studies `{}` and `{}` have the same design (deal_source {}, seed {}, {} games per matchup, the same policies and rules), so they would simulate the same games twice; remove one, or change its seed, deals, games, policies or rules",
                        b.name,
                        a.name,
                        a.deal_source().as_str(),
                        a.seed(),
                        a.games_per_matchup()
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_count(g: GameCount, k: usize, section: &str) -> Result<(), (String, String)> {
    match g {
        GameCount::Total(n) => check_games(n, k).map_err(|m| (format!("{section}.games"), m)),
        GameCount::PerMatchup(p) => match per_matchup_problem(p, k) {
            None => Ok(()),
            Some(GamesProblem::ZeroPerMatchup) => Err((
                format!("{section}.games_per_matchup"),
                "0 games per matchup; use at least 1".into(),
            )),
            Some(
                GamesProblem::AboveLimit { cells } | GamesProblem::FewerThanMatchups { cells },
            ) => Err((
                format!("{section}.games_per_matchup"),
                format!(
                    "{p} games per matchup over {cells} matchups is more than the limit of {MAX_GAMES} games"
                ),
            )),
        },
    }
}

fn check_games(games: u64, k: usize) -> Result<(), String> {
    match total_games_problem(games, k) {
        None => Ok(()),
        Some(GamesProblem::AboveLimit { cells }) => Err(format!(
            "{games} games is more than the limit of {MAX_GAMES}; use {cells} to {MAX_GAMES}"
        )),
        Some(GamesProblem::FewerThanMatchups { .. } | GamesProblem::ZeroPerMatchup) => {
            let cells = k * k;
            Err(format!(
                "{games} games is fewer than one per ordered matchup; {k} policies make {cells} ordered matchups, so use at least {cells} (and at most {MAX_GAMES})"
            ))
        }
    }
}

fn check_seed(ds: DealSourceKind, seed: i64) -> Result<(), String> {
    match crate::tournament::DealSeed::new(ds, seed) {
        Ok(_) => Ok(()),
        Err(e) => Err(format!(
            "{seed} {}; with deal_source = \"{}\" the seed must lie in {}{}",
            e.problem(),
            ds.as_str(),
            ds.seed_range_text(),
            match ds {
                DealSourceKind::DotnetReplay => " (or use deal_source = \"chacha\")",
                DealSourceKind::Chacha => "",
            }
        )),
    }
}
