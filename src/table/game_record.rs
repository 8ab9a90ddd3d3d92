//! The game record: one game as a JSON file (format version, where the deal came from, the
//! rules, who sat where, the deck and every play), written by `briscola play` and read by
//! `briscola replay --record`.
//!
//! Invariant: a record that loads has a well-formed deck and 20 tricks; replaying it on the
//! engine ([`GameRecord::replay`]) reproduces every recorded trick and the final points, or
//! fails naming the first difference. Records are written to a temporary file and renamed.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::replay_error::ReplayError;
use crate::game::{Card, Deck, Seat, SeatRng};
use crate::policy::PolicySpec;
use crate::tournament::seat_key;
use briscola_core::table::card_text::{serde_card, serde_cards};
use briscola_core::table::{SeatActor, TracedGame, trace_game};

/// The `format` field of every record.
pub const RECORD_FORMAT: &str = "briscola-game-record";
/// The record version this code writes and reads.
pub const RECORD_VERSION: u32 = 1;

/// A seat's name in records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatName {
    /// First seat (leads trick 1).
    G1,
    /// Second seat.
    G2,
}

impl From<Seat> for SeatName {
    fn from(s: Seat) -> SeatName {
        match s {
            Seat::G1 => SeatName::G1,
            Seat::G2 => SeatName::G2,
        }
    }
}

/// Where the deal came from (for the reader; the deck itself is in the record).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "kebab-case", deny_unknown_fields)]
pub enum DealRecord {
    /// `briscola play --seed SEED`.
    Play {
        /// The seed.
        seed: u64,
    },
    /// A game of a study.
    Study {
        /// The study.
        study: String,
        /// The matchup slug.
        matchup: String,
        /// 1-based game number within the matchup.
        game: u64,
    },
}

/// Who sat in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRecord {
    /// The seat.
    pub seat: SeatName,
    /// `human` or the policy's name.
    pub player: String,
    /// The policy, for a policy seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicySpec>,
}

/// One trick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrickEntry {
    /// 1..=20.
    pub trick: u8,
    /// Who led.
    pub leader: SeatName,
    /// G1's card.
    #[serde(with = "serde_card")]
    pub g1: Card,
    /// G2's card.
    #[serde(with = "serde_card")]
    pub g2: Card,
    /// Who won.
    pub winner: SeatName,
    /// The trick's points.
    pub points: u8,
}

/// One game, as saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Always [`RECORD_FORMAT`].
    pub format: String,
    /// [`RECORD_VERSION`].
    pub version: u32,
    /// The rules played (`two-player`).
    pub rules: String,
    /// Where the deal came from.
    pub deal: DealRecord,
    /// The 40 cards in deal order (G1's three, G2's three, the stock; the last is face up).
    #[serde(with = "serde_cards")]
    pub deck: Vec<Card>,
    /// Seed of the policy seats' random streams (key: this seed, the policy's name, the seat).
    pub seat_seed: i64,
    /// Stream number of the policy seats' random streams.
    pub seat_stream: u64,
    /// G1 and G2.
    pub seats: [SeatRecord; 2],
    /// Every trick.
    pub tricks: Vec<TrickEntry>,
    /// Final points of G1 and G2.
    pub points: [u8; 2],
    /// `G1`, `G2` or `tie`.
    pub winner: String,
}

fn winner_word(points: [u8; 2]) -> &'static str {
    match points[0].cmp(&points[1]) {
        std::cmp::Ordering::Greater => "G1",
        std::cmp::Ordering::Less => "G2",
        std::cmp::Ordering::Equal => "tie",
    }
}

impl GameRecord {
    /// The record of a traced game.
    pub fn of(
        game: &TracedGame,
        deal: DealRecord,
        seats: [SeatRecord; 2],
        seat_seed: i64,
        seat_stream: u64,
    ) -> GameRecord {
        GameRecord {
            format: RECORD_FORMAT.into(),
            version: RECORD_VERSION,
            rules: "two-player".into(),
            deal,
            deck: game.deck.cards().to_vec(),
            seat_seed,
            seat_stream,
            seats,
            tricks: game
                .tricks
                .iter()
                .map(|t| TrickEntry {
                    trick: t.trick,
                    leader: t.leader.into(),
                    g1: t.card_g1,
                    g2: t.card_g2,
                    winner: t.winner.into(),
                    points: t.points,
                })
                .collect(),
            points: game.outcome.points,
            winner: winner_word(game.outcome.points).into(),
        }
    }

    /// Read and check a record file.
    pub fn load(path: &Path) -> Result<GameRecord, ReplayError> {
        GameRecord::parse(&read_record_text(path)?, path)
    }

