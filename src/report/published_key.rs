//! A published figure's dotted key (`table3.greedy_hoarder.rate`) parsed once into what it
//! names: its section of the paper, its human label, whether it is a design quantity, and (by
//! the scorecard's `match` on it) how our counterpart is computed.
//!
//! Invariant: the key grammar of `published.toml` is read here and nowhere else; a key this
//! module does not recognise parses to [`PublishedKey::Unrecognised`] (its row is "not
//! compared", with the reason), never to a guess.

/// What the key grammar needs of the published figures: splitting `a_b` into two of the
/// paper's policy names (`Published` provides it).
pub trait PolicyPairs {
    /// `a_b` as two of the paper's policy names, if it is one.
    fn split_pair(&self, s: &str) -> Option<(String, String)>;
}

/// The part of the paper a published figure belongs to (the key's first segment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// `design.*`.
    Design,
    /// `table3.*`.
    Table3,
    /// `folk_theorem.*`.
    FolkTheorem,
    /// `pairwise.*`.
    Pairwise,
    /// `power.*`.
    Power,
    /// `table4.*`.
    Table4,
    /// `figure2.*`.
    Figure2,
    /// `table5.*`.
    Table5,
    /// Any other first segment.
    Other,
}

impl Section {
    fn parse(first: &str) -> Section {
        match first {
            "design" => Section::Design,
            "table3" => Section::Table3,
            "folk_theorem" => Section::FolkTheorem,
            "pairwise" => Section::Pairwise,
            "power" => Section::Power,
            "table4" => Section::Table4,
            "figure2" => Section::Figure2,
            "table5" => Section::Table5,
            _ => Section::Other,
        }
    }

    /// How the scorecard titles the section.
    pub const fn title(self) -> &'static str {
        match self {
            Section::Design => "Design",
            Section::Table3 => "Table 3",
            Section::FolkTheorem => "H0(1): folk theorem",
            Section::Pairwise => "H0(2): pairwise tests",
            Section::Power => "Power analysis",
            Section::Table4 => "Table 4",
            Section::Figure2 => "Figure 2",
            Section::Table5 => "Table 5",
            Section::Other => "Other",
        }
    }
}

/// A win rate with its Wilson interval (Table 3's cells, the folk theorem's share).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateField {
    /// The rate.
    Rate,
    /// Lower Wilson bound.
    Lo,
    /// Upper Wilson bound.
    Hi,
}

/// A Table 4 column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OddsField {
    /// Odds ratio.
    Or,
    /// Lower 95% bound.
    Lo,
    /// Upper 95% bound.
    Hi,
    /// p-value.
    P,
    /// p-value printed as a bound (`p < 1e-300`).
    PBelow,
}

/// Where the paper states a Table 4 coefficient.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statement {
    /// Table 4 itself (`table4.<term>.*`).
    Table,
    /// Restated in the prose of §5 (`table4.<term>_text.*`).
    Prose,
    /// Restated in the abstract (`table4.<term>_abstract.*`).
    Abstract,
}

/// A Table 5 column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table5Field {
    /// Briscola plays.
    NPlayed,
    /// Share of them won.
    WinRate,
    /// Mean points per win.
    MeanPointsPerWin,
    /// Wasted fraction.
    WastedFraction,
}

/// An ordered matchup named in a key (`greedy_hoarder`): G1's policy, then G2's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// G1's policy.
    pub g1: String,
    /// G2's policy.
    pub g2: String,
}

impl Pair {
    fn parse(published: &impl PolicyPairs, text: &str) -> Option<Pair> {
        published.split_pair(text).map(|(g1, g2)| Pair { g1, g2 })
    }

    /// `greedy vs hoarder`.
    pub fn label(&self) -> String {
        format!("{} vs {}", self.g1, self.g2)
    }

    /// True when this is the matchup `g1` vs `g2`.
    pub fn is(&self, g1: &str, g2: &str) -> bool {
        self.g1 == g1 && self.g2 == g2
    }
}

