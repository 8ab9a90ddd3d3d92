//! The Python binding of `briscola-core` (module `briscola._core`): a game of any rules variant
//! stepped card by card, the pipeline's seeded deals, the study file's policies, the
//! `briscola-v1` observation and a vector environment whose games and opponents run in Rust.
//!
//! Invariant: a thin edge. Every rule of the game, every deal and every decision is the core
//! crate's own; this file converts types and turns every bad input into a Python exception
//! (`ValueError` with the sentence the CLI would print), never a panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use briscola_core::deal::{DealSeed, DealSourceKind, DealStream, GeneratorSeed, table_seat_key};
use briscola_core::game::{
    Card, Deck, MAX_PLAYERS, PLAYER_COUNTS, Rules, RulesSpec, SeatRng, SeatView, TableState,
    TableTrick,
};
use briscola_core::policy::onnx::{Encoding, V1_OBS, encode_v1};
use briscola_core::policy::{
    FollowReading, Policy, PolicyKind, PolicyResolver, PolicySection, PolicySpec, TablePolicy,
    TieBreak, plain_message,
};
use briscola_core::table::card_text;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

/// Cards, the width of the action space.
const ACTIONS: usize = 40;
/// The largest game index a deal stream is asked for (the .NET stream skips 39 draws a game,
/// so `39 * game` must fit in 64 bits).
const MAX_GAME: u64 = 1 << 58;
/// The largest study file read (the CLI's cap).
const MAX_STUDY_BYTES: u64 = 1 << 20;

fn bad(msg: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(msg.to_string())
}

/// A whole-number argument as Python gave it, of any size: pyo3's own conversion to a Rust
/// integer raises a bare `OverflowError` ("out of range integral type conversion attempted")
/// that names neither the argument nor its range, and takes `True` for 1. The checks below
/// ([`Whole::within`], [`card_of`], ...) name the argument and its range: a `ValueError` out of
/// range, a `TypeError` for a bool. A non-integer is pyo3's `TypeError`.
#[derive(Clone, Debug)]
enum Whole {
    /// An integer that fits 128 bits.
    Int(i128),
    /// A larger one, as Python's decimal text (for the message).
    Huge(String),
    /// `True` or `False`.
    Bool(bool),
}

/// A list of names as Python gave it: any sequence of strings but a string itself (which
/// pyo3 would refuse with "Can't extract `str` to `Vec`", the Rust type's words).
struct StrList(Vec<String>);

impl<'py> FromPyObject<'_, 'py> for StrList {
    type Error = PyErr;

    fn extract(v: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let refuse = || {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "{}: give a list of names (strings), e.g. [\"greedy\", \"counter\"]",
                v.repr()
                    .map_or_else(|_| "this value".to_string(), |r| r.to_string())
            ))
        };
        if v.is_instance_of::<pyo3::types::PyString>() {
            return Err(refuse());
        }
        v.extract::<Vec<String>>()
            .map(StrList)
            .map_err(|_| refuse())
    }
}

/// A list of card ids as Python gave it (any sequence of whole numbers but a string).
struct IdList(Vec<Whole>);

impl<'py> FromPyObject<'_, 'py> for IdList {
    type Error = PyErr;

    fn extract(v: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let refuse = || {
            pyo3::exceptions::PyTypeError::new_err(
                "deck: give a list of the 40 card ids (whole numbers 0 to 39), top of the deal first",
            )
        };
        if v.is_instance_of::<pyo3::types::PyString>() {
            return Err(refuse());
        }
        v.extract::<Vec<Whole>>().map(IdList).map_err(|_| refuse())
    }
}

impl<'py> FromPyObject<'_, 'py> for Whole {
    type Error = PyErr;

    fn extract(v: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if v.is_instance_of::<PyBool>() {
            return Ok(Whole::Bool(v.extract()?));
        }
        match v.extract::<i128>() {
            Ok(n) => Ok(Whole::Int(n)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(v.py()) => {
                Ok(Whole::Huge(v.str()?.to_string()))
            }
            Err(e) => Err(e),
        }
    }
}

impl Whole {
    /// The default of the arguments that default to 0.
    const ZERO: Whole = Whole::Int(0);

    /// The value, where it is an integer of at most 128 bits.
    fn value(&self) -> Option<i128> {
        match self {
            Whole::Int(n) => Some(*n),
            _ => None,
        }
    }

    /// The value as Python wrote it.
    fn shown(&self) -> String {
        match self {
            Whole::Int(n) => n.to_string(),
            Whole::Huge(text) => text.clone(),
            Whole::Bool(b) => if *b { "True" } else { "False" }.to_string(),
        }
    }

    /// The value as a `T` where `ok` takes it; else a `TypeError` (a bool) or a `ValueError`
    /// whose sentence is `what` followed by the value and `valid`.
    fn checked<T>(&self, what: &str, valid: &str, ok: impl Fn(i128) -> Option<T>) -> PyResult<T> {
        if let Whole::Bool(_) = self {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{what} {}: a bool, not a number; {valid}",
                self.shown()
            )));
        }
        self.value()
            .and_then(ok)
            .ok_or_else(|| bad(format!("{what} {}: {valid}", self.shown())))
    }

    /// The value if it lies in `lo..=hi`, else an error naming `what` and the range.
    fn within<T: TryFrom<i128>>(&self, what: &str, lo: i128, hi: i128) -> PyResult<T> {
        self.checked(
            &format!("{what} ="),
            &format!("give a whole number from {lo} to {hi}"),
            |n| {
                (lo..=hi)
                    .contains(&n)
                    .then(|| T::try_from(n).ok())
                    .flatten()
            },
        )
    }
}

