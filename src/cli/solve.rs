//! `briscola solve FILE`: the trick-feasibility question of a position file (can a player win at
//! least k tricks or take p points over some line of everybody's play, for some and for every
//! completion of the unknown cards?), answered with a witness line in readable card names; for
//! an open two-player position also its minimax value.
//!
//! Invariant: the command only reads its file and writes stdout; a malformed file is exit 2 with
//! the file, the field and what would be valid, never a panic.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use briscola::solve::{
    Answer, CardSet, Completion, DEFAULT_MAX_NODES, Duel, DuelSolver, Feasibility, Position,
    PositionSpec, SampledCompletions, Target, card_name, sample_completions, suit_name,
};
use briscola::stats::clopper_pearson_upper;

use super::error::{CliError, Exit, report};

/// `briscola solve`
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The position file (TOML): `rules`, `trump`, `leader`, `hands`, `unknown`, `played`,
    /// `stock`, `face_up` and the `[goal]` (`player` and `tricks` or `points`). See the README.
    pub position: PathBuf,
    /// Ignored: "for every completion" is now answered exactly (kept so older command lines
    /// still run).
    #[arg(long, default_value_t = 200, value_name = "N", hide = true)]
    pub tries: usize,
    /// The most search nodes each search may visit (memory grows with it, ~100 bytes a node at
    /// worst); past it the answer says so instead of guessing.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// When "for every completion" is not answered: how many completions of the unknown cards
    /// to draw at random and search one by one (a drawn completion with no line answers "no";
    /// if every one has a line, the report bounds the share that lack one); 0 draws none.
    #[arg(long, default_value_t = 1000, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub samples: u32,
    /// The seed of those draws (the same seed draws the same completions on any machine).
    #[arg(long, default_value_t = 1, value_name = "SEED")]
    pub seed: u64,
}

/// What `solve` searches with: the node budget of each search, and the completions drawn when
/// "for every completion" is not answered.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The most nodes each search may visit.
    pub max_nodes: u64,
    /// Completions to draw (0: none).
    pub samples: u32,
    /// Their seed.
    pub seed: u64,
}

/// What a position file holds, for its parse errors.
const POSITION_FORM: &str = "a position file gives hands = [[\"7 of Cups\", ...], ...] (one list per player, its known cards) and a [goal] table with player = N and tricks = K or points = P; optional: trump = \"Swords\", face_up, leader (1-based), unknown = [counts], played = [cards], stock = [cards, top first] and a [rules] table (players, deck, ...); e.g. tests/data/solve/logic-model-seed.toml";

/// Run `briscola solve`.
pub fn solve(a: SolveArgs) -> Exit {
    let file = a.position.display().to_string();
    let fail = |msg: String| report(&CliError::Usage(msg));
    let text = match briscola::files::read_capped(&a.position, 1 << 20) {
        Ok(b) => match String::from_utf8(b) {
            Ok(t) => t,
            Err(_) => return fail(format!("{file}: not UTF-8 text; a position file is TOML")),
        },
        Err(briscola::files::ReadError::TooLarge(_)) => {
            return fail(format!(
                "{file}: larger than 1 MiB; a position file is a few lines of TOML"
            ));
        }
        Err(e) => return fail(format!("{file}: cannot read the position file: {e}")),
    };
    let spec: PositionSpec = match toml::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            // One line at the place (not the TOML library's caret drawing), then the form.
            let at = e.span().map_or(String::new(), |s| {
                let (line, column) = briscola::pipeline::line_col::line_col(&text, s.start);
                format!("{line}:{column}: ")
            });
            let what = briscola::policy::plain_message(e.message().trim_end());
            return fail(format!("{file}:{at}{what}; {POSITION_FORM}"));
        }
    };
    let pos = match spec.validate() {
        Ok(p) => p,
        Err(e) => return fail(format!("{file}: {e}")),
    };
    let budget = Budget {
        max_nodes: a.max_nodes,
        samples: a.samples,
        seed: a.seed,
    };
    outln!("{}", render(&file, &pos, budget));
    Exit::Ok
}

fn player(p: usize) -> String {
    format!("Player-{}", p + 1)
}

fn names(set: CardSet) -> Vec<String> {
    set.iter().map(card_name).collect()
}

