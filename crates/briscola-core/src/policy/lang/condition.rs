//! Conditions of rules and switches: `stock <= 10 and not led.trump and count(trump) >= 2`,
//! compiled to a list of comparisons of a quantity of the seat's view with a constant.
//!
//! Invariant: a condition reads only the [`SeatView`] (what the seat may see); evaluating it
//! allocates nothing and matches no strings.

use std::fmt;

use super::LangError;
use super::card_filter::{self, CardFilter, NEEDS_LED};
use super::lexer::Token;
use crate::game::{Card, SeatView, Suit};

/// A number read from the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// Cards left in the stock (the face-up card included), 0..=34.
    Stock,
    /// Trick number, 1..=20.
    Trick,
    /// Cards in hand.
    Hand,
    /// Own points.
    MyPoints,
    /// The opponent's points.
    OppPoints,
    /// Own points minus the opponent's.
    Gap,
    /// Cards played in earlier tricks.
    Played,
    /// Trumps neither in hand nor public (still in the stock or the opponent's hand).
    UnseenTrumps,
    /// The led card's points (following only).
    LedPoints,
    /// 1 when the led card is a trump (following only).
    LedTrump,
    /// Cards in hand that pass a filter.
    Count(CardFilter),
    /// 1 when a given card is public (played, or the face-up card).
    Seen(CardRef),
}

/// A card named in a condition: a fixed card, or a rank of the trump suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardRef {
    /// A fixed card.
    Fixed(Card),
    /// The card of this rank (1..=10) in the trump suit.
    Trump(u8),
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Op {
    fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            _ => return None,
        })
    }
    fn negated(self) -> Op {
        match self {
            Op::Lt => Op::Ge,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            Op::Ge => Op::Lt,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
        }
    }
    fn as_str(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }
    #[inline(always)]
    fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }
}

/// One comparison `quantity op value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// What is read.
    pub quantity: Quantity,
    /// How it is compared.
    pub op: Op,
    /// With what.
    pub value: i32,
}

/// A conjunction of comparisons (empty: always true).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Condition {
    /// Every atom must hold.
    pub atoms: Vec<Atom>,
}

/// Named numbers: (name, quantity, smallest and largest meaningful value, meaning).
const NUMBERS: &[(&str, Quantity, i32, i32, &str)] = &[
    (
        "stock",
        Quantity::Stock,
        0,
        34,
        "cards left in the stock, face-up card included",
    ),
    ("trick", Quantity::Trick, 1, 20, "the trick number"),
    (
        "hand",
        Quantity::Hand,
        1,
        5,
        "cards in hand (3 at most, 5 in five-card games)",
    ),
    ("my-points", Quantity::MyPoints, 0, 120, "own points so far"),
    (
        "opp-points",
        Quantity::OppPoints,
        0,
        120,
        "the opponent's points so far",
    ),
    (
        "gap",
        Quantity::Gap,
        -120,
        120,
        "own points minus the opponent's",
    ),
    (
        "played",
        Quantity::Played,
        0,
        38,
        "cards played in earlier tricks",
    ),
    (
        "unseen-trumps",
        Quantity::UnseenTrumps,
        0,
        10,
        "trumps neither in hand nor public",
    ),
    (
        "led.points",
        Quantity::LedPoints,
        0,
        22,
        "the led card's points, 0 to 11 (following only; 12 to 22 never hold, as the built-in thresholds allow)",
    ),
];

/// Named flags (a flag `f` means `f != 0`).
const FLAGS: &[(&str, Quantity, &str)] = &[(
    "led.trump",
    Quantity::LedTrump,
    "the led card is a trump (following only)",
)];

/// "valid: ..." for error messages.
fn condition_help() -> String {
    let nums: Vec<&str> = NUMBERS.iter().map(|n| n.0).collect();
    format!(
        "a condition is `QUANTITY OP NUMBER` (OP one of < <= > >= == !=), a flag (led.trump), `seen(CARD)` or `count(CLASSES) OP NUMBER`, joined with `and`, each optionally preceded by `not`; quantities: {}",
        nums.join(", ")
    )
}

/// The card names `seen(...)` accepts.
const CARD_HELP: &str = "a card is SUIT-RANK with SUIT one of trump, oro, spade, bastoni, coppe and RANK 1-10 or ace, three, king, knight, knave (e.g. trump-ace, coppe-3)";

