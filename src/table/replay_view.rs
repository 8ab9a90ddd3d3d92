//! A traced game shown trick by trick: plain text for people and pipes, JSON for scripts.
//!
//! Invariant: both forms show the same decisions: per trick the leader's then the follower's
//! hand and view, the card played and, for a policy seat, the rule that fired.

use serde_json::{Value, json};

use crate::game::{Card, Seat};
use briscola_core::table::card_text::text as card_text;
use briscola_core::table::{Decision, TracedGame};

/// A game to show, with what to call it.
#[derive(Clone, Debug)]
pub struct Replay {
    /// One line saying which game this is.
    pub title: String,
    /// Where the game came from, for `--json` (study, matchup, game, deal source...).
    pub source: Value,
    /// What to call G1 and G2 (policy names or `human`).
    pub names: [String; 2],
    /// The game.
    pub game: TracedGame,
    /// How the game was checked against what was stored, in words (`None`: not checked).
    pub checked: Option<String>,
}

fn idx(s: Seat) -> usize {
    match s {
        Seat::G1 => 0,
        Seat::G2 => 1,
    }
}

fn seat_str(s: Seat) -> &'static str {
    match s {
        Seat::G1 => "G1",
        Seat::G2 => "G2",
    }
}

fn list(cards: &[Card]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Replay {
    fn who(&self, s: Seat) -> String {
        format!("{} ({})", seat_str(s), self.names[idx(s)])
    }

    fn decision_text(&self, d: &Decision, out: &mut String) {
        let v = &d.view;
        let role = if v.table.is_some() {
            "follows"
        } else {
            "leads"
        };
        out.push_str(&format!(
            "  {} {role}: hand {}",
            self.who(d.seat),
            list(&v.hand)
        ));
        if let Some(t) = v.table {
            out.push_str(&format!("; table {t}"));
        }
        out.push_str(&format!(
            "; seen {} played + face-up; points {} to {}\n",
            v.played.len(),
            v.my_points,
            v.opp_points
        ));
        out.push_str(&format!("    plays {}", d.card));
        if let Some(e) = &d.explanation {
            out.push_str(&format!(": {}", e.line()));
        }
        out.push('\n');
    }

    /// The plain-text form.
    pub fn to_text(&self) -> String {
        let g = &self.game;
        let mut out = String::new();
        out.push_str(&self.title);
        out.push('\n');
        out.push_str(&format!(
            "G1: {}   G2: {}\ntrump {} (face-up {})\n",
            self.names[0], self.names[1], g.outcome.trump, g.outcome.face_up
        ));
        let mut points = [0u32; 2];
        for (k, t) in g.tricks.iter().enumerate() {
            let first = &g.decisions[2 * k];
            out.push_str(&format!(
                "\ntrick {} (stock {}):\n",
                t.trick, first.view.stock_left
            ));
            self.decision_text(first, &mut out);
            self.decision_text(&g.decisions[2 * k + 1], &mut out);
            points[idx(t.winner)] += t.points as u32;
            out.push_str(&format!(
                "  -> {} takes {} points (G1 {}, G2 {})\n",
                self.who(t.winner),
                t.points,
                points[0],
                points[1]
            ));
        }
        let p = g.outcome.points;
        let result = match g.outcome.winner() {
            Some(w) => format!("{} wins", self.who(w)),
            None => "a tie".to_string(),
        };
        out.push_str(&format!("\nfinal: G1 {} - G2 {}: {result}\n", p[0], p[1]));
        if let Some(c) = &self.checked {
            out.push_str(&format!("checked: {c}\n"));
        }
        out
    }

    fn decision_json(d: &Decision) -> Value {
        let v = &d.view;
        let cards = |cs: &[Card]| cs.iter().map(|&c| card_text(c)).collect::<Vec<_>>();
        json!({
            "seat": seat_str(d.seat),
            "role": if v.table.is_some() { "follow" } else { "lead" },
            "view": {
                "hand": cards(&v.hand),
                "table": v.table.map(card_text),
                "trump": v.trump.name(),
                "face_up": card_text(v.face_up),
                "played": cards(&v.played),
                "stock_left": v.stock_left,
                "my_points": v.my_points,
                "opp_points": v.opp_points,
            },
            "card": card_text(d.card),
            "rule": d.explanation.as_ref().and_then(|e| e.rule).map(|r| r.id()),
            "because": d.explanation.as_ref().map(|e| e.line()),
        })
    }

    /// The JSON form.
    pub fn to_json(&self) -> Value {
        let g = &self.game;
        let tricks: Vec<Value> = g
            .tricks
            .iter()
            .enumerate()
            .map(|(k, t)| {
                json!({
                    "trick": t.trick,
                    "leader": seat_str(t.leader),
                    "card_g1": card_text(t.card_g1),
                    "card_g2": card_text(t.card_g2),
                    "winner": seat_str(t.winner),
                    "points": t.points,
                    "decisions": [
                        Self::decision_json(&g.decisions[2 * k]),
                        Self::decision_json(&g.decisions[2 * k + 1]),
                    ],
                })
            })
            .collect();
        json!({
            "title": self.title,
            "source": self.source,
            "players": {"G1": self.names[0], "G2": self.names[1]},
            "trump": g.outcome.trump.name(),
            "face_up": card_text(g.outcome.face_up),
            "tricks": tricks,
            "points": {"G1": g.outcome.points[0], "G2": g.outcome.points[1]},
            "winner": g.outcome.winner().map_or("tie", seat_str),
            "checked": self.checked,
        })
    }
}
