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
use briscola::pipeline::layout::Layout;
use briscola::policy::{BUILTIN_KINDS, PolicyKind, PolicySpec, TieBreak};
use briscola::table::{
    DealRecord, GameRecord, Replay, ReplayError, SeatActor, SeatName, SeatRecord, SessionEnd,
    SessionSetup, StudyGame, run_session, trace_game,
};
use briscola::tournament::{DealStream, Matchup, seat_key};

use super::error::{CliError, Exit, report};

/// `replay`
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A game record saved by `briscola play`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["study", "matchup", "game"])]
    pub record: Option<PathBuf>,
    /// A study of the pipeline (`paper` or a variant's name).
    #[arg(long, value_name = "NAME")]
    pub study: Option<String>,
    /// The ordered matchup, e.g. `greedy-vs-counter`.
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
    /// The opponent: a policy named in the study file, or greedy, hoarder, counter, random.
    #[arg(long, value_name = "POLICY", default_value = "counter")]
    pub opponent: String,
    /// The study file whose policies may be named.
    #[arg(long, value_name = "FILE", default_value = "pipeline.toml")]
    pub config: PathBuf,
    /// Deal this game (0..=9223372036854775807); default: from the clock, printed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Your seat: 1 leads the first trick, 2 follows.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
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
const MAX_MOVES_BYTES: u64 = 1 << 20;

fn bad(msg: impl std::fmt::Display) -> Exit {
    report(&CliError::Usage(msg.to_string()))
}

/// A replay failure, through the binary's one error path (its exit code is decided there).
fn replay_exit(e: ReplayError) -> Exit {
    report(&CliError::Replay(e))
}

fn print(r: &Replay, json: bool) -> Exit {
    let text = if json {
        let mut s = serde_json::to_string_pretty(&r.to_json()).unwrap_or_default();
        s.push('\n');
        s
    } else {
        r.to_text()
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Exit::Ok
}

/// The shard directory and label of `study`'s `matchup`.
fn study_shard(
    config: &Path,
    study: &str,
    matchup: &str,
) -> Result<(PathBuf, String, Matchup, u64), Exit> {
    let cfg = Config::load(config).map_err(bad)?;
    let studies = cfg.studies();
    let Some(s) = studies.iter().find(|s| s.name == study) else {
        let names: Vec<&str> = studies.iter().map(|s| s.name.as_str()).collect();
        return Err(bad(format!(
            "--study {study}: no such study in {}; studies: {}",
            config.display(),
            names.join(", ")
        )));
    };
    let all = Matchup::all(s.policies());
    let Some(m) = all.iter().find(|m| m.slug() == matchup) else {
        let names: Vec<String> = all.iter().map(Matchup::slug).collect();
        return Err(bad(format!(
            "--matchup {matchup}: study `{study}` has no such matchup; matchups: {}",
            names.join(", ")
        )));
    };
    let dir = Layout::for_config(config)
        .root()
        .join(&s.name)
        .join("simulate")
        .join(m.slug());
    Ok((
        dir,
        format!("study `{study}`, matchup {matchup}"),
        m.clone(),
        s.games_per_matchup(),
    ))
}

/// Run `replay`.
pub fn replay(a: ReplayArgs) -> Exit {
    if let Some(path) = &a.record {
        let rec = match GameRecord::load(path) {
            Ok(r) => r,
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
        };
        return print(&r, a.json);
    }
    let (Some(study), Some(matchup), Some(n)) = (&a.study, &a.matchup, a.game) else {
        return bad(
            "say which game: --record FILE, or --study NAME --matchup G1-vs-G2 --game N (e.g. --study paper --matchup greedy-vs-counter --game 123)",
        );
    };
    let (dir, what, m, per) = match study_shard(&a.config, study, matchup) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let sg = match StudyGame::open(&dir, n, &what, &a.config) {
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
    if let Err(e) = sg.confirm(&game.tricks) {
        return replay_exit(e);
    }
    let partita = (m.match_id as u64 - 1) * per + n;
    let r = Replay {
        title: format!(
            "{what} (MatchId {}), game {n} of {} (PartitaId {partita} in `briscola export tricks`); deal: {} seed {}",
            m.match_id,
            sg.spec.games,
            sg.spec.deal_source.as_str(),
            sg.spec.seed
        ),
        source: serde_json::json!({
            "study": study, "matchup": matchup, "match_id": m.match_id, "game": n,
            "partita_id": partita, "deal_source": sg.spec.deal_source.as_str(), "seed": sg.spec.seed,
        }),
        names: [sg.spec.g1.name.clone(), sg.spec.g2.name.clone()],
        game,
    };
    print(&r, a.json)
}

/// The opponent named `name`: from the study file if it defines it, else a paper kind.
fn opponent(config: &Path, name: &str) -> Result<PolicySpec, Exit> {
    let cfg = if config.exists() {
        Some(Config::load(config).map_err(bad)?)
    } else {
        None
    };
    if let Some(c) = &cfg
        && c.policies.contains_key(name)
    {
        return Ok(c.policy_spec(name, None));
    }
    // The one resolver every command uses: built-in kinds and the default search agent.
    let builtins = std::collections::BTreeMap::new();
    match briscola::policy::PolicyResolver::new(&builtins, std::path::Path::new("."))
        .resolve(name, None)
    {
        Ok(spec) => Ok(spec),
        Err(_) => {
            let mut names: Vec<String> = cfg
                .iter()
                .flat_map(|c| c.policies.keys().cloned())
                .collect();
            names.extend(BUILTIN_KINDS.map(|k| k.as_str().to_string()));
            names.push("search".to_string());
            names.sort();
            names.dedup();
            Err(bad(format!(
                "--opponent {name}: no such policy; choose one of {}",
                names.join(", ")
            )))
        }
    }
}

/// The deck `briscola play --seed SEED` deals: the ChaCha deal source keyed by the seed and
/// the pseudo-matchup `play-vs-play`, game 0.
pub fn play_deck(seed: u64) -> Deck {
    let mut out = Vec::with_capacity(1);
    DealStream::chacha(seed, "play", "play").next_chunk(1, &mut out);
    out[0]
}

/// Run `play`.
pub fn play(a: PlayArgs) -> Exit {
    let spec = match opponent(&a.config, &a.opponent) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    if seed > i64::MAX as u64 {
        return bad(format!(
            "--seed {seed} is too large; seeds lie in 0..=9223372036854775807"
        ));
    }
    // Moves are short lines: a file or stream is read at most MAX_MOVES_BYTES deep, so an
    // endless one (`--moves /dev/zero`) ends as bad moves instead of filling memory.
    let mut input: Box<dyn BufRead> = match a.moves.as_deref() {
        Some("-") => Box::new(std::io::stdin().lock().take(MAX_MOVES_BYTES)),
        Some(f) => match std::fs::File::open(f) {
            Ok(file) => Box::new(std::io::BufReader::new(file).take(MAX_MOVES_BYTES)),
            Err(e) => return bad(format!("--moves {f}: cannot read: {e}")),
        },
        None if std::io::stdin().is_terminal() => Box::new(std::io::stdin().lock()),
        None => {
            return bad(
                "play needs a terminal; to read moves from standard input or a file give --moves - or --moves FILE",
            );
        }
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
        && let Some(problem) = briscola::files::output_problem(&record_path)
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
                policy: Some(spec.clone()),
            };
            let seats = if person == 0 {
                [human, bot]
            } else {
                [bot, human]
            };
            let rec = GameRecord::of(&game, DealRecord::Play { seed }, seats, seed as i64, 0);
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
