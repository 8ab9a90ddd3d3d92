//! One simulate shard of a rules league: the games of one seating (a policy per seat, two or
//! three seats each playing for itself) under any variant the engine plays (`game::play_table`:
//! Briscola a 31, 36- and 39-card decks, five-card hands, no trump, must-follow-suit, ...),
//! streamed to a seat-by-seat game table (`games.parquet`) and a summary (`shard.json`).
//!
//! Columns of the game table: `game_id`, `trump_suit` and `face_up` (255 when the variant has
//! no trump), `tricks` (tricks played: fewer than a full game when a claim ended it), `winner`
//! (the 1-based seat with the most points, or the claimant; 0 for a tie at the top), then per
//! seat `k` = 1..: `policy_sk`, `points_sk`, `briscole_sk`, `trumps_played_sk`, `tricks_won_sk`.
//!
//! Invariant: as for every shard, memory stays bounded by one chunk of games and the files are
//! byte-identical for any thread count; game `j` of every seating of the same policies is the
//! same deal when the spec is paired; seat `s`'s random stream depends on the seed, its
//! policy's name and `s` only.

use std::path::Path;

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use super::seat_tables::seat_column;
use super::shard::{CHUNK_GAMES, GAMES_FILE, ShardError, TableWriter};
use super::table_batch::{TableGame, play_batch_seats};
use crate::deal::DealStream;
use crate::deal::table_seat_key;
use crate::game::{Rules, RulesSpec};
use crate::policy::{FollowReading, PolicySpec, TablePolicy};

/// Everything that determines a rules league seating's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableShardSpec {
    /// The chacha seed.
    pub seed: u64,
    /// The variant.
    pub rules: RulesSpec,
    /// Games (deals) in this seating.
    pub games: u64,
    /// The policy of each seat, seat 1 (index 0, which leads the first trick unless the rules
    /// say otherwise) first.
    pub seats: Vec<PolicySpec>,
    /// Every seating of the same policies plays the same deals (duplicate format).
    pub paired: bool,
}

/// What `shard.json` holds for a rules league seating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableShardSummary {
    /// The spec that produced it.
    pub spec: TableShardSpec,
    /// Games won by each seat (most points, or the claim), seat 1 first.
    pub wins: Vec<u64>,
    /// Games tied at the top.
    pub ties: u64,
}

/// Why a league of individual seats cannot be played under `rules`: the league tables hold
/// one policy per seat, each playing for itself (two or three players).
pub fn seat_table_problem(rules: &Rules) -> Option<String> {
    (rules.sides() != rules.players()).then(|| {
        format!(
            "players = {}: a league's seats each play for themselves; partnership games \
             (4 or 6 players in two teams) are studies ([variants.NAME]); use players = 2 or 3",
            rules.players()
        )
    })
}

impl TableShardSpec {
    /// The seating's path-safe name, e.g. `greedy-vs-hoarder-vs-counter`.
    pub fn slug(&self) -> String {
        let names: Vec<&str> = self.seats.iter().map(|p| p.name.as_str()).collect();
        names.join("-vs-")
    }

    /// The names an error gives the seating: seat 1's, and the others' joined by `-vs-`.
    fn sides(&self) -> (String, String) {
        let (first, rest) = self
            .seats
            .split_first()
            .map_or(("", &[][..]), |(f, r)| (f.name.as_str(), r));
        let rest: Vec<&str> = rest.iter().map(|p| p.name.as_str()).collect();
        (first.to_string(), rest.join("-vs-"))
    }

    fn err(&self, message: String) -> ShardError {
        let (g1, g2) = self.sides();
        ShardError::Rules { g1, g2, message }
    }

