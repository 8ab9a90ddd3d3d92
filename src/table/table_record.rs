//! The record of a game at a table of three, four or six (`briscola play --players N`, and the
//! web table): format version, the rules, the deal's seed, the deck, who sat where (a person or
//! a policy, and their team) and every trick's cards by seat; read by `briscola replay
//! --record` like a two-player record.
//!
//! Invariant: a record that loads has valid rules, the 40 distinct cards and one seat entry per
//! player, each a person or a policy; replaying it ([`TableRecord::replay`]) plays the policy
//! seats on their streams and the person's recorded cards on the engine and reproduces every
//! trick and each seat's points, or fails naming the first difference.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::game_record::DealRecord;
use super::replay_error::ReplayError;
use super::table_session::TableGameDone;
use crate::game::{Card, Deck, Rules, RulesSpec, SeatRng};
use crate::policy::{FollowReading, PolicySpec, TablePolicy};
use crate::tournament::table_seat_key;
use briscola_core::table::card_text::serde_cards;
use briscola_core::table::{TableActor, TableTraced, trace_table};

/// The `format` field of a table record.
pub const TABLE_RECORD_FORMAT: &str = "briscola-table-record";
/// The table record version this code writes and reads.
pub const TABLE_RECORD_VERSION: u32 = 1;

/// Who sat in a seat of a table game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSeatRecord {
    /// 1-based seat.
    pub seat: u8,
    /// 1-based team (side).
    pub team: u8,
    /// `human` or the policy's name.
    pub player: String,
    /// The policy, for a policy seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicySpec>,
}

/// One trick of a table game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableTrickEntry {
    /// 1-based trick.
    pub trick: u8,
    /// 1-based seat that led.
    pub leader: u8,
    /// Each seat's card, seat 1 first.
    #[serde(with = "serde_cards")]
    pub cards: Vec<Card>,
    /// 1-based seat that won.
    pub winner: u8,
    /// The trick's points.
    pub points: u8,
}

/// A table game, as saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRecord {
    /// Always [`TABLE_RECORD_FORMAT`].
    pub format: String,
    /// [`TABLE_RECORD_VERSION`].
    pub version: u32,
    /// The rules.
    pub rules: RulesSpec,
    /// How computer players read "win the trick" when a partner is winning.
    pub reading: FollowReading,
    /// Where the deal came from.
    pub deal: DealRecord,
    /// The 40 cards the deal shuffled (the variant's removed cards are skipped in play).
    #[serde(with = "serde_cards")]
    pub deck: Vec<Card>,
    /// Seed of the policy seats' streams (key: this seed, the policy's name, the seat).
    pub seat_seed: i64,
    /// Stream number of the policy seats' streams.
    pub seat_stream: u64,
    /// Every seat, seat 1 first.
    pub seats: Vec<TableSeatRecord>,
    /// Every trick.
    pub tricks: Vec<TableTrickEntry>,
    /// Each seat's points.
    pub seat_points: Vec<u8>,
    /// Each team's (side's) points.
    pub team_points: Vec<u16>,
    /// `team 1`, `seat 2`, ... or `tie`.
    pub winner: String,
}

/// A saved game of either kind.
#[derive(Clone, Debug)]
pub enum AnyRecord {
    /// Two players (`briscola play`).
    TwoPlayer(Box<super::GameRecord>),
    /// Three, four or six (`briscola play --players N`, the web table).
    Table(Box<TableRecord>),
}

/// Read a record file of either kind (told apart by its `format` field).
pub fn load_record(path: &Path) -> Result<AnyRecord, ReplayError> {
    let text = super::game_record::read_record_text(path)?;
    let format = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format").and_then(|f| f.as_str()).map(str::to_owned));
    if format.as_deref() == Some(TABLE_RECORD_FORMAT) {
        return Ok(AnyRecord::Table(Box::new(TableRecord::parse(&text, path)?)));
    }
    Ok(AnyRecord::TwoPlayer(Box::new(super::GameRecord::parse(
        &text, path,
    )?)))
}

