//! The line interface of `briscola play --players 3|4|6`: a person in one seat of a table game
//! (with a partner in a partnership game) against computer players, one command per line. The
//! other seats' plays are shown as they happen; after each trick, who took it and the card the
//! person drew; at the end each side's cards counted and the final team (or seat) points.
//!
//! Invariant: the game is [`TableState`]'s and the computer seats are asked exactly as
//! [`crate::game::play_table`] asks them (in turn, each with its own stream), so the recorded
//! game replays on the engine card for card; a line that is not a legal command changes nothing
//! and is answered with what would be valid.

use std::io::{BufRead, Write};

use crate::game::{Card, Deck, Rules, SeatRng, SeatView, TableOutcome, TableState, TableTrick};
use crate::policy::{Explanation, TablePolicy};
use briscola_core::table::TableDraw;

/// How a table session is set up.
pub struct TableSetup {
    /// The rules.
    pub rules: Rules,
    /// The deck.
    pub deck: Deck,
    /// The person's seat (0-based).
    pub person: usize,
    /// What to call each seat's player.
    pub names: Vec<String>,
    /// Each computer seat's policy (`None` at the person's seat).
    pub seats: Vec<Option<TablePolicy>>,
    /// Each seat's random stream.
    pub rngs: Vec<SeatRng>,
    /// Show the points from the start (`p` toggles).
    pub show_points: bool,
    /// Policies the hint (`h`) asks, by name.
    pub hints: Vec<(String, TablePolicy)>,
}

/// A finished table game.
#[derive(Clone, Debug)]
pub struct TableGameDone {
    /// The tricks, in order.
    pub tricks: Vec<TableTrick>,
    /// The outcome.
    pub outcome: TableOutcome,
}

/// How a table session ended.
#[derive(Debug)]
pub enum TableSessionEnd {
    /// The game was played to the end.
    Finished(Box<TableGameDone>),
    /// The person typed `q`.
    Quit,
    /// The input ended during this trick.
    InputEnded(u8),
    /// The input could not be read during this trick (the error, in words).
    ReadFailed(u8, String),
}

const HELP: &str = "keys: a card's number plays it (then Enter); h hint: what the paper's policies would play and why; w why: the reasons of this trick's computer plays; p show/hide points; l last trick; q quit; ? this help";

#[derive(Default)]
struct Log {
    tricks: Vec<TableTrick>,
    draws: Vec<TableDraw>,
}

impl crate::game::TableSink for Log {
    fn trick(&mut self, t: &TableTrick) {
        self.tricks.push(*t);
    }
    fn draw(&mut self, trick: u8, seat: u8, card: Card) {
        self.draws.push(TableDraw { trick, seat, card });
    }
}

struct Session<'a> {
    setup: &'a TableSetup,
    out: &'a mut dyn Write,
    show_points: bool,
    /// This trick's computer plays and their reasons.
    why: Vec<(usize, Explanation)>,
}