    /// The validated rules and each seat's policy under them, or why they cannot be played.
    fn table(&self) -> Result<(Rules, Vec<TablePolicy>), ShardError> {
        let rules = self.rules.validate().map_err(|e| self.err(e.to_string()))?;
        if let Some(m) = seat_table_problem(&rules) {
            return Err(self.err(m));
        }
        if self.seats.len() != rules.players() {
            return Err(self.err(format!(
                "{} policies for players = {}: one policy per seat",
                self.seats.len(),
                rules.players()
            )));
        }
        let seats = self
            .seats
            .iter()
            .map(|p| {
                TablePolicy::new(p, &rules, FollowReading::Verbatim).map_err(|e| {
                    let (g1, g2) = self.sides();
                    ShardError::unfit(e, &g1, &g2)
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((rules, seats))
    }

    /// Play the seating's games in chunks of at most [`CHUNK_GAMES`], in game order, calling
    /// `chunk(games dealt before, games)` with each; stops early when `chunk` returns false.
    /// These are the games [`TableShardSpec::run`] records.
    pub fn play_chunks(
        &self,
        chunk: &mut dyn FnMut(u64, Vec<TableGame>) -> Result<bool, ShardError>,
    ) -> Result<Rules, ShardError> {
        let (rules, policies) = self.table()?;
        let seats: Vec<&TablePolicy> = policies.iter().collect();
        let names: Vec<&str> = self.seats.iter().map(|p| p.stream_name()).collect();
        let mut stream = DealStream::chacha_table(self.seed, &names, self.paired);
        let seed = i64::try_from(self.seed).map_err(|_| ShardError::Seed {
            seed: i64::MAX,
            source_kind: "chacha",
            valid: "0 to 9223372036854775807".into(),
        })?;
        let keys: Vec<[u8; 32]> = names
            .iter()
            .enumerate()
            .map(|(s, n)| table_seat_key(seed, n, s as u8))
            .collect();
        let (mut done, mut decks) = (0u64, Vec::with_capacity(CHUNK_GAMES));
        while done < self.games {
            let n = (self.games - done).min(CHUNK_GAMES as u64) as usize;
            decks.clear();
            stream.next_chunk(n, &mut decks);
            let played = play_batch_seats(&rules, &decks, done, &keys, &seats);
            let go_on = chunk(done, played)?;
            done += n as u64;
            if !go_on {
                break;
            }
        }
        Ok(rules)
    }

    /// Play the seating and write `games.parquet` and `shard.json` into `dir`; `progress` is
    /// called with the games finished after each chunk.
    pub fn run(&self, dir: &Path, progress: &dyn Fn(u64)) -> Result<TableShardSummary, ShardError> {
        // Refuse a bad variant before creating any file.
        let (rules, _) = self.table()?;
        let labels: Vec<&str> = self.seats.iter().map(|p| p.name.as_str()).collect();
        let games_path = dir.join(GAMES_FILE);
        let mut games_w = TableWriter::create(&games_path)?;
        let (mut wins, mut ties) = (vec![0u64; rules.players()], 0u64);
        self.play_chunks(&mut |done, played| {
            for g in &played {
                match g.outcome.winner_side(&rules) {
                    Some(w) => wins[w] += 1,
                    None => ties += 1,
                }
            }
            let gf = table_game_frame(&rules, &labels, done + 1, &played)
                .map_err(ShardError::table_at(&games_path))?;
            games_w.write(&gf)?;
            progress(done + played.len() as u64);
            Ok(true)
        })?;
        games_w.finish()?;
        let summary = TableShardSummary {
            spec: self.clone(),
            wins,
            ties,
        };
        super::shard::write_summary(dir, &summary)?;
        Ok(summary)
    }
}

/// The game table of `games` played by `names` (one per seat), the first with id `first_id`.
pub fn table_game_frame(
    rules: &Rules,
    names: &[&str],
    first_id: u64,
    games: &[TableGame],
) -> PolarsResult<DataFrame> {
    let n = games.len();
    let ids: Vec<u32> = (0..n).map(|i| (first_id + i as u64) as u32).collect();
    let col_u8 = |name: String, f: &dyn Fn(&TableGame) -> u8| -> Column {
        Column::new(name.into(), games.iter().map(f).collect::<Vec<u8>>())
    };
    let mut cols = vec![
        Column::new("game_id".into(), ids),
        col_u8("trump_suit".into(), &|g| {
            g.outcome.trump.map_or(u8::MAX, |t| t as u8)
        }),
        col_u8("face_up".into(), &|g| {
            g.outcome.face_up.map_or(u8::MAX, |c| c.id())
        }),
        col_u8("tricks".into(), &|g| g.outcome.tricks_played),
        col_u8("winner".into(), &|g| {
            g.outcome.winner_side(rules).map_or(0, |s| s as u8 + 1)
        }),
    ];
    for (s, name) in names.iter().enumerate() {
        cols.push(Column::new(seat_column("policy", s).into(), vec![*name; n]));
        type Per = fn(&crate::game::TableOutcome) -> &[u8; 6];
        let per: [(&str, Per); 4] = [
            ("points", |o| &o.points),
            ("briscole", |o| &o.briscole),
            ("trumps_played", |o| &o.trumps_played),
            ("tricks_won", |o| &o.tricks_won),
        ];
        for (what, f) in per {
            cols.push(col_u8(seat_column(what, s), &|g| f(&g.outcome)[s]));
        }
    }
    DataFrame::new(n, cols)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyDef, PolicyKind, TieBreak};

    fn seating(middle: PolicySpec) -> TableShardSpec {
        let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased);
        TableShardSpec {
            seed: 1,
            rules: RulesSpec {
                players: 3,
                deck: 39,
                ..RulesSpec::default()
            },
            games: 10,
            seats: vec![greedy.clone(), middle, greedy],
            paired: false,
        }
    }

    /// A seat whose definition does not build is the policy's fault, as in two-player shards,
    /// and nothing is written; a policy with no meaning under the rules is the rules' fault.
    #[test]
    fn a_definition_that_does_not_build_is_a_policy_error() {
        let bad = PolicySpec {
            name: "broken".into(),
            def: Some(PolicyDef::Rules {
                lead: vec!["cheapest of nonsense".into()],
                follow: vec!["cheapest".into()],
            }),
            ..PolicySpec::paper(PolicyKind::Rules, TieBreak::AsReleased)
        };
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("seating");
        match seating(bad).run(&out, &|_| {}) {
            Err(ShardError::Policy { g1, g2, message }) => {
                assert_eq!((g1.as_str(), g2.as_str()), ("greedy", "broken-vs-greedy"));
                assert!(message.contains("nonsense"), "{message}");
            }
            other => panic!("want a policy error, got {other:?}"),
        }
        assert!(!out.exists(), "nothing written");
        let partner = PolicySpec::search_default();
        assert!(matches!(
            seating(partner).run(&out, &|_| {}),
            Err(ShardError::Rules { .. })
        ));
    }
}