fn winner_text(rules: &Rules, side: Option<usize>) -> String {
    match side {
        None => "tie".into(),
        Some(s) if rules.sides() < rules.players() => format!("team {}", s + 1),
        Some(s) => format!("seat {}", s + 1),
    }
}

impl TableRecord {
    /// The record of a finished game.
    #[allow(clippy::too_many_arguments)]
    pub fn of(
        rules: &Rules,
        reading: FollowReading,
        deal: DealRecord,
        deck: &Deck,
        seats: Vec<TableSeatRecord>,
        seat_seed: i64,
        seat_stream: u64,
        game: &TableGameDone,
    ) -> TableRecord {
        let n = rules.players();
        let side_pts = game.outcome.side_points(rules);
        TableRecord {
            format: TABLE_RECORD_FORMAT.into(),
            version: TABLE_RECORD_VERSION,
            rules: *rules.spec(),
            reading,
            deal,
            deck: deck.cards().to_vec(),
            seat_seed,
            seat_stream,
            seats,
            tricks: game
                .tricks
                .iter()
                .map(|t| TableTrickEntry {
                    trick: t.trick,
                    leader: t.leader + 1,
                    cards: (0..n).map(|s| t.card_of(s)).collect(),
                    winner: t.winner + 1,
                    points: t.points,
                })
                .collect(),
            seat_points: game.outcome.points[..n].to_vec(),
            team_points: side_pts[..rules.sides()].to_vec(),
            winner: winner_text(rules, game.outcome.winner_side(rules)),
        }
    }

    /// Parse and check a table record's text; `path` names it in messages.
    pub fn parse(text: &str, path: &Path) -> Result<TableRecord, ReplayError> {
        let bad = |message: String| ReplayError::BadFile {
            path: path.to_path_buf(),
            message,
        };
        let rec: TableRecord = serde_json::from_str(text).map_err(|e| {
            bad(format!(
                "not a valid table record (line {}, column {}: {}); records are written by `briscola play`",
                e.line(),
                e.column(),
                crate::policy::plain_message(&e.to_string())
            ))
        })?;
        if rec.version != TABLE_RECORD_VERSION {
            return Err(bad(format!(
                "field `version` is {}; this briscola reads version {TABLE_RECORD_VERSION}",
                rec.version
            )));
        }
        let rules = rec
            .rules
            .validate()
            .map_err(|e| bad(format!("field `rules`: {e}")))?;
        rec.deck_checked()
            .map_err(|m| bad(format!("field `deck`: {m}")))?;
        if rec.seats.len() != rules.players() {
            return Err(bad(format!(
                "field `seats` lists {} seats; the rules seat {}",
                rec.seats.len(),
                rules.players()
            )));
        }
        for (i, s) in rec.seats.iter().enumerate() {
            if usize::from(s.seat) != i + 1 {
                return Err(bad(format!(
                    "field `seats[{i}].seat` is {}; seats are listed 1, 2, ... in order",
                    s.seat
                )));
            }
            let team = rules.side_of(i) + 1;
            if usize::from(s.team) != team {
                return Err(bad(format!(
                    "field `seats[{i}].team` is {}; under these rules seat {} plays for team {team}",
                    s.team,
                    i + 1
                )));
            }
            if s.player != "human" && s.policy.is_none() {
                return Err(bad(format!(
                    "field `seats[{i}]`: player `{}` has no `policy`; a seat is `human` or a policy",
                    s.player
                )));
            }
        }
        if rec.tricks.is_empty() || rec.tricks.len() > rules.tricks() {
            return Err(bad(format!(
                "field `tricks` holds {} tricks; a game of these rules has 1 to {}",
                rec.tricks.len(),
                rules.tricks()
            )));
        }
        if let Some(t) = rec.tricks.iter().find(|t| t.cards.len() != rules.players()) {
            return Err(bad(format!(
                "trick {} lists {} cards; each trick lists one per seat ({})",
                t.trick,
                t.cards.len(),
                rules.players()
            )));
        }
        Ok(rec)
    }

    fn deck_checked(&self) -> Result<Deck, String> {
        super::game_record::deck_of(&self.deck)
    }

