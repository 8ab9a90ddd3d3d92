//! A traced game at a table of any size shown trick by trick, as [`super::Replay`] shows a
//! two-player game: plain text for people and pipes, JSON for scripts. Seats are numbered from
//! 1 (seat 1 leads the first trick unless the rules say otherwise); in a team game each seat's
//! team is named, and the running score is per team.
//!
//! Invariant: both forms show the same decisions in play order (each seat's hand, what it could
//! play, the trick as it stood, its card and, for a policy, why), every draw, and the final
//! score by side, which sums the seats' points.

use serde_json::{Value, json};

use crate::game::Card;
use briscola_core::table::card_text::text as card_text;
use briscola_core::table::{TableDecision, TableTraced};

/// A table game to show, with what to call it.
#[derive(Clone, Debug)]
pub struct TableReplay {
    /// One line saying which game this is.
    pub title: String,
    /// Where the game came from, for `--json`.
    pub source: Value,
    /// What to call each seat's player (a policy name or `you`).
    pub names: Vec<String>,
    /// The game.
    pub game: TableTraced,
    /// How the game was checked against stored tables, in words (`None`: not checked).
    pub checked: Option<String>,
}

fn list(cards: &[Card]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl TableReplay {
    fn teams(&self) -> bool {
        self.game.rules.sides() < self.game.rules.players()
    }

    /// What to call side `k`: `team 1` in a team game, else the seat.
    fn side_name(&self, k: usize) -> String {
        if self.teams() {
            format!("team {}", k + 1)
        } else {
            self.who(k)
        }
    }

    /// `seat 2 (counter)`, or `seat 2 (counter, team 2)` in a team game.
    pub fn who(&self, seat: usize) -> String {
        let name = &self.names[seat];
        if self.teams() {
            let team = self.game.rules.side_of(seat) + 1;
            format!("seat {} ({name}, team {team})", seat + 1)
        } else {
            format!("seat {} ({name})", seat + 1)
        }
    }

    fn decision_text(&self, d: &TableDecision, out: &mut String) {
        let role = if d.on_table.is_empty() {
            "leads"
        } else {
            "follows"
        };
        out.push_str(&format!(
            "  {} {role}: hand {}",
            self.who(d.seat as usize),
            list(&d.hand)
        ));
        if d.legal.len() < d.hand.len() {
            out.push_str(&format!(" (may play {})", list(&d.legal)));
        }
        if !d.on_table.is_empty() {
            out.push_str(&format!("; table {}", list(&d.on_table)));
        }
        out.push_str(&format!("; points {} to {}\n", d.points.0, d.points.1));
        out.push_str(&format!("    plays {}", d.card));
        if let Some(e) = &d.explanation {
            out.push_str(&format!(": {}", e.line()));
        }
        out.push('\n');
    }

    fn header(&self, out: &mut String) {
        let g = &self.game;
        out.push_str(&self.title);
        out.push('\n');
        let seats: Vec<String> = (0..self.names.len()).map(|s| self.who(s)).collect();
        out.push_str(&format!("{}\n", seats.join(", ")));
        match (g.outcome.trump, g.outcome.face_up) {
            (Some(t), Some(f)) => out.push_str(&format!("trump {t} (face-up {f})\n")),
            _ => out.push_str("no trump\n"),
        }
    }

    /// The plain-text form.
    pub fn to_text(&self) -> String {
        let g = &self.game;
        let rules = &g.rules;
        let mut out = String::new();
        self.header(&mut out);
        let n = rules.players();
        let mut side_points = [0u32; 3];
        for (k, t) in g.tricks.iter().enumerate() {
            let first = &g.decisions[k * n];
            out.push_str(&format!(
                "\ntrick {} (stock {}):\n",
                t.trick, first.stock_left
            ));
            for d in &g.decisions[k * n..(k + 1) * n] {
                self.decision_text(d, &mut out);
            }
            side_points[rules.side_of(t.winner as usize)] += u32::from(t.points);
            let score: Vec<String> = (0..rules.sides())
                .map(|s| format!("{} {}", self.side_name(s), side_points[s]))
                .collect();
            out.push_str(&format!(
                "  -> {} takes {} points ({})\n",
                self.who(t.winner as usize),
                t.points,
                score.join(", ")
            ));
            let draws: Vec<String> = g
                .draws
                .iter()
                .filter(|d| d.trick == t.trick)
                .map(|d| format!("seat {} {}", d.seat + 1, d.card))
                .collect();
            if !draws.is_empty() {
                out.push_str(&format!("  draws: {}\n", draws.join(", ")));
            }
        }
        out.push_str(&format!("\nfinal: {}\n", self.result()));
        if let Some(c) = &self.checked {
            out.push_str(&format!("checked: {c}\n"));
        }
        out
    }

    /// `team 1 70 - team 2 50: team 1 wins`.
    pub fn result(&self) -> String {
        let g = &self.game;
        let rules = &g.rules;
        let pts = g.outcome.side_points(rules);
        let score: Vec<String> = (0..rules.sides())
            .map(|s| format!("{} {}", self.side_name(s), pts[s]))
            .collect();
        let result = match g.outcome.winner_side(rules) {
            Some(w) => format!("{} wins", self.side_name(w)),
            None => "a tie".to_string(),
        };
        format!("{}: {result}", score.join(" - "))
    }

    fn decision_json(d: &TableDecision) -> Value {
        let cards = |cs: &[Card]| cs.iter().map(|&c| card_text(c)).collect::<Vec<_>>();
        json!({
            "seat": d.seat + 1,
            "role": if d.on_table.is_empty() { "lead" } else { "follow" },
            "hand": cards(&d.hand),
            "legal": cards(&d.legal),
            "table": cards(&d.on_table),
            "stock_left": d.stock_left,
            "my_points": d.points.0,
            "opp_points": d.points.1,
            "card": card_text(d.card),
            "rule": d.explanation.as_ref().and_then(|e| e.rule).map(|r| r.id()),
            "because": d.explanation.as_ref().map(|e| e.line()),
        })
    }

    /// The JSON form.
    pub fn to_json(&self) -> Value {
        let g = &self.game;
        let rules = &g.rules;
        let n = rules.players();
        let tricks: Vec<Value> = g
            .tricks
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let draws: Vec<Value> = g
                    .draws
                    .iter()
                    .filter(|d| d.trick == t.trick)
                    .map(|d| json!({"seat": d.seat + 1, "card": card_text(d.card)}))
                    .collect();
                json!({
                    "trick": t.trick,
                    "leader": t.leader + 1,
                    "cards": (0..n).map(|s| card_text(t.card_of(s))).collect::<Vec<_>>(),
                    "winner": t.winner + 1,
                    "points": t.points,
                    "decisions": g.decisions[k * n..(k + 1) * n].iter().map(Self::decision_json).collect::<Vec<_>>(),
                    "draws": draws,
                })
            })
            .collect();
        let pts = g.outcome.side_points(rules);
        json!({
            "title": self.title,
            "source": self.source,
            "players": self.names,
            "sides": (0..n).map(|s| rules.side_of(s) + 1).collect::<Vec<_>>(),
            "trump": g.outcome.trump.map(|t| t.name()),
            "face_up": g.outcome.face_up.map(card_text),
            "tricks": tricks,
            "seat_points": &g.outcome.points[..n],
            "side_points": &pts[..rules.sides()],
            "winner_side": g.outcome.winner_side(rules).map(|s| s + 1),
            "checked": self.checked,
        })
    }
}
