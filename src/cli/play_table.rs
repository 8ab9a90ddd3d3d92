//! `play --players 3|4|6`: a person at a table of three (each for themselves), four (with a
//! partner, the classic partnership game) or six (two teams of three) against computer players
//! chosen from the study file's policies; the record replays with `replay --record`.
//!
//! Invariant: every argument is checked (players, seat, each policy and its fit to the rules,
//! the record path) before the first card is shown; bad input exits 2 with a sentence.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use briscola::game::{Rules, RulesSpec, SeatRng};
use briscola::policy::{FollowReading, PolicyKind, PolicySpec, TablePolicy, TieBreak};
use briscola::table::{
    DealRecord, TableGameDone, TableRecord, TableSeatRecord, TableSessionEnd, TableSetup,
    run_table_session,
};
use briscola::tournament::table_seat_key;

use super::error::Exit;
use super::play::{PlayArgs, bad, moves_input, opponent, play_deck, play_seed, replay_exit};

/// The rules of a `--players N` game, or why there is none.
fn table_rules(players: u8) -> Result<Rules, String> {
    if !matches!(players, 2 | 3 | 4 | 6) {
        return Err(format!(
            "--players {players}: Briscola is played by 2, 3, 4 or 6 players"
        ));
    }
    RulesSpec::for_players(players)
        .validate()
        .map_err(|e| format!("--players {players}: {e}"))
}

/// `spec` at `rules`, with the partner-aware reading where its kind has one.
fn seat_policy(spec: &PolicySpec, rules: &Rules, flag: &str) -> Result<TablePolicy, Exit> {
    TablePolicy::for_table(spec, rules, FollowReading::PartnerAware)
        .map_err(|e| bad(format!("{flag} {}: {e}", spec.name)))
}

/// Everything a table game needs, checked.
struct Table {
    rules: Rules,
    seed: u64,
    specs: Vec<Option<PolicySpec>>,
    setup: TableSetup,
    record: Option<PathBuf>,
}

fn prepare(a: &PlayArgs) -> Result<Table, Exit> {
    let rules = table_rules(a.players).map_err(bad)?;
    let n = rules.players();
    if usize::from(a.seat) > n {
        return Err(bad(format!(
            "--seat {}: a game of {n} players has seats 1 to {n}",
            a.seat
        )));
    }
    let teams = rules.sides() < n;
    if a.partner.is_some() && !teams {
        return Err(bad(format!(
            "--partner: a game of {n} players has no partners (give --players 4 or 6)"
        )));
    }
    let opp = opponent(&a.config, "--opponent", &a.opponent)?;
    let partner = match &a.partner {
        Some(p) => opponent(&a.config, "--partner", p)?,
        None => opp.clone(),
    };
    let person = usize::from(a.seat) - 1;
    let seed = play_seed(a.seed)?;
    let specs: Vec<Option<PolicySpec>> = (0..n)
        .map(|s| {
            if s == person {
                None
            } else if rules.partners(s, person) {
                Some(partner.clone())
            } else {
                Some(opp.clone())
            }
        })
        .collect();
    let seats = specs
        .iter()
        .map(|s| match s {
            None => Ok(None),
            Some(p) => {
                let flag = if p.name == opp.name {
                    "--opponent"
                } else {
                    "--partner"
                };
                seat_policy(p, &rules, flag).map(Some)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = specs
        .iter()
        .map(|s| s.as_ref().map_or("you".to_string(), |p| p.name.clone()))
        .collect();
    let rngs = names
        .iter()
        .enumerate()
        .map(|(s, name)| SeatRng::new(table_seat_key(seed as i64, name, s as u8), 0))
        .collect();
    let hints = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter]
        .iter()
        .filter_map(|&k| {
            let p = PolicySpec::paper(k, TieBreak::AsReleased);
            TablePolicy::for_table(&p, &rules, FollowReading::PartnerAware)
                .ok()
                .map(|t| (p.name.clone(), t))
        })
        .collect();
    let record = (!a.no_record).then(|| {
        a.record.clone().unwrap_or_else(|| {
            PathBuf::from("briscola-games").join(format!("seed{seed}-{n}p-vs-{}.json", opp.name))
        })
    });
    if let Some(path) = &record
        && let Err(problem) = briscola::files::output_writable(path)
    {
        return Err(bad(format!("--record {}: {problem}", path.display())));
    }
    Ok(Table {
        rules,
        seed,
        specs,
        setup: TableSetup {
            rules,
            deck: play_deck(seed),
            person,
            names,
            seats,
            rngs,
            show_points: a.show_points,
            hints,
        },
        record,
    })
}

/// Save the record of a finished game; prints where.
fn save(t: &Table, game: &TableGameDone, path: &Path) -> Result<(), Exit> {
    let rules = &t.rules;
    let seats = t
        .specs
        .iter()
        .enumerate()
        .map(|(s, p)| TableSeatRecord {
            seat: s as u8 + 1,
            team: rules.side_of(s) as u8 + 1,
            player: p.as_ref().map_or("human".to_string(), |p| p.name.clone()),
            policy: p.clone().map(|mut s| {
                // Model paths relative to the record, so it replays from anywhere.
                briscola::table::models_for_record(&mut s, path.parent().unwrap_or(Path::new("")));
                s
            }),
        })
        .collect();
    let rec = TableRecord::of(
        rules,
        FollowReading::PartnerAware,
        DealRecord::Play { seed: t.seed },
        &t.setup.deck,
        seats,
        t.seed as i64,
        0,
        game,
    );
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return Err(bad(format!(
            "--record {}: cannot create {}: {e}",
            path.display(),
            dir.display()
        )));
    }
    rec.save(path).map_err(replay_exit)?;
    println!(
        "saved {}; show it trick by trick: briscola replay --record {}",
        path.display(),
        path.display()
    );
    Ok(())
}

/// Run `play --players N` (N = 3, 4 or 6, or 2 with `--partner` refused).
pub fn play_table(a: PlayArgs) -> Exit {
    let t = match prepare(&a) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let mut input: Box<dyn BufRead> = match moves_input(a.moves.as_deref()) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let again = format!(
        "briscola play --players {} --seat {} --seed {} --opponent {}{}",
        a.players,
        a.seat,
        t.seed,
        a.opponent,
        a.partner
            .as_ref()
            .map_or(String::new(), |p| format!(" --partner {p}"))
    );
    loop {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{again}");
        let end = run_table_session(&t.setup, &mut input, &mut out);
        drop(out);
        let game = match end {
            TableSessionEnd::Finished(g) => g,
            TableSessionEnd::Quit => {
                println!("game abandoned (not saved). Play this deal again: {again}");
                return Exit::Ok;
            }
            TableSessionEnd::ReadFailed(trick, e) => {
                return bad(format!(
                    "cannot read the moves during trick {trick}: {e} (the game is not saved)"
                ));
            }
            TableSessionEnd::InputEnded(trick) => {
                return bad(format!(
                    "the moves ended during trick {trick}, before the game did (not saved)"
                ));
            }
        };
        if let Some(path) = &t.record
            && let Err(code) = save(
                &t,
                &game,
                &super::play::record_path_for(a.record.as_ref(), path),
            )
        {
            return code;
        }
        println!("r: play this deal again, any other line or end of input: quit");
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(n) if n > 0 && line.trim() == "r" => continue,
            _ => return Exit::Ok,
        }
    }
}