    /// Write the record as pretty JSON to `path` (through a temporary file, then a rename).
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| ReplayError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        text.push('\n');
        super::game_record::save_text(&text, path)
    }

    /// Replay the record on the engine: policy seats play their policy (explained), the
    /// person's seats their recorded cards. Fails on a card a seat may not play, or on any
    /// difference from the record.
    pub fn replay(&self, path: &Path) -> Result<TableTraced, ReplayError> {
        let mismatch = |message: String| ReplayError::Mismatch {
            path: path.to_path_buf(),
            message,
        };
        let bad = |message: String| ReplayError::BadFile {
            path: path.to_path_buf(),
            message,
        };
        let rules = self
            .rules
            .validate()
            .map_err(|e| bad(format!("field `rules`: {e}")))?;
        let deck = self
            .deck_checked()
            .map_err(|m| bad(format!("field `deck`: {m}")))?;
        let actors = self.actors(&rules, path)?;
        let mut rngs: Vec<SeatRng> = self
            .seats
            .iter()
            .enumerate()
            .map(|(s, r)| {
                SeatRng::new(
                    table_seat_key(self.seat_seed, &r.player, s as u8),
                    self.seat_stream,
                )
            })
            .collect();
        let game = trace_table(&rules, &deck, &actors, &mut rngs).map_err(|f| {
            mismatch(format!(
                "trick {}: the record has seat {} play {}, which it may not play (it could play {})",
                f.trick,
                f.seat + 1,
                f.wanted.map_or("nothing".to_string(), |c| c.to_string()),
                f.legal
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let done = TableGameDone {
            tricks: game.tricks.clone(),
            outcome: game.outcome,
        };
        let again = TableRecord::of(
            &rules,
            self.reading,
            self.deal.clone(),
            &deck,
            self.seats.clone(),
            self.seat_seed,
            self.seat_stream,
            &done,
        );
        if let Some((t, r)) = again.tricks.iter().zip(&self.tricks).find(|(a, b)| a != b) {
            let cards = |e: &TableTrickEntry| {
                e.cards
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let (field, engine, record) = if t.cards != r.cards {
                ("cards", cards(t), cards(r))
            } else if t.leader != r.leader {
                ("leader", t.leader.to_string(), r.leader.to_string())
            } else if t.winner != r.winner {
                ("winner", t.winner.to_string(), r.winner.to_string())
            } else if t.points != r.points {
                ("points", t.points.to_string(), r.points.to_string())
            } else {
                ("trick number", t.trick.to_string(), r.trick.to_string())
            };
            return Err(mismatch(format!(
                "trick {}: its {field} is {record} in the record, {engine} on the engine; the record was edited, or the code changed since it was saved",
                r.trick
            )));
        }
        if again.tricks.len() != self.tricks.len()
            || again.seat_points != self.seat_points
            || again.team_points != self.team_points
            || again.winner != self.winner
        {
            return Err(mismatch(format!(
                "the engine's game ends {} tricks, seat points {:?}, team points {:?}, {}; the record says {} tricks, {:?}, {:?}, {}",
                again.tricks.len(),
                again.seat_points,
                again.team_points,
                again.winner,
                self.tricks.len(),
                self.seat_points,
                self.team_points,
                self.winner
            )));
        }
        Ok(game)
    }

    /// Each seat's actor: its policy, or the person's recorded cards.
    fn actors(&self, rules: &Rules, path: &Path) -> Result<Vec<TableActor>, ReplayError> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| match &s.policy {
                Some(p) if s.player != "human" => {
                    let spec = super::game_record::record_spec(p, path);
                    TablePolicy::for_table(&spec, rules, self.reading)
                        .map(TableActor::Policy)
                        .map_err(|e| ReplayError::BadFile {
                            path: path.to_path_buf(),
                            message: format!(
                                "field `seats[{i}].policy` cannot be played: {e}; records are written by `briscola play`"
                            ),
                        })
                }
                _ => Ok(TableActor::Script(
                    self.tricks
                        .iter()
                        .filter_map(|t| t.cards.get(i).copied())
                        .collect(),
                )),
            })
            .collect()
    }
}