/// What a published key names.
#[derive(Clone, Debug, PartialEq)]
pub enum PublishedKey {
    /// `design.games_total`.
    GamesTotal,
    /// `design.games_per_matchup`.
    GamesPerMatchup,
    /// `design.policies`.
    Policies,
    /// `design.seed`.
    Seed,
    /// `design.trick_rows`.
    TrickRows,
    /// `design.non_tied_games`.
    NonTiedGames,
    /// `design.*_gb`, `design.*_mb`: a size of the released CSV files.
    ReleasedFileSize {
        /// The field, e.g. `trick_log_csv_gb`.
        field: String,
    },
    /// `table3.baseline_rate`.
    BaselineRate,
    /// `table3.non_tied_per_cell_approx`.
    NonTiedPerCell,
    /// `table3.<g1>_<g2>.{rate,lo,hi}`.
    Table3Cell {
        /// The matchup.
        pair: Pair,
        /// The column.
        field: RateField,
    },
    /// `folk_theorem.games`.
    FolkGames,
    /// `folk_theorem.majority_holder_wins`.
    FolkMajorityWins,
    /// `folk_theorem.{rate,lo,hi}`.
    FolkShare(RateField),
    /// `folk_theorem.pearson_chi2_yates`.
    FolkChi2Yates,
    /// `folk_theorem.p_value_below`.
    FolkPBelow,
    /// `folk_theorem.per_matchup_rate_range[i]`: the smallest (`i = 0`) or largest share.
    FolkRange {
        /// True for `[0]`, the smallest.
        smallest: bool,
    },
    /// `pairwise.alpha_family`.
    AlphaFamily,
    /// `pairwise.tests`.
    Tests,
    /// `pairwise.alpha_per_test`.
    AlphaPerTest,
    /// `pairwise.z_critical`.
    ZCritical,
    /// `pairwise.all_reject_below`: the largest Bonferroni p of the cells said to reject.
    AllRejectBelow,
    /// `pairwise.<g1>_<g2>_p_bonferroni`.
    Bonferroni(Pair),
    /// `power.n_per_cell`.
    PowerN,
    /// `power.delta`.
    PowerDelta,
    /// `power.power_above`.
    PowerAbove,
    /// `table4.n`.
    Table4N,
    /// `table4.<term>[_text|_abstract].<field>`.
    Table4Term {
        /// The regression term, e.g. `delta_briscola`.
        term: String,
        /// Where the paper states it.
        statement: Statement,
        /// The column.
        field: OddsField,
    },
    /// `figure2.min_games_per_bin`.
    MinGamesPerBin,
    /// `figure2.break_even_delta_<g1>_<g2>`.
    BreakEven(Pair),
    /// `table5.<policy>.<field>`.
    Table5 {
        /// The policy.
        policy: String,
        /// The column.
        field: Table5Field,
    },
    /// A key with no computed counterpart.
    Unrecognised {
        /// Its section.
        section: Section,
        /// The key after the section, for the label.
        rest: String,
        /// Why nothing is compared.
        reason: String,
    },
}

fn rate_field(f: &str) -> Option<RateField> {
    Some(match f {
        "rate" => RateField::Rate,
        "lo" => RateField::Lo,
        "hi" => RateField::Hi,
        _ => return None,
    })
}

