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

/// Table 5's counts for one seat of one shard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrumpUse {
    /// Tricks in which the seat played a trump.
    pub n_played: u64,
    /// Of those, won by the seat.
    pub wins: u64,
    /// Trick points of the won ones.
    pub points_won: u64,
    /// Of those played, the other card was worth 0 points.
    pub wasted: u64,
}

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
    /// Pearson r of Delta_briscola with points_g1 - points_g2 over all games.
    pub pearson: f64,
    /// Spearman rho of the same.
    pub spearman: f64,
}

fn pl(path: &Path) -> impl Fn(PolarsError) -> CountError + '_ {
    move |source| CountError::Polars { path: path.to_path_buf(), source }
}

fn scan(path: &Path) -> Result<LazyFrame, CountError> {
    let p = path.to_string_lossy().to_string();
    LazyFrame::scan_parquet(PlRefPath::new(p.as_str()), ScanArgsParquet::default()).map_err(pl(path))
}

fn u64_at(df: &DataFrame, name: &str, row: usize, path: &Path) -> Result<u64, CountError> {
    let c = df.column(name).map_err(pl(path))?;
    let v = c.get(row).map_err(pl(path))?;
    Ok(match v {
        AnyValue::Null => 0,
        other => other.extract::<u64>().unwrap_or(0),
    })
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

/// Count a shard from its `games.parquet` and `tricks.parquet`; `correlate` computes
/// (pearson, spearman) of two equally long columns.
pub fn count_shard(
    games: &Path,
    tricks: &Path,
    correlate: &dyn Fn(&[f64], &[f64]) -> (f64, f64),
) -> Result<ShardCounts, CountError> {
    let g = scan(games)?;
    let delta = (col("briscole_g1").cast(DataType::Int32) - col("briscole_g2").cast(DataType::Int32))
        .alias("delta");
    let diff = (col("points_g1").cast(DataType::Int32) - col("points_g2").cast(DataType::Int32))
        .alias("diff");
    let tie = col("winner").eq(lit("Tie"));
    let g1win = col("winner").eq(lit("G1"));

    // Per-game columns needed: small (one shard).
    let base = g
        .clone()
        .select([
            col("g1_policy"),
            col("g2_policy"),
            delta,
            diff,
            tie.clone().alias("tie"),
            g1win.clone().alias("g1win"),
        ])
        .collect()
        .map_err(pl(games))?;
    let n = base.height();
    if n == 0 {
        return Err(CountError::Shape { path: games.to_path_buf(), message: "the game table is empty".into() });
    }
    let str_at = |name: &str| -> Result<String, CountError> {
        let c = base.column(name).map_err(pl(games))?;
        let s = c.str().map_err(pl(games))?;
        Ok(s.get(0).unwrap_or_default().to_string())
    };
    let g1_policy = str_at("g1_policy")?;
    let g2_policy = str_at("g2_policy")?;

    let summary = base
        .clone()
        .lazy()
        .select([
            len().alias("games"),
            col("tie").cast(DataType::UInt64).sum().alias("ties"),
            col("g1win").cast(DataType::UInt64).sum().alias("g1_wins"),
            // folk: majority G1 (delta > 0) or G2 (delta < 0), non-tied games
            (col("delta").gt(lit(0)).and(col("tie").not()).and(col("g1win")))
                .cast(DataType::UInt64)
                .sum()
                .alias("f11"),
            (col("delta").gt(lit(0)).and(col("tie").not()).and(col("g1win").not()))
                .cast(DataType::UInt64)
                .sum()
                .alias("f12"),
            (col("delta").lt(lit(0)).and(col("tie").not()).and(col("g1win")))
                .cast(DataType::UInt64)
                .sum()
                .alias("f21"),
            (col("delta").lt(lit(0)).and(col("tie").not()).and(col("g1win").not()))
                .cast(DataType::UInt64)
                .sum()
                .alias("f22"),
        ])
        .collect()
        .map_err(pl(games))?;
    let get = |name: &str| u64_at(&summary, name, 0, games);
    let games_n = get("games")?;
    let ties = get("ties")?;
    let g1_wins = get("g1_wins")?;
    let folk = [[get("f11")?, get("f12")?], [get("f21")?, get("f22")?]];

    let by_delta = base
        .clone()
        .lazy()
        .filter(col("tie").not())
        .group_by([col("delta")])
        .agg([len().alias("n"), col("g1win").cast(DataType::UInt64).sum().alias("wins")])
        .sort(["delta"], SortMultipleOptions::default())
        .collect()
        .map_err(pl(games))?;
    let ds = by_delta
        .column("delta")
        .map_err(pl(games))?
        .cast(&DataType::Int64)
        .map_err(pl(games))?;
    let ds: Vec<i64> = ds.i64().map_err(pl(games))?.iter().map(|v| v.unwrap_or(0)).collect();
    let ns = u64_column(&by_delta, "n", games)?;
    let ws = u64_column(&by_delta, "wins", games)?;
    let deltas = ds
        .iter()
        .zip(ns.iter().zip(ws.iter()))
        .map(|(&d, (&n, &w))| DeltaCount { delta: d as i32, non_tied: n, g1_wins: w })
        .collect();

    let f64_col = |name: &str| -> Result<Vec<f64>, CountError> {
        let c = base.column(name).map_err(pl(games))?.cast(&DataType::Float64).map_err(pl(games))?;
        Ok(c.f64().map_err(pl(games))?.iter().map(|v| v.unwrap_or(0.0)).collect())
    };
    let (pearson, spearman) = correlate(&f64_col("delta")?, &f64_col("diff")?);

    let trump_use = count_trump_use(tricks)?;
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

/// Points of a card id expression (Table 1 by rank index `id % 10`).
fn card_points(card: Expr) -> Expr {
    let r = card.cast(DataType::Int32) % lit(10);
    when(r.clone().eq(lit(0)))
        .then(lit(11))
        .when(r.clone().eq(lit(2)))
        .then(lit(10))
        .when(r.clone().eq(lit(9)))
        .then(lit(4))
        .when(r.clone().eq(lit(8)))
        .then(lit(3))
        .when(r.eq(lit(7)))
        .then(lit(2))
        .otherwise(lit(0))
}

fn is_trump(card: &str) -> Expr {
    let rel = col(card).cast(DataType::Int32) - col("trump_suit").cast(DataType::Int32) * lit(10);
    rel.clone().gt_eq(lit(0)).and(rel.lt(lit(10)))
}

fn count_trump_use(tricks: &Path) -> Result<[TrumpUse; 2], CountError> {
    let t = scan(tricks)?;
    let mut aggs = Vec::new();
    for (seat, own, other) in [(1u8, "card_g1", "card_g2"), (2u8, "card_g2", "card_g1")] {
        let played = is_trump(own);
        let won = played.clone().and(col("trick_winner").eq(lit(seat)));
        let s = seat.to_string();
        aggs.push(played.clone().cast(DataType::UInt64).sum().alias(format!("n{s}")));
        aggs.push(won.clone().cast(DataType::UInt64).sum().alias(format!("w{s}")));
        aggs.push(
            when(won)
                .then(col("trick_points").cast(DataType::UInt64))
                .otherwise(lit(0u64))
                .sum()
                .alias(format!("p{s}")),
        );
        aggs.push(
            played
                .and(card_points(col(other)).eq(lit(0)))
                .cast(DataType::UInt64)
                .sum()
                .alias(format!("z{s}")),
        );
    }
    let df = t.select(aggs).collect().map_err(pl(tricks))?;
    let get = |n: &str| u64_at(&df, n, 0, tricks);
    Ok([
        TrumpUse { n_played: get("n1")?, wins: get("w1")?, points_won: get("p1")?, wasted: get("z1")? },
        TrumpUse { n_played: get("n2")?, wins: get("w2")?, points_won: get("p2")?, wasted: get("z2")? },
    ])
}