/// The card of a Python integer id, or a sentence saying what an id is.
fn card_of(id: &Whole) -> PyResult<Card> {
    id.checked(
        "card",
        "not a card id: ids are 0 to 39 (suit * 10 + rank - 1, suits Oro, Spade, Bastoni, Coppe)",
        |n| u8::try_from(n).ok().and_then(Card::from_id),
    )
}

/// A `seed` argument: any 64-bit signed integer (the deal source may narrow it; see `deal`).
fn seed_arg(seed: Whole) -> PyResult<i64> {
    seed.within("seed", i128::from(i64::MIN), i128::from(i64::MAX))
}

/// The sentence of a game index out of range (every `game` argument's).
fn game_range() -> String {
    format!("game indices lie in 0 to {MAX_GAME}")
}

/// A `game` argument: a game index, 0 to [`MAX_GAME`].
fn game_arg(game: Whole) -> PyResult<u64> {
    game.checked("game", &game_range(), |g| {
        u64::try_from(g).ok().filter(|&g| g <= MAX_GAME)
    })
}

/// A `seat` argument of a policy: 0 to [`MAX_PLAYERS`] - 1 (any table's seats).
fn seat_arg(seat: Whole) -> PyResult<u8> {
    seat.within("seat", 0, MAX_PLAYERS as i128 - 1)
}

/// A `players` argument: any count a `u8` holds goes on to the rules' own check (which says
/// which counts deal); anything else gets the same sentence here.
fn players_arg(players: Option<Whole>) -> PyResult<Option<u8>> {
    players
        .map(|p| p.checked("players =", PLAYER_COUNTS, |n| u8::try_from(n).ok()))
        .transpose()
}

/// Card ids as Python integers (a `Vec<u8>` would become `bytes`).
fn ids(cards: &[Card]) -> Vec<u32> {
    cards.iter().map(|c| u32::from(c.id())).collect()
}

/// A rules description from Python keywords: the same fields and checks as a study's `rules`.
fn rules_from(rules: Option<&Bound<'_, PyDict>>, players: Option<u8>) -> PyResult<Rules> {
    let mut table = toml::Table::new();
    let mut given_players = None;
    if let Some(d) = rules {
        for (k, v) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| bad("rules: every key must be a field name (a string)"))?;
            let value = if v.is_none() {
                continue;
            } else if v.is_instance_of::<PyBool>() {
                toml::Value::Boolean(v.extract()?)
            } else if v.is_instance_of::<PyInt>() {
                toml::Value::Integer(
                    v.extract()
                        .map_err(|_| bad(format!("rules.{key}: {v} is out of range")))?,
                )
            } else if v.is_instance_of::<PyString>() {
                toml::Value::String(v.extract()?)
            } else {
                return Err(bad(format!(
                    "rules.{key}: give a number, a string or a boolean, not {}",
                    v.get_type().name()?
                )));
            };
            if key == "players" {
                given_players = value.as_integer();
            }
            table.insert(key, value);
        }
    }
    let n = match (players, given_players) {
        (Some(p), Some(q)) if i64::from(p) != q => {
            return Err(bad(format!(
                "players = {p} but rules.players = {q}: give the number of players once"
            )));
        }
        (Some(p), _) => p,
        (None, Some(q)) => {
            u8::try_from(q).map_err(|_| bad(format!("rules.players = {q}: {PLAYER_COUNTS}")))?
        }
        (None, None) => 2,
    };
    let usual = RulesSpec::for_players(n);
    let mut base = toml::Table::try_from(usual).map_err(bad)?;
    for (k, v) in table {
        base.insert(k, v);
    }
    let spec: RulesSpec = match toml::Value::Table(base.clone()).try_into() {
        Ok(spec) => spec,
        Err(e) => return Err(bad(rules_error(&base, &e))),
    };
    spec.validate().map_err(|e| bad(format!("rules: {e}")))
}

/// A rules error that names its field: the first field that fails on its own beside the usual
/// game's values (serde's message alone may not name it).
fn rules_error(table: &toml::Table, e: &toml::de::Error) -> String {
    let usual = toml::Table::try_from(RulesSpec::default()).unwrap_or_default();
    let first = table.iter().find_map(|(k, v)| {
        let mut one = usual.clone();
        one.insert(k.clone(), v.clone());
        toml::Value::Table(one)
            .try_into::<RulesSpec>()
            .err()
            .map(|e1| (k.clone(), e1.message().trim().to_string()))
    });
    match first {
        Some((k, serde)) => match RulesSpec::field_valid(&k) {
            Some(valid) => format!(
                "rules.{k} = {}: not a value it takes; {valid}",
                table.get(&k).map(ToString::to_string).unwrap_or_default()
            ),
            // Not a field: serde's sentence names it and lists the fields.
            None => format!("rules: {}", plain_message(&serde)),
        },
        None => format!("rules: {}", plain_message(e.message().trim())),
    }
}

