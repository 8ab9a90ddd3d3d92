//! The `play` and `replay` commands: a game against any policy the study names, and any game of
//! a study or any saved record shown trick by trick with the rule behind each policy's play.
//!
//! Invariant: bad input (unknown study, matchup, game or policy, a study not run, a corrupted
//! record, no terminal without `--moves`) exits 2 with a message naming it; nothing panics.

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use briscola::game::{Deck, Seat, SeatRng};
use briscola::pipeline::config::Config;
use briscola::pipeline::stored_games::stored_games;
use briscola::policy::{BUILTIN_KINDS, PolicyKind, PolicySpec, TieBreak};
use briscola::table::{
    AnyRecord, DealRecord, GameRecord, Replay, ReplayError, SeatActor, SeatName, SeatRecord,
    SessionEnd, SessionSetup, StoredShard, StudyGame, TableGame, TableRecord, TableReplay,
    load_record, open_shard, run_session, trace_game,
};
use briscola::tournament::{DealStream, seat_key};

use super::error::{CliError, Exit, report};

/// `replay`
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A game record saved by `briscola play`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["study", "matchup", "game"])]
    pub record: Option<PathBuf>,
    /// A study, sweep or league of the pipeline (`paper`, a variant's, a sweep's or a league's
    /// name).
    #[arg(long, value_name = "NAME", alias = "league")]
    pub study: Option<String>,
    /// The seating, e.g. `greedy-vs-counter` (a three-player league's: `a-vs-b-vs-c`).
    #[arg(long, value_name = "G1-vs-G2")]
    pub matchup: Option<String>,
    /// The game's number within the matchup, from 1.
    #[arg(long, value_name = "N")]
    pub game: Option<u64>,
    /// The pipeline's study file.
    #[arg(long, value_name = "FILE", default_value = "pipeline.toml")]
    pub config: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `play`
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The opponent(s): a policy named in the study file, or greedy, hoarder, counter, random,
    /// search (two players).
    #[arg(long, value_name = "POLICY", default_value = "counter")]
    pub opponent: String,
    /// The study file whose policies may be named (default: pipeline.toml when present, else
    /// only the built-in policies); a named file that is not there is an error.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Deal this game (0 to 9223372036854775807); default: from the clock, printed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Players at the table: 2, 3 (each for themselves, 39 cards), 4 (you and a partner in
    /// seats 1 and 3 against seats 2 and 4) or 6 (two teams of three, 36 cards).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
    /// Your partner(s) in a team game (default: the opponent's policy).
    #[arg(long, value_name = "POLICY")]
    pub partner: Option<String>,
    /// Your seat: 1 leads the first trick, 2 follows (up to the number of players).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub seat: u8,
    /// Read moves from this file (`-`: standard input) instead of the terminal.
    #[arg(long, value_name = "FILE")]
    pub moves: Option<String>,
    /// Where to save the game record (default: briscola-games/seed<SEED>-vs-<OPPONENT>.json).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Do not save a record.
    #[arg(long, conflicts_with = "record")]
    pub no_record: bool,
    /// Show the points from the start (p toggles them in the game).
    #[arg(long)]
    pub show_points: bool,
}

/// A bad argument or input, through the binary's one error path.
/// The most bytes `--moves` reads (a game's moves are a few hundred).
pub(super) const MAX_MOVES_BYTES: u64 = 1 << 20;

pub(super) fn bad(msg: impl std::fmt::Display) -> Exit {
    report(&CliError::Usage(msg.to_string()))
}

/// A replay failure, through the binary's one error path (its exit code is decided there).
pub(super) fn replay_exit(e: ReplayError) -> Exit {
    report(&CliError::Replay(e))
}

fn print(r: &Replay, json: bool) -> Exit {
    print_json_or_text(r.to_json(), r.to_text(), json)
}