    /// Parse and check a record's text; `path` names it in messages.
    pub fn parse(text: &str, path: &Path) -> Result<GameRecord, ReplayError> {
        let bad = |message: String| ReplayError::BadFile {
            path: path.to_path_buf(),
            message,
        };
        let rec: GameRecord = serde_json::from_str(text).map_err(|e| {
            bad(format!(
                "not a valid game record (line {}, column {}: {}); records are written by `briscola play`",
                e.line(),
                e.column(),
                crate::policy::plain_message(&e.to_string())
            ))
        })?;
        if rec.format != RECORD_FORMAT {
            return Err(bad(format!(
                "field `format` is `{}`; a game record says `{RECORD_FORMAT}`",
                rec.format
            )));
        }
        if rec.version != RECORD_VERSION {
            return Err(bad(format!(
                "field `version` is {}; this briscola reads version {RECORD_VERSION}",
                rec.version
            )));
        }
        if rec.rules != "two-player" {
            return Err(bad(format!(
                "field `rules` is `{}`; this briscola plays `two-player`",
                rec.rules
            )));
        }
        rec.deck_checked()
            .map_err(|m| bad(format!("field `deck`: {m}")))?;
        if rec.tricks.len() != 20 {
            return Err(bad(format!(
                "field `tricks` holds {} tricks; a game has 20",
                rec.tricks.len()
            )));
        }
        for (i, s) in rec.seats.iter().enumerate() {
            let want = if i == 0 { SeatName::G1 } else { SeatName::G2 };
            if s.seat != want {
                return Err(bad(format!(
                    "field `seats[{i}].seat` is {:?}; seats are listed G1 then G2",
                    s.seat
                )));
            }
            if s.player != "human" && s.policy.is_none() {
                return Err(bad(format!(
                    "field `seats[{i}]`: player `{}` has no `policy`; a seat is `human` or a policy",
                    s.player
                )));
            }
        }
        Ok(rec)
    }

    fn deck_checked(&self) -> Result<Deck, String> {
        deck_of(&self.deck)
    }