/// The whole report of one position (what `solve` prints).
pub fn render(file: &str, pos: &Position, budget: Budget) -> String {
    let max_nodes = budget.max_nodes;
    let mut o = String::new();
    describe(&mut o, file, pos);
    let left = pos.tricks_left();
    let question = match pos.target {
        Target::Tricks(k) => format!("win at least {k} of the {left} tricks left"),
        Target::Points(p) => format!("take at least {p} card points in the {left} tricks left"),
    };
    let _ = writeln!(
        o,
        "\nQuestion: can {} {question}, over some line of everybody's play?",
        player(pos.player)
    );
    let unknown = !pos.pool().is_empty();
    let some = Feasibility::some(pos, max_nodes);
    let label = if unknown {
        "For some completion of the unknown cards"
    } else {
        "Answer"
    };
    match &some {
        Answer::Yes(Some(line)) => {
            let _ = writeln!(o, "  {label}: yes. A witness line:");
            witness(&mut o, line);
        }
        Answer::OutOfBudget { nodes } => {
            let _ = writeln!(o, "  {label}: {}", out_of_budget(*nodes));
        }
        _ => {
            let _ = writeln!(o, "  {label}: no: no line of play reaches it.");
        }
    }
    if unknown {
        let every = match &some {
            Answer::Yes(_) => Feasibility::every(pos, max_nodes),
            Answer::OutOfBudget { .. } => some.clone(),
            _ => Answer::No(None),
        };
        let mut unanswered = matches!(every, Answer::OutOfBudget { .. });
        let sampled = (unanswered && budget.samples > 0 && matches!(some, Answer::Yes(_)))
            .then(|| sample_completions(pos, budget.samples, budget.seed, max_nodes));
        let every = match &sampled {
            Some(SampledCompletions {
                refutation: Some(c),
                ..
            }) => {
                unanswered = false;
                Answer::No(Some(c.clone()))
            }
            _ => every,
        };
        let text = match every {
            Answer::OutOfBudget { nodes } => out_of_budget(nodes),
            Answer::Yes(_) => {
                "yes: proved for every placement of the unknown cards (each has a line reaching it)"
                    .to_string()
            }
            Answer::No(None) => "no (not even for some completion)".to_string(),
            Answer::No(Some(c)) => refuted(&c),
            // The exact search never leaves a question undetermined; an older answer might.
            Answer::Undetermined { tried } => {
                format!("undetermined after {tried} completions (raise --max-nodes)")
            }
        };
        let _ = writeln!(o, "  For every completion of the unknown cards: {text}");
        if unanswered && let Some(k) = every_bound(pos, max_nodes) {
            let _ = writeln!(
                o,
                "    what is proved: for every completion {} can win at least {k} of the {left} tricks left",
                player(pos.player)
            );
        }
        if let Some(s) = &sampled {
            let _ = writeln!(o, "    {}", sampled_text(s, budget));
        }
    }
    if pos.players() == 2 && !unknown {
        minimax(&mut o, pos);
    }
    o
}

/// The most tricks (below a tricks goal whose "for every completion" went unanswered) that
/// every completion is proved to reach: goals from one trick up, each with what is left of
/// one more `max_nodes`, until one is not proved; `None` when not even one trick is (or the
/// goal is points). A line reaching j tricks reaches fewer, so proving each goal in turn
/// finds the best bound, and the small goals cost little.
fn every_bound(pos: &Position, max_nodes: u64) -> Option<u16> {
    let Target::Tricks(k) = pos.target else {
        return None;
    };
    let mut left = max_nodes;
    let mut proved = None;
    for j in 1..k {
        let mut easier = pos.clone();
        easier.target = Target::Tricks(j);
        let report = Feasibility::every_report(&easier, left);
        left = left.saturating_sub(report.cost());
        match report.answer {
            Answer::Yes(_) => proved = Some(j),
            _ => break,
        }
    }
    proved
}

/// "No" for every completion, with the completion that has no line.
fn refuted(c: &Completion) -> String {
    let mut t = "no. With the unknown cards placed so, no line of play reaches it:".to_string();
    for (p, cards) in c.hands.iter().enumerate().filter(|(_, h)| !h.is_empty()) {
        let cards: Vec<String> = cards.iter().map(|&c| card_name(c)).collect();
        let _ = write!(
            t,
            "\n    {}'s unknown cards: {}",
            player(p),
            cards.join(", ")
        );
    }
    let stock: Vec<String> = c.stock.iter().map(|&c| card_name(c)).collect();
    let _ = write!(t, "\n    the stock from its top: {}", stock.join(", "));
    t
}

