//! One rule of a policy: `[if CONDITION then] ORDER [of CLASSES]`, e.g.
//! `if led.points >= 10 then cheapest-by-points of trump & wins`.
//!
//! Invariant: a rule can only pick a card of the hand (its choice is an order over the hand's
//! cards that pass its filter); when no card passes, the rule does not decide.

use std::fmt;

use super::LangError;
use super::card_filter::{CardFilter, NEEDS_LED};
use super::condition::Condition;
use super::lexer::{Token, tokenize};
use crate::game::Card;
use crate::policy::TieBreak;

/// How a rule orders the cards that pass its filter (the first in order is played; equal keys
/// go to the earliest card in hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Fewest points first, then by strength per the tie-break reading (as-released: the
    /// strongest of equal points first; as-written: the weakest).
    Cheapest,
    /// Fewest points first; equal points in hand order (as-released, what the released code's
    /// follower rules do) or weakest first (as-written).
    CheapestByPoints,
    /// Most points first, then by strength per the tie-break reading.
    Dearest,
    /// Weakest in-suit rank first (Two, Four, ..., Ace last), whatever the points.
    Weakest,
    /// Strongest in-suit rank first (Ace, Three, King, ...).
    Strongest,
    /// The earliest card in hand.
    First,
    /// A uniformly random card (from the seat's own random stream).
    Random,
}

/// Every order's name and meaning.
pub(crate) const ORDERS: &[(&str, Order, &str)] = &[
    (
        "cheapest",
        Order::Cheapest,
        "fewest points, then strength by the tie-break reading",
    ),
    (
        "cheapest-by-points",
        Order::CheapestByPoints,
        "fewest points; equal points in hand order (as-released) or weakest first (as-written)",
    ),
    (
        "dearest",
        Order::Dearest,
        "most points, then strength by the tie-break reading",
    ),
    ("weakest", Order::Weakest, "weakest rank first"),
    ("strongest", Order::Strongest, "strongest rank first"),
    ("first", Order::First, "the earliest card in hand"),
    (
        "random",
        Order::Random,
        "a uniformly random card, from the seat's random stream",
    ),
];

impl Order {
    /// The name used in rules.
    pub fn as_str(self) -> &'static str {
        ORDERS.iter().find(|o| o.1 == self).map_or("?", |o| o.0)
    }

    /// Sort key per card id under `tie` (smaller plays first).
    pub(crate) fn keys(self, tie: TieBreak) -> [u8; 64] {
        let mut t = [0u8; 64];
        for c in Card::all() {
            let s = c.strength();
            let written = tie == TieBreak::AsWritten;
            t[c.id() as usize] = match self {
                Order::Cheapest => tie.points_then_strength(c) as u8,
                Order::CheapestByPoints => tie.points_only(c) as u8,
                Order::Dearest => (11 - c.points()) << 4 | if written { 9 - s } else { s },
                Order::Weakest => 9 - s,
                Order::Strongest => s,
                Order::First | Order::Random => 0,
            };
        }
        t
    }
}

/// A parsed rule (no tie-break reading yet; see [`super::RuleProgram`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// When the rule applies (empty: always).
    pub when: Condition,
    /// How the candidates are ordered.
    pub order: Order,
    /// Which cards are candidates.
    pub filter: CardFilter,
}