    /// Write the record as pretty JSON to `path` (through a temporary file in the same
    /// directory, then a rename).
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| ReplayError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        text.push('\n');
        save_text(&text, path)
    }

    /// Replay the record on the engine: policy seats play their policy (explained), human seats
    /// their recorded cards. Fails if a recorded card is not in its seat's hand, or if anything
    /// the engine plays differs from the record. `path` names the record in messages.
    pub fn replay(&self, path: &Path) -> Result<TracedGame, ReplayError> {
        let mismatch = |message: String| ReplayError::Mismatch {
            path: path.to_path_buf(),
            message,
        };
        let deck = self
            .deck_checked()
            .map_err(|m| mismatch(format!("field `deck`: {m}")))?;
        let seat_of = |i: usize| if i == 0 { Seat::G1 } else { Seat::G2 };
        let actors: Vec<SeatActor> = (0..2)
            .map(|i| match &self.seats[i].policy {
                Some(p) if self.seats[i].player != "human" => match record_spec(p, path).try_build() {
                    Ok(built) => Ok(SeatActor::Policy(built)),
                    Err(e) => Err(ReplayError::BadFile {
                        path: path.to_path_buf(),
                        message: format!(
                            "field `seats[{i}].policy` cannot be played: {e}; records are written by `briscola play`"
                        ),
                    }),
                },
                _ => Ok(SeatActor::Script(
                    self.tricks
                        .iter()
                        .map(|t| if i == 0 { t.g1 } else { t.g2 })
                        .collect(),
                )),
            })
            .collect::<Result<_, _>>()?;
        let mut rngs = [0, 1].map(|i| {
            let name = &self.seats[i].player;
            SeatRng::new(seat_key(self.seat_seed, name, seat_of(i)), self.seat_stream)
        });
        let game = trace_game(&deck, [&actors[0], &actors[1]], &mut rngs).map_err(|f| {
            mismatch(format!(
                "trick {}: the record has {} play {}, which it does not hold (hand: {})",
                f.trick,
                SeatName::from(f.seat).as_str(),
                f.wanted.map_or("nothing".to_string(), |c| c.to_string()),
                f.hand
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        for (t, r) in game.tricks.iter().zip(&self.tricks) {
            let played = TrickEntry {
                trick: t.trick,
                leader: t.leader.into(),
                g1: t.card_g1,
                g2: t.card_g2,
                winner: t.winner.into(),
                points: t.points,
            };
            if &played != r {
                return Err(mismatch(format!(
                    "trick {}: the record says {} / {} (leader {}, winner {}, {} points), the engine plays {} / {} (leader {}, winner {}, {} points) from this deal: the record was edited, or a policy changed since it was saved",
                    r.trick,
                    r.g1,
                    r.g2,
                    r.leader.as_str(),
                    r.winner.as_str(),
                    r.points,
                    played.g1,
                    played.g2,
                    played.leader.as_str(),
                    played.winner.as_str(),
                    played.points
                )));
            }
        }
        if game.outcome.points != self.points || winner_word(self.points) != self.winner {
            return Err(mismatch(format!(
                "the record says points {:?} ({}), the tricks give {:?} ({})",
                self.points,
                self.winner,
                game.outcome.points,
                winner_word(game.outcome.points)
            )));
        }
        Ok(game)
    }
}

impl SeatName {
    /// `G1` or `G2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SeatName::G1 => "G1",
            SeatName::G2 => "G2",
        }
    }
}

/// `spec` as a record at `path` names it, its model paths taken relative to the record.
pub(crate) fn record_spec(spec: &PolicySpec, path: &Path) -> PolicySpec {
    let mut spec = spec.clone();
    let dir = path.parent().unwrap_or(Path::new(""));
    super::model_paths::models_from_record(&mut spec, dir);
    spec
}

/// A record's `deck` field as a deck: the 40 distinct cards, or what is wrong.
pub(crate) fn deck_of(cards: &[Card]) -> Result<Deck, String> {
    let ids: Vec<u8> = cards.iter().map(|c| c.id()).collect();
    Deck::from_ids(&ids).ok_or_else(|| {
        format!(
            "{} cards, not the 40 distinct cards of the deck",
            cards.len()
        )
    })
}

/// A record file's text: at most 1 MiB (a whole game's record is a few kilobytes), UTF-8.
pub(crate) fn read_record_text(path: &Path) -> Result<String, ReplayError> {
    let bad = |message: String| ReplayError::BadFile {
        path: path.to_path_buf(),
        message,
    };
    let bytes = crate::files::read_capped(path, 1 << 20)
        .map_err(|e| bad(format!("cannot read the record: {e}")))?;
    String::from_utf8(bytes).map_err(|e| bad(format!("not a game record: not UTF-8 text ({e})")))
}

/// Write a record's `text` to `path` through a temporary file in the same directory and a
/// rename; a device, FIFO, directory or link at `path` is refused.
pub(crate) fn save_text(text: &str, path: &Path) -> Result<(), ReplayError> {
    let err = |message: String| ReplayError::Write {
        path: path.to_path_buf(),
        message,
    };
    if let Some(problem) = crate::files::output_problem(path) {
        return Err(ReplayError::Refused {
            path: path.to_path_buf(),
            message: problem,
        });
    }
    let dir = crate::files::parent_dir(path);
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        std::process::id()
    ));
    std::fs::write(&tmp, text).map_err(|e| err(e.to_string()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyKind, TieBreak};

    fn sample() -> (GameRecord, tempfile::TempDir) {
        let deck = Deck::ordered();
        let counter = PolicySpec::paper(PolicyKind::Counter, TieBreak::AsReleased);
        let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased);
        let actors = [
            SeatActor::Policy(greedy.build()),
            SeatActor::Policy(counter.build()),
        ];
        let mut rngs = [SeatRng::new([0; 32], 0), SeatRng::new([0; 32], 0)];
        let game = trace_game(&deck, [&actors[0], &actors[1]], &mut rngs).unwrap();
        // G1 recorded as a human who played greedy's cards.
        let rec = GameRecord::of(
            &game,
            DealRecord::Play { seed: 3 },
            [
                SeatRecord {
                    seat: SeatName::G1,
                    player: "human".into(),
                    policy: None,
                },
                SeatRecord {
                    seat: SeatName::G2,
                    player: "counter".into(),
                    policy: Some(counter),
                },
            ],
            3,
            0,
        );
        (rec, tempfile::tempdir().unwrap())
    }

    #[test]
    fn a_saved_record_loads_and_replays() {
        let (rec, dir) = sample();
        let path = dir.path().join("g.json");
        rec.save(&path).unwrap();
        let back = GameRecord::load(&path).unwrap();
        assert_eq!(back, rec);
        let game = back.replay(&path).unwrap();
        assert_eq!(game.outcome.points, rec.points);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary left"
        );
    }

    #[test]
    fn corrupted_records_are_named_errors() {
        let (rec, dir) = sample();
        let path = dir.path().join("g.json");
        rec.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let cases: Vec<(String, &str)> = vec![
            (
                text[..text.len() / 2].to_string(),
                "not a valid game record",
            ),
            ("\u{0}\u{ff}".to_string(), "not a valid game record"),
            (
                text.replace("\"version\": 1", "\"version\": 9"),
                "field `version`",
            ),
            (
                text.replacen("\"1 Oro\"", "\"1 Denari\"", 1),
                "is not a card",
            ),
            (text.replacen("\"1 Oro\"", "\"2 Oro\"", 1), "field `deck`"),
        ];
        for (body, want) in cases {
            std::fs::write(&path, body).unwrap();
            let e = GameRecord::load(&path).unwrap_err().to_string();
            assert!(e.contains(want) && e.contains("g.json"), "{want}: {e}");
        }
        // Well-formed, but a play that the deal does not allow.
        let mut bad = rec.clone();
        bad.tricks[0].g1 = bad.deck[39];
        let e = bad.replay(&path).unwrap_err().to_string();
        assert!(e.contains("trick 1") && e.contains("does not hold"), "{e}");
        let mut bad = rec.clone();
        bad.points = [120, 0];
        let e = bad.replay(&path).unwrap_err().to_string();
        assert!(e.contains("points"), "{e}");
    }
}