/// The deck of game `game` of the stream the pipeline uses for `names` under `seed`.
fn deck_of(seed: i64, names: &[String], game: u64, paired: bool, source: &str) -> PyResult<Deck> {
    if game > MAX_GAME {
        return Err(bad(format!("game {game}: {}", game_range())));
    }
    let kind = DealSourceKind::parse(source).ok_or_else(|| {
        bad(format!(
            "deal_source = {source:?}: use \"chacha\" (a stream per matchup) or \"dotnet-replay\" (the paper's .NET stream)"
        ))
    })?;
    let seed = DealSeed::new(kind, seed).map_err(|e| bad(format!("seed {e}")))?;
    let mut stream = match seed.generator() {
        GeneratorSeed::Dotnet(seed) => DealStream::dotnet(seed, game),
        GeneratorSeed::Chacha(seed) => {
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut s = DealStream::chacha_table(seed, &refs, paired);
            s.skip(game);
            s
        }
    };
    let mut out = Vec::with_capacity(1);
    stream.next_chunk(1, &mut out);
    Ok(out[0])
}

fn default_names(players: usize) -> Vec<String> {
    (0..players).map(|s| format!("player_{s}")).collect()
}

/// `briscola-v1`'s observation of `seat` and its legal mask (zeros unless it is to play).
fn observe(state: &TableState, seat: usize, obs: &mut [f32], mask: &mut [i8]) {
    let view = state.view_of(seat);
    encode_v1(&view, state.hand(seat), obs);
    mask.fill(0);
    if state.to_play() == Some(seat) {
        for c in state.legal() {
            mask[c.id() as usize] = 1;
        }
    }
}

fn trick_dict<'py>(py: Python<'py>, t: &TableTrick) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("trick", t.trick)?;
    d.set_item("leader", t.leader)?;
    d.set_item("winner", t.winner)?;
    d.set_item("cards", ids(t.played()))?;
    d.set_item("points", t.points)?;
    Ok(d)
}

/// One game of Briscola under any rules variant, stepped one card at a time.
///
/// Game(rules=None, *, players=None, seed=0, game=0, names=None, paired=False,
///      deal_source="chacha", deck=None)
#[pyclass(module = "briscola._core", name = "Game")]
#[derive(Clone)]
struct PyGame {
    state: TableState,
    deck: Deck,
    tricks: Vec<TableTrick>,
    draws: Vec<(u8, u8, Card)>,
}

struct Sink<'a> {
    draws: &'a mut Vec<(u8, u8, Card)>,
}

impl briscola_core::game::TableSink for Sink<'_> {
    fn trick(&mut self, _t: &TableTrick) {}
    fn draw(&mut self, trick: u8, seat: u8, card: Card) {
        self.draws.push((trick, seat, card));
    }
}

impl PyGame {
    fn make(rules: Rules, deck: Deck) -> PyGame {
        PyGame {
            state: TableState::new(&rules, &deck),
            deck,
            tricks: Vec::with_capacity(20),
            draws: Vec::new(),
        }
    }

    fn play(&mut self, card: Card) -> PyResult<Option<TableTrick>> {
        let mut sink = Sink {
            draws: &mut self.draws,
        };
        let t = self.state.play(card, &mut sink).map_err(bad)?;
        if let Some(t) = t {
            self.tricks.push(t);
        }
        Ok(t)
    }

    fn seat_ok(&self, seat: Whole) -> PyResult<usize> {
        let n = self.state.rules().players();
        seat.checked(
            "seat",
            &format!("not at the table: seats are 0 to {}", n - 1),
            |s| usize::try_from(s).ok().filter(|&s| s < n),
        )
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules=None, *, players=None, seed=Whole::ZERO, game=Whole::ZERO, names=None, paired=false, deal_source="chacha", deck=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: Option<&Bound<'_, PyDict>>,
        players: Option<Whole>,
        seed: Whole,
        game: Whole,
        names: Option<StrList>,
        paired: bool,
        deal_source: &str,
        deck: Option<IdList>,
    ) -> PyResult<PyGame> {
        let (names, deck) = (names.map(|n| n.0), deck.map(|d| d.0));
        let players = players_arg(players)?;
        let (seed, game) = (seed_arg(seed)?, game_arg(game)?);
        let rules = rules_from(rules, players)?;
        let n = rules.players();
        let deck = match deck {
            Some(d) => {
                let ids: Vec<u8> = d
                    .iter()
                    .map(|i| card_of(i).map(|c| c.id()))
                    .collect::<PyResult<_>>()?;
                Deck::from_ids(&ids).ok_or_else(|| {
                    bad("deck: give the 40 card ids 0 to 39, each once, top of the deal first")
                })?
            }
            None => {
                let names = names.unwrap_or_else(|| default_names(n));
                if names.len() != n && !(names.len() == 2 && n == 2) {
                    return Err(bad(format!(
                        "names: give one policy name per seat ({n}), as the study's seating names them; got {}",
                        names.len()
                    )));
                }
                deck_of(seed, &names, game, paired, deal_source)?
            }
        };
        Ok(PyGame::make(rules, deck))
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> usize {
        self.state.rules().players()
    }

    /// The side (0 or 1; 0, 1 or 2 with three players) of each seat.
    #[getter]
    fn sides(&self) -> Vec<usize> {
        let r = self.state.rules();
        (0..r.players()).map(|s| r.side_of(s)).collect()
    }

    /// The rules as a dict (the study file's `rules` fields).
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.state.rules().spec();
        let d = PyDict::new(py);
        d.set_item("players", s.players)?;
        d.set_item("deck", s.deck)?;
        d.set_item("hand_size", s.hand_size)?;
        d.set_item(
            "trump",
            if self.state.rules().has_trump() {
                "face-up"
            } else {
                "none"
            },
        )?;
        d.set_item(
            "draw_order",
            match s.draw_order {
                briscola_core::game::DrawOrder::WinnerFirst => "winner-first",
                briscola_core::game::DrawOrder::LoserFirst => "loser-first",
            },
        )?;
        d.set_item("redraw_ace_three", s.redraw_ace_three)?;
        d.set_item("scoperta", s.scoperta)?;
        d.set_item("must_follow_suit", s.must_follow_suit)?;
        d.set_item("target", s.target)?;
        d.set_item("first_leader", s.first_leader)?;
        Ok(d)
    }

