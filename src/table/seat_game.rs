//! A table game driven from one seat, for a client that is not a terminal (the web table): the
//! computer seats play their policies on their streams until it is the person's turn; the
//! person's cards come in one at a time; what the person's seat may see is given as JSON, and
//! each computer play's reason with every card the person has not seen hidden.
//!
//! Invariant: the JSON of [`SeatGame::view`] names only cards the person's seat has seen: its
//! own hand, cards played to tricks, the face-up trump, and (at the end) the cards counted; a
//! computer seat's unseen hand never appears, in a reason or anywhere else (a test plays whole
//! games and checks every view).

use serde_json::{Value, json};

use super::game_record::DealRecord;
use super::table_record::{TableRecord, TableSeatRecord};
use super::table_session::{TableGameDone, count_line};
use crate::game::{Card, Deck, IllegalPlay, Rules, SeatRng, TableSink, TableState, TableTrick};
use crate::policy::{FollowReading, PolicySpec, TablePolicy};
use briscola_core::table::card_text::text as card_text;

/// How a seat game is set up.
#[derive(Clone, Debug)]
pub struct SeatGameSetup {
    /// The rules (the first leader included).
    pub rules: Rules,
    /// The deck.
    pub deck: Deck,
    /// The deal's seed (for the record).
    pub seed: u64,
    /// The person's seat (0-based).
    pub person: usize,
    /// Each seat's policy (`None` at the person's seat).
    pub specs: Vec<Option<PolicySpec>>,
    /// Each computer seat's policy, built for the rules.
    pub seats: Vec<Option<TablePolicy>>,
    /// Each seat's stream key; game `stream` of it.
    pub keys: Vec<[u8; 32]>,
    /// The stream number of this game (a match's game number).
    pub stream: u64,
    /// The reading computer players use when a partner is winning.
    pub reading: FollowReading,
}

/// One card played, as the person's seat saw it.
#[derive(Clone, Debug)]
struct PlayEvent {
    trick: u8,
    seat: usize,
    card: Card,
    /// A computer play's reason, with unseen cards hidden.
    why: Option<String>,
}

#[derive(Default)]
struct Log {
    tricks: Vec<TableTrick>,
    drew: Vec<(u8, Card)>,
    person: usize,
}

impl TableSink for Log {
    fn trick(&mut self, t: &TableTrick) {
        self.tricks.push(*t);
    }
    fn draw(&mut self, trick: u8, seat: u8, card: Card) {
        if usize::from(seat) == self.person {
            self.drew.push((trick, card));
        }
    }
}

/// A game in progress, driven from the person's seat.
pub struct SeatGame {
    setup: SeatGameSetup,
    state: TableState,
    rngs: Vec<SeatRng>,
    log: Log,
    events: Vec<PlayEvent>,
}

/// Why the person's card was refused.
#[derive(Debug, thiserror::Error)]
pub enum SeatPlayError {
    /// It is not the person's turn (the game is over).
    #[error("the game is over: start a new one")]
    Over,
    /// The card is not one the person may play now.
    #[error("{0}")]
    Illegal(IllegalPlay),
}

impl SeatGame {
    /// Start a game: the computer seats before the person play at once.
    pub fn start(setup: SeatGameSetup) -> SeatGame {
        let state = TableState::new(&setup.rules, &setup.deck);
        let rngs = setup
            .keys
            .iter()
            .map(|k| SeatRng::new(*k, setup.stream))
            .collect();
        let mut g = SeatGame {
            log: Log {
                person: setup.person,
                ..Log::default()
            },
            setup,
            state,
            rngs,
            events: Vec::new(),
        };
        g.advance();
        g
    }

