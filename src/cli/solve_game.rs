//! `briscola solve-game`: a reduced two-player Briscola solved exactly (issue 29): CFR+ over the
//! whole game tree with chance enumerated, the average strategy's value and exploitability at
//! checkpoints, and for greedy, hoarder and counter their exact exploitability in that game, the
//! exploit agent's sampled bound beside it, and their margin against the equilibrium strategy;
//! `--plot` draws exploitability against iterations, `--json` prints the results as data.
//!
//! Invariant: every number printed comes from `briscola_core::solve::reduced`; bad input (a
//! deck the rules cannot deal, an unknown rank, an unwritable plot path) is exit 2 before any
//! work, never a panic.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use briscola::analysis::reduced_game::solve_reduced;
use briscola::game::Policy;
use briscola::policy::{Counter, DEFAULT_THRESHOLD, Greedy, Hoarder, TieBreak};
use briscola::results::reduced::ReducedResults;
use briscola::solve::reduced::{ReducedSpec, ReducedSpecError};

use super::error::{CliError, Exit, report};

/// `briscola solve-game`
#[derive(Debug, Args)]
pub struct SolveGameArgs {
    /// Suits in the deck (1 to 4: Oro, Spade, Bastoni, Coppe in that order).
    #[arg(long, default_value_t = 2)]
    pub suits: u8,
    /// Ranks in each suit, comma-separated: 1 to 10 or A (Ace), J (Knave, 8), N (Knight, 9),
    /// K (King, 10), e.g. `A,3,K,J`.
    #[arg(long, default_value = "A,3,K,J")]
    pub ranks: String,
    /// Cards in each hand (1 to 4); the stock (deck minus both hands) must be even and at
    /// least 2, its bottom card face up.
    #[arg(long, default_value_t = 3)]
    pub hand: u8,
    /// CFR+ iterations (0: the policies' exact exploitability only).
    #[arg(long, default_value_t = 256)]
    pub iterations: u64,
    /// Consistent worlds the exploit agent searches per decision (default: all of them).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub worlds: Option<u64>,
    /// Write the figure of exploitability against iterations to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print the results as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The largest game CFR+ runs on (histories): the 8-card game has 362,880, the 10-card one
/// 293,932,800, whose table did not fit in 14 GB.
const MAX_CFR_HISTORIES: u128 = 50_000_000;

/// The largest game the exact walks of `--iterations 0` run on (histories): the 10-card game
/// with hands of 3 (293,932,800) takes 49 s and 1.4 GB on the project machine; the next sizes
/// up (12 cards: 4.8e8 with hands of 1, 1.2e10 and more with larger hands) grow with them.
const MAX_EXACT_HISTORIES: u128 = 1_000_000_000;

/// A rank as the option spells it.
fn rank(text: &str) -> Option<u8> {
    match text.trim().to_ascii_uppercase().as_str() {
        "A" => Some(1),
        "J" => Some(8),
        "N" => Some(9),
        "K" => Some(10),
        t => t.parse().ok().filter(|r| (1..=10).contains(r)),
    }
}

/// Run `briscola solve-game`.
pub fn solve_game(a: SolveGameArgs) -> Exit {
    let fail = |msg: String| report(&CliError::Usage(msg));
    let ranks: Option<Vec<u8>> = a.ranks.split(',').map(rank).collect();
    let Some(ranks) = ranks else {
        return fail(format!(
            "--ranks {}: each rank is 1 to 10 or A, J, N, K (Ace, Knave, Knight, King), comma-separated, e.g. A,3,K,J",
            a.ranks
        ));
    };
    let spec = ReducedSpec {
        suits: a.suits,
        ranks,
        hand: a.hand,
    };
    let histories = match briscola::solve::reduced::ReducedGame::new(spec.clone()) {
        Ok(g) => g.histories(),
        Err(e) => return fail(format!("the reduced game: {e}")),
    };
    if histories > MAX_EXACT_HISTORIES {
        return fail(format!(
            "the reduced game has {histories} complete histories: even without CFR+ (--iterations 0) the policies' exact exploitability walks every one, which past {MAX_EXACT_HISTORIES} takes hours and more memory than a workstation has (293,932,800 histories, 10 cards in hands of 3: 49 s and 1.4 GB); use a smaller deck or fewer cards in hand"
        ));
    }
    if a.iterations > 0 && histories > MAX_CFR_HISTORIES {
        return fail(format!(
            "the reduced game has {histories} complete histories: CFR+ keeps a table of every information set, which past {MAX_CFR_HISTORIES} histories does not fit in memory (10 cards in hands of 3 need more than 117 million sets); use a smaller deck, or --iterations 0 for the policies' exact exploitability alone"
        ));
    }
    if let Some(p) = &a.plot {
        if p.extension().is_none_or(|e| e != "svg") {
            return fail(format!(
                "--plot {}: the figure is SVG; name a file ending in .svg",
                p.display()
            ));
        }
        if let Some(problem) = briscola::files::output_problem(p) {
            return fail(format!("--plot {}: {problem}", p.display()));
        }
        let dir = briscola::files::parent_dir(p);
        if !dir.is_dir() {
            return fail(format!(
                "--plot {}: the directory {} does not exist",
                p.display(),
                dir.display()
            ));
        }
        if let Err(problem) = briscola::files::dir_writable(dir) {
            return fail(format!("--plot {}: {problem}", p.display()));
        }
    }
    let results = match solve(spec, &a) {
        Ok(r) => r,
        Err(e) => return fail(format!("the reduced game: {e}")),
    };
    if let Some(p) = &a.plot {
        let fig = briscola::plot::ExploitabilityCurve::new(&results);
        let svg = match briscola::plot::render_svg(&fig, "exploitability") {
            Ok(s) => s,
            Err(e) => return report(&CliError::Runtime(format!("the figure: {e}"))),
        };
        if let Err(e) = briscola::pipeline::atomic_file::write_atomic(p, svg.as_bytes()) {
            return report(&CliError::Runtime(format!("--plot {}: {e}", p.display())));
        }
    }
    if a.json {
        match serde_json::to_string_pretty(&results) {
            Ok(s) => println!("{s}"),
            Err(e) => return report(&CliError::Runtime(e.to_string())),
        }
    } else {
        print!("{}", text(&results));
    }
    Exit::Ok
}

/// Solve `spec` as `a` asks, with a progress bar on a terminal.
fn solve(spec: ReducedSpec, a: &SolveGameArgs) -> Result<ReducedResults, ReducedSpecError> {
    let bar = if std::io::stderr().is_terminal() && a.iterations > 0 {
        let b = ProgressBar::new(a.iterations);
        b.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} CFR+ iterations ({per_sec}, eta {eta}) {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let tie = TieBreak::default();
    let (g, h, c) = (
        Greedy::new(tie),
        Hoarder::new(DEFAULT_THRESHOLD, tie),
        Counter::new(DEFAULT_THRESHOLD, tie),
    );
    let policies: [(String, &dyn Policy); 3] = [
        ("greedy".into(), &g),
        ("hoarder".into(), &h),
        ("counter".into(), &c),
    ];
    let start = std::time::Instant::now();
    let worlds = a.worlds.map(|w| w as usize);
    let mut r = solve_reduced(spec, a.iterations, worlds, &policies, |t, e| {
        bar.set_position(t);
        if let Some(e) = e {
            bar.set_message(format!("exploitability {e:.5}"));
        }
    })?;
    bar.finish_and_clear();
    r.seconds = Some(start.elapsed().as_secs_f64());
    Ok(r)
}

/// A count as the report prints it (`362,880`); the text as it is if it is not a number.
fn grouped(s: &str) -> String {
    s.parse::<i128>()
        .map_or_else(|_| s.to_string(), briscola::report::format::thousands)
}

/// The results in words.
fn text(r: &ReducedResults) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Reduced Briscola: {} = {} cards ({} points), hands of {}, the stock's bottom card face up; {} deals, {} complete histories.",
        r.deck,
        r.cards,
        r.points,
        r.hand,
        grouped(&r.deals),
        grouped(&r.histories)
    );
    let _ = writeln!(
        o,
        "Payoffs are points: seat 0's minus seat 1's; a best response's from its own side. Exploitability is the mean of the two seats' best-response values (0 at an equilibrium)."
    );
    if r.iterations > 0 {
        let secs = r.seconds.unwrap_or(0.0);
        let per = r.iterations as f64 / secs.max(1e-9);
        let _ = writeln!(
            o,
            "\nCFR+: {} iterations in {:.2} s ({per:.1} a second, with the checkpoints' exact walks); {} information sets, {:.1} MB.",
            r.iterations,
            secs,
            r.info_sets,
            r.bytes as f64 / 1e6
        );
        let _ = writeln!(
            o,
            "  {:>10}  {:>14}  {:>14}",
            "iteration", "value", "exploitability"
        );
        for c in &r.checkpoints {
            let _ = writeln!(
                o,
                "  {:>10}  {:>+14.6}  {:>14.6}",
                c.iteration, c.value, c.exploitability
            );
        }
        if let Some(last) = r.checkpoints.last() {
            let _ = writeln!(
                o,
                "The game's value (seat 0's margin under the equilibrium) is {:+.4} points, to within the average strategy's exploitability {:.4}.",
                last.value, last.exploitability
            );
        }
    }
    let _ = writeln!(
        o,
        "\n  {:<8}  {:>14}  {:>22}  {:>16}",
        "policy", "exploitability", "exploit agent's bound", "vs equilibrium"
    );
    for p in &r.policies {
        let bound = p.sampled_bound.map_or("-".to_string(), |b| {
            format!("{b:.4} ({:.0}%)", 100.0 * b / p.exploitability.max(1e-12))
        });
        let eq = p
            .vs_equilibrium
            .map_or("-".to_string(), |v| format!("{v:+.4}"));
        let _ = writeln!(
            o,
            "  {:<8}  {:>14.4}  {:>22}  {:>16}",
            p.name, p.exploitability, bound, eq
        );
    }
    let _ = writeln!(
        o,
        "exploitability: what a best response takes from the policy (exact); exploit agent's bound: what the sampled agent that knows it takes (the share of the exact value it reaches); vs equilibrium: the policy's margin against the CFR+ average strategy."
    );
    o
}
