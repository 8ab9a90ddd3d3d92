//! The line interface of `briscola play`: shows the table at each of the person's turns, reads
//! one command per line (a card's number, or h, p, l, ?, q), and reports each trick and the final
//! score count. Input and output are any reader and writer, so a script or a test can drive it.
//!
//! Invariant: a line that is not a legal command changes nothing and is answered with what
//! would be valid; the game goes on. Only `q` or the end of the input stops a game early.

use std::io::{BufRead, Write};

use crate::game::{Card, Deck, Seat, SeatRng, TrickRecord};
use crate::policy::AnyPolicy;
use briscola_core::table::{LiveEvent, LiveGame};
use briscola_core::table::{SeatActor, TracedGame, ViewSnapshot};

/// How a session is set up.
pub struct SessionSetup {
    /// The deck.
    pub deck: Deck,
    /// The person's seat: 0 = G1 (leads the first trick), 1 = G2.
    pub person: usize,
    /// The opponent's name, as shown.
    pub opponent_name: String,
    /// The opponent.
    pub opponent: SeatActor,
    /// The seats' random streams, G1's first.
    pub rngs: [SeatRng; 2],
    /// Show the points from the start (`p` toggles).
    pub show_points: bool,
    /// Policies the hint (`h`) asks, by name.
    pub hints: Vec<(String, AnyPolicy)>,
}

/// How a session ended.
#[derive(Debug)]
pub enum SessionEnd {
    /// The game was played to the end.
    Finished(Box<TracedGame>),
    /// The person typed `q`.
    Quit,
    /// The input ended during this trick.
    InputEnded(u8),
    /// The input could not be read during this trick (the error, in words).
    ReadFailed(u8, String),
}

/// One line of input, understood.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Card(usize),
    Hint,
    Points,
    Last,
    Help,
    Quit,
    Empty,
    Unknown(String),
}

fn parse(line: &str) -> Command {
    let t = line.trim();
    match t {
        "" => Command::Empty,
        "h" | "hint" => Command::Hint,
        "p" | "points" => Command::Points,
        "l" | "last" => Command::Last,
        "?" | "help" => Command::Help,
        "q" | "quit" => Command::Quit,
        _ => match t.parse::<usize>() {
            Ok(n) => Command::Card(n),
            Err(_) => Command::Unknown(crate::policy::shown_text(t)),
        },
    }
}

const HELP: &str = "keys: 1-3 play that card of your hand (then Enter); h hint: what the paper's policies would play and why; p show/hide points; l last trick; q quit; ? this help";

/// The running session.
struct Session<'a> {
    setup: &'a SessionSetup,
    out: &'a mut dyn Write,
    show_points: bool,
    last: Option<TrickRecord>,
    taken: [u32; 2],
    /// The person's hand after their last card, to say what they drew since.
    kept: Option<Vec<Card>>,
}