    /// The setup.
    pub fn setup(&self) -> &SeatGameSetup {
        &self.setup
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// Play the person's `card` (then the computer seats until the person's next turn).
    pub fn play(&mut self, card: Card) -> Result<(), SeatPlayError> {
        if self.state.to_play() != Some(self.setup.person) {
            return Err(SeatPlayError::Over);
        }
        let trick = self.state.trick();
        self.state
            .play(card, &mut self.log)
            .map_err(SeatPlayError::Illegal)?;
        self.events.push(PlayEvent {
            trick,
            seat: self.setup.person,
            card,
            why: None,
        });
        self.advance();
        Ok(())
    }

    /// Let the computer seats play until the person's turn or the end.
    fn advance(&mut self) {
        while let Some(view) = self.state.view() {
            let seat = view.seat as usize;
            let Some(policy) = &self.setup.seats[seat] else {
                return;
            };
            let e = policy.explain(&view, &mut self.rngs[seat]);
            let hidden: Vec<Card> = self
                .state
                .hand(seat)
                .iter()
                .copied()
                .filter(|&c| c != e.card)
                .collect();
            let why = hide(&e.line(), &hidden);
            let trick = view.trick;
            let card = e.card;
            self.state
                .play(card, &mut self.log)
                .expect("a policy plays a card of its playable hand");
            self.events.push(PlayEvent {
                trick,
                seat,
                card,
                why: Some(why),
            });
        }
    }

    /// Cards the person's seat has seen so far: its hands, every played card, the face-up card.
    pub fn seen(&self) -> Vec<Card> {
        let mut out: Vec<Card> = self.state.hand(self.setup.person).to_vec();
        out.extend(self.events.iter().map(|e| e.card));
        out.extend(self.log.drew.iter().map(|d| d.1));
        out.extend(self.state.outcome().face_up);
        let first = TableState::new(&self.setup.rules, &self.setup.deck);
        out.extend_from_slice(first.hand(self.setup.person));
        out.sort_by_key(|c| c.id());
        out.dedup();
        out
    }

    /// The finished game (tricks and outcome), once over.
    pub fn done(&self) -> Option<TableGameDone> {
        self.is_over().then(|| TableGameDone {
            tricks: self.log.tricks.clone(),
            outcome: *self.state.outcome(),
        })
    }

    /// The record of the finished game (the same format as `briscola play --players N`).
    pub fn record(&self) -> Option<TableRecord> {
        let done = self.done()?;
        let rules = &self.setup.rules;
        let seats = self
            .setup
            .specs
            .iter()
            .enumerate()
            .map(|(s, p)| TableSeatRecord {
                seat: s as u8 + 1,
                team: rules.side_of(s) as u8 + 1,
                player: p.as_ref().map_or("human".to_string(), |p| p.name.clone()),
                policy: p.clone(),
            })
            .collect();
        Some(TableRecord::of(
            rules,
            self.setup.reading,
            DealRecord::Play {
                seed: self.setup.seed,
            },
            &self.setup.deck,
            seats,
            self.setup.seed as i64,
            self.setup.stream,
            &done,
        ))
    }

    /// Partner signals (the traditional ones of the four- and six-player game, simplified):
    /// each computer partner says whether it holds the Ace or the Three of trumps. `None` when
    /// the table has no partners, no trump, or the game is over.
    pub fn partner_signals(&self) -> Option<String> {
        let rules = &self.setup.rules;
        let trump = self.state.outcome().trump?;
        if rules.sides() == rules.players() || self.is_over() {
            return None;
        }
        let me = self.setup.person;
        let lines: Vec<String> = (0..rules.players())
            .filter(|&s| s != me && rules.partners(s, me))
            .map(|s| {
                let hand = self.state.hand(s);
                let key: Vec<&str> = [(1u8, "the Ace"), (3, "the Three")]
                    .iter()
                    .filter(|(r, _)| hand.iter().any(|c| c.suit() == trump && c.rank() == *r))
                    .map(|(_, w)| *w)
                    .collect();
                if key.is_empty() {
                    format!("seat {} signals: no Ace or Three of trumps", s + 1)
                } else {
                    format!("seat {} signals: {} of trumps", s + 1, key.join(" and "))
                }
            })
            .collect();
        Some(format!("Partner signals: {}.", lines.join("; ")))
    }

    /// What the person's seat may see, as JSON.
    pub fn view(&self) -> Value {
        let rules = &self.setup.rules;
        let st = &self.state;
        let me = self.setup.person;
        let cards = |cs: &[Card]| -> Vec<Value> { cs.iter().map(|&c| card_json(c)).collect() };
        let legal: Vec<Value> = match st.to_play() {
            Some(s) if s == me => cards(st.legal()),
            _ => Vec::new(),
        };
        let leader = st.leader();
        let n = rules.players();
        let on_table: Vec<Value> = st
            .trick_cards()
            .iter()
            .enumerate()
            .map(|(k, &c)| json!({"seat": (leader + k) % n + 1, "card": card_json(c)}))
            .collect();
        let trick_no = st.trick();
        let plays: Vec<Value> = self
            .events
            .iter()
            .map(|e| {
                json!({"trick": e.trick, "seat": e.seat + 1, "card": card_json(e.card), "why": e.why})
            })
            .collect();
        let last = st.last_trick().map(|t| trick_json(t, n));
        let mut out = json!({
            "players": n,
            "seat": me + 1,
            "sides": (0..n).map(|s| rules.side_of(s) + 1).collect::<Vec<_>>(),
            "names": self.setup.specs.iter().map(|p| p.as_ref().map_or("you".to_string(), |p| p.name.clone())).collect::<Vec<_>>(),
            "trump": st.outcome().trump.map(|t| t.name()),
            "face_up": st.outcome().face_up.map(card_json),
            "face_up_in_stock": st.stock_left() > 0 && st.outcome().face_up.is_some(),
            "stock_left": st.stock_left(),
            "trick": trick_no,
            "tricks": rules.tricks(),
            "first_leader": rules.spec().first_leader + 1,
            "to_play": st.to_play().map(|s| s + 1),
            "hand": cards(st.hand(me)),
            "legal": legal,
            "on_table": on_table,
            "last_trick": last,
            "plays": plays,
            "drew": self.log.drew.iter().map(|(t, c)| json!({"trick": t, "card": card_json(*c)})).collect::<Vec<_>>(),
            "over": st.is_over(),
        });
        if st.is_over() {
            out["result"] = self.result_json();
        }
        out
    }

    fn result_json(&self) -> Value {
        let rules = &self.setup.rules;
        let o = self.state.outcome();
        let side_pts = o.side_points(rules);
        let count: Vec<Value> = (0..rules.sides())
            .map(|side| {
                let won: Vec<Card> = self
                    .log
                    .tricks
                    .iter()
                    .filter(|t| rules.side_of(t.winner as usize) == side)
                    .flat_map(|t| t.played().to_vec())
                    .collect();
                let mut counting: Vec<Card> =
                    won.iter().copied().filter(|c| c.points() > 0).collect();
                counting.sort_by_key(|c| std::cmp::Reverse(c.points()));
                json!({
                    "side": side + 1,
                    "points": side_pts[side],
                    "cards": won.len(),
                    "counting": counting.iter().map(|&c| card_json(c)).collect::<Vec<_>>(),
                    "line": count_line(&won),
                })
            })
            .collect();
        json!({
            "side_points": &side_pts[..rules.sides()],
            "seat_points": &o.points[..rules.players()],
            "winner_side": o.winner_side(rules).map(|s| s + 1),
            "my_side": rules.side_of(self.setup.person) + 1,
            "count": count,
        })
    }
}

/// A card as the page shows it: its id, text, suit and rank, and its points.
pub fn card_json(c: Card) -> Value {
    json!({
        "id": c.id(),
        "text": card_text(c),
        "name": c.to_string(),
        "suit": c.suit().name(),
        "rank": c.rank(),
        "points": c.points(),
    })
}

fn trick_json(t: &TableTrick, n: usize) -> Value {
    json!({
        "trick": t.trick,
        "leader": t.leader + 1,
        "winner": t.winner + 1,
        "points": t.points,
        "cards": (0..t.players as usize).map(|k| json!({"seat": t.seat_of(k) % n + 1, "card": card_json(t.played()[k])})).collect::<Vec<_>>(),
    })
}

/// `text` with the name of every card of `hidden` replaced by "a card in hand": a reason may
/// weigh cards the person has not seen, but may not show them.
pub fn hide(text: &str, hidden: &[Card]) -> String {
    let mut out = text.to_string();
    // Longest names first, so "Re di Coppe" is not half-replaced by a shorter name.
    let mut names: Vec<String> = hidden.iter().map(ToString::to_string).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for n in names {
        out = out.replace(&n, "a card in hand");
    }
    out
}