    /// The deck as dealt (40 card ids, top first).
    #[getter]
    fn deck(&self) -> Vec<u32> {
        ids(self.deck.cards())
    }

    /// The seat to play, or None once the game is over.
    #[getter]
    fn to_play(&self) -> Option<usize> {
        self.state.to_play()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The card ids the seat to play may play (empty once the game is over).
    fn legal_actions(&self) -> Vec<u32> {
        ids(self.state.legal())
    }

    /// The legal-move mask over the 40 card ids (int8) for `seat` (default: the seat to play).
    #[pyo3(signature = (seat=None))]
    fn action_mask<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Whole>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut m = vec![0i8; ACTIONS];
        let seat = match seat {
            Some(s) => Some(self.seat_ok(s)?),
            None => self.state.to_play(),
        };
        if seat.is_some() && seat == self.state.to_play() {
            for c in self.state.legal() {
                m[c.id() as usize] = 1;
            }
        }
        Ok(m.into_pyarray(py))
    }

    /// Play card `card` (an id) for the seat to play. Returns the completed trick as a dict
    /// (trick, leader, winner, cards, points) when this card completed one, else None.
    fn step<'py>(&mut self, py: Python<'py>, card: Whole) -> PyResult<Option<Bound<'py, PyDict>>> {
        let c = card_of(&card)?;
        match self.play(c)? {
            Some(t) => Ok(Some(trick_dict(py, &t)?)),
            None => Ok(None),
        }
    }

    /// `briscola-v1`'s observation of `seat` (float32, 206 values; see the README).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Whole,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat_ok(seat)?;
        let mut obs = vec![0f32; V1_OBS];
        let mut mask = [0i8; ACTIONS];
        observe(&self.state, seat, &mut obs, &mut mask);
        Ok(obs.into_pyarray(py))
    }

    /// Seat `seat`'s hand (card ids, arrival order): private to that seat.
    fn hand(&self, seat: Whole) -> PyResult<Vec<u32>> {
        Ok(ids(self.state.hand(self.seat_ok(seat)?)))
    }

    /// The cards played to the trick in progress, lead first.
    #[getter]
    fn trick_cards(&self) -> Vec<u32> {
        ids(self.state.trick_cards())
    }

    /// The seat that leads (led) the trick in progress.
    #[getter]
    fn leader(&self) -> usize {
        self.state.leader()
    }

    /// The face-up card (None in a no-trump variant).
    #[getter]
    fn face_up(&self) -> Option<u8> {
        self.state.outcome().face_up.map(|c| c.id())
    }

    /// The trump suit's index (0 Oro, 1 Spade, 2 Bastoni, 3 Coppe), None without trump.
    #[getter]
    fn trump(&self) -> Option<u8> {
        self.state.outcome().trump.map(|s| s as u8)
    }

    /// Cards left in the stock, the face-up card included.
    #[getter]
    fn stock_left(&self) -> usize {
        self.state.stock_left()
    }

    /// Points each seat has taken.
    #[getter]
    fn points(&self) -> Vec<u32> {
        let o = self.state.outcome();
        o.points[..o.players as usize]
            .iter()
            .map(|&p| u32::from(p))
            .collect()
    }

    /// Points each side has taken.
    #[getter]
    fn side_points(&self) -> Vec<u16> {
        let r = self.state.rules();
        self.state.outcome().side_points(r)[..r.sides()].to_vec()
    }

    /// The winning side once the game is over (None while it runs, and for a tie).
    #[getter]
    fn winner(&self) -> Option<usize> {
        if !self.state.is_over() {
            return None;
        }
        self.state.outcome().winner_side(self.state.rules())
    }

    /// The completed tricks, in order, as dicts.
    fn tricks<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.tricks.iter().map(|t| trick_dict(py, t)).collect()
    }

    /// What every seat may see (no hand, no stock order): for logging and analysis.
    fn public_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("players", self.players())?;
        d.set_item("to_play", self.to_play())?;
        d.set_item("trick", self.state.trick())?;
        d.set_item("leader", self.state.leader())?;
        d.set_item("trick_cards", self.trick_cards())?;
        d.set_item("face_up", self.face_up())?;
        d.set_item("trump", self.trump())?;
        d.set_item("stock_left", self.stock_left())?;
        d.set_item("points", self.points())?;
        d.set_item("side_points", self.side_points())?;
        let played: Vec<u32> = (0..40u32)
            .filter(|i| self.state.played() & (1u64 << i) != 0)
            .collect();
        d.set_item("played", played)?;
        d.set_item(
            "hand_sizes",
            (0..self.players())
                .map(|s| self.state.hand(s).len())
                .collect::<Vec<_>>(),
        )?;
        d.set_item("is_over", self.state.is_over())?;
        Ok(d)
    }

    /// The whole state, hidden information included (every hand and the stock in draw order).
    fn full_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = self.public_state(py)?;
        let hands: Vec<Vec<u32>> = (0..self.players())
            .map(|s| ids(self.state.hand(s)))
            .collect();
        d.set_item("hands", hands)?;
        d.set_item("stock", ids(self.state.stock()))?;
        d.set_item("deck", self.deck())?;
        let draws: Vec<(u8, u8, u8)> = self.draws.iter().map(|&(t, s, c)| (t, s, c.id())).collect();
        d.set_item("draws", draws)?;
        Ok(d)
    }

    /// An independent copy of the game.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(players={}, trick={}, to_play={}, points={:?})",
            self.players(),
            self.state.trick(),
            self.state
                .to_play()
                .map_or("None".to_string(), |s| s.to_string()),
            self.points()
        )
    }
}