/// What the drawn completions showed: where a drawn one was refuted, how it was found; else how
/// many have a line and the one-sided 95 % Clopper-Pearson upper bound on the share of
/// completions without one (undecided draws counted as without).
fn sampled_text(s: &SampledCompletions, budget: Budget) -> String {
    let how = format!(
        "drawn uniformly at random (seed {}) and searched one by one",
        budget.seed
    );
    if s.refutation.is_some() {
        return format!(
            "(found by sampling: draw {} of the completions {how}, its exact search finds no line)",
            s.drawn
        );
    }
    let short = if s.drawn < budget.samples {
        format!(" ({} asked; the node budget ran out)", budget.samples)
    } else {
        String::new()
    };
    let without = s.drawn - s.with_line;
    let found = if s.undecided == 0 {
        "every one has a line".to_string()
    } else {
        format!(
            "{} with a line, {} out of nodes (counted as without one)",
            s.with_line, s.undecided
        )
    };
    format!(
        "sampled: {} completions{short} {how}: {found}; so at most {} of the completions lack one (one-sided 95 % Clopper-Pearson bound; sampling proves no \"yes\")",
        s.drawn,
        clopper_pearson_upper(u64::from(without), u64::from(s.drawn), 0.95)
            .map_or_else(|e| e.to_string(), percent)
    )
}

/// A share as a percentage with three significant digits (`0.300 %`, `12.5 %`; `0 %` for 0).
fn percent(p: f64) -> String {
    let pc = p * 100.0;
    if pc <= 0.0 {
        return "0 %".to_string();
    }
    let decimals = if pc >= 10.0 {
        1
    } else if pc >= 1.0 {
        2
    } else {
        (2 - pc.log10().floor() as i32).max(3) as usize
    };
    format!("{pc:.decimals$} %")
}

fn out_of_budget(nodes: u64) -> String {
    format!(
        "not answered: the search stopped after {nodes} nodes without a proof either way (raise --max-nodes)"
    )
}

fn describe(o: &mut String, file: &str, pos: &Position) {
    let trump = pos.trump.map_or("no trump".to_string(), |t| {
        format!("trump {}", suit_name(t))
    });
    let draws = match pos.draw_order() {
        briscola::game::DrawOrder::WinnerFirst => "the trick's winner draws first",
        briscola::game::DrawOrder::LoserFirst => "the player after the winner draws first",
    };
    let _ = writeln!(
        o,
        "Position {file}: {} players, {trump}, {} leads; after each trick {draws}, one card each.",
        pos.players(),
        player(pos.leader)
    );
    for p in 0..pos.players() {
        let mut cards = names(pos.hands[p]);
        if pos.unknown[p] > 0 {
            cards.push(format!("{} unknown", pos.unknown[p]));
        }
        let _ = writeln!(o, "  {}: {}", player(p), cards.join(", "));
    }
    if !pos.played.is_empty() {
        let _ = writeln!(o, "  out of play: {}", names(pos.played).join(", "));
    }
    let known = pos.stock.iter().flatten().count();
    let stock = match (pos.stock.len(), known) {
        (0, _) => "empty".to_string(),
        (n, k) if k == n => {
            let cards: Vec<String> = pos.stock.iter().flatten().map(|&c| card_name(c)).collect();
            format!("{n} cards from the top: {}", cards.join(", "))
        }
        (n, 1) if pos.stock.last().is_some_and(|c| c.is_some()) => format!(
            "{n} cards, order unknown, face-up {} at the bottom",
            card_name(pos.stock[n - 1].expect("face-up"))
        ),
        (n, _) => format!("{n} cards, order unknown (no face-up card given)"),
    };
    let _ = writeln!(o, "  stock: {stock}");
    let pool = pos.pool().len();
    if pool > 0 {
        let in_hands: u32 = pos.unknown.iter().map(|&u| u as u32).sum();
        let _ = writeln!(
            o,
            "  unknown cards: {pool} ({in_hands} in hands, {} in the stock), revealed when played",
            pool - in_hands
        );
    }
}

fn witness(o: &mut String, line: &[briscola::solve::WitnessTrick]) {
    for (i, t) in line.iter().enumerate() {
        let plays: Vec<String> = t
            .cards
            .iter()
            .map(|&(p, c, revealed)| {
                let mark = if revealed { " (unknown card)" } else { "" };
                format!("{} {}{mark}", player(p), card_name(c))
            })
            .collect();
        let _ = writeln!(
            o,
            "    trick {}: {} -> {} wins",
            i + 1,
            plays.join(", "),
            player(t.winner)
        );
    }
}

fn minimax(o: &mut String, pos: &Position) {
    let duel = Duel {
        trump: pos.trump,
        hands: [pos.hands[0], pos.hands[1]],
        stock: pos.stock.iter().flatten().copied().collect(),
        leader: pos.leader as u8,
        led: None,
        draw_order: pos.draw_order(),
    };
    let left = CardSet(pos.hands[0].0 | pos.hands[1].0).points()
        + duel.stock.iter().map(|c| c.points() as u32).sum::<u32>();
    let diff = DuelSolver::new().value(&duel, None);
    let p1 = (left as i32 + diff) / 2;
    let _ = writeln!(
        o,
        "\nMinimax value (both players play their best for points): Player-1 takes {p1} and Player-2 {} of the {left} points left (difference {diff:+}).",
        left as i32 - p1
    );
}
