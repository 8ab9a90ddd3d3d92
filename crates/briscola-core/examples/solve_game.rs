//! Solves a reduced two-player Briscola from the command line and prints what the core's
//! `solve::reduced` computes: the game's size, CFR+ progress (value and exploitability at
//! checkpoints), the solver's table, and for greedy, hoarder and counter their exact
//! exploitability, their value against the CFR strategy and the sampled (PIMC) bound.
//!
//! Invariant: every number printed comes from the core; the example adds only timing.
//!
//! Usage: `solve_game SUITS RANKS HAND ITERATIONS [MAX_WORLDS] [--no-pimc] [--no-checkpoints]`
//! (ITERATIONS 0: the policies only), e.g.
//! `cargo run --release -p briscola-core --example solve_game -- 2 1,3,10,8 3 200`.

use briscola_core::game::Policy;
use briscola_core::policy::{Counter, Greedy, Hoarder, TieBreak};
use briscola_core::solve::reduced::{
    Cfr, ReducedGame, ReducedSpec, pimc_bound, policy_exploitability, policy_vs_cfr,
};
use std::process::ExitCode;
use std::time::Instant;

/// Suits, ranks, hand, iterations, worlds per decision.
type Args = (u8, Vec<u8>, u8, u64, Option<usize>);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: solve_game SUITS RANKS HAND ITERATIONS [MAX_WORLDS] [--no-pimc] [--no-checkpoints]  \
                 (RANKS comma-separated, e.g. 1,3,10,8)";
    let no_pimc = args.iter().any(|a| a == "--no-pimc");
    let no_checkpoints = args.iter().any(|a| a == "--no-checkpoints");
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if args.len() < 4 {
        eprintln!("{usage}");
        return ExitCode::from(2);
    }
    let parsed = (|| -> Option<Args> {
        let ranks = args[1]
            .split(',')
            .map(|r| r.trim().parse().ok())
            .collect::<Option<Vec<u8>>>()?;
        let worlds = match args.get(4) {
            Some(w) => Some(w.parse().ok()?),
            None => None,
        };
        Some((
            args[0].parse().ok()?,
            ranks,
            args[2].parse().ok()?,
            args[3].parse().ok()?,
            worlds,
        ))
    })();
    let Some((suits, ranks, hand, iterations, max_worlds)) = parsed else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let game = match ReducedGame::new(ReducedSpec { suits, ranks, hand }) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let cards: Vec<String> = game.cards().iter().map(|c| c.to_string()).collect();
    println!(
        "deck {} cards ({} points), hands of {}: {}",
        game.deck_size(),
        game.total_points(),
        game.hand_size(),
        cards.join(", ")
    );
    println!(
        "deals (sets) {}, terminal histories per tree walk {}",
        game.deals(),
        game.histories()
    );
    let mut cfr = Cfr::new(&game);
    let mut marks: Vec<u64> = Vec::new();
    let mut m = 1;
    while m < iterations {
        marks.push(m);
        m *= 2;
    }
    let start = Instant::now();
    let mut iter_time = 0.0;
    let mut checkpoints = Vec::new();
    println!("iteration  value  exploitability  (points: seat 0 minus seat 1)");
    for t in 1..=iterations {
        let s = Instant::now();
        cfr.iterate();
        iter_time += s.elapsed().as_secs_f64();
        if !no_checkpoints && (marks.contains(&t) || t == iterations) {
            let e = cfr.exploitability();
            println!("{t:>9}  {:+.6}  {:.6}", e.value, e.exploitability);
            checkpoints.push(e);
        }
    }
    let total = start.elapsed().as_secs_f64();
    let stats = cfr.stats();
    if iterations > 0 {
        println!(
            "CFR+: {} iterations in {:.2} s ({:.3} iterations/s; with the checkpoints' exact best responses {:.2} s in all)",
            iterations,
            iter_time,
            iterations as f64 / iter_time,
            total
        );
        println!(
            "information sets {}, table {:.2} MiB",
            stats.info_sets,
            stats.bytes as f64 / (1 << 20) as f64
        );
    }
    if let Some(last_c) = checkpoints.last() {
        println!(
            "game value (average strategy) {:+.6}, exploitability {:.6} (BR seat 0 {:+.6}, BR seat 1 {:+.6})",
            last_c.value, last_c.exploitability, last_c.best_response[0], last_c.best_response[1]
        );
    }
    let tie = TieBreak::AsReleased;
    let policies: [(&str, Box<dyn Policy>); 3] = [
        ("greedy", Box::new(Greedy::new(tie))),
        ("hoarder", Box::new(Hoarder::new(10, tie))),
        ("counter", Box::new(Counter::new(10, tie))),
    ];
    println!(
        "policy   exploitability  BR seat0  BR seat1  self-play  vs-CFR   pimc-bound  pimc seat0  pimc seat1  decisions  worlds  time"
    );
    for (name, p) in &policies {
        let t = Instant::now();
        let e = policy_exploitability(&game, p.as_ref());
        let vs = if iterations > 0 {
            policy_vs_cfr(&game, p.as_ref(), &cfr)
        } else {
            f64::NAN
        };
        let t_exact = t.elapsed().as_secs_f64();
        let (pb, t_pimc) = if no_pimc {
            (None, 0.0)
        } else {
            let t = Instant::now();
            let b = pimc_bound(&game, p.as_ref(), max_worlds, 42);
            (Some(b), t.elapsed().as_secs_f64())
        };
        match pb {
            Some(b) => println!(
                "{name:<8} {:>14.6}  {:+8.4}  {:+8.4}  {:+9.4}  {:+8.4}  {:>10.6}  {:+10.4}  {:+10.4}  {:>9}  {:>6}  exact {t_exact:.2} s, pimc {t_pimc:.2} s",
                e.exploitability,
                e.best_response[0],
                e.best_response[1],
                e.self_play,
                vs,
                b.bound,
                b.value[0],
                b.value[1],
                b.decisions,
                b.worlds
            ),
            None => println!(
                "{name:<8} {:>14.6}  {:+8.4}  {:+8.4}  {:+9.4}  {:+8.4}  (pimc skipped)  exact {t_exact:.2} s",
                e.exploitability, e.best_response[0], e.best_response[1], e.self_play, vs
            ),
        }
    }
    ExitCode::SUCCESS
}
