//! `[leagues.NAME]`: a league study, every listed policy against every other in both seats on
//! paired (seat-swapped) chacha deals, rated by Bradley-Terry. Parsed beside the studies, checked
//! here, resolved into a [`League`]. With `rules = { ... }` (the fields of a study's `rules`,
//! validated by `pipeline::study_rules::check_league`) the games are played under that variant:
//! two players of any game length, or three players, each deal then played in all six seatings
//! of the league's three policies.
//!
//! Invariant: a [`League`] that exists names only defined policies (at least two, each once;
//! exactly three for three players), plays at least two deals per pair within [`MAX_GAMES`] in
//! all, its reference, anchors and agents are among its policies, and every policy has a meaning
//! under its rules.

use serde::{Deserialize, Serialize};

use crate::game::RulesSpec;
use crate::policy::PolicySpec;
use crate::tournament::MAX_GAMES;

/// The policies a league scores every other against when `anchors` is not given (those present).
pub const DEFAULT_ANCHORS: [&str; 3] = ["random", "briscolabot", "search"];
/// The strong agents of the paper's section 6 when `agents` is not given (those present).
pub const DEFAULT_AGENTS: [&str; 2] = ["briscolabot", "search"];
/// The intervals' level when `confidence` is not given.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// `[leagues.NAME]`
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LeagueSection {
    /// Shown in the report.
    pub label: String,
    /// Policy names (defined as `[policies.NAME]`), in league order.
    pub policies: Vec<String>,
    /// Deals per pair of policies; each seating plays each deal once.
    pub games_per_pair: u64,
    /// The chacha seed.
    pub seed: i64,
    /// Play each deal in both seatings (duplicate format; the default) or give each seating
    /// its own deals.
    #[serde(default)]
    pub paired: Option<bool>,
    /// The policy whose rating is fixed at 0 (default: the first listed).
    #[serde(default)]
    pub reference: Option<String>,
    /// The intervals' level (default 0.95).
    #[serde(default)]
    pub confidence: Option<f64>,
    /// The policies every other is scored against (default: random, briscolabot and search,
    /// those listed).
    #[serde(default)]
    pub anchors: Option<Vec<String>>,
    /// The learned and search agents (default: briscolabot and search, those listed).
    #[serde(default)]
    pub agents: Option<Vec<String>>,
    /// The variant the games are played under (default: the standard two-player game).
    #[serde(default)]
    pub rules: Option<RulesSpec>,
    /// Only these pairs play (two players; default: every pair), e.g. each exploit agent
    /// against its own target only. They must connect every policy, so the ratings exist.
    #[serde(default)]
    pub pairs: Option<Vec<Vec<String>>>,
}

/// A league, resolved from its section.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct League {
    /// Its name (job ids, `outputs/<name>/`, `outputs/tables/<name>/`).
    pub name: String,
    /// Its label.
    pub label: String,
    /// The chacha seed.
    pub seed: u64,
    /// Deals per pair.
    pub games_per_pair: u64,
    /// Duplicate-format deals.
    pub paired: bool,
    /// The policies, fully specified, in league order.
    pub policies: Vec<PolicySpec>,
    /// Rating fixed at 0.
    pub reference: String,
    /// Intervals' level.
    pub confidence: f64,
    /// Anchors present.
    pub anchors: Vec<String>,
    /// Agents present.
    pub agents: Vec<String>,
    /// The variant (the standard game when the section gives no `rules`).
    pub rules: RulesSpec,
    /// The pairs that play, as league indices `i < j` (`None`: every pair).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<(usize, usize)>>,
}

impl League {
    /// Resolve `section` named `name`; `spec` gives a defined policy's specification. The
    /// error (a seed chacha cannot take) is the check [`check`] runs first.
    pub fn resolve(
        name: &str,
        section: &LeagueSection,
        spec: impl Fn(&str) -> PolicySpec,
    ) -> Result<League, (String, String)> {
        let seed = crate::tournament::DealSeed::chacha_key(section.seed)
            .map_err(|e| (format!("leagues.{name}.seed"), e.to_string()))?;
        let present = |defaults: &[&str]| -> Vec<String> {
            defaults
                .iter()
                .filter(|d| section.policies.iter().any(|p| p == *d))
                .map(|d| d.to_string())
                .collect()
        };
        Ok(League {
            name: name.to_string(),
            label: section.label.clone(),
            seed,
            games_per_pair: section.games_per_pair,
            paired: section.paired.unwrap_or(true),
            policies: section.policies.iter().map(|p| spec(p)).collect(),
            reference: section
                .reference
                .clone()
                .unwrap_or_else(|| section.policies[0].clone()),
            confidence: section.confidence.unwrap_or(DEFAULT_CONFIDENCE),
            anchors: section
                .anchors
                .clone()
                .unwrap_or_else(|| present(&DEFAULT_ANCHORS)),
            agents: section
                .agents
                .clone()
                .unwrap_or_else(|| present(&DEFAULT_AGENTS)),
            rules: section.rules.unwrap_or_default(),
            pairs: section.pairs.as_ref().map(|list| {
                let index = |n: &str| {
                    section
                        .policies
                        .iter()
                        .position(|p| p == n)
                        .unwrap_or_default()
                };
                let mut out: Vec<(usize, usize)> = list
                    .iter()
                    .map(|p| {
                        let (i, j) = (index(&p[0]), index(&p[1]));
                        (i.min(j), i.max(j))
                    })
                    .collect();
                out.sort_unstable();
                out
            }),
        })
    }