/// Run `replay`.
pub fn replay(a: ReplayArgs) -> Exit {
    if let Some(path) = &a.record {
        return replay_record(path, a.json);
    }
    let (Some(study), Some(matchup), Some(n)) = (&a.study, &a.matchup, a.game) else {
        return bad(
            "say which game: --record FILE, or --study NAME --matchup SEATING --game N (e.g. --study paper --matchup greedy-vs-counter --game 123; NAME may be a study, a sweep or a league)",
        );
    };
    let cfg = match Config::load(&a.config) {
        Ok(c) => c,
        Err(e) => return bad(e),
    };
    let stored = match stored_games(&cfg, &a.config, study) {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    let shard = match stored.shard(matchup) {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    let what = format!("{} `{study}`, matchup {matchup}", stored.kind);
    match open_shard(&shard.dir, n, &what, &a.config) {
        Err(e) => replay_exit(e),
        Ok(StoredShard::TwoPlayer(_)) => {
            replay_two_player(&shard.dir, &what, shard.match_id, study, matchup, n, &a)
        }
        Ok(StoredShard::Table(t)) => {
            replay_table(&t, &what, shard.match_id, study, matchup, a.json)
        }
    }
}

/// Replay a saved record (two players or a table of three to six).
fn replay_record(path: &Path, json: bool) -> Exit {
    let rec = match load_record(path) {
        Ok(AnyRecord::Table(rec)) => return replay_table_record(path, &rec, json),
        Ok(AnyRecord::TwoPlayer(rec)) => rec,
        Err(e) => return bad(e),
    };
    let game = match rec.replay(path) {
        Ok(g) => g,
        Err(e) => return bad(e),
    };
    let r = Replay {
        title: format!("game record {}", path.display()),
        source: serde_json::json!({"record": path.display().to_string(), "deal": rec.deal}),
        names: [rec.seats[0].player.clone(), rec.seats[1].player.clone()],
        game,
        checked: Some(RECORD_CHECKED.to_string()),
    };
    print(&r, json)
}

/// What replaying a record checks, in words.
const RECORD_CHECKED: &str = "replayed the record's deck on the engine (policy seats on their streams, the person's recorded cards); every trick and the final points match the record";

fn replay_table_record(path: &Path, rec: &TableRecord, json: bool) -> Exit {
    let game = match rec.replay(path) {
        Ok(g) => g,
        Err(e) => return bad(e),
    };
    let r = TableReplay {
        title: format!("game record {}", path.display()),
        source: serde_json::json!({"record": path.display().to_string(), "deal": rec.deal}),
        names: rec.seats.iter().map(|s| s.player.clone()).collect(),
        game,
        checked: Some(RECORD_CHECKED.to_string()),
    };
    print_json_or_text(r.to_json(), r.to_text(), json)
}

/// Replay game `n` of a two-player shard under the standard rules.
fn replay_two_player(
    dir: &Path,
    what: &str,
    match_id: u32,
    study: &str,
    matchup: &str,
    n: u64,
    a: &ReplayArgs,
) -> Exit {
    let sg = match StudyGame::open(dir, n, what, &a.config) {
        Ok(g) => g,
        Err(e) => return replay_exit(e),
    };
    let deck = match sg.deck() {
        Ok(d) => d,
        Err(e) => return replay_exit(e),
    };
    let (p1, p2) = match (sg.spec.g1.try_build(), sg.spec.g2.try_build()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return bad(format!("{what}: {e}")),
    };
    let actors = [SeatActor::Policy(p1), SeatActor::Policy(p2)];
    let game = match trace_game(&deck, [&actors[0], &actors[1]], &mut sg.seat_rngs()) {
        Ok(g) => g,
        Err(f) => return bad(format!("policy seats cannot fault: {f:?}")),
    };
    let checked = match sg.confirm(&game.tricks) {
        Ok(how) => how,
        Err(e) => return replay_exit(e),
    };
    let partita = (u64::from(match_id) - 1) * sg.spec.games + n;
    let r = Replay {
        title: format!(
            "{what} (MatchId {match_id}), game {n} of {} (PartitaId {partita} in `briscola export tricks`); deal: {} seed {}",
            sg.spec.games,
            sg.spec.deal_source.as_str(),
            sg.spec.seed
        ),
        source: serde_json::json!({
            "study": study, "matchup": matchup, "match_id": match_id, "game": n,
            "partita_id": partita, "deal_source": sg.spec.deal_source.as_str(), "seed": sg.spec.seed,
        }),
        names: [sg.spec.g1.name.clone(), sg.spec.g2.name.clone()],
        game,
        checked: Some(format!(
            "regenerated from seed {} ({}) on the engine and confirmed {checked}",
            sg.spec.seed,
            sg.spec.deal_source.as_str()
        )),
    };
    print(&r, a.json)
}

/// Replay a game of a team study's shard or a league's seat table.
fn replay_table(
    t: &TableGame,
    what: &str,
    match_id: u32,
    study: &str,
    matchup: &str,
    json: bool,
) -> Exit {
    let game = match t.trace() {
        Ok(g) => g,
        Err(e) => return replay_exit(e),
    };
    let checked = match t.confirm(&game) {
        Ok(how) => how,
        Err(e) => return replay_exit(e),
    };
    let r = TableReplay {
        title: format!(
            "{what} (shard {match_id}), game {} of {} (game id {} in `briscola export`); {} players; deal: {} seed {}",
            t.game,
            t.games,
            t.table_id(),
            t.rules.players(),
            t.deal_source.as_str(),
            t.seed
        ),
        source: serde_json::json!({
            "study": study, "matchup": matchup, "match_id": match_id, "game": t.game,
            "game_id": t.table_id(), "deal_source": t.deal_source.as_str(), "seed": t.seed,
            "players": t.rules.players(), "rules": t.rules.spec(),
        }),
        names: t.seats.iter().map(|p| p.name.clone()).collect(),
        game,
        checked: Some(format!(
            "regenerated from seed {} ({}) on the engine and confirmed {checked}",
            t.seed,
            t.deal_source.as_str()
        )),
    };
    print_json_or_text(r.to_json(), r.to_text(), json)
}

pub(super) fn print_json_or_text(json_value: serde_json::Value, text: String, json: bool) -> Exit {
    let text = if json {
        let mut s = serde_json::to_string_pretty(&json_value).unwrap_or_default();
        s.push('\n');
        s
    } else {
        text
    };
    super::error::note_stdout(std::io::stdout().lock().write_all(text.as_bytes()));
    Exit::Ok
}

/// The policy named `name` (given as `flag`: `--opponent` or `--partner`): from the study file
/// if it defines it, else a built-in kind.
pub(super) fn opponent(
    config: &Option<PathBuf>,
    flag: &str,
    name: &str,
) -> Result<PolicySpec, Exit> {
    let config = match config {
        Some(p) if !p.exists() => {
            return Err(bad(format!(
                "--config {}: no such file; name a study file, or leave --config out to use pipeline.toml when present",
                p.display()
            )));
        }
        Some(p) => Some(p.clone()),
        None => Some(PathBuf::from("pipeline.toml")).filter(|p| p.exists()),
    };
    let cfg = match &config {
        Some(p) => Some(Config::load(p).map_err(bad)?),
        None => None,
    };
    match Config::named_policy(cfg.as_ref(), name, None) {
        Some(spec) => Ok(spec),
        None => {
            let mut names: Vec<String> = cfg
                .iter()
                .flat_map(|c| c.policies.keys().cloned())
                .collect();
            names.extend(BUILTIN_KINDS.map(|k| k.as_str().to_string()));
            names.push("search".to_string());
            names.sort();
            names.dedup();
            Err(bad(format!(
                "{flag} {name}: no such policy; choose one of {}",
                names.join(", ")
            )))
        }
    }
}

/// Where a finished game's record goes: the `--record` path as given (the user's choice,
/// replaced), else the default path or, when a game is saved there already (the same deal
/// played again, with `r` or the same --seed), the first of `NAME-2.json`, `NAME-3.json`, ...
/// not taken: a default never replaces an earlier game.
pub(super) fn record_path_for(given: Option<&PathBuf>, default: &Path) -> PathBuf {
    if let Some(p) = given {
        return p.clone();
    }
    let stem = default
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    let mut path = default.to_path_buf();
    let mut n = 2;
    while path.symlink_metadata().is_ok() {
        path = default.with_file_name(format!("{stem}-{n}.json"));
        n += 1;
    }
    path
}

/// The deck `briscola play --seed SEED` deals: the ChaCha deal source keyed by the seed and
/// the pseudo-matchup `play-vs-play`, game 0.
pub fn play_deck(seed: u64) -> Deck {
    let mut out = Vec::with_capacity(1);
    DealStream::chacha(seed, "play", "play").next_chunk(1, &mut out);
    out[0]
}

/// The seed of a `play` game: the one given (checked), else one from the clock.
pub(super) fn play_seed(given: Option<u64>) -> Result<u64, Exit> {
    let seed = given.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    if seed > i64::MAX as u64 {
        return Err(bad(format!(
            "--seed {seed} is too large; seeds lie in 0 to 9223372036854775807"
        )));
    }
    Ok(seed)
}

/// Where a `play` game's moves come from: `--moves FILE`, `--moves -`, or the terminal.
pub(super) fn moves_input(moves: Option<&str>) -> Result<Box<dyn BufRead>, Exit> {
    // Moves are short lines: a file or stream is read at most MAX_MOVES_BYTES deep, so an
    // endless one (`--moves /dev/zero`) ends as bad moves instead of filling memory.
    match moves {
        Some("-") => Ok(Box::new(std::io::stdin().lock().take(MAX_MOVES_BYTES))),
        Some(f) => match std::fs::File::open(f) {
            Ok(file) => Ok(Box::new(
                std::io::BufReader::new(file).take(MAX_MOVES_BYTES),
            )),
            Err(e) => Err(bad(format!("--moves {f}: cannot read: {e}"))),
        },
        None if std::io::stdin().is_terminal() => Ok(Box::new(std::io::stdin().lock())),
        None => Err(bad(
            "play needs a terminal; to read moves from standard input or a file give --moves - or --moves FILE",
        )),
    }
}

/// Whether `a` asks for a table of more than two, or a partner (`play_table` plays those).
pub fn wants_table(a: &PlayArgs) -> bool {
    a.players != 2 || a.partner.is_some()
}

/// Run a two-player `play` (the CLI sends [`wants_table`] games to `play_table`).
pub fn play(a: PlayArgs) -> Exit {
    if a.seat > 2 {
        return bad(format!(
            "--seat {}: a two-player game has seats 1 and 2 (give --players 3, 4 or 6 for more)",
            a.seat
        ));
    }
    let spec = match opponent(&a.config, "--opponent", &a.opponent) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let seed = match play_seed(a.seed) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut input = match moves_input(a.moves.as_deref()) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let person = (a.seat - 1) as usize;
    let opp_seat = if person == 0 { Seat::G2 } else { Seat::G1 };
    let opp_key = seat_key(seed as i64, &spec.name, opp_seat);
    let rngs = [SeatRng::new(opp_key, 0), SeatRng::new(opp_key, 0)];
    let hints = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter]
        .map(|k| {
            let p = PolicySpec::paper(k, TieBreak::AsReleased);
            (p.name.clone(), p.build())
        })
        .to_vec();
    let record_path = a.record.clone().unwrap_or_else(|| {
        PathBuf::from("briscola-games").join(format!("seed{seed}-vs-{}.json", spec.name))
    });
    // Refuse a record path that is a device, FIFO, directory or link before the game, not
    // after it: the rename that saves a record would replace it.
    if !a.no_record
        // Asked before the game, not after it: a device, FIFO, directory or link there is
        // refused (the rename that saves would replace it), and its directory must take a file.
        && let Err(problem) = briscola::files::output_writable(&record_path)
    {
        return bad(format!("--record {}: {problem}", record_path.display()));
    }
    loop {
        let setup = SessionSetup {
            deck: play_deck(seed),
            person,
            opponent_name: spec.name.clone(),
            opponent: SeatActor::Policy(spec.build()),
            rngs: rngs.clone(),
            show_points: a.show_points,
            hints: hints.clone(),
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "briscola play --seed {seed} --opponent {}", spec.name);
        let end = run_session(&setup, &mut input, &mut out);
        drop(out);
        let game = match end {
            SessionEnd::Finished(g) => g,
            SessionEnd::Quit => {
                println!(
                    "game abandoned (not saved). Play this deal again: briscola play --seed {seed} --opponent {}",
                    spec.name
                );
                return Exit::Ok;
            }
            SessionEnd::ReadFailed(t, e) => {
                return bad(format!(
                    "cannot read the moves during trick {t}: {e} (the game is not saved)"
                ));
            }
            SessionEnd::InputEnded(t) => {
                return bad(format!(
                    "the moves ended during trick {t}, before the game did (not saved)"
                ));
            }
        };
        if !a.no_record {
            let human = SeatRecord {
                seat: SeatName::from(if person == 0 { Seat::G1 } else { Seat::G2 }),
                player: "human".into(),
                policy: None,
            };
            let bot = SeatRecord {
                seat: SeatName::from(opp_seat),
                player: spec.name.clone(),
                policy: Some({
                    // Model paths relative to the record, so it replays from anywhere.
                    let mut s = spec.clone();
                    let dir = record_path.parent().unwrap_or(Path::new(""));
                    briscola::table::models_for_record(&mut s, dir);
                    s
                }),
            };
            let seats = if person == 0 {
                [human, bot]
            } else {
                [bot, human]
            };
            let rec = GameRecord::of(&game, DealRecord::Play { seed }, seats, seed as i64, 0);
            let record_path = record_path_for(a.record.as_ref(), &record_path);
            if let Some(dir) = record_path.parent()
                && !dir.as_os_str().is_empty()
                && let Err(e) = std::fs::create_dir_all(dir)
            {
                return bad(format!(
                    "--record {}: cannot create {}: {e}",
                    record_path.display(),
                    dir.display()
                ));
            }
            if let Err(e) = rec.save(&record_path) {
                return replay_exit(e);
            }
            println!(
                "saved {}; show it trick by trick: briscola replay --record {}",
                record_path.display(),
                record_path.display()
            );
        }
        println!("r: play this deal again, any other line or end of input: quit");
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(n) if n > 0 && line.trim() == "r" => continue,
            _ => return Exit::Ok,
        }
    }
}