/// A study's policy, by name: a built-in (greedy, hoarder, counter, random, search) or any
/// `[policies.NAME]` of a study file (the policy language, switch, epsilon, search, onnx).
#[pyclass(module = "briscola._core", name = "Policy")]
struct PyPolicy {
    spec: PolicySpec,
    reading: FollowReading,
    /// The policy built for the rules it last played.
    built: Option<(Rules, TablePolicy)>,
    seed: i64,
    rng: SeatRng,
}

/// The `[policies]` table of the study file at `path` and the folder its model paths are
/// relative to.
fn study_policies(path: &Path) -> PyResult<(BTreeMap<String, PolicySection>, PathBuf)> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| {
        bad(format!(
            "cannot read the study file {}: {e}",
            path.display()
        ))
    })?;
    let mut text = String::new();
    f.take(MAX_STUDY_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| {
            bad(format!(
                "cannot read the study file {}: {e}",
                path.display()
            ))
        })?;
    if text.len() as u64 > MAX_STUDY_BYTES {
        return Err(bad(format!(
            "the study file {} is larger than 1 MiB; a study file is a short TOML file",
            path.display()
        )));
    }
    let doc: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| bad(format!("{}: {}", path.display(), e.message().trim())))?;
    let sections = match doc.get("policies") {
        None => BTreeMap::new(),
        Some(toml::Value::Table(t)) => {
            // Section by section, so that an error names its `policies.NAME`, in the words
            // the study file's other errors use (not serde's "unit variant" or "map").
            let mut out = BTreeMap::new();
            for (name, v) in t {
                let section: PolicySection = v.clone().try_into().map_err(|e: toml::de::Error| {
                    let what = plain_message(e.message().trim());
                    bad(format!(
                        "{}: policies.{name}: {what} (a section gives kind = {} and that kind's fields)",
                        path.display(),
                        PolicyKind::names()
                    ))
                })?;
                out.insert(name.clone(), section);
            }
            out
        }
        Some(_) => {
            return Err(bad(format!(
                "{}: `policies` is not a table; define each policy as a [policies.NAME] section",
                path.display()
            )));
        }
    };
    let base = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    Ok((sections, base))
}

/// The policies `names` as the study file at `study` (or, without one, the built-ins) defines
/// them: the file read once, every name through the one resolver every command uses.
fn resolve_specs(
    study: Option<&Path>,
    names: &[String],
    tie: Option<TieBreak>,
) -> PyResult<Vec<PolicySpec>> {
    let (sections, base) = match study {
        Some(p) => study_policies(p)?,
        None => (BTreeMap::new(), PathBuf::from(".")),
    };
    let resolver = PolicyResolver::new(&sections, &base);
    let place = study
        .map(|p| format!("{}: ", p.display()))
        .unwrap_or_default();
    names
        .iter()
        .map(|name| {
            resolver.resolve(name, tie).map_err(|e| {
                // Without a study file there is no `[policies]` table to point at.
                let field = if study.is_none() && e.field == "policies" {
                    String::new()
                } else {
                    format!("{}: ", e.field)
                };
                bad(format!("{place}{field}{}", e.message))
            })
        })
        .collect()
}