fn parse_card(t: &Token<'_>) -> Result<CardRef, LangError> {
    let bad = || LangError::new(t.at, format!("`{}` is not a card; {CARD_HELP}", t.text));
    let (suit, rank) = t.text.split_once('-').ok_or_else(bad)?;
    let rank: u8 = match rank {
        "ace" => 1,
        "three" => 3,
        "king" => 10,
        "knight" => 9,
        "knave" => 8,
        r => r
            .parse()
            .ok()
            .filter(|r| (1..=10).contains(r))
            .ok_or_else(bad)?,
    };
    let suit = match suit {
        "trump" => return Ok(CardRef::Trump(rank)),
        "oro" => Suit::Oro,
        "spade" => Suit::Spade,
        "bastoni" => Suit::Bastoni,
        "coppe" => Suit::Coppe,
        _ => return Err(bad()),
    };
    Card::new(suit, rank).map(CardRef::Fixed).ok_or_else(bad)
}

impl Condition {
    /// Parse `atom (and atom)*` from `toks[*i]` up to a token equal to `stop` (not consumed)
    /// or the end. `end_at` is the text's length (for "missing" errors at the end).
    pub(crate) fn parse(
        toks: &[Token<'_>],
        i: &mut usize,
        stop: Option<&str>,
        end_at: usize,
    ) -> Result<Condition, LangError> {
        let mut atoms = Vec::new();
        loop {
            atoms.push(parse_atom(toks, i, end_at)?);
            match toks.get(*i) {
                Some(t) if t.text == "and" => *i += 1,
                Some(t) if Some(t.text) == stop => return Ok(Condition { atoms }),
                None if stop.is_none() => return Ok(Condition { atoms }),
                Some(t) => {
                    return Err(LangError::new(
                        t.at,
                        format!(
                            "expected `and`{} after a condition, found `{}`",
                            stop.map(|s| format!(" or `{s}`")).unwrap_or_default(),
                            t.text
                        ),
                    ));
                }
                None => {
                    return Err(LangError::new(
                        end_at,
                        format!(
                            "the condition is not finished: expected `and` or `{}`",
                            stop.unwrap_or("")
                        ),
                    ));
                }
            }
        }
    }

    /// Whether the condition reads the led card (so it cannot be used when leading).
    pub(crate) fn needs_led(&self) -> bool {
        self.atoms.iter().any(|a| match a.quantity {
            Quantity::LedPoints | Quantity::LedTrump => true,
            Quantity::Count(f) => f.bits() & NEEDS_LED != 0,
            _ => false,
        })
    }

    /// Whether the condition reads nothing but the led card (its points, whether a trump), so
    /// it is a function of the led card alone.
    pub(crate) fn reads_only_led(&self) -> bool {
        self.atoms
            .iter()
            .all(|a| matches!(a.quantity, Quantity::LedPoints | Quantity::LedTrump))
    }

    /// Whether the condition counts cards of the hand (reads the hand's feature bits).
    pub(crate) fn counts_cards(&self) -> bool {
        self.atoms
            .iter()
            .any(|a| matches!(a.quantity, Quantity::Count(_)))
    }

    /// Feature bits the condition's counts read.
    pub(crate) fn bits(&self) -> u32 {
        self.atoms
            .iter()
            .map(|a| match a.quantity {
                Quantity::Count(f) => f.bits(),
                _ => 0,
            })
            .fold(0, |a, b| a | b)
    }

    /// Whether the condition holds in `v`; `feats` are the hand's feature bits (as
    /// [`card_filter::features`] computes them), `memory` whether those include memory bits.
    #[inline(always)]
    pub(crate) fn holds(&self, v: &SeatView<'_>, feats: &[u32]) -> bool {
        for a in &self.atoms {
            if !a.op.holds(read(a.quantity, v, feats), a.value) {
                return false;
            }
        }
        true
    }
}

#[inline(always)]
fn read(q: Quantity, v: &SeatView<'_>, feats: &[u32]) -> i32 {
    match q {
        Quantity::Stock => v.stock_left as i32,
        Quantity::Trick => v.trick as i32,
        Quantity::Hand => v.hand.len() as i32,
        Quantity::MyPoints => v.my_points as i32,
        Quantity::OppPoints => v.opp_points as i32,
        Quantity::Gap => v.my_points as i32 - v.opp_points as i32,
        Quantity::Played => v.played.count_ones() as i32,
        Quantity::UnseenTrumps => {
            let suit = (0x3ffu64) << (v.trump as u8 * 10);
            let mut known = v.played | 1u64 << v.face_up.id();
            for c in v.hand {
                known |= 1u64 << c.id();
            }
            (suit & !known).count_ones() as i32
        }
        Quantity::LedPoints => v.table.map_or(0, |c| c.points() as i32),
        Quantity::LedTrump => v.table.is_some_and(|c| c.suit() == v.trump) as i32,
        Quantity::Count(f) => feats.iter().filter(|&&x| f.admits(x)).count() as i32,
        Quantity::Seen(r) => {
            let c = match r {
                CardRef::Fixed(c) => c,
                CardRef::Trump(rank) => match Card::new(v.trump, rank) {
                    Some(c) => c,
                    None => return 0,
                },
            };
            v.seen(c) as i32
        }
    }
}

fn parse_atom(toks: &[Token<'_>], i: &mut usize, end_at: usize) -> Result<Atom, LangError> {
    let mut negate = false;
    if toks.get(*i).is_some_and(|t| t.text == "not") {
        negate = true;
        *i += 1;
    }
    let Some(t) = toks.get(*i).cloned() else {
        return Err(LangError::new(
            end_at,
            format!("a condition is missing here; {}", condition_help()),
        ));
    };
    *i += 1;
    let flag = |quantity| Atom {
        quantity,
        op: if negate { Op::Eq } else { Op::Ne },
        value: 0,
    };
    if let Some(&(_, q, _)) = FLAGS.iter().find(|f| f.0 == t.text) {
        return Ok(flag(q));
    }
    if t.text == "seen" || t.text == "gone" {
        expect(toks, i, "(", end_at)?;
        let card_tok = toks.get(*i).cloned().ok_or_else(|| {
            LangError::new(
                end_at,
                format!("a card is missing in `{}(...)`; {CARD_HELP}", t.text),
            )
        })?;
        let card = parse_card(&card_tok)?;
        *i += 1;
        expect(toks, i, ")", end_at)?;
        return Ok(flag(Quantity::Seen(card)));
    }
    let (quantity, lo, hi) = if t.text == "count" {
        expect(toks, i, "(", end_at)?;
        let f = CardFilter::parse(toks, i, end_at)?;
        expect(toks, i, ")", end_at)?;
        (Quantity::Count(f), 0, 5)
    } else if let Some(&(_, q, lo, hi, _)) = NUMBERS.iter().find(|n| n.0 == t.text) {
        (q, lo, hi)
    } else {
        return Err(LangError::new(
            t.at,
            format!("unknown condition `{}`; {}", t.text, condition_help()),
        ));
    };
    let op_tok = toks.get(*i).cloned().ok_or_else(|| {
        LangError::new(
            end_at,
            format!("`{}` needs a comparison, e.g. `{} >= 1`", t.text, t.text),
        )
    })?;
    let op = Op::parse(op_tok.text).ok_or_else(|| {
        LangError::new(
            op_tok.at,
            format!(
                "expected a comparison (< <= > >= == !=) after `{}`, found `{}`",
                t.text, op_tok.text
            ),
        )
    })?;
    *i += 1;
    let num_tok = toks.get(*i).cloned().ok_or_else(|| {
        LangError::new(
            end_at,
            format!("a whole number is missing after `{}`", op_tok.text),
        )
    })?;
    let value = num_tok.number().ok_or_else(|| {
        LangError::new(
            num_tok.at,
            format!(
                "expected a whole number after `{}`, found `{}`",
                op_tok.text, num_tok.text
            ),
        )
    })?;
    if value < lo || value > hi {
        return Err(LangError::new(
            num_tok.at,
            format!(
                "{value} is out of range for `{}`: it takes values {lo} to {hi}",
                t.text
            ),
        ));
    }
    *i += 1;
    Ok(Atom {
        quantity,
        op: if negate { op.negated() } else { op },
        value,
    })
}

fn expect(toks: &[Token<'_>], i: &mut usize, want: &str, end_at: usize) -> Result<(), LangError> {
    match toks.get(*i) {
        Some(t) if t.text == want => {
            *i += 1;
            Ok(())
        }
        Some(t) => Err(LangError::new(
            t.at,
            format!("expected `{want}`, found `{}`", t.text),
        )),
        None => Err(LangError::new(
            end_at,
            format!("expected `{want}` at the end"),
        )),
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flag = |name: &str, f: &mut fmt::Formatter<'_>| match (self.op, self.value) {
            (Op::Ne, 0) => f.write_str(name),
            (Op::Eq, 0) => write!(f, "not {name}"),
            _ => write!(f, "{name} {} {}", self.op.as_str(), self.value),
        };
        match self.quantity {
            Quantity::LedTrump => flag("led.trump", f),
            Quantity::Seen(r) => {
                let name = match r {
                    CardRef::Trump(rank) => format!("seen(trump-{rank})"),
                    CardRef::Fixed(c) => {
                        format!("seen({}-{})", c.suit().name().to_lowercase(), c.rank())
                    }
                };
                flag(&name, f)
            }
            Quantity::Count(cf) => write!(f, "count({cf}) {} {}", self.op.as_str(), self.value),
            q => {
                let name = NUMBERS.iter().find(|n| n.1 == q).map_or("?", |n| n.0);
                write!(f, "{name} {} {}", self.op.as_str(), self.value)
            }
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.atoms.iter().map(|a| a.to_string()).collect();
        f.write_str(&parts.join(" and "))
    }
}

/// The quantities and flags with their meanings (for `briscola policies`).
pub(crate) fn vocabulary() -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = NUMBERS
        .iter()
        .map(|n| (format!("{} ({}..{})", n.0, n.2, n.3), n.4))
        .collect();
    out.extend(FLAGS.iter().map(|f| (f.0.to_string(), f.2)));
    out.push((
        "seen(CARD)".into(),
        "the card is public (played, or the face-up card)",
    ));
    out.push(("count(CLASSES)".into(), "cards in hand of those classes"));
    let _ = card_filter::class_list;
    out
}

impl Condition {
    /// Whether the condition holds in `v`, computing the hand's feature bits itself (for
    /// conditions outside a rule program, e.g. a switch's).
    #[inline]
    pub(crate) fn holds_in(&self, v: &SeatView<'_>, memory: bool) -> bool {
        let mut feats = [0u32; 5];
        let n = v.hand.len().min(5);
        for (f, &c) in feats.iter_mut().zip(v.hand) {
            *f = card_filter::features(c, v, memory);
        }
        self.holds(v, &feats[..n])
    }

    /// Whether evaluating the condition needs the public-memory feature bits.
    pub(crate) fn needs_memory(&self) -> bool {
        self.bits() & card_filter::MEMORY_BITS != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::lang::lexer::tokenize;

    fn parse(s: &str) -> Result<Condition, LangError> {
        let t = tokenize(s)?;
        let mut i = 0;
        Condition::parse(&t, &mut i, None, s.len())
    }

    #[test]
    fn conditions_read_the_view() {
        let hand = [
            Card::new(Suit::Coppe, 1).unwrap(),
            Card::new(Suit::Oro, 2).unwrap(),
        ];
        let led = [Card::new(Suit::Oro, 3).unwrap()];
        let v = SeatView {
            table: Some(led[0]),
            trump: Suit::Coppe,
            played: 1 << Card::new(Suit::Coppe, 3).unwrap().id(),
            stock_left: 10,
            trick: 13,
            my_points: 40,
            opp_points: 52,
            seat: 1,
            trick_cards: &led,
            ..SeatView::opening(&hand, Card::new(Suit::Coppe, 4).unwrap())
        };
        let feats: Vec<u32> = hand
            .iter()
            .map(|&c| card_filter::features(c, &v, true))
            .collect();
        let yes = [
            "stock <= 10",
            "gap == -12",
            "not led.trump and led.points >= 10",
            "seen(trump-three) and seen(trump-4) and not seen(trump-ace)",
            "count(trump) == 1 and count(trump & wins) == 1 and count(led-suit & wins) == 0",
            "unseen-trumps == 7",
            "played == 1 and hand == 2 and trick > 12",
        ];
        for s in yes {
            assert!(parse(s).unwrap().holds(&v, &feats), "{s}");
        }
        for s in ["stock < 10", "led.trump", "gone(coppe-ace)"] {
            assert!(!parse(s).unwrap().holds(&v, &feats), "{s}");
        }
    }

    #[test]
    fn canonical_form_reparses_to_the_same_condition() {
        for s in [
            "not led.trump and stock > 3",
            "count(!trump) == 0",
            "gone(oro-king)",
        ] {
            let c = parse(s).unwrap();
            assert_eq!(parse(&c.to_string()).unwrap(), c, "{s} -> {c}");
        }
        assert_eq!(parse("stock > 35").unwrap_err().at, 8);
        assert_eq!(parse("stack > 3").unwrap_err().at, 0);
    }

    /// Five-card games (hand_size = 5): a hand holds up to five cards, and counts reach five.
    #[test]
    fn hand_and_count_reach_five_cards() {
        assert!(parse("hand == 5").is_ok());
        assert!(parse("count(trump) >= 4").is_ok());
        assert!(
            parse("hand == 6")
                .unwrap_err()
                .message
                .contains("values 1 to 5")
        );
        assert!(parse("count(trump) >= 6").is_err());
    }
}
