//! One game of a study, found again: a shard's spec (its `shard.json`, what the study really
//! ran) regenerates the game's deck from the deal source's seed and position, and the shard's
//! trick table confirms the replay card for card (or, for a shard written without its trick
//! table, the game table confirms the final points).
//!
//! Invariant: game `n` (1-based within its matchup) gets the deck and seat streams the simulate
//! stage gave it: with dotnet-replay the shared stream skipped by `39 * (first_game + n - 1)`
//! draws, with chacha the matchup's key on stream `n - 1`.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::replay_error::ReplayError;
use crate::game::{Card, Deck, SeatRng, TrickRecord};
use crate::tournament::{
    DealSeed, DealStream, GAMES_FILE, GeneratorSeed, SHARD_FILE, ShardSpec, ShardSummary,
    TRICKS_FILE, seat_keys,
};

/// A game of a shard: the spec and the game's 1-based number within the matchup.
#[derive(Clone, Debug)]
pub struct StudyGame {
    /// The shard directory.
    pub dir: PathBuf,
    /// What the shard ran.
    pub spec: ShardSpec,
    /// 1-based game number within the matchup.
    pub game: u64,
}

impl StudyGame {
    /// Game `game` of the shard in `dir`; `what` names the matchup in messages and `config` is
    /// the file to suggest running when the shard is missing.
    pub fn open(
        dir: &Path,
        game: u64,
        what: &str,
        config: &Path,
    ) -> Result<StudyGame, ReplayError> {
        let path = dir.join(SHARD_FILE);
        if !path.is_file() {
            return Err(ReplayError::NotRun {
                what: what.to_string(),
                path,
                config: config.to_path_buf(),
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|e| ReplayError::BadFile {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let summary: ShardSummary =
            serde_json::from_str(&text).map_err(|e| ReplayError::BadFile {
                path: path.clone(),
                message: format!("not a shard summary ({e}); run `briscola run` to rebuild it"),
            })?;
        let spec = summary.spec;
        if game == 0 || game > spec.games {
            return Err(ReplayError::GameOutOfRange {
                game,
                what: what.to_string(),
                games: spec.games,
            });
        }
        Ok(StudyGame {
            dir: dir.to_path_buf(),
            spec,
            game,
        })
    }

    /// The game's id in the shard's tables (`first_game + game`).
    pub fn table_id(&self) -> u64 {
        self.spec.first_game + self.game
    }

    /// The deck, regenerated from the deal source.
    pub fn deck(&self) -> Result<Deck, ReplayError> {
        let index = self.game - 1;
        let seed = DealSeed::new(self.spec.deal_source, self.spec.seed).map_err(|e| {
            ReplayError::BadFile {
                path: self.dir.join(SHARD_FILE),
                message: format!("seed {e}"),
            }
        })?;
        let mut stream = match seed.generator() {
            GeneratorSeed::Dotnet(seed) => DealStream::dotnet(seed, self.spec.first_game + index),
            GeneratorSeed::Chacha(seed) => {
                let (g1, g2) = (self.spec.g1.stream_name(), self.spec.g2.stream_name());
                // Paired (duplicate-format) shards deal from the unordered pair's stream.
                let mut stream = if self.spec.paired {
                    DealStream::chacha_paired(seed, g1, g2)
                } else {
                    DealStream::chacha(seed, g1, g2)
                };
                stream.skip(index);
                stream
            }
        };
        let mut out = Vec::with_capacity(1);
        stream.next_chunk(1, &mut out);
        Ok(out[0])
    }

    /// The two seats' random streams for this game.
    pub fn seat_rngs(&self) -> [SeatRng; 2] {
        let keys = seat_keys(
            self.spec.seed,
            self.spec.g1.stream_name(),
            self.spec.g2.stream_name(),
        );
        let g = self.game - 1;
        [SeatRng::new(keys[0], g), SeatRng::new(keys[1], g)]
    }

    /// The game's (G1, G2) cards per trick as the shard's trick table recorded them.
    pub fn recorded_cards(&self) -> Result<Vec<(Card, Card)>, ReplayError> {
        let path = self.dir.join(TRICKS_FILE);
        let bad = bad_file(&path);
        let id = self.table_id();
        let df = self.game_rows(
            &path,
            "trick table",
            &["trick", "card_g1", "card_g2"],
            Some("trick"),
        )?;
        let column = |name: &str| -> Result<Vec<u8>, ReplayError> {
            let s = df
                .column(name)
                .and_then(|c| c.u8().map(|ca| ca.into_no_null_iter().collect::<Vec<u8>>()))
                .map_err(|e| bad(format!("column {name}: {e}")))?;
            Ok(s)
        };
        let (a, b) = (column("card_g1")?, column("card_g2")?);
        a.into_iter()
            .zip(b)
            .map(|(x, y)| match (Card::from_id(x), Card::from_id(y)) {
                (Some(x), Some(y)) => Ok((x, y)),
                _ => Err(bad(format!("game {id} holds a card id above 39"))),
            })
            .collect()
    }

    /// Check a replay's tricks against the shard's trick table, card for card; a shard that
    /// wrote no trick table (no `trick_log`) is checked by the game's final points in its game
    /// table. Returns what was checked, in words.
    pub fn confirm(&self, tricks: &[TrickRecord]) -> Result<String, ReplayError> {
        if !self.dir.join(TRICKS_FILE).exists() {
            self.confirm_points(tricks)?;
            return Ok(format!(
                "both players' points against {} (game id {}; this shard keeps no trick table)",
                self.dir.join(GAMES_FILE).display(),
                self.table_id()
            ));
        }
        let recorded = self.recorded_cards()?;
        let path = self.dir.join(TRICKS_FILE);
        if recorded.len() != tricks.len() {
            return Err(ReplayError::Mismatch {
                path,
                message: format!(
                    "game id {} has {} tricks in the table, the replay played {}; run `briscola run` to rebuild the study",
                    self.table_id(),
                    recorded.len(),
                    tricks.len()
                ),
            });
        }
        for (t, (c1, c2)) in tricks.iter().zip(recorded) {
            if (t.card_g1, t.card_g2) != (c1, c2) {
                return Err(ReplayError::Mismatch {
                    path,
                    message: format!(
                        "game id {}, trick {}: the table has {c1} / {c2}, the replay plays {} / {}; the code changed since the study ran: run `briscola run`",
                        self.table_id(),
                        t.trick,
                        t.card_g1,
                        t.card_g2
                    ),
                });
            }
        }
        Ok(format!(
            "card for card against {} (game id {})",
            path.display(),
            self.table_id()
        ))
    }

    /// Check a replay's final points against the game's row of the shard's game table.
    fn confirm_points(&self, tricks: &[TrickRecord]) -> Result<(), ReplayError> {
        let path = self.dir.join(GAMES_FILE);
        let bad = bad_file(&path);
        let id = self.table_id();
        let df = self.game_rows(&path, "game table", &["points_g1", "points_g2"], None)?;
        if df.height() != 1 {
            return Err(bad(format!(
                "the game table has {} rows for game id {id}, where it has one for each game of the shard's shard.json: the shard's files do not belong together; run `briscola run` to write them again",
                df.height()
            )));
        }
        let points = |name: &str| -> Result<Option<u8>, ReplayError> {
            df.column(name)
                .and_then(|c| c.u8().map(|ca| ca.get(0)))
                .map_err(|e| bad(format!("column {name}: {e}")))
        };
        let recorded = (points("points_g1")?, points("points_g2")?);
        let mut played = [0u8; 2];
        for t in tricks {
            played[(t.winner == crate::game::Seat::G2) as usize] += t.points;
        }
        if recorded != (Some(played[0]), Some(played[1])) {
            return Err(ReplayError::Mismatch {
                path: path.clone(),
                message: format!(
                    "game id {id}: the table has points {} / {}, the replay scores {} / {}; the code changed since the study ran: run `briscola run`",
                    shown(recorded.0),
                    shown(recorded.1),
                    played[0],
                    played[1]
                ),
            });
        }
        Ok(())
    }

    /// This game's rows of the shard table at `path` (the `what` of its errors), with
    /// `columns`, sorted by `sort_by` when given.
    fn game_rows(
        &self,
        path: &Path,
        what: &str,
        columns: &[&str],
        sort_by: Option<&str>,
    ) -> Result<DataFrame, ReplayError> {
        let bad = bad_file(path);
        let p = path
            .to_str()
            .ok_or_else(|| bad("the path is not UTF-8".into()))?;
        let id = self.table_id() as u32;
        LazyFrame::scan_parquet(PlRefPath::new(p), ScanArgsParquet::default())
            .and_then(|lf| {
                let lf = lf
                    .filter(col("game_id").eq(lit(id)))
                    .select(columns.iter().map(|c| col(*c)).collect::<Vec<_>>());
                match sort_by {
                    Some(c) => lf.sort([c], Default::default()),
                    None => lf,
                }
                .collect()
            })
            .map_err(|e| {
                bad(format!(
                    "cannot read the {what} ({e}); `briscola verify` checks the study's published files and `briscola run` restores them"
                ))
            })
    }
}

/// A table cell as the messages show it: its number, or "none" for a missing value.
fn shown(v: Option<u8>) -> String {
    v.map_or_else(|| "none".to_string(), |p| p.to_string())
}

/// A [`ReplayError::BadFile`] about `path`.
fn bad_file(path: &Path) -> impl Fn(String) -> ReplayError + '_ {
    move |message| ReplayError::BadFile {
        path: path.to_path_buf(),
        message,
    }
}
