//! The aggregate stage's work for one shard: everything the analysis needs, counted from the
//! shard's game and trick tables with polars' lazy engine.
//!
//! Invariant: counts only (integers), plus the two correlation coefficients; no statistic that
//! depends on other shards is computed here, so a new policy's shards never invalidate old ones.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use serde::{Deserialize, Serialize};

/// Errors reading or counting a shard.
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    /// Polars failed reading or aggregating.
    #[error("cannot aggregate {path}: {source}")]
    Polars {
        /// the table
        path: PathBuf,
        /// the error
        source: PolarsError,
    },
    /// The table does not look like a simulate shard.
    #[error("{path}: {message}")]
    Shape {
        /// the table
        path: PathBuf,
        /// what is wrong
        message: String,
    },
}

/// Non-tied games and G1 wins at one Delta_briscola.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeltaCount {
    /// B1 - B2.
    pub delta: i32,
    /// Games not tied in points.
    pub non_tied: u64,
    /// Of those, won by G1.
    pub g1_wins: u64,
}

/// Table 5's counts for one seat (tallied by the simulate stage while playing).
pub use crate::game::TrumpUse;

/// Everything counted from one shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardCounts {
    /// G1's policy name.
    pub g1_policy: String,
    /// G2's policy name.
    pub g2_policy: String,
    /// Games.
    pub games: u64,
    /// 60-60 ties.
    pub ties: u64,
    /// Non-tied games.
    pub non_tied: u64,
    /// G1 wins.
    pub g1_wins: u64,
    /// Folk-theorem table over non-tied games with B1 != B2: rows majority holder G1/G2,
    /// columns winner G1/G2.
    pub folk: [[u64; 2]; 2],
    /// Per Delta_briscola, ascending (also the regression's sufficient statistic).
    pub deltas: Vec<DeltaCount>,
    /// Table 5 counts for G1's and G2's trumps.
    pub trump_use: [TrumpUse; 2],
    /// Pearson r of Delta_briscola with points_g1 - points_g2 over all games (`None` where it is
    /// undefined, e.g. a constant column in a tiny study).
    pub pearson: Option<f64>,
    /// Spearman rho of the same.
    pub spearman: Option<f64>,
}

fn pl(path: &Path) -> impl Fn(PolarsError) -> CountError + '_ {
    move |source| CountError::Polars {
        path: path.to_path_buf(),
        source,
    }
}

fn scan(path: &Path) -> Result<LazyFrame, CountError> {
    let p = path.to_string_lossy().to_string();
    LazyFrame::scan_parquet(PlRefPath::new(p.as_str()), ScanArgsParquet::default())
        .map_err(pl(path))
}

fn u64_column(df: &DataFrame, name: &str, path: &Path) -> Result<Vec<u64>, CountError> {
    let c = df
        .column(name)
        .map_err(pl(path))?
        .cast(&DataType::UInt64)
        .map_err(pl(path))?;
    let ca = c.u64().map_err(pl(path))?;
    Ok(ca.iter().map(|v| v.unwrap_or(0)).collect())
}

/// Computes (Pearson, Spearman) of pairs given as runs `(x, y, count)` (see
/// [`crate::stats::pearson_runs`]), `None` where undefined.
pub type Correlate<'a> = &'a dyn Fn(&[(f64, f64, u64)]) -> (Option<f64>, Option<f64>);

/// Count a shard from its `games.parquet` and Table 5's counts tallied while it was played
/// (`trump_use`, from its `shard.json`); `correlate` computes (pearson, spearman) of Delta
/// and the points difference, given as runs.
///
/// One small group-by does the work in polars: games by (B1, B2, points of G1). Every game count
/// of the analysis is a function of those keys, so the rest is exact integer arithmetic over at
/// most a few thousand groups.
pub fn count_shard(
    games: &Path,
    trump_use: [TrumpUse; 2],
    correlate: Correlate<'_>,
) -> Result<ShardCounts, CountError> {
    let (g1_policy, g2_policy) = policy_names(games)?;
    let by_game = scan(games)?
        .group_by([col("briscole_g1"), col("briscole_g2"), col("points_g1")])
        .agg([len().alias("n")])
        .sort(
            ["briscole_g1", "briscole_g2", "points_g1"],
            SortMultipleOptions::default(),
        )
        .collect()
        .map_err(pl(games))?;
    let b1 = u64_column(&by_game, "briscole_g1", games)?;
    let b2 = u64_column(&by_game, "briscole_g2", games)?;
    let p1 = u64_column(&by_game, "points_g1", games)?;
    let n = u64_column(&by_game, "n", games)?;
    if n.iter().sum::<u64>() == 0 {
        return Err(CountError::Shape {
            path: games.to_path_buf(),
            message: "the game table is empty".into(),
        });
    }
    let (mut games_n, mut ties, mut g1_wins) = (0u64, 0u64, 0u64);
    let mut folk = [[0u64; 2]; 2];
    let mut deltas: std::collections::BTreeMap<i32, (u64, u64)> = Default::default();
    // (Delta_briscola, points_g1 - points_g2, games) in group order: the correlations' input
    // as runs, a few thousand whatever the game count.
    let mut runs = Vec::with_capacity(n.len());
    for i in 0..n.len() {
        let (b1, b2, p1, n) = (b1[i] as i32, b2[i] as i32, p1[i] as i32, n[i]);
        if p1 > 120 {
            return Err(CountError::Shape {
                path: games.to_path_buf(),
                message: format!("points_g1 = {p1} exceeds 120"),
            });
        }
        let delta = b1 - b2;
        games_n += n;
        runs.push((delta as f64, (2 * p1 - 120) as f64, n));
        if p1 == 60 {
            ties += n;
            continue;
        }
        let g1_won = p1 > 60;
        if g1_won {
            g1_wins += n;
        }
        let e = deltas.entry(delta).or_default();
        e.0 += n;
        if g1_won {
            e.1 += n;
        }
        if delta != 0 {
            let row = if delta > 0 { 0 } else { 1 };
            let colm = if g1_won { 0 } else { 1 };
            folk[row][colm] += n;
        }
    }
    let deltas = deltas
        .into_iter()
        .map(|(delta, (non_tied, g1_wins))| DeltaCount {
            delta,
            non_tied,
            g1_wins,
        })
        .collect();
    let (pearson, spearman) = correlate(&runs);
    Ok(ShardCounts {
        g1_policy,
        g2_policy,
        games: games_n,
        ties,
        non_tied: games_n - ties,
        g1_wins,
        folk,
        deltas,
        trump_use,
        pearson,
        spearman,
    })
}

fn policy_names(games: &Path) -> Result<(String, String), CountError> {
    let df = scan(games)?
        .select([col("g1_policy").first(), col("g2_policy").first()])
        .collect()
        .map_err(pl(games))?;
    let get = |name: &str| -> Result<String, CountError> {
        let c = df.column(name).map_err(pl(games))?;
        let s = c.str().map_err(pl(games))?;
        Ok(s.get(0).unwrap_or_default().to_string())
    };
    Ok((get("g1_policy")?, get("g2_policy")?))
}