impl PublishedKey {
    /// Parse `key`; matchups are split with the paper's policy names (`design.policies`).
    pub fn parse(key: &str, published: &impl PolicyPairs) -> PublishedKey {
        let parts: Vec<&str> = key.split('.').collect();
        let section = Section::parse(parts[0]);
        let unrecognised = |reason: String| PublishedKey::Unrecognised {
            section,
            rest: parts[1..].join("."),
            reason,
        };
        let no_such = |what: &str| unrecognised(format!("this study has no {what}"));
        use PublishedKey as K;
        match parts.as_slice() {
            ["design", "games_total"] => K::GamesTotal,
            ["design", "games_per_matchup"] => K::GamesPerMatchup,
            ["design", "policies"] => K::Policies,
            ["design", "seed"] => K::Seed,
            ["design", "trick_rows"] => K::TrickRows,
            ["design", "non_tied_games"] => K::NonTiedGames,
            ["design", f] if f.ends_with("_gb") || f.ends_with("_mb") => K::ReleasedFileSize {
                field: (*f).to_string(),
            },
            ["table3", "baseline_rate"] => K::BaselineRate,
            ["table3", "non_tied_per_cell_approx"] => K::NonTiedPerCell,
            ["table3", cell, field] => match (Pair::parse(published, cell), rate_field(field)) {
                (Some(pair), Some(field)) => K::Table3Cell { pair, field },
                (Some(_), None) => unrecognised(format!("unknown Table 3 field `{field}`")),
                (None, _) => no_such("such matchup"),
            },
            ["folk_theorem", "games"] => K::FolkGames,
            ["folk_theorem", "majority_holder_wins"] => K::FolkMajorityWins,
            ["folk_theorem", "rate"] => K::FolkShare(RateField::Rate),
            ["folk_theorem", "lo"] => K::FolkShare(RateField::Lo),
            ["folk_theorem", "hi"] => K::FolkShare(RateField::Hi),
            ["folk_theorem", "pearson_chi2_yates"] => K::FolkChi2Yates,
            ["folk_theorem", "p_value_below"] => K::FolkPBelow,
            ["folk_theorem", "per_matchup_rate_range[0]"] => K::FolkRange { smallest: true },
            ["folk_theorem", "per_matchup_rate_range[1]"] => K::FolkRange { smallest: false },
            ["pairwise", "alpha_family"] => K::AlphaFamily,
            ["pairwise", "tests"] => K::Tests,
            ["pairwise", "alpha_per_test"] => K::AlphaPerTest,
            ["pairwise", "z_critical"] => K::ZCritical,
            ["pairwise", "all_reject_below"] => K::AllRejectBelow,
            ["pairwise", f] if f.ends_with("_p_bonferroni") => {
                match Pair::parse(published, f.trim_end_matches("_p_bonferroni")) {
                    Some(pair) => K::Bonferroni(pair),
                    None => no_such("such pairwise test"),
                }
            }
            ["power", "n_per_cell"] => K::PowerN,
            ["power", "delta"] => K::PowerDelta,
            ["power", "power_above"] => K::PowerAbove,
            ["table4", "n"] => K::Table4N,
            ["table4", term, field] => {
                let (term, statement) = match term.rsplit_once('_') {
                    Some((base, "text")) => (base, Statement::Prose),
                    Some((base, "abstract")) => (base, Statement::Abstract),
                    _ => (*term, Statement::Table),
                };
                let field = match *field {
                    "or" => OddsField::Or,
                    "lo" => OddsField::Lo,
                    "hi" => OddsField::Hi,
                    "p" => OddsField::P,
                    "p_below" => OddsField::PBelow,
                    f => return unrecognised(format!("unknown Table 4 field `{f}`")),
                };
                K::Table4Term {
                    term: term.to_string(),
                    statement,
                    field,
                }
            }
            ["figure2", "min_games_per_bin"] => K::MinGamesPerBin,
            ["figure2", f] if f.starts_with("break_even_delta_") => {
                match Pair::parse(published, &f["break_even_delta_".len()..]) {
                    Some(pair) => K::BreakEven(pair),
                    None => no_such("such matchup"),
                }
            }
            ["table5", policy, field] => {
                let field = match *field {
                    "n_played" => Table5Field::NPlayed,
                    "win_rate" => Table5Field::WinRate,
                    "mean_points_per_win" => Table5Field::MeanPointsPerWin,
                    "wasted_fraction" => Table5Field::WastedFraction,
                    f => return unrecognised(format!("unknown Table 5 field `{f}`")),
                };
                K::Table5 {
                    policy: (*policy).to_string(),
                    field,
                }
            }
            _ => unrecognised("no counterpart is computed for this figure".into()),
        }
    }

