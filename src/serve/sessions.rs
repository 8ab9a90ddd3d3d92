//! The web table's games: each session a match at one table (a game in progress, the games
//! played so far and the match score), found by an unguessable id. Starting, playing, replaying
//! a deal and moving to the next game of the match are methods that return the seat's view or a
//! sentence saying what was wrong.
//!
//! Invariant: sessions are independent: each has its own lock, and the map's lock is held only
//! to find or insert one; a finished game's record is saved once, when its last card is played.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::deal::DealStream;
use crate::game::{Card, Deck, Rules, RulesSpec};
use crate::policy::{FollowReading, PolicySpec, TablePolicy};
use crate::table::{SeatGame, SeatGameSetup};
use crate::tournament::table_seat_key;

/// The most sessions kept; beyond it the least recently used is dropped.
const MAX_SESSIONS: usize = 10_000;

/// Resolve a policy name to its spec, or say what is valid.
pub type Resolver = Box<dyn Fn(&str) -> Result<PolicySpec, String> + Send + Sync>;

/// The policies a page may choose, and how a name resolves.
pub struct PolicyChoice {
    /// Name and kind of each policy offered, in order.
    pub offered: Vec<(String, String)>,
    /// Resolve a name to its spec, or say what is valid.
    pub resolve: Resolver,
}

/// What a new game asks for.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// 2, 3, 4 or 6 (read as any whole number, so that a wrong one is refused with the
    /// table's range rather than the storage type's).
    #[serde(default = "two")]
    pub players: u64,
    /// The person's seat, 1-based.
    #[serde(default = "one")]
    pub seat: u64,
    /// The opponents' policy.
    #[serde(default = "counter")]
    pub opponent: String,
    /// The partners' policy (team games; default: the opponents').
    #[serde(default)]
    pub partner: Option<String>,
    /// The match's seed (default: from the clock).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Computer partners signal their key trumps (default: off).
    #[serde(default)]
    pub signals: bool,
}

fn two() -> u64 {
    2
}
fn one() -> u64 {
    1
}
fn counter() -> String {
    "counter".into()
}

/// One match at one table.
struct Session {
    ask: NewGame,
    rules: RulesSpec,
    seed: u64,
    specs: Vec<Option<PolicySpec>>,
    /// 0-based game of the match.
    game_no: u64,
    /// Times this game's deal was played again ("play this deal again"): its records are
    /// kept apart and only its first play counts in the match score.
    replays: u32,
    game: SeatGame,
    /// Games won by each side, and ties.
    score: Vec<u32>,
    ties: u32,
    saved: Option<String>,
    last_used: u64,
}

/// Every session.
pub struct Sessions {
    map: Mutex<HashMap<String, Arc<Mutex<Session>>>>,
    policies: PolicyChoice,
    records: PathBuf,
    counter: AtomicU64,
    secret: [u8; 32],
}

/// A session's error: the HTTP status and the sentence.
pub type Refusal = (u16, String);

fn bad(msg: impl Into<String>) -> Refusal {
    (400, msg.into())
}

impl Sessions {
    /// No sessions yet; records are saved under `records`.
    pub fn new(policies: PolicyChoice, records: PathBuf) -> Sessions {
        let mut h = Sha256::new();
        // The operating system's randomness (rand's thread generator is seeded from it).
        h.update(rand::random::<[u8; 32]>());
        h.update(format!("{:?}", std::time::SystemTime::now()).as_bytes());
        h.update(std::process::id().to_le_bytes());
        h.update(format!("{:p}", &h as *const _).as_bytes());
        Sessions {
            map: Mutex::new(HashMap::new()),
            policies,
            records,
            counter: AtomicU64::new(0),
            secret: h.finalize().into(),
        }
    }

    /// The options the page offers.
    pub fn options(&self) -> Value {
        json!({
            "players": [2, 3, 4, 6],
            "policies": self.policies.offered.iter().map(|(n, k)| json!({"name": n, "kind": k})).collect::<Vec<_>>(),
            "default_opponent": "counter",
        })
    }

    fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut h = Sha256::new();
        h.update(self.secret);
        h.update(n.to_le_bytes());
        hex::encode(&h.finalize()[..12])
    }

    fn tick(&self) -> u64 {
        self.counter.fetch_add(1, Ordering::Relaxed)
    }

    /// Start a match; returns its id and the first game's view.
    pub fn start(&self, ask: NewGame) -> Result<Value, Refusal> {
        let rules = match ask.players {
            p @ (2 | 3 | 4 | 6) => RulesSpec::for_players(p as u8),
            p => {
                return Err(bad(format!(
                    "players {p}: Briscola is played by 2, 3, 4 or 6"
                )));
            }
        };
        let valid = rules
            .validate()
            .map_err(|e| bad(format!("players {}: {e}", ask.players)))?;
        let n = valid.players();
        if ask.seat == 0 || ask.seat > n as u64 {
            return Err(bad(format!(
                "seat {}: a game of {n} players has seats 1 to {n}",
                ask.seat
            )));
        }
        if ask.partner.is_some() && valid.sides() == n {
            return Err(bad(format!(
                "partner: a game of {n} players has no partners (choose 4 or 6 players)"
            )));
        }
        if ask.signals && valid.sides() == n {
            return Err(bad(format!(
                "signals: partners signal, and a game of {n} players has none (choose 4 or 6 players, or leave signals out)"
            )));
        }
        if ask.seed.is_some_and(|s| s > i64::MAX as u64) {
            return Err(bad("seed: seeds lie in 0 to 9223372036854775807"));
        }
        let resolve = |what: &str, name: &str| {
            (self.policies.resolve)(name).map_err(|e| bad(format!("{what} {name}: {e}")))
        };
        let opp = resolve("opponent", &ask.opponent)?;
        let partner = match &ask.partner {
            Some(p) => resolve("partner", p)?,
            None => opp.clone(),
        };
        let person = ask.seat as usize - 1;
        let specs: Vec<Option<PolicySpec>> = (0..n)
            .map(|s| {
                if s == person {
                    None
                } else if valid.partners(s, person) {
                    Some(partner.clone())
                } else {
                    Some(opp.clone())
                }
            })
            .collect();
        let seed = ask.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64 & (i64::MAX as u64))
        });
        let game = Session::deal(rules, seed, &specs, person, 0)?;
        let id = self.new_id();
        let session = Session {
            ask,
            rules,
            seed,
            specs,
            game_no: 0,
            replays: 0,
            game,
            score: vec![0; valid.sides()],
            ties: 0,
            saved: None,
            last_used: self.tick(),
        };
        let view = session.view(&id);
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_SESSIONS {
            let oldest = map
                .iter()
                .min_by_key(|(_, s)| s.try_lock().map_or(u64::MAX, |s| s.last_used))
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                map.remove(&k);
            }
        }
        map.insert(id, Arc::new(Mutex::new(session)));
        Ok(view)
    }

    fn find(&self, id: &str) -> Result<Arc<Mutex<Session>>, Refusal> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(id).cloned().ok_or_else(|| {
            (
                404,
                format!(
                    "no game {id}: it ended with the server, or the id is wrong; start a new game"
                ),
            )
        })
    }

    /// A session's current view.
    pub fn view(&self, id: &str) -> Result<Value, Refusal> {
        let s = self.find(id)?;
        let mut s = s.lock().unwrap_or_else(|e| e.into_inner());
        s.last_used = self.tick();
        Ok(s.view(id))
    }

    /// The person plays card `card` (its id, 0-39).
    pub fn play(&self, id: &str, card: u64) -> Result<Value, Refusal> {
        let s = self.find(id)?;
        let mut s = s.lock().unwrap_or_else(|e| e.into_inner());
        s.last_used = self.tick();
        let c = u8::try_from(card)
            .ok()
            .and_then(Card::from_id)
            .ok_or_else(|| bad(format!("card {card}: card ids are 0 to 39")))?;
        s.game.play(c).map_err(|e| (409, e.to_string()))?;
        if s.game.is_over() {
            s.finish(&self.records, id)?;
        }
        Ok(s.view(id))
    }

    /// The same deal again (same cards, same first leader).
    pub fn again(&self, id: &str) -> Result<Value, Refusal> {
        let s = self.find(id)?;
        let mut s = s.lock().unwrap_or_else(|e| e.into_inner());
        s.last_used = self.tick();
        let person = s.ask.seat as usize - 1;
        s.game = Session::deal(s.rules, s.seed, &s.specs, person, s.game_no)?;
        s.replays += 1;
        s.saved = None;
        Ok(s.view(id))
    }

    /// The match's next game: a new deal, the first leader one seat on.
    pub fn next(&self, id: &str) -> Result<Value, Refusal> {
        let s = self.find(id)?;
        let mut s = s.lock().unwrap_or_else(|e| e.into_inner());
        s.last_used = self.tick();
        let person = s.ask.seat as usize - 1;
        // The new game is dealt first: a refusal leaves the match as it was.
        s.game = Session::deal(s.rules, s.seed, &s.specs, person, s.game_no + 1)?;
        s.game_no += 1;
        s.replays = 0;
        s.saved = None;
        Ok(s.view(id))
    }
}