impl Session<'_> {
    fn me(&self) -> Seat {
        if self.setup.person == 0 {
            Seat::G1
        } else {
            Seat::G2
        }
    }

    fn name(&self, s: Seat) -> &str {
        if s == self.me() {
            "you"
        } else {
            &self.setup.opponent_name
        }
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn trick_line(&self, t: &TrickRecord) -> String {
        let (lead, follow) = if t.leader == Seat::G1 {
            (t.card_g1, t.card_g2)
        } else {
            (t.card_g2, t.card_g1)
        };
        let other = if t.leader == Seat::G1 {
            Seat::G2
        } else {
            Seat::G1
        };
        format!(
            "trick {}: {} led {lead}, {} played {follow}: {} take{} {} points",
            t.trick,
            self.name(t.leader),
            self.name(other),
            self.name(t.winner),
            if t.winner == self.me() { "" } else { "s" },
            t.points
        )
    }

    fn show(&mut self, v: &ViewSnapshot) {
        let mut s = String::new();
        s.push_str(&format!(
            "\n== trick {} of 20 == trump {} (face-up {}) == stock {} card{}\n",
            v.trick,
            v.trump,
            v.face_up,
            v.stock_left,
            if v.stock_left == 1 { "" } else { "s" }
        ));
        match &self.last {
            Some(t) => s.push_str(&format!("last {}\n", self.trick_line(t))),
            None => s.push_str("last trick: none yet\n"),
        }
        if self.show_points {
            s.push_str(&format!(
                "points: you {}, {} {}\n",
                v.my_points, self.setup.opponent_name, v.opp_points
            ));
        } else {
            s.push_str("points: hidden (p shows them)\n");
        }
        match v.table {
            Some(c) => s.push_str(&format!(
                "table: {} led {c} ({} points)\n",
                self.setup.opponent_name,
                c.points()
            )),
            None => s.push_str("table: empty, you lead\n"),
        }
        s.push_str("your hand:\n");
        for (i, c) in v.hand.iter().enumerate() {
            let trump = if c.suit() == v.trump { "  [trump]" } else { "" };
            s.push_str(&format!(
                "  {}) {c} ({} points){trump}\n",
                i + 1,
                c.points()
            ));
        }
        let _ = write!(self.out, "{s}");
    }

    fn prompt(&mut self, n: usize) {
        let _ = write!(
            self.out,
            "your card [1-{n}] (h hint, p points, l last trick, ? help, q quit): "
        );
        let _ = self.out.flush();
    }

    fn hint(&mut self, v: &ViewSnapshot) {
        let view = v.view();
        let mut lines = Vec::new();
        for (name, p) in &self.setup.hints {
            let e = p.explain(&view, &mut SeatRng::new([0; 32], 0));
            lines.push(format!(
                "hint: {name} would play {}) {}: {}",
                e.index + 1,
                e.card,
                e.line()
            ));
        }
        for l in lines {
            self.say(&l);
        }
    }

    /// One turn: read lines until one plays a legal card. `Err` ends the session.
    fn turn(
        &mut self,
        v: &ViewSnapshot,
        input: &mut dyn BufRead,
        live: &LiveGame,
    ) -> Result<(), SessionEnd> {
        if let Some(kept) = self.kept.take()
            && let Some(c) = v.hand.iter().find(|c| !kept.contains(c))
        {
            self.say(&format!("you drew {c}"));
        }
        self.show(v);
        let n = v.hand.len();
        loop {
            self.prompt(n);
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) => {
                    self.say("");
                    return Err(SessionEnd::InputEnded(v.trick));
                }
                Err(e) => {
                    self.say("");
                    return Err(SessionEnd::ReadFailed(v.trick, e.to_string()));
                }
                Ok(_) => {}
            }
            match parse(&line) {
                Command::Card(k) if (1..=n).contains(&k) => {
                    self.say(&format!("you play {}", v.hand[k - 1]));
                    let mut kept = v.hand.clone();
                    kept.remove(k - 1);
                    self.kept = Some(kept);
                    live.play(k - 1);
                    return Ok(());
                }
                Command::Card(k) => self.say(&format!(
                    "there is no card {k}: your hand holds {n} card{}; type 1 to {n}",
                    if n == 1 { "" } else { "s" }
                )),
                Command::Hint => self.hint(v),
                Command::Points => {
                    self.show_points = !self.show_points;
                    self.show(v);
                }
                Command::Last => {
                    let l = match &self.last {
                        Some(t) => format!("last {}", self.trick_line(t)),
                        None => "no trick has been played yet".to_string(),
                    };
                    self.say(&l);
                }
                Command::Help => self.say(HELP),
                Command::Quit => return Err(SessionEnd::Quit),
                Command::Empty => {}
                Command::Unknown(s) => self.say(&format!(
                    "unknown key `{s}`: type 1 to {n} to play a card, or h, p, l, ?, q"
                )),
            }
        }
    }

    fn score_count(&mut self, game: &TracedGame) {
        let mut won: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
        for t in &game.tricks {
            let w = if t.winner == Seat::G1 { 0 } else { 1 };
            won[w].extend([t.card_g1, t.card_g2]);
        }
        self.say("\n== game over == score count:");
        for seat in [Seat::G1, Seat::G2] {
            let cards = &won[if seat == Seat::G1 { 0 } else { 1 }];
            let line = format!(
                "  {} ({}): {}",
                self.name(seat),
                if seat == Seat::G1 { "G1" } else { "G2" },
                super::table_session::count_line(cards)
            );
            self.say(&line);
        }
        let p = game.outcome.points;
        let me = self.setup.person;
        let verdict = match p[me].cmp(&p[1 - me]) {
            std::cmp::Ordering::Greater => "you win".to_string(),
            std::cmp::Ordering::Less => format!("{} wins", self.setup.opponent_name),
            std::cmp::Ordering::Equal => "a tie, 60 each".to_string(),
        };
        let line = format!(
            "final score: you {}, {} {}: {verdict}",
            p[me],
            self.setup.opponent_name,
            p[1 - me]
        );
        self.say(&line);
    }
}