    /// Whether policies `i` and `j` (league indices, either order) play each other.
    pub fn plays(&self, i: usize, j: usize) -> bool {
        i != j
            && self
                .pairs
                .as_ref()
                .is_none_or(|p| p.contains(&(i.min(j), i.max(j))))
    }

    /// Whether the league plays a variant (its seatings are then seat-table shards).
    pub fn has_rules(&self) -> bool {
        !self.rules.is_default()
    }

    /// Players at the table (2, or 3).
    pub fn players(&self) -> usize {
        self.rules.players as usize
    }

    /// The unordered pairs (i < j in league order).
    pub fn pairs(&self) -> Vec<(&PolicySpec, &PolicySpec)> {
        let p = &self.policies;
        (0..p.len())
            .flat_map(|i| (i + 1..p.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| self.plays(i, j))
            .map(|(i, j)| (&p[i], &p[j]))
            .collect()
    }
}

/// Check `section` named `name`; `defined` lists the defined policies and `taken` the study
/// names a league may not reuse. The error is (dotted field, what is wrong and what is valid).
pub fn check(
    name: &str,
    section: &LeagueSection,
    defined: &[String],
    taken: &[String],
) -> Result<(), (String, String)> {
    if taken.iter().any(|t| t == name) {
        return Err((
            format!("leagues.{name}"),
            format!(
                "`{name}` is already a study's name (studies and leagues share job and output names); rename the league, e.g. [leagues.{}]",
                super::study_names::renamed(name, "league")
            ),
        ));
    }
    check_policies(name, section, defined)?;
    check_pairs_and_counts(name, section)?;
    check_roles(name, section)?;
    check_settings(name, section)
}

/// At least two policies, each defined and listed once.
fn check_policies(
    name: &str,
    section: &LeagueSection,
    defined: &[String],
) -> Result<(), (String, String)> {
    let field = |f: &str| format!("leagues.{name}.{f}");
    let k = section.policies.len();
    if k < 2 {
        return Err((
            field("policies"),
            format!(
                "a league needs at least two policies, got {k}; list defined policies ({})",
                defined.join(", ")
            ),
        ));
    }
    for (i, p) in section.policies.iter().enumerate() {
        if !defined.contains(p) {
            return Err((
                field(&format!("policies[{i}]")),
                format!(
                    "`{p}` has no [policies.{p}] section; use one of the defined policies ({}) or add that section",
                    defined.join(", ")
                ),
            ));
        }
        if section.policies[..i].contains(p) {
            return Err((
                field(&format!("policies[{i}]")),
                format!("policy `{p}` is listed twice; each policy plays once in a league"),
            ));
        }
    }
    Ok(())
}

/// The pairs (two-player leagues only), and deals per pair and a seed within the limits.
fn check_pairs_and_counts(name: &str, section: &LeagueSection) -> Result<(), (String, String)> {
    let field = |f: &str| format!("leagues.{name}.{f}");
    let k = section.policies.len();
    if let Some(rules) = section.rules
        && rules.players > 2
        && section.pairs.is_some()
    {
        return Err((
            field("pairs"),
            format!(
                "pairs with players = {}: a table of three plays each deal in all six seatings of its three policies, so there are no pairs to choose; drop `pairs`",
                rules.players
            ),
        ));
    }
    if let Some(pairs) = &section.pairs {
        check_pairs(&field("pairs"), &section.policies, pairs)?;
    }
    let seatings = match &section.pairs {
        Some(p) => 2 * p.len() as u64,
        None => (k * (k - 1)) as u64,
    };
    if section.games_per_pair < 2 || section.games_per_pair > MAX_GAMES / seatings {
        return Err((
            field("games_per_pair"),
            format!(
                "{} deals per pair is out of range; use 2 to {} ({k} policies play {seatings} seatings, at most {MAX_GAMES} games in all)",
                section.games_per_pair,
                MAX_GAMES / seatings
            ),
        ));
    }
    if crate::tournament::DealSeed::chacha_key(section.seed).is_err() {
        return Err((
            field("seed"),
            format!(
                "{} is negative; a league deals with chacha, whose seed is a whole number >= 0",
                section.seed
            ),
        ));
    }
    Ok(())
}

/// The reference, anchors and agents are among the league's policies.
fn check_roles(name: &str, section: &LeagueSection) -> Result<(), (String, String)> {
    let field = |f: &str| format!("leagues.{name}.{f}");
    let member = |f: &str, p: &str| -> Result<(), (String, String)> {
        if section.policies.iter().any(|q| q == p) {
            Ok(())
        } else {
            Err((
                field(f),
                format!(
                    "`{p}` does not play in this league; use one of its policies ({})",
                    section.policies.join(", ")
                ),
            ))
        }
    };
    if let Some(r) = &section.reference {
        member("reference", r)?;
    }
    for (key, list) in [("anchors", &section.anchors), ("agents", &section.agents)] {
        for (i, p) in list.iter().flatten().enumerate() {
            member(&format!("{key}[{i}]"), p)?;
        }
    }
    Ok(())
}

/// `paired` (three-player tables are always paired) and the confidence level.
fn check_settings(name: &str, section: &LeagueSection) -> Result<(), (String, String)> {
    let field = |f: &str| format!("leagues.{name}.{f}");
    if let Some(rules) = section.rules
        && rules.players > 2
        && section.paired == Some(false)
    {
        return Err((
            field("paired"),
            format!(
                "paired = false with players = {}: a table of three is read deal by deal across \
                 its six seatings (game j of every seating is the same deal), so each seating \
                 cannot have its own deals; drop `paired` (true is the default)",
                rules.players
            ),
        ));
    }
    if let Some(c) = section.confidence
        && !(c > 0.0 && c < 1.0)
    {
        return Err((
            field("confidence"),
            format!("{c} is not strictly between 0 and 1; use a level such as 0.95"),
        ));
    }
    Ok(())
}

/// What each league field accepts, for error messages (`*` matches any one table name).
pub const FIELD_HINTS: &[(&str, &str)] = &[
    ("leagues", "one [leagues.NAME] section per league"),
    (
        "leagues.*",
        "a table with label, policies, games_per_pair, seed and optional paired, reference, confidence, anchors, agents, rules",
    ),
    ("leagues.*.label", "a string"),
    (
        "leagues.*.policies",
        "a list of at least two policy names defined as [policies.NAME]",
    ),
    (
        "leagues.*.games_per_pair",
        "a whole number >= 2 (deals per pair of policies)",
    ),
    ("leagues.*.seed", "a whole number >= 0 (the chacha seed)"),
    (
        "leagues.*.paired",
        "true (duplicate-format deals) or false (two players only)",
    ),
    (
        "leagues.*.reference",
        "the name of one of the league's policies",
    ),
    (
        "leagues.*.confidence",
        "a number strictly between 0 and 1, e.g. 0.95",
    ),
    ("leagues.*.anchors", "a list of the league's policy names"),
    ("leagues.*.agents", "a list of the league's policy names"),
    ("leagues.*.rules", super::study_rules::RULES_HINT),
    (
        "leagues.*.pairs",
        "a list of pairs of the league's policy names, e.g. [[\"greedy\", \"exploit-greedy\"]]",
    ),
];

/// Check a league's `pairs`: each two different policies of the league, no pair twice, and
/// together connecting every policy (else the Bradley-Terry ratings are not identified).
fn check_pairs(
    field: &str,
    policies: &[String],
    pairs: &[Vec<String>],
) -> Result<(), (String, String)> {
    let listed = policies.join(", ");
    let mut seen: Vec<(usize, usize)> = Vec::new();
    // Union-find over the policies.
    let mut root: Vec<usize> = (0..policies.len()).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    for (n, pair) in pairs.iter().enumerate() {
        let at = format!("{field}[{n}]");
        let [a, b] = pair.as_slice() else {
            return Err((
                at,
                format!(
                    "a pair is two policy names, got {}; e.g. [\"greedy\", \"exploit-greedy\"]",
                    pair.len()
                ),
            ));
        };
        let index = |x: &String| policies.iter().position(|p| p == x);
        let (Some(i), Some(j)) = (index(a), index(b)) else {
            let missing = if index(a).is_none() { a } else { b };
            return Err((
                at,
                format!(
                    "`{missing}` does not play in this league; use two of its policies ({listed})"
                ),
            ));
        };
        if i == j {
            return Err((
                at,
                format!("`{a}` cannot play itself; name two different policies"),
            ));
        }
        let key = (i.min(j), i.max(j));
        if seen.contains(&key) {
            return Err((
                at,
                format!("the pair {a} and {b} is listed twice; list each pair once"),
            ));
        }
        seen.push(key);
        let (ri, rj) = (find(&mut root, i), find(&mut root, j));
        root[ri] = rj;
    }
    let first = find(&mut root, 0);
    if let Some(alone) = (1..policies.len()).find(|&i| find(&mut root, i) != first) {
        return Err((
            field.to_string(),
            format!(
                "the pairs do not connect `{}` with `{}`, so their ratings cannot be compared; add a pair joining them (or drop `pairs` to play every pair)",
                policies[alone], policies[0]
            ),
        ));
    }
    Ok(())
}
