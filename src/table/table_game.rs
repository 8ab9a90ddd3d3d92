//! One stored game of a shard with more than two seats, or of a rules league, found again: a
//! team study's shard (four players in two partnerships, six in two teams of three) or a league
//! seating played as a seat table (three players each for themselves, or two under a variant).
//! The shard's `shard.json` gives the spec; the game's deck and every seat's stream are
//! regenerated from the seed, the game is traced on the engine, and the shard's tables confirm
//! it (card for card against `tricks.parquet` where the shard wrote one, else each seat's final
//! points against `games.parquet`).
//!
//! Invariant: game `n` (1-based within its shard) gets the deck and streams the simulate stage
//! gave it: the shard's deal stream advanced by `n - 1` games, and seat `s`'s stream keyed by
//! the seed, the seat's policy name and `s`, at game `n - 1`.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::replay_error::ReplayError;
use crate::game::{Card, Deck, Rules, SeatRng};
use crate::policy::{FollowReading, PolicySpec, TablePolicy};
use crate::tournament::{
    DealSeed, DealSourceKind, DealStream, GAMES_FILE, GeneratorSeed, SHARD_FILE, ShardSpec,
    TRICKS_FILE, TableShardSpec, seat_column, table_seat_key,
};
use briscola_core::table::{TableActor, TableTraced, trace_table};

/// A game of a seat-table shard: what the shard ran and which game.
#[derive(Clone, Debug)]
pub struct TableGame {
    /// The shard directory.
    pub dir: PathBuf,
    /// The rules.
    pub rules: Rules,
    /// The reading of "win the trick" when a partner is winning.
    pub reading: FollowReading,
    /// Each seat's policy, seat 1 first.
    pub seats: Vec<PolicySpec>,
    /// The seed.
    pub seed: i64,
    /// How the deals were made.
    pub deal_source: DealSourceKind,
    /// Games in the shard.
    pub games: u64,
    /// The game ids of the shard's tables start after this (dotnet-replay's position).
    pub first_game: u64,
    /// Duplicate-format deals.
    pub paired: bool,
    /// 1-based game number within the shard.
    pub game: u64,
    /// The shard's tables name seat columns `_g1`, `_g2` (a two-player study's variant shard)
    /// rather than `_s1` .. `_sN`.
    pub side_columns: bool,
}

/// What a shard's `shard.json` holds: a two-player shard, a team shard or a seat table.
#[derive(Clone, Debug)]
pub enum StoredShard {
    /// Two seats under the standard rules (a [`super::StudyGame`]).
    TwoPlayer(Box<ShardSpec>),
    /// A study's shard under a variant (a team game, or two players under other rules), or a
    /// league's seat table.
    Table(Box<TableGame>),
}

/// Read `dir`'s `shard.json`; `what` names the shard in messages, `config` is the file to run.
pub fn open_shard(
    dir: &Path,
    game: u64,
    what: &str,
    config: &Path,
) -> Result<StoredShard, ReplayError> {
    let path = dir.join(SHARD_FILE);
    if !path.is_file() {
        return Err(ReplayError::NotRun {
            what: what.to_string(),
            path,
            config: config.to_path_buf(),
        });
    }
    let bad = |message: String| ReplayError::BadFile {
        path: path.clone(),
        message,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| bad(format!("not JSON ({e}); run `briscola run` to rebuild it")))?;
    let spec = value.get("spec").cloned().unwrap_or_default();
    let not_summary =
        |e: serde_json::Error| bad(format!("not a shard summary ({e}); run `briscola run`"));
    let table = if spec.get("seats").is_some() {
        let s: TableShardSpec = serde_json::from_value(spec).map_err(not_summary)?;
        TableGame::of_seat_table(dir, &s, game)
    } else {
        let s: ShardSpec = serde_json::from_value(spec).map_err(not_summary)?;
        if s.rules.is_default() {
            if game == 0 || game > s.games {
                return Err(out_of_range(game, what, s.games));
            }
            return Ok(StoredShard::TwoPlayer(Box::new(s)));
        }
        TableGame::of_team(dir, &s, game)
    };
    let t = table.map_err(bad)?;
    if game == 0 || game > t.games {
        return Err(out_of_range(game, what, t.games));
    }
    Ok(StoredShard::Table(Box::new(t)))
}

fn out_of_range(game: u64, what: &str, games: u64) -> ReplayError {
    ReplayError::GameOutOfRange {
        game,
        what: what.to_string(),
        games,
    }
}