    /// The section of the paper.
    pub fn section(&self) -> Section {
        use PublishedKey as K;
        match self {
            K::GamesTotal
            | K::GamesPerMatchup
            | K::Policies
            | K::Seed
            | K::TrickRows
            | K::NonTiedGames
            | K::ReleasedFileSize { .. } => Section::Design,
            K::BaselineRate | K::NonTiedPerCell | K::Table3Cell { .. } => Section::Table3,
            K::FolkGames
            | K::FolkMajorityWins
            | K::FolkShare(_)
            | K::FolkChi2Yates
            | K::FolkPBelow
            | K::FolkRange { .. } => Section::FolkTheorem,
            K::AlphaFamily
            | K::Tests
            | K::AlphaPerTest
            | K::ZCritical
            | K::AllRejectBelow
            | K::Bonferroni(_) => Section::Pairwise,
            K::PowerN | K::PowerDelta | K::PowerAbove => Section::Power,
            K::Table4N | K::Table4Term { .. } => Section::Table4,
            K::MinGamesPerBin | K::BreakEven(_) => Section::Figure2,
            K::Table5 { .. } => Section::Table5,
            K::Unrecognised { section, .. } => *section,
        }
    }

    /// What the figure is, for a reader.
    pub fn label(&self) -> String {
        use PublishedKey as K;
        let plain = match self {
            K::GamesTotal => "games played",
            K::GamesPerMatchup => "games per ordered matchup",
            K::Policies => "policies, in matchup order",
            K::Seed => "seed",
            K::TrickRows => "trick rows (20 per game)",
            K::NonTiedGames => "games not tied in points",
            K::ReleasedFileSize { field } => match field.as_str() {
                "trick_log_csv_gb" => "trick-level CSV size (GB)",
                "game_level_csv_mb" => "game-level CSV size (MB)",
                other => return other.to_string(),
            },
            K::BaselineRate => "baseline rate p̂0",
            K::NonTiedPerCell => "non-tied games per cell (≈)",
            K::Table3Cell { pair, field } => {
                let what = match field {
                    RateField::Rate => "G1 win rate",
                    RateField::Lo => "lower Wilson bound",
                    RateField::Hi => "upper Wilson bound",
                };
                return format!("{what}, {}", pair.label());
            }
            K::FolkGames => "decided games with unequal briscola counts",
            K::FolkMajorityWins => "won by the briscola-majority holder",
            K::FolkShare(RateField::Rate) => "majority holder's share",
            K::FolkShare(RateField::Lo) => "lower Wilson bound",
            K::FolkShare(RateField::Hi) => "upper Wilson bound",
            K::FolkChi2Yates => "Pearson χ² with Yates' correction",
            K::FolkPBelow => "p-value (printed as a bound)",
            K::FolkRange { smallest: true } => "smallest per-matchup share",
            K::FolkRange { smallest: false } => "largest per-matchup share",
            K::AlphaFamily => "family-wise α",
            K::Tests => "number of tests",
            K::AlphaPerTest => "per-test α",
            K::ZCritical => "critical z",
            K::AllRejectBelow => "largest Bonferroni p of the cells said to reject",
            K::Bonferroni(pair) => return format!("Bonferroni p, {}", pair.label()),
            K::PowerN => "N per cell",
            K::PowerDelta => "|δ| to detect",
            K::PowerAbove => "power (printed as a bound)",
            K::Table4N => "N (non-tied games)",
            K::Table4Term {
                term,
                statement,
                field,
            } => {
                let what = match field {
                    OddsField::Or => "odds ratio",
                    OddsField::Lo => "lower 95% bound",
                    OddsField::Hi => "upper 95% bound",
                    OddsField::P => "p-value",
                    OddsField::PBelow => "p-value bound",
                };
                let source = match statement {
                    Statement::Table => "",
                    Statement::Prose => " (§5 prose)",
                    Statement::Abstract => " (abstract)",
                };
                return format!("{what}, {term}{source}");
            }
            K::MinGamesPerBin => "minimum games per drawn bin",
            K::BreakEven(pair) => {
                return format!("break-even Δ, {} (read off the figure)", pair.label());
            }
            K::Table5 { policy, field } => {
                let what = match field {
                    Table5Field::NPlayed => "briscola plays",
                    Table5Field::WinRate => "share of them won",
                    Table5Field::MeanPointsPerWin => "mean points per win",
                    Table5Field::WastedFraction => "wasted fraction",
                };
                return format!("{what}, {policy}");
            }
            K::Unrecognised { rest, .. } => return rest.clone(),
        };
        plain.to_string()
    }