impl Session {
    /// Game `game_no` of the match seeded `seed`: its deck and first leader.
    fn deal(
        mut rules: RulesSpec,
        seed: u64,
        specs: &[Option<PolicySpec>],
        person: usize,
        game_no: u64,
    ) -> Result<SeatGame, Refusal> {
        let n = usize::from(rules.players);
        rules.first_leader = (game_no % n as u64) as u8;
        let rules: Rules = rules.validate().map_err(|e| bad(format!("rules: {e}")))?;
        let mut stream = DealStream::chacha(seed, "play", "play");
        stream.skip(game_no);
        let mut decks: Vec<Deck> = Vec::with_capacity(1);
        stream.next_chunk(1, &mut decks);
        let seats = specs
            .iter()
            .map(|p| match p {
                None => Ok(None),
                Some(p) => TablePolicy::for_table(p, &rules, FollowReading::PartnerAware)
                    .map(Some)
                    .map_err(|e| bad(format!("policy {}: {e}", p.name))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let keys = specs
            .iter()
            .enumerate()
            .map(|(s, p)| {
                let name = p.as_ref().map_or("human", |p| p.name.as_str());
                table_seat_key(seed as i64, name, s as u8)
            })
            .collect();
        Ok(SeatGame::start(SeatGameSetup {
            rules,
            deck: decks[0],
            seed,
            person,
            specs: specs.to_vec(),
            seats,
            keys,
            stream: game_no,
            reading: FollowReading::PartnerAware,
        }))
    }

    fn finish(&mut self, records: &std::path::Path, id: &str) -> Result<(), Refusal> {
        if self.saved.is_some() {
            return Ok(());
        }
        let Some(mut rec) = self.game.record() else {
            return Ok(());
        };
        for seat in &mut rec.seats {
            if let Some(p) = &mut seat.policy {
                crate::table::models_for_record(p, records);
            }
        }
        if self.replays == 0 {
            match rec
                .winner
                .strip_prefix("team ")
                .or(rec.winner.strip_prefix("seat "))
            {
                Some(k) => {
                    if let Some(slot) = k
                        .parse::<usize>()
                        .ok()
                        .and_then(|k| self.score.get_mut(k.saturating_sub(1)))
                    {
                        *slot += 1;
                    }
                }
                None => self.ties += 1,
            }
        }
        let again = if self.replays == 0 {
            String::new()
        } else {
            format!("-again{}", self.replays)
        };
        let path = records.join(format!("web-{id}-game{}{again}.json", self.game_no + 1));
        rec.save(&path).map_err(|e| {
            (
                500,
                format!("the game is over but its record could not be saved: {e}"),
            )
        })?;
        self.saved = Some(path.display().to_string());
        Ok(())
    }

    fn view(&self, id: &str) -> Value {
        let mut v = self.game.view();
        v["id"] = json!(id);
        v["match"] = json!({
            "game": self.game_no + 1,
            "score": self.score,
            "ties": self.ties,
            "seed": self.seed,
        });
        v["record"] = json!(self.saved);
        if self.ask.signals {
            v["signal"] = json!(self.game.partner_signals());
        }
        v
    }
}