/// Play one game: the engine on its thread, the person reading `input` and seeing `out`.
pub fn run_session(
    setup: &SessionSetup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> SessionEnd {
    let live = LiveGame::start(
        setup.deck,
        setup.person,
        setup.opponent.clone(),
        setup.rngs.clone(),
    );
    let mut s = Session {
        setup,
        out,
        show_points: setup.show_points,
        last: None,
        taken: [0, 0],
        kept: None,
    };
    let me = if setup.person == 0 {
        "G1, you lead the first trick"
    } else {
        "G2, your opponent leads the first trick"
    };
    s.say(&format!("you play {} as {me}. {HELP}", setup.opponent_name));
    while let Some(ev) = live.next_event() {
        match ev {
            LiveEvent::Turn(v) => {
                if let Err(end) = s.turn(&v, input, &live) {
                    return end;
                }
            }
            LiveEvent::Trick(t) => {
                let w = if t.winner == Seat::G1 { 0 } else { 1 };
                s.taken[w] += t.points as u32;
                let line = s.trick_line(&t);
                s.say(&line);
                s.last = Some(t);
            }
            LiveEvent::Over(result) => {
                return match *result {
                    Ok(game) => {
                        s.score_count(&game);
                        SessionEnd::Finished(Box::new(game))
                    }
                    Err(_) => SessionEnd::Quit,
                };
            }
        }
    }
    SessionEnd::Quit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyKind, PolicySpec, TieBreak};

    #[test]
    fn commands_parse() {
        assert_eq!(parse(" 2 \n"), Command::Card(2));
        assert_eq!(parse("h"), Command::Hint);
        assert_eq!(parse("zz"), Command::Unknown("zz".into()));
        assert_eq!(
            parse(&"\0".repeat(1 << 20)),
            Command::Unknown(format!("{}...", "\\0".repeat(20)))
        );
        assert_eq!(
            parse(&"x".repeat(900_000)),
            Command::Unknown(format!("{}...", "x".repeat(20)))
        );
        assert_eq!(parse("\n"), Command::Empty);
    }

    #[test]
    fn a_scripted_session_plays_the_engines_game_and_survives_bad_keys() {
        let counter = PolicySpec::paper(PolicyKind::Counter, TieBreak::AsReleased).build();
        let setup = SessionSetup {
            deck: Deck::ordered(),
            person: 1,
            opponent_name: "counter".into(),
            opponent: SeatActor::Policy(counter.clone()),
            rngs: [SeatRng::new([0; 32], 0), SeatRng::new([0; 32], 0)],
            show_points: false,
            hints: vec![("counter".into(), counter.clone())],
        };
        // Bad keys first, then always the last card of the hand.
        let mut text = String::from("9\nxyz\nh\np\nl\n?\n\n");
        for t in 1..=20 {
            let n = if t <= 18 { 3 } else { 21 - t };
            text.push_str(&format!("{n}\n"));
        }
        let mut out = Vec::new();
        let end = run_session(&setup, &mut text.as_bytes(), &mut out);
        let out = String::from_utf8(out).unwrap();
        let SessionEnd::Finished(game) = end else {
            panic!("{end:?}\n{out}")
        };
        assert!(out.contains("there is no card 9"), "{out}");
        assert!(out.contains("unknown key `xyz`"), "{out}");
        assert!(out.contains("hint: counter would play"), "{out}");
        assert!(out.contains("points: you 0, counter 0"), "{out}");
        assert!(out.contains("final score: you"), "{out}");
        // The engine's own play: a policy that always plays its last card, against counter.
        struct Last;
        impl crate::game::Policy for Last {
            fn choose(&self, v: &crate::game::SeatView<'_>, _: &mut SeatRng) -> usize {
                v.hand.len() - 1
            }
        }
        let out = crate::game::play_game(
            &Deck::ordered(),
            &counter,
            &Last,
            &mut [SeatRng::new([0; 32], 0), SeatRng::new([0; 32], 0)],
            &mut crate::game::NoTricks,
        );
        assert_eq!(game.outcome, out);
    }

    #[test]
    fn input_ending_mid_game_is_reported() {
        let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build();
        let setup = SessionSetup {
            deck: Deck::ordered(),
            person: 0,
            opponent_name: "greedy".into(),
            opponent: SeatActor::Policy(greedy),
            rngs: [SeatRng::new([0; 32], 0), SeatRng::new([0; 32], 0)],
            show_points: true,
            hints: vec![],
        };
        let mut out = Vec::new();
        let end = run_session(&setup, &mut "1\n1\n".as_bytes(), &mut out);
        assert!(matches!(end, SessionEnd::InputEnded(3)), "{end:?}");
    }
}