impl PyPolicy {
    /// Run `f` on this policy (built for the game's rules), the view of the seat to play and
    /// the policy's own stream, which advances by what `f` drew.
    fn decide<T>(
        &mut self,
        game: &PyGame,
        f: impl FnOnce(&TablePolicy, &SeatView<'_>, &mut SeatRng, &Rules) -> T,
    ) -> PyResult<T> {
        let view = game
            .state
            .view()
            .ok_or_else(|| bad("the game is over: no seat is to play"))?;
        let rules = *game.state.rules();
        let mut rng = self.rng.clone();
        let out = f(self.for_rules(&rules)?, &view, &mut rng, &rules);
        self.rng = rng;
        Ok(out)
    }

    fn for_rules(&mut self, rules: &Rules) -> PyResult<&TablePolicy> {
        if self.built.as_ref().is_none_or(|(r, _)| r != rules) {
            let p = TablePolicy::new(&self.spec, rules, self.reading).map_err(bad)?;
            self.built = Some((*rules, p));
        }
        Ok(&self.built.as_ref().expect("just built").1)
    }
}

#[pymethods]
impl PyPolicy {
    #[new]
    #[pyo3(signature = (name, study=None, *, tie_break=None, reading="verbatim", seed=Whole::ZERO, seat=Whole::ZERO, game=Whole::ZERO))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: &str,
        study: Option<PathBuf>,
        tie_break: Option<&str>,
        reading: &str,
        seed: Whole,
        seat: Whole,
        game: Whole,
    ) -> PyResult<PyPolicy> {
        let (seed, seat, game) = (seed_arg(seed)?, seat_arg(seat)?, game_arg(game)?);
        let tie = match tie_break {
            None => None,
            Some("as-released") => Some(TieBreak::AsReleased),
            Some("as-written") => Some(TieBreak::AsWritten),
            Some(other) => {
                return Err(bad(format!(
                    "tie_break = {other:?}: use \"as-released\" or \"as-written\""
                )));
            }
        };
        let reading = match reading {
            "verbatim" => FollowReading::Verbatim,
            "partner-aware" => FollowReading::PartnerAware,
            other => {
                return Err(bad(format!(
                    "reading = {other:?}: use \"verbatim\" or \"partner-aware\""
                )));
            }
        };
        let spec = resolve_specs(study.as_deref(), &[name.to_string()], tie)?
            .pop()
            .expect("one name, one spec");
        let mut p = PyPolicy {
            rng: SeatRng::new(table_seat_key(seed, spec.stream_name(), seat), game),
            spec,
            reading,
            built: None,
            seed,
        };
        // Built now so that a definition that cannot play (a missing model) fails here.
        p.for_rules(&Rules::standard())?;
        Ok(p)
    }

    /// The policy's name.
    #[getter]
    fn name(&self) -> &str {
        &self.spec.name
    }

    /// The policy's kind (greedy, hoarder, counter, rules, switch, epsilon, random, search, onnx).
    #[getter]
    fn kind(&self) -> &'static str {
        self.spec.kind.as_str()
    }

    /// The policy in words, as `briscola policies` prints it.
    fn describe(&self) -> String {
        self.spec.describe().to_string()
    }

    /// Restart the policy's own random stream as the pipeline keys it for (seed, this policy,
    /// `seat`) at game `game`: a randomised policy then draws exactly what it drew in the study.
    fn reset(&mut self, seat: Whole, game: Whole) -> PyResult<()> {
        let (seat, game) = (seat_arg(seat)?, game_arg(game)?);
        self.rng = SeatRng::new(
            table_seat_key(self.seed, self.spec.stream_name(), seat),
            game,
        );
        Ok(())
    }

    /// Build the policy for `game`'s rules now, so that one that cannot play them (the search
    /// agent beyond the standard two-player game, a rules policy without trumps) is refused
    /// before play starts; `act` and `explain` build it on first use.
    fn prepare(&mut self, game: &PyGame) -> PyResult<()> {
        self.for_rules(game.state.rules()).map(|_| ())
    }

    /// The card (an id) this policy plays for the seat to play in `game`.
    fn act(&mut self, game: &PyGame) -> PyResult<u8> {
        self.decide(game, |p, view, rng, _| view.hand[p.choose(view, rng)].id())
    }

    /// The card this policy plays for the seat to play and why, as (card id, text): the rule
    /// that fired for the paper's policies, how a network or a random policy chose otherwise.
    fn explain(&mut self, game: &PyGame) -> PyResult<(u8, String)> {
        self.decide(game, |p, view, rng, rules| {
            let e = if rules.is_standard() {
                p.inner().explain(view, rng)
            } else {
                briscola_core::policy::AnyPolicy::unexplained(p, view, rng)
            };
            (e.card.id(), e.line())
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Policy({:?}, kind={:?})",
            self.spec.name,
            self.spec.kind.as_str()
        )
    }
}

/// How a vector environment rewards the learner at a game's end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reward {
    /// +1 for a win of the learner's side, -1 for a loss, 0 for a tie.
    Win,
    /// The learner's side's points minus the others', over 120.
    Points,
}

/// `n` games stepped together in Rust: the learner plays one seat of each game, the other
/// seats are played by the named policies, also in Rust; finished games restart at once on
/// the stream's next deal.
#[pyclass(module = "briscola._core", name = "VecEnv")]
struct PyVecEnv {
    rules: Rules,
    games: Vec<TableState>,
    learner: Vec<usize>,
    game_index: Vec<u64>,
    seat_rngs: Vec<Vec<SeatRng>>,
    /// One policy per seat (the learner's entry is unused), as seat offsets from the learner.
    others: Vec<TablePolicy>,
    other_names: Vec<String>,
    stream: DealStream,
    next_game: u64,
    seat_mode: Option<usize>,
    seed: i64,
    reward: Reward,
    finished: [u64; 3],
}