impl TableGame {
    fn of_team(dir: &Path, s: &ShardSpec, game: u64) -> Result<TableGame, String> {
        let rules = s.rules.validate().map_err(|e| e.to_string())?;
        let seats = (0..rules.players())
            .map(|k| match rules.side_of(k) {
                0 => s.g1.clone(),
                _ => s.g2.clone(),
            })
            .collect();
        Ok(TableGame {
            dir: dir.to_path_buf(),
            rules,
            reading: s.reading,
            seats,
            seed: s.seed,
            deal_source: s.deal_source,
            games: s.games,
            first_game: s.first_game,
            paired: s.paired,
            game,
            side_columns: rules.players() == 2,
        })
    }

    fn of_seat_table(dir: &Path, s: &TableShardSpec, game: u64) -> Result<TableGame, String> {
        let rules = s.rules.validate().map_err(|e| e.to_string())?;
        if s.seats.len() != rules.players() {
            return Err(format!(
                "{} seats for players = {}",
                s.seats.len(),
                rules.players()
            ));
        }
        Ok(TableGame {
            dir: dir.to_path_buf(),
            rules,
            reading: FollowReading::Verbatim,
            seats: s.seats.clone(),
            seed: i64::try_from(s.seed).map_err(|_| format!("seed {} is out of range", s.seed))?,
            deal_source: DealSourceKind::Chacha,
            games: s.games,
            first_game: 0,
            paired: s.paired,
            game,
            side_columns: false,
        })
    }

    /// Seat `s`'s (0-based) column `what` in the shard's tables.
    fn column(&self, what: &str, s: usize) -> String {
        if self.side_columns {
            format!("{what}_g{}", s + 1)
        } else {
            seat_column(what, s)
        }
    }

    /// Whether the seats form two teams (a team study) rather than each playing for itself.
    pub fn is_team(&self) -> bool {
        self.rules.sides() < self.rules.players()
    }

    /// The game's id in the shard's tables.
    pub fn table_id(&self) -> u64 {
        self.first_game + self.game
    }

    fn bad(&self, message: String) -> ReplayError {
        ReplayError::BadFile {
            path: self.dir.join(SHARD_FILE),
            message,
        }
    }

    /// The deck, regenerated from the deal source.
    pub fn deck(&self) -> Result<Deck, ReplayError> {
        let names: Vec<&str> = self.distinct_names();
        let seed = DealSeed::new(self.deal_source, self.seed)
            .map_err(|e| self.bad(format!("seed {e}")))?;
        let mut stream = match seed.generator() {
            GeneratorSeed::Dotnet(seed) => DealStream::dotnet(seed, self.first_game),
            GeneratorSeed::Chacha(seed) => DealStream::chacha_table(seed, &names, self.paired),
        };
        stream.skip(self.game - 1);
        let mut out = Vec::with_capacity(1);
        stream.next_chunk(1, &mut out);
        Ok(out[0])
    }

    /// The names the deal stream is keyed by: a team shard's two sides' policies (seats 1 and
    /// 2 sit on different sides), a seat table's every seat.
    fn distinct_names(&self) -> Vec<&str> {
        let n = if self.is_team() { 2 } else { self.seats.len() };
        self.seats[..n]
            .iter()
            .map(PolicySpec::stream_name)
            .collect()
    }

    /// Every seat's random stream for this game.
    pub fn seat_rngs(&self) -> Vec<SeatRng> {
        self.seats
            .iter()
            .enumerate()
            .map(|(s, p)| {
                SeatRng::new(
                    table_seat_key(self.seed, p.stream_name(), s as u8),
                    self.game - 1,
                )
            })
            .collect()
    }

    /// Every seat's policy under the shard's rules and reading.
    pub fn actors(&self) -> Result<Vec<TableActor>, ReplayError> {
        self.seats
            .iter()
            .map(|p| {
                TablePolicy::new(p, &self.rules, self.reading)
                    .map(TableActor::Policy)
                    .map_err(|e| self.bad(e.to_string()))
            })
            .collect()
    }

    /// Regenerate and trace the game on the engine.
    pub fn trace(&self) -> Result<TableTraced, ReplayError> {
        let deck = self.deck()?;
        let actors = self.actors()?;
        trace_table(&self.rules, &deck, &actors, &mut self.seat_rngs())
            .map_err(|f| self.bad(format!("policy seats cannot fault: {f:?}")))
    }

    /// Check the traced game against the shard's tables; returns what was checked, in words.
    pub fn confirm(&self, g: &TableTraced) -> Result<String, ReplayError> {
        let tricks = self.dir.join(TRICKS_FILE);
        if tricks.exists() {
            self.confirm_cards(&tricks, g)?;
            return Ok(format!(
                "card for card against {} (game id {})",
                tricks.display(),
                self.table_id()
            ));
        }
        let games = self.dir.join(GAMES_FILE);
        self.confirm_points(&games, g)?;
        Ok(format!(
            "each seat's points against {} (game id {}; this shard keeps no trick table)",
            games.display(),
            self.table_id()
        ))
    }