impl Session<'_> {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn teams(&self) -> bool {
        self.setup.rules.sides() < self.setup.rules.players()
    }

    /// `you`, `seat 3 (greedy, your partner)`, `seat 2 (counter, opponent)`.
    fn who(&self, seat: usize) -> String {
        let rules = &self.setup.rules;
        if seat == self.setup.person {
            return "you".into();
        }
        let name = &self.setup.names[seat];
        if !self.teams() {
            return format!("seat {} ({name})", seat + 1);
        }
        let role = if rules.partners(seat, self.setup.person) {
            "your partner"
        } else {
            "opponent"
        };
        format!("seat {} ({name}, {role})", seat + 1)
    }

    fn side_name(&self, side: usize) -> String {
        let rules = &self.setup.rules;
        if !self.teams() {
            return self.who(side);
        }
        if rules.side_of(self.setup.person) == side {
            "your team".into()
        } else {
            "their team".into()
        }
    }

    fn intro(&mut self) {
        let rules = self.setup.rules;
        let n = rules.players();
        let mut s = format!(
            "{n} players{}; you are seat {}",
            if self.teams() {
                format!(" in {} teams", rules.sides())
            } else {
                String::new()
            },
            self.setup.person + 1
        );
        if self.teams() {
            let partners: Vec<String> = (0..n)
                .filter(|&k| k != self.setup.person && rules.partners(k, self.setup.person))
                .map(|k| self.who(k))
                .collect();
            s.push_str(&format!("; your partner: {}", partners.join(", ")));
        }
        let others: Vec<String> = (0..n)
            .filter(|&k| k != self.setup.person && !rules.partners(k, self.setup.person))
            .map(|k| self.who(k))
            .collect();
        s.push_str(&format!("; against {}", others.join(", ")));
        s.push_str(&format!(
            ". Seat {} leads the first trick; play goes 1, 2, .. {n}.",
            rules.spec().first_leader + 1
        ));
        self.say(&s);
        self.say(HELP);
    }

    fn score_line(&self, state: &TableState) -> String {
        let rules = &self.setup.rules;
        let pts = state.outcome().side_points(rules);
        (0..rules.sides())
            .map(|k| format!("{} {}", self.side_name(k), pts[k]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn show(&mut self, state: &TableState, v: &SeatView<'_>) {
        let rules = self.setup.rules;
        let mut s = String::new();
        let trump = match (state.outcome().trump, state.outcome().face_up) {
            (Some(t), Some(f)) => format!("trump {t} (face-up {f})"),
            _ => "no trump".to_string(),
        };
        s.push_str(&format!(
            "\n== trick {} of {} == {trump} == stock {}\n",
            v.trick,
            rules.tricks(),
            v.stock_left
        ));
        if self.show_points {
            s.push_str(&format!("points: {}\n", self.score_line(state)));
        } else {
            s.push_str("points: hidden (p shows them)\n");
        }
        if v.trick_cards.is_empty() {
            s.push_str("table: empty, you lead\n");
        } else {
            let leader = state.leader();
            let played: Vec<String> = v
                .trick_cards
                .iter()
                .enumerate()
                .map(|(k, c)| format!("{} {c}", self.who((leader + k) % rules.players())))
                .collect();
            s.push_str(&format!("table: {}\n", played.join(", ")));
        }
        s.push_str("your hand:\n");
        let full = state.hand(self.setup.person);
        for (i, c) in full.iter().enumerate() {
            let trump = if Some(c.suit()) == state.outcome().trump {
                "  [trump]"
            } else {
                ""
            };
            let barred = if v.hand.contains(c) {
                ""
            } else {
                "  (may not: follow suit)"
            };
            s.push_str(&format!(
                "  {}) {c} ({} points){trump}{barred}\n",
                i + 1,
                c.points()
            ));
        }
        let _ = write!(self.out, "{s}");
    }

    fn hint(&mut self, v: &SeatView<'_>) {
        let mut lines = Vec::new();
        for (name, p) in &self.setup.hints {
            let e = p.explain(v, &mut SeatRng::new([0; 32], 0));
            lines.push(format!("hint: {name} would play {}: {}", e.card, e.line()));
        }
        for l in lines {
            self.say(&l);
        }
    }

    /// The person's turn: read lines until one plays a legal card.
    fn turn(
        &mut self,
        state: &TableState,
        input: &mut dyn BufRead,
    ) -> Result<Card, TableSessionEnd> {
        let Some(v) = state.view() else {
            return Err(TableSessionEnd::Quit);
        };
        self.show(state, &v);
        let full = state.hand(self.setup.person).to_vec();
        let n = full.len();
        loop {
            let _ = write!(
                self.out,
                "your card [1-{n}] (h hint, w why, p points, l last trick, ? help, q quit): "
            );
            let _ = self.out.flush();
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) => {
                    self.say("");
                    return Err(TableSessionEnd::InputEnded(v.trick));
                }
                Err(e) => {
                    self.say("");
                    return Err(TableSessionEnd::ReadFailed(v.trick, e.to_string()));
                }
                Ok(_) => {}
            }
            let t = line.trim();
            match t {
                "" => {}
                "h" | "hint" => self.hint(&v),
                "w" | "why" => self.explain_trick(),
                "p" | "points" => {
                    self.show_points = !self.show_points;
                    self.show(state, &v);
                }
                "l" | "last" => {
                    let l = match state.last_trick() {
                        Some(t) => self.trick_line(t),
                        None => "no trick has been played yet".to_string(),
                    };
                    self.say(&l);
                }
                "?" | "help" => self.say(HELP),
                "q" | "quit" => return Err(TableSessionEnd::Quit),
                _ => match t.parse::<usize>() {
                    Ok(k) if (1..=n).contains(&k) && v.hand.contains(&full[k - 1]) => {
                        self.say(&format!("you play {}", full[k - 1]));
                        return Ok(full[k - 1]);
                    }
                    Ok(k) if (1..=n).contains(&k) => self.say(&format!(
                        "you must follow suit: play one of {}",
                        v.hand
                            .iter()
                            .map(|c| {
                                let i = full.iter().position(|x| x == c).unwrap_or(0);
                                format!("{}) {c}", i + 1)
                            })
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                    Ok(k) => self.say(&format!(
                        "there is no card {k}: your hand holds {n} card{}; type 1 to {n}",
                        if n == 1 { "" } else { "s" }
                    )),
                    Err(_) => self.say(&format!(
                        "unknown key `{}`: type 1 to {n} to play a card, or h, w, p, l, ?, q",
                        crate::policy::shown_text(t)
                    )),
                },
            }
        }
    }

    fn explain_trick(&mut self) {
        if self.why.is_empty() {
            self.say("why: no computer player has played to this trick yet");
        }
        let lines: Vec<String> = self
            .why
            .iter()
            .map(|(seat, e)| format!("why: {} played {}: {}", self.who(*seat), e.card, e.line()))
            .collect();
        for l in lines {
            self.say(&l);
        }
    }

    fn trick_line(&self, t: &TableTrick) -> String {
        let plays: Vec<String> = (0..t.players as usize)
            .map(|k| format!("{} {}", self.who(t.seat_of(k)), t.played()[k]))
            .collect();
        format!(
            "trick {}: {}; {} take{} {} points",
            t.trick,
            plays.join(", "),
            self.who(t.winner as usize),
            if t.winner as usize == self.setup.person {
                ""
            } else {
                "s"
            },
            t.points
        )
    }

    fn score_count(&mut self, tricks: &[TableTrick], outcome: &TableOutcome) {
        let rules = self.setup.rules;
        self.say("\n== game over == score count:");
        for side in 0..rules.sides() {
            let cards: Vec<Card> = tricks
                .iter()
                .filter(|t| rules.side_of(t.winner as usize) == side)
                .flat_map(|t| t.played().to_vec())
                .collect();
            let line = format!("  {}: {}", self.side_name(side), count_line(&cards));
            self.say(&line);
        }
        let pts = outcome.side_points(&rules);
        let mine = rules.side_of(self.setup.person);
        let verdict = match outcome.winner_side(&rules) {
            Some(w) if w == mine => {
                if self.teams() {
                    "your team wins".to_string()
                } else {
                    "you win".to_string()
                }
            }
            Some(w) => format!("{} wins", self.side_name(w)),
            None => "a tie".to_string(),
        };
        let score: Vec<String> = (0..rules.sides())
            .map(|k| format!("{} {}", self.side_name(k), pts[k]))
            .collect();
        let line = format!("final score: {}: {verdict}", score.join(", "));
        self.say(&line);
    }
}

/// `14 cards: 2 Assi 22 + 1 Tre 10 + ... = 45 points`.
pub fn count_line(cards: &[Card]) -> String {
    let mut parts = Vec::new();
    for (rank, one, many) in [
        (1, "Asso", "Assi"),
        (3, "Tre", "Tre"),
        (10, "Re", "Re"),
        (9, "Cavallo", "Cavalli"),
        (8, "Fante", "Fanti"),
    ] {
        let k = cards.iter().filter(|c| c.rank() == rank).count();
        if k > 0 {
            let pts: u32 = cards
                .iter()
                .filter(|c| c.rank() == rank)
                .map(|c| u32::from(c.points()))
                .sum();
            parts.push(format!("{k} {} {pts}", if k == 1 { one } else { many }));
        }
    }
    let total: u32 = cards.iter().map(|c| u32::from(c.points())).sum();
    format!(
        "{} cards: {} = {total} points",
        cards.len(),
        if parts.is_empty() {
            "no counting cards".to_string()
        } else {
            parts.join(" + ")
        }
    )
}

/// Play one table game: the person reads `input` and sees `out`; the computer seats play their
/// policies on their streams.
pub fn run_table_session(
    setup: &TableSetup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> TableSessionEnd {
    let mut state = TableState::new(&setup.rules, &setup.deck);
    let mut rngs = setup.rngs.clone();
    let mut log = Log::default();
    let mut s = Session {
        setup,
        out,
        show_points: setup.show_points,
        why: Vec::new(),
    };
    s.intro();
    while let Some(view) = state.view() {
        let seat = view.seat as usize;
        let card = match &setup.seats[seat] {
            None => match s.turn(&state, input) {
                Ok(c) => c,
                Err(end) => return end,
            },
            Some(p) => {
                let e = p.explain(&view, &mut rngs[seat]);
                let line = format!("{} plays {}", s.who(seat), e.card);
                s.say(&line);
                let c = e.card;
                s.why.push((seat, e));
                c
            }
        };
        let done = match state.play(card, &mut log) {
            Ok(t) => t,
            Err(e) => {
                s.say(&format!("internal: {e}"));
                return TableSessionEnd::Quit;
            }
        };
        if let Some(t) = done {
            s.why.clear();
            let line = s.trick_line(&t);
            s.say(&line);
            let drew: Vec<Card> = log
                .draws
                .iter()
                .filter(|d| d.trick == t.trick && d.seat as usize == setup.person)
                .map(|d| d.card)
                .collect();
            if let Some(c) = drew.first() {
                s.say(&format!("you drew {c}"));
            }
        }
    }
    let outcome = *state.outcome();
    s.score_count(&log.tricks, &outcome);
    TableSessionEnd::Finished(Box::new(TableGameDone {
        tricks: log.tricks,
        outcome,
    }))
}