impl PyVecEnv {
    /// Start game `slot` on the stream's next deal and play the others up to the learner.
    fn start(&mut self, slot: usize) {
        let mut decks = Vec::with_capacity(1);
        self.stream.next_chunk(1, &mut decks);
        let g = self.next_game;
        self.next_game += 1;
        let n = self.rules.players();
        let learner = self.seat_mode.unwrap_or((g % n as u64) as usize);
        self.games[slot] = TableState::new(&self.rules, &decks[0]);
        self.learner[slot] = learner;
        self.game_index[slot] = g;
        for s in 0..n {
            let off = (s + n - learner) % n;
            let name = if off == 0 {
                "learner"
            } else {
                self.other_names[off - 1].as_str()
            };
            self.seat_rngs[slot][s] = SeatRng::new(table_seat_key(self.seed, name, s as u8), g);
        }
        self.advance(slot);
    }

    /// Let the other seats play until the learner is to play or the game is over.
    fn advance(&mut self, slot: usize) {
        let n = self.rules.players();
        let learner = self.learner[slot];
        let mut sink = briscola_core::game::NoTricks;
        while let Some(seat) = self.games[slot].to_play() {
            if seat == learner {
                break;
            }
            let off = (seat + n - learner) % n;
            let state = &self.games[slot];
            let view = state.view().expect("a seat is to play");
            let i = self.others[off - 1].choose(&view, &mut self.seat_rngs[slot][seat]);
            let card = view.hand[i];
            self.games[slot]
                .play(card, &mut sink)
                .expect("a policy plays a legal card");
        }
    }

    fn reward_of(&mut self, slot: usize) -> f32 {
        let st = &self.games[slot];
        let side = self.rules.side_of(self.learner[slot]);
        let pts = st.outcome().side_points(&self.rules);
        let mine = pts[side] as f32;
        let total: f32 = pts[..self.rules.sides()].iter().map(|&p| p as f32).sum();
        let win = st.outcome().winner_side(&self.rules);
        match win {
            Some(w) if w == side => self.finished[0] += 1,
            Some(_) => self.finished[1] += 1,
            None => self.finished[2] += 1,
        }
        match self.reward {
            Reward::Win => match win {
                Some(w) if w == side => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            },
            Reward::Points => (mine - (total - mine)) / 120.0,
        }
    }

    fn observe_all<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i8>>) {
        let n = self.games.len();
        let mut obs = vec![0f32; n * V1_OBS];
        let mut mask = vec![0i8; n * ACTIONS];
        for (i, g) in self.games.iter().enumerate() {
            observe(
                g,
                self.learner[i],
                &mut obs[i * V1_OBS..(i + 1) * V1_OBS],
                &mut mask[i * ACTIONS..(i + 1) * ACTIONS],
            );
        }
        let obs = Array2::from_shape_vec((n, V1_OBS), obs).expect("n rows of V1_OBS");
        let mask = Array2::from_shape_vec((n, ACTIONS), mask).expect("n rows of 40");
        (obs.into_pyarray(py), mask.into_pyarray(py))
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (num_envs, opponents, study=None, *, rules=None, players=None, seat=None, seed=Whole::ZERO, reward="win"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: Whole,
        opponents: StrList,
        study: Option<PathBuf>,
        rules: Option<&Bound<'_, PyDict>>,
        players: Option<Whole>,
        seat: Option<Whole>,
        seed: Whole,
        reward: &str,
    ) -> PyResult<PyVecEnv> {
        let opponents = opponents.0;
        let num_envs: usize = num_envs.within("num_envs", 1, 1 << 20)?;
        let players = players_arg(players)?;
        let seed = seed_arg(seed)?;
        let rules = rules_from(rules, players)?;
        let n = rules.players();
        let other_names: Vec<String> = match opponents.len() {
            1 => vec![opponents[0].clone(); n - 1],
            k if k == n - 1 => opponents,
            k => {
                return Err(bad(format!(
                    "opponents: give one policy for every other seat ({}), in seat order after the learner's, or one for all; got {k}",
                    n - 1
                )));
            }
        };
        let others = resolve_specs(study.as_deref(), &other_names, None)?
            .iter()
            .map(|spec| TablePolicy::new(spec, &rules, FollowReading::Verbatim).map_err(bad))
            .collect::<PyResult<Vec<_>>>()?;
        let seat_mode = match seat {
            None => None,
            Some(s) => Some(s.checked(
                "seat =",
                &format!(
                    "the learner's seat is 0 to {}, or None to rotate it game by game",
                    n - 1
                ),
                |v| usize::try_from(v).ok().filter(|&v| v < n),
            )?),
        };
        let reward = match reward {
            "win" => Reward::Win,
            "points" => Reward::Points,
            other => {
                return Err(bad(format!(
                    "reward = {other:?}: use \"win\" (+1, 0, -1) or \"points\" (point difference / 120)"
                )));
            }
        };
        let key = DealSeed::chacha_key(seed).map_err(|e| bad(format!("seed {e}")))?;
        let mut key_names = vec!["learner"];
        key_names.extend(other_names.iter().map(String::as_str));
        let stream = DealStream::chacha_table(key, &key_names, false);
        let placeholder = TableState::new(&rules, &Deck::ordered());
        let mut env = PyVecEnv {
            rules,
            games: vec![placeholder; num_envs],
            learner: vec![0; num_envs],
            game_index: vec![0; num_envs],
            seat_rngs: vec![vec![SeatRng::new([0; 32], 0); n]; num_envs],
            others,
            other_names,
            stream,
            next_game: 0,
            seat_mode,
            seed,
            reward,
            finished: [0; 3],
        };
        for i in 0..num_envs {
            env.start(i);
        }
        Ok(env)
    }

    /// Games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// The learner's seat in each game.
    #[getter]
    fn seats(&self) -> Vec<usize> {
        self.learner.clone()
    }

    /// The index of each game in the deal stream.
    #[getter]
    fn game_indices(&self) -> Vec<u64> {
        self.game_index.clone()
    }

    /// Finished games so far as (won, lost, tied), by the learner's side.
    #[getter]
    fn results(&self) -> (u64, u64, u64) {
        (self.finished[0], self.finished[1], self.finished[2])
    }

    /// Start every game afresh on the stream's next deals; the observations and masks.
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i8>>) {
        for i in 0..self.games.len() {
            self.start(i);
        }
        self.observe_all(py)
    }

    /// The current observations and masks, without stepping.
    fn observe<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i8>>) {
        self.observe_all(py)
    }

    /// Play the learner's card (an id) in every game; the others answer; a finished game
    /// restarts. Returns (observations, masks, rewards, dones): a done game's reward is its
    /// final one and its observation the new game's first.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<i8>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let n = self.games.len();
        // rust-numpy's own refusal names its types ("type mismatch: from=int32, to=int64").
        let actions: PyReadonlyArray1<'py, i64> = actions.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "actions: give a 1-D NumPy array of {n} card ids of dtype int64 (np.asarray(a, dtype=np.int64); briscola.VectorEnv.step converts any integer array)"
            ))
        })?;
        if actions.len() != n {
            return Err(bad(format!(
                "actions: give one card id per game ({n}); got {}",
                actions.len()
            )));
        }
        let acts = actions
            .as_slice()
            .map_err(|_| bad("actions: give a contiguous 1-D array"))?;
        let mut cards = Vec::with_capacity(n);
        for (i, &a) in acts.iter().enumerate() {
            let c = card_of(&Whole::Int(i128::from(a)))
                .map_err(|e| bad(format!("actions[{i}]: {}", e.value(py))))?;
            if !self.games[i].legal().contains(&c) {
                return Err(bad(format!(
                    "actions[{i}]: card {a} is not playable in game {i}; its playable cards are {:?}",
                    ids(self.games[i].legal())
                )));
            }
            cards.push(c);
        }
        let mut rewards = vec![0f32; n];
        let mut dones = vec![false; n];
        let mut sink = briscola_core::game::NoTricks;
        for (i, &c) in cards.iter().enumerate() {
            self.games[i].play(c, &mut sink).expect("checked legal");
            self.advance(i);
            if self.games[i].is_over() {
                rewards[i] = self.reward_of(i);
                dones[i] = true;
                self.start(i);
            }
        }
        let (obs, mask) = self.observe_all(py);
        Ok((obs, mask, rewards.into_pyarray(py), dones.into_pyarray(py)))
    }
}