    fn confirm_cards(&self, path: &Path, g: &TableTraced) -> Result<(), ReplayError> {
        let n = self.rules.players();
        let cols: Vec<String> = (0..n).map(|s| self.column("card", s)).collect();
        let mut want = vec!["trick".to_string()];
        want.extend(cols.iter().cloned());
        let df = game_rows(path, "trick table", self.table_id(), &want, Some("trick"))?;
        let columns: Vec<Vec<u8>> = cols
            .iter()
            .map(|c| u8_column(&df, c, path))
            .collect::<Result<_, _>>()?;
        let rows = df.height();
        if rows != g.tricks.len() {
            return Err(mismatch(
                path,
                format!(
                    "game id {} has {rows} tricks in the table, the replay played {}; run `briscola run` to rebuild the study",
                    self.table_id(),
                    g.tricks.len()
                ),
            ));
        }
        for (k, t) in g.tricks.iter().enumerate() {
            for (s, col) in columns.iter().enumerate() {
                let stored = Card::from_id(col[k]);
                if stored != Some(t.card_of(s)) {
                    return Err(mismatch(
                        path,
                        format!(
                            "game id {}, trick {}, seat {}: the table has card id {}, the replay plays {}; the code changed since the study ran: run `briscola run`",
                            self.table_id(),
                            t.trick,
                            s + 1,
                            col[k],
                            t.card_of(s)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn confirm_points(&self, path: &Path, g: &TableTraced) -> Result<(), ReplayError> {
        let n = self.rules.players();
        let cols: Vec<String> = (0..n).map(|s| self.column("points", s)).collect();
        let df = game_rows(path, "game table", self.table_id(), &cols, None)?;
        for (s, c) in cols.iter().enumerate() {
            let stored = u8_column(&df, c, path)?;
            if stored.first() != Some(&g.outcome.points[s]) {
                return Err(mismatch(
                    path,
                    format!(
                        "game id {}: the table has {:?} points for seat {}, the replay scores {}; the code changed since the study ran: run `briscola run`",
                        self.table_id(),
                        stored.first(),
                        s + 1,
                        g.outcome.points[s]
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn mismatch(path: &Path, message: String) -> ReplayError {
    ReplayError::Mismatch {
        path: path.to_path_buf(),
        message,
    }
}

/// Column `name` of `df` as bytes, or a sentence saying the table is not what the shard wrote.
fn u8_column(df: &DataFrame, name: &str, path: &Path) -> Result<Vec<u8>, ReplayError> {
    df.column(name)
        .ok()
        .and_then(|c| c.cast(&DataType::UInt8).ok())
        .and_then(|c| c.u8().ok().map(|ca| ca.into_no_null_iter().collect()))
        .ok_or_else(|| ReplayError::BadFile {
            path: path.to_path_buf(),
            message: format!(
                "column {name} is missing or not small integers; this is not the table the shard wrote: run `briscola run` to rebuild it"
            ),
        })
}

/// The rows of game `id` of the table at `path` with `columns`, sorted by `sort_by`.
pub(crate) fn game_rows(
    path: &Path,
    what: &str,
    id: u64,
    columns: &[String],
    sort_by: Option<&str>,
) -> Result<DataFrame, ReplayError> {
    let bad = |message: String| ReplayError::BadFile {
        path: path.to_path_buf(),
        message,
    };
    let p = path
        .to_str()
        .ok_or_else(|| bad("the path is not UTF-8".into()))?;
    let lf = LazyFrame::scan_parquet(PlRefPath::new(p), ScanArgsParquet::default())
        .map_err(|_| bad(format!("cannot read the {what}: not a Parquet file the shard wrote; run `briscola run` to rebuild it")))?;
    let schema = lf
        .clone()
        .collect_schema()
        .map_err(|_| bad(format!("cannot read the {what}: not a Parquet file the shard wrote; run `briscola run` to rebuild it")))?;
    let mut need = vec!["game_id".to_string()];
    need.extend(columns.iter().cloned());
    if let Some(missing) = need.iter().find(|c| schema.get(c.as_str()).is_none()) {
        return Err(bad(format!(
            "the {what} has no column {missing}; it was not written by this version: run `briscola run` to rebuild it"
        )));
    }
    let lf = lf
        .filter(col("game_id").cast(DataType::UInt64).eq(lit(id)))
        .select(columns.iter().map(|c| col(c.as_str())).collect::<Vec<_>>());
    match sort_by {
        Some(c) => lf.sort([c], Default::default()),
        None => lf,
    }
    .collect()
    .map_err(|_| {
        bad(format!(
            "cannot read the {what}'s rows of game id {id}; run `briscola run` to rebuild it"
        ))
    })
}