impl Rule {
    /// Parse one rule's text. `leading` says whether it is a lead rule (which cannot read the
    /// led card).
    pub fn parse(text: &str, leading: bool) -> Result<Rule, LangError> {
        let toks = tokenize(text)?;
        let end = text.len();
        if toks.is_empty() {
            return Err(LangError::new(
                0,
                format!("the rule is empty; {}", rule_help()),
            ));
        }
        let mut i = 0;
        let mut when = Condition::default();
        if toks[0].text == "if" {
            i = 1;
            when = Condition::parse(&toks, &mut i, Some("then"), end)?;
            i += 1; // `then`
            if leading && when.needs_led() {
                return Err(LangError::new(
                    toks[1].at,
                    format!(
                        "the condition `{when}` reads the led card, but a lead rule has none (there is no card on the table when leading); move the rule to `follow`"
                    ),
                ));
            }
        }
        let (order, filter) = parse_choice(&toks, &mut i, end)?;
        if let Some(t) = toks.get(i) {
            return Err(LangError::new(
                t.at,
                format!("unexpected `{}` after the choice; {}", t.text, rule_help()),
            ));
        }
        if leading && filter.bits() & NEEDS_LED != 0 {
            let at = toks
                .iter()
                .find(|t| t.text == "wins" || t.text == "led-suit")
                .map_or(0, |t| t.at);
            return Err(LangError::new(
                at,
                format!(
                    "the choice `{filter}` needs a led card (`wins` and `led-suit` compare with the card on the table), but a lead rule has none; use it in `follow`"
                ),
            ));
        }
        if filter.is_empty_by_construction() {
            return Err(LangError::new(
                toks.iter()
                    .position(|t| t.text == "of")
                    .map_or(0, |p| toks[p].at),
                format!("`{filter}` can never hold a card (a class and its negation together)"),
            ));
        }
        Ok(Rule {
            when,
            order,
            filter,
        })
    }

    /// Whether the rule always decides: no condition and no filter.
    pub fn is_catch_all(&self) -> bool {
        self.when.atoms.is_empty() && self.filter == CardFilter::ANY
    }
}

fn parse_choice(
    toks: &[Token<'_>],
    i: &mut usize,
    end: usize,
) -> Result<(Order, CardFilter), LangError> {
    let Some(t) = toks.get(*i) else {
        return Err(LangError::new(
            end,
            format!("the choice is missing after `then`; {}", order_help()),
        ));
    };
    let Some(&(_, order, _)) = ORDERS.iter().find(|o| o.0 == t.text) else {
        return Err(LangError::new(
            t.at,
            format!("unknown choice `{}`; {}", t.text, order_help()),
        ));
    };
    *i += 1;
    let mut filter = CardFilter::ANY;
    if toks.get(*i).is_some_and(|t| t.text == "of") {
        *i += 1;
        filter = CardFilter::parse(toks, i, end)?;
    }
    Ok((order, filter))
}

fn order_help() -> String {
    let names: Vec<&str> = ORDERS.iter().map(|o| o.0).collect();
    format!(
        "a choice is ORDER or `ORDER of CLASSES` with ORDER one of {}",
        names.join(", ")
    )
}

/// The rule syntax, for error messages.
pub(crate) fn rule_help() -> String {
    format!(
        "a rule is `[if CONDITION then] ORDER [of CLASSES]`, e.g. \"if led.points >= 10 then cheapest-by-points of trump & wins\"; {}",
        order_help()
    )
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.when.atoms.is_empty() {
            write!(f, "if {} then ", self.when)?;
        }
        f.write_str(self.order.as_str())?;
        if self.filter != CardFilter::ANY {
            write!(f, " of {}", self.filter)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_and_print_canonically() {
        let r = Rule::parse(
            "if led.points>=10 then cheapest-by-points of trump&wins",
            false,
        )
        .unwrap();
        assert_eq!(
            r.to_string(),
            "if led.points >= 10 then cheapest-by-points of trump & wins"
        );
        assert_eq!(Rule::parse(&r.to_string(), false).unwrap(), r);
        assert!(Rule::parse("cheapest", true).unwrap().is_catch_all());
        assert!(
            !Rule::parse("cheapest of !trump", true)
                .unwrap()
                .is_catch_all()
        );
    }

    #[test]
    fn lead_rules_cannot_read_the_led_card() {
        let e = Rule::parse("cheapest of trump & wins", true).unwrap_err();
        assert_eq!(e.at, 20);
        assert!(e.message.contains("lead rule"), "{}", e.message);
        assert!(Rule::parse("if led.trump then cheapest", true).is_err());
        assert!(Rule::parse("if led.trump then cheapest", false).is_ok());
    }

    #[test]
    fn dearest_puts_aces_before_threes_in_both_readings() {
        for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
            let k = Order::Dearest.keys(tie);
            assert!(k[0] < k[2], "Ace of Oro before Three of Oro");
            assert_eq!(k[0], k[10], "Aces tie (hand order decides)");
        }
    }
}