/// The deck (40 card ids, top first) of game `game` of the deal stream the pipeline uses for
/// the seating `names` (policy names in seat order) under `seed`.
#[pyfunction]
#[pyo3(signature = (seed, names, game=Whole::ZERO, *, paired=false, deal_source="chacha"))]
fn deal(
    seed: Whole,
    names: StrList,
    game: Whole,
    paired: bool,
    deal_source: &str,
) -> PyResult<Vec<u32>> {
    let names = names.0;
    let (seed, game) = (seed_arg(seed)?, game_arg(game)?);
    if names.is_empty() {
        return Err(bad("names: give the seating's policy names, one per seat"));
    }
    let d = deck_of(seed, &names, game, paired, deal_source)?;
    Ok(ids(d.cards()))
}

/// A card's name as records write it: "<rank> <suit>", e.g. `1 Oro` for id 0 (the Ace of Oro).
#[pyfunction]
fn card_name(card: Whole) -> PyResult<String> {
    Ok(card_text::text(card_of(&card)?))
}

/// The card id of a name as `briscola play` reads it (e.g. "1 Oro" for the Ace of Oro, "10 Coppe"),
/// or as the messages and `explain` write it ("Asso di Oro", "4 di Oro").
#[pyfunction]
fn card_id(name: &str) -> PyResult<u8> {
    card_text::parse(name)
        .or_else(|| Card::all().find(|c| c.to_string() == name.trim()))
        .map(|c| c.id())
        .ok_or_else(|| {
            bad(format!(
                "\"{}\" is not a card: write a rank 1 to 10 and a suit (Oro, Spade, Bastoni, Coppe), e.g. \"1 Oro\" or \"10 Coppe\" (or \"Asso di Oro\", as messages write it)",
                briscola_core::policy::shown_text(name)
            ))
        })
}

/// `briscola-v1` for a seat view is also the `onnx` kind's input: the encoding's name.
#[pyfunction]
fn encoding_name() -> &'static str {
    Encoding::BriscolaV1.as_str()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyPolicy>()?;
    m.add_class::<PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(card_name, m)?)?;
    m.add_function(wrap_pyfunction!(card_id, m)?)?;
    m.add_function(wrap_pyfunction!(encoding_name, m)?)?;
    m.add("OBS_LEN", V1_OBS)?;
    m.add("NUM_ACTIONS", ACTIONS)?;
    m.add("ONNX_INPUT_LEN", Encoding::BriscolaV1.input_len())?;
    m.add(
        "CARD_NAMES",
        Card::all().map(card_text::text).collect::<Vec<_>>(),
    )?;
    Ok(())
}