    /// A quantity fixed by the design (no Monte Carlo error, the same in every study).
    pub fn is_design(&self) -> bool {
        use PublishedKey as K;
        matches!(
            self,
            K::GamesTotal
                | K::GamesPerMatchup
                | K::TrickRows
                | K::AlphaFamily
                | K::Tests
                | K::AlphaPerTest
                | K::ZCritical
                | K::PowerN
                | K::PowerDelta
                | K::MinGamesPerBin
        )
    }

    /// `<` or `>` when the paper prints this figure as a bound (`p < 10⁻³⁰⁰`, power `> 0.99`).
    pub fn bound_sign(&self) -> Option<&'static str> {
        match self {
            PublishedKey::FolkPBelow
            | PublishedKey::AllRejectBelow
            | PublishedKey::Table4Term {
                field: OddsField::PBelow,
                ..
            } => Some("<"),
            PublishedKey::PowerAbove => Some(">"),
            _ => None,
        }
    }

    /// A Table 4 coefficient restated outside Table 4 (prose or abstract).
    pub fn is_restatement(&self) -> bool {
        matches!(
            self,
            PublishedKey::Table4Term { statement, .. } if *statement != Statement::Table
        )
    }

    /// One of Table 4's own interval bounds (not a restatement).
    pub fn is_table4_bound(&self) -> bool {
        matches!(
            self,
            PublishedKey::Table4Term {
                statement: Statement::Table,
                field: OddsField::Lo | OddsField::Hi,
                ..
            }
        )
    }

    /// An interval bound of any section (Table 3, the folk theorem, Table 4).
    pub fn is_bound(&self) -> bool {
        matches!(
            self,
            PublishedKey::Table3Cell {
                field: RateField::Lo | RateField::Hi,
                ..
            } | PublishedKey::FolkShare(RateField::Lo | RateField::Hi)
                | PublishedKey::Table4Term {
                    field: OddsField::Lo | OddsField::Hi,
                    ..
                }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::published::Published;

    fn published() -> Published {
        Published::parse(
            include_str!("../../templates/published.toml"),
            "published.toml",
        )
        .unwrap()
    }

    #[test]
    fn every_key_of_the_papers_file_is_recognised() {
        let p = published();
        for e in &p.entries {
            let k = PublishedKey::parse(&e.key, &p);
            assert!(
                !matches!(k, PublishedKey::Unrecognised { .. }),
                "{} -> {k:?}",
                e.key
            );
            assert_ne!(k.section(), Section::Other, "{}", e.key);
        }
    }

    #[test]
    fn parses_pairs_restatements_and_fields() {
        let p = published();
        let k = PublishedKey::parse("table4.delta_briscola_text.or", &p);
        assert_eq!(
            k,
            PublishedKey::Table4Term {
                term: "delta_briscola".into(),
                statement: Statement::Prose,
                field: OddsField::Or
            }
        );
        assert!(k.is_restatement());
        assert_eq!(k.label(), "odds ratio, delta_briscola (§5 prose)");
        let k = PublishedKey::parse("table3.hoarder_counter.lo", &p);
        assert_eq!(k.label(), "lower Wilson bound, hoarder vs counter");
        assert!(k.is_bound());
        let k = PublishedKey::parse("pairwise.counter_counter_p_bonferroni", &p);
        assert!(matches!(&k, PublishedKey::Bonferroni(pair) if pair.is("counter", "counter")));
        assert!(PublishedKey::parse("pairwise.z_critical", &p).is_design());
        assert!(!PublishedKey::parse("design.seed", &p).is_design());
    }

    #[test]
    fn unknown_keys_say_why() {
        let p = published();
        let k = PublishedKey::parse("table3.greedy_nobody.rate", &p);
        assert_eq!(
            k,
            PublishedKey::Unrecognised {
                section: Section::Table3,
                rest: "greedy_nobody.rate".into(),
                reason: "this study has no such matchup".into()
            }
        );
        let k = PublishedKey::parse("table5.greedy.median", &p);
        assert_eq!(k.label(), "greedy.median");
        assert_eq!(k.section().title(), "Table 5");
        let k = PublishedKey::parse("appendix.x", &p);
        assert_eq!(k.section(), Section::Other);
    }
}
