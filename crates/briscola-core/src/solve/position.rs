//! A position for the trick-feasibility search, as a file writes it ([`PositionSpec`], TOML)
//! and as the search reads it ([`Position`]): the rules, the trump, who leads, the known cards of
//! each hand and how many of its cards are unknown, the cards already out of play, the stock
//! (its order known, or unknown with an optional face-up card at its bottom) and the question.
//!
//! Invariant: a [`Position`] exists only if it is a trick boundary of a real game of its rules:
//! every card at most once, every hand the same size, the unknown cards exactly fill the unknown
//! places, and the question's target is in range. [`PositionSpec::validate`] is the only way to
//! one.

use serde::Deserialize;

use super::cards::CardSet;
use crate::game::{Card, DrawOrder, Rules, RulesSpec, Suit};

/// The position file's contents (`briscola solve FILE`), every field named in errors.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PositionSpec {
    /// The game's rules (the `rules` table of a study: players, deck, hand_size, draw_order...).
    #[serde(default)]
    pub rules: RulesSpec,
    /// The trump suit (`"Swords"`, `"Coppe"`, ...); must be absent when `rules.trump = "none"`.
    #[serde(default)]
    pub trump: Option<String>,
    /// The face-up card at the bottom of the stock, when known.
    #[serde(default)]
    pub face_up: Option<String>,
    /// The player who leads the next trick, 1-based.
    #[serde(default = "one")]
    pub leader: u8,
    /// The known cards of each player's hand, one list per player.
    pub hands: Vec<Vec<String>>,
    /// How many cards of each hand are unknown; defaults to what fills every hand to the size
    /// of the largest.
    #[serde(default)]
    pub unknown: Option<Vec<u8>>,
    /// Cards already out of play (earlier tricks).
    #[serde(default)]
    pub played: Vec<String>,
    /// The stock's order from its top, when known (its last card is the face-up card).
    #[serde(default)]
    pub stock: Option<Vec<String>>,
    /// The question.
    pub goal: GoalSpec,
}

fn one() -> u8 {
    1
}

/// `[goal]`: can `player` win at least `tricks` tricks (or reach `points` points)?
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GoalSpec {
    /// The player, 1-based.
    pub player: u8,
    /// At least this many tricks.
    #[serde(default)]
    pub tricks: Option<u16>,
    /// At least this many card points.
    #[serde(default)]
    pub points: Option<u16>,
}

/// A malformed position: the field, what is wrong and what would be valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct PositionError {
    /// The field, dotted (`hands[2][1]`, `goal.tricks`).
    pub field: String,
    /// What is wrong and what would be valid.
    pub message: String,
}

fn bad(field: impl Into<String>, message: impl Into<String>) -> PositionError {
    PositionError {
        field: field.into(),
        message: message.into(),
    }
}

/// What the question counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Tricks won.
    Tricks(u16),
    /// Card points taken.
    Points(u16),
}

/// A validated position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The rules.
    pub rules: Rules,
    /// The trump suit.
    pub trump: Option<Suit>,
    /// The seat leading the next trick (0-based).
    pub leader: usize,
    /// Known cards of each hand.
    pub hands: Vec<CardSet>,
    /// Unknown cards in each hand.
    pub unknown: Vec<u8>,
    /// Cards out of play.
    pub played: CardSet,
    /// The stock from its top: a known card, or `None` for an unknown one.
    pub stock: Vec<Option<Card>>,
    /// The player asked about (0-based).
    pub player: usize,
    /// What they must reach.
    pub target: Target,
}

impl Position {
    /// Players at the table.
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// Who draws first after a trick.
    pub fn draw_order(&self) -> DrawOrder {
        self.rules.spec().draw_order
    }

    /// The cards nobody knows the place of: in the variant's deck, not out of play, not in a
    /// known hand and not a known stock card.
    pub fn pool(&self) -> CardSet {
        let mut known = self.played;
        for h in &self.hands {
            known = CardSet(known.0 | h.0);
        }
        for c in self.stock.iter().flatten() {
            known = known.with(*c);
        }
        let deck = CardSet::of(
            &Card::all()
                .filter(|&c| self.rules.in_deck(c))
                .collect::<Vec<_>>(),
        );
        CardSet(deck.0 & !known.0)
    }

    /// Tricks left to play.
    pub fn tricks_left(&self) -> usize {
        let held: usize = self
            .hands
            .iter()
            .zip(&self.unknown)
            .map(|(h, &u)| h.len() as usize + u as usize)
            .sum();
        (held + self.stock.len()) / self.players()
    }
}

/// A card's English name as the logic model writes it: `7 of Cups`, `Knight of Swords`.
pub fn card_name(c: Card) -> String {
    let rank = match c.rank() {
        1 => "Ace".to_string(),
        8 => "Jack".to_string(),
        9 => "Knight".to_string(),
        10 => "King".to_string(),
        r => r.to_string(),
    };
    format!("{rank} of {}", suit_name(c.suit()))
}

/// A suit's English name.
pub fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Oro => "Coins",
        Suit::Spade => "Swords",
        Suit::Bastoni => "Clubs",
        Suit::Coppe => "Cups",
    }
}

/// Parse a suit: English (Coins, Swords, Clubs, Cups) or Italian (Oro/Denari, Spade, Bastoni,
/// Coppe), any case.
pub fn parse_suit(s: &str) -> Option<Suit> {
    match s.trim().to_ascii_lowercase().as_str() {
        "coins" | "coin" | "oro" | "denari" | "denara" => Some(Suit::Oro),
        "swords" | "sword" | "spade" | "spada" => Some(Suit::Spade),
        "clubs" | "club" | "bastoni" | "bastone" => Some(Suit::Bastoni),
        "cups" | "cup" | "coppe" | "coppa" => Some(Suit::Coppe),
        _ => None,
    }
}

/// Parse a card name: a rank (1-10, A/Ace/Asso, J/Jack/Fante/Knave, H/Knight/Horse/Cavallo,
/// K/King/Re, Two..Seven) then a suit, optionally joined by `of` or `di`: `7 Cups`,
/// `Knight of Swords`, `Asso di Coppe`, `H Swords`.
pub fn parse_card(s: &str) -> Option<Card> {
    let words: Vec<String> = s
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .filter(|w| w != "of" && w != "di")
        .collect();
    let [rank, suit] = words.as_slice() else {
        return None;
    };
    let rank = match rank.as_str() {
        "a" | "ace" | "asso" | "1" => 1,
        "j" | "jack" | "knave" | "fante" | "8" => 8,
        "h" | "n" | "knight" | "horse" | "cavallo" | "9" => 9,
        "k" | "king" | "re" | "10" => 10,
        "two" | "2" => 2,
        "three" | "3" => 3,
        "four" | "4" => 4,
        "five" | "5" => 5,
        "six" | "6" => 6,
        "seven" | "7" => 7,
        _ => return None,
    };
    Card::new(parse_suit(suit)?, rank)
}

const CARD_HELP: &str = "write a rank (2-7, Ace, Jack, Knight, King; or A, J, H, K) and a suit (Coins, Swords, Clubs, Cups), e.g. \"Knight of Swords\" or \"7 Cups\"";

impl PositionSpec {
    /// Check everything and build the position.
    pub fn validate(&self) -> Result<Position, PositionError> {
        let rules = self
            .rules
            .validate()
            .map_err(|e| bad("rules", e.to_string()))?;
        let s = rules.spec();
        if s.must_follow_suit || s.target.is_some() {
            return Err(bad(
                "rules",
                "the solver plays the standard trick rules only: remove must_follow_suit and target (Briscola a 31)",
            ));
        }
        let n = rules.players();
        if self.hands.len() != n {
            return Err(bad(
                "hands",
                format!(
                    "{} hands listed for {n} players; give one list per player (an empty list for a hand of unknown cards)",
                    self.hands.len()
                ),
            ));
        }
        let placed = self.place_cards(&rules)?;
        let trump = self.trump_suit(&rules, placed.face_up, placed.known_stock.as_deref())?;
        let unknown = self.unknown_counts(&placed.hands, rules.hand_size())?;
        let size = placed.hands[0].len() as usize + unknown[0] as usize;
        let hidden: usize = unknown.iter().map(|&u| u as usize).sum();
        let Placed {
            hands,
            played,
            face_up,
            known_stock,
            named,
        } = placed;
        let deck = Card::all().filter(|&c| rules.in_deck(c)).count();
        let stock = stock_of(
            known_stock,
            face_up,
            StockCount {
                players: n,
                pool: deck - named,
                hidden,
                hand: size,
                played: played.len() as usize,
            },
        )?;
        if !stock.is_empty() && size != rules.hand_size() {
            return Err(bad(
                "hands",
                format!(
                    "while the stock lasts every hand holds {} cards; these hold {size}",
                    rules.hand_size()
                ),
            ));
        }
        if !(1..=n).contains(&(self.leader as usize)) {
            return Err(bad(
                "leader",
                format!("player {} does not exist; use 1 to {n}", self.leader),
            ));
        }
        let mut pos = Position {
            rules,
            trump,
            leader: self.leader as usize - 1,
            hands,
            unknown,
            played,
            stock,
            player: 0,
            target: Target::Tricks(0),
        };
        (pos.player, pos.target) = self.goal_of(&pos)?;
        Ok(pos)
    }

    /// Every card the position names (hands, played, face-up, a known stock), each a card of
    /// the variant's deck and each in one place.
    fn place_cards(&self, rules: &Rules) -> Result<Placed, PositionError> {
        let mut seen: Vec<(Card, String)> = Vec::new();
        let mut take = |field: String, name: &str| -> Result<Card, PositionError> {
            let c = parse_card(name)
                .ok_or_else(|| bad(&field, format!("`{name}` is not a card; {CARD_HELP}")))?;
            if !rules.in_deck(c) {
                return Err(bad(
                    &field,
                    format!("{} is not in this variant's deck", card_name(c)),
                ));
            }
            if let Some((_, first)) = seen.iter().find(|(d, _)| *d == c) {
                return Err(bad(
                    &field,
                    format!(
                        "{} is listed twice (first at {first}); every card is in one place",
                        card_name(c)
                    ),
                ));
            }
            seen.push((c, field));
            Ok(c)
        };
        let mut hands = Vec::with_capacity(self.hands.len());
        for (p, h) in self.hands.iter().enumerate() {
            let mut set = CardSet::EMPTY;
            for (i, name) in h.iter().enumerate() {
                set = set.with(take(format!("hands[{p}][{i}]"), name)?);
            }
            hands.push(set);
        }
        let mut played = CardSet::EMPTY;
        for (i, name) in self.played.iter().enumerate() {
            played = played.with(take(format!("played[{i}]"), name)?);
        }
        let face_up = match &self.face_up {
            Some(name) => Some(take("face_up".into(), name)?),
            None => None,
        };
        let known_stock = match &self.stock {
            Some(list) => {
                let mut v = Vec::with_capacity(list.len());
                for (i, name) in list.iter().enumerate() {
                    v.push(take(format!("stock[{i}]"), name)?);
                }
                Some(v)
            }
            None => None,
        };
        Ok(Placed {
            hands,
            played,
            face_up,
            known_stock,
            named: seen.len(),
        })
    }

    fn trump_suit(
        &self,
        rules: &Rules,
        face_up: Option<Card>,
        stock: Option<&[Card]>,
    ) -> Result<Option<Suit>, PositionError> {
        if !rules.has_trump() {
            if self.trump.is_some() || self.face_up.is_some() {
                return Err(bad(
                    "trump",
                    "a game without trumps (rules.trump = \"none\") has no trump suit or face-up card; remove the field",
                ));
            }
            return Ok(None);
        }
        let named = match &self.trump {
            Some(t) => Some(parse_suit(t).ok_or_else(|| {
                bad(
                    "trump",
                    format!("`{t}` is not a suit; use Coins, Swords, Clubs or Cups"),
                )
            })?),
            None => None,
        };
        // The card that names the trump: `face_up`, or else the stock's last card (the one
        // under the stock, turned up); the message names the field the file wrote.
        let (field, from_card) = match face_up {
            Some(c) => ("face_up", Some(c)),
            None => ("stock", stock.and_then(|s| s.last().copied())),
        };
        match (named, from_card) {
            (Some(t), Some(c)) if c.suit() != t => Err(bad(
                field,
                format!(
                    "{}{} turns up {} as trump, not {}",
                    if field == "stock" {
                        "its last card, "
                    } else {
                        ""
                    },
                    card_name(c),
                    suit_name(c.suit()),
                    suit_name(t)
                ),
            )),
            (Some(t), _) => Ok(Some(t)),
            (None, Some(c)) => Ok(Some(c.suit())),
            (None, None) => Err(bad(
                "trump",
                "the trump suit is needed: give trump = \"Swords\" (or a face_up card)",
            )),
        }
    }

    fn unknown_counts(
        &self,
        hands: &[CardSet],
        hand_size: usize,
    ) -> Result<Vec<u8>, PositionError> {
        let largest = hands.iter().map(|h| h.len() as usize).max().unwrap_or(0);
        let unknown: Vec<u8> = match &self.unknown {
            Some(u) if u.len() != hands.len() => {
                return Err(bad(
                    "unknown",
                    format!(
                        "{} counts for {} players; give one per player",
                        u.len(),
                        hands.len()
                    ),
                ));
            }
            Some(u) => u.clone(),
            None => hands
                .iter()
                .map(|h| (largest - h.len() as usize) as u8)
                .collect(),
        };
        let sizes: Vec<usize> = hands
            .iter()
            .zip(&unknown)
            .map(|(h, &u)| h.len() as usize + u as usize)
            .collect();
        if sizes.iter().any(|&s| s != sizes[0]) || sizes[0] == 0 || sizes[0] > hand_size {
            return Err(bad(
                "hands",
                format!(
                    "hand sizes (known + unknown) are {sizes:?}; at a trick boundary every hand holds the same number of cards, 1 to {hand_size}"
                ),
            ));
        }
        Ok(unknown)
    }

    fn goal_of(&self, pos: &Position) -> Result<(usize, Target), PositionError> {
        let n = pos.players();
        let g = &self.goal;
        if !(1..=n).contains(&(g.player as usize)) {
            return Err(bad(
                "goal.player",
                format!("player {} does not exist; use 1 to {n}", g.player),
            ));
        }
        let target = match (g.tricks, g.points) {
            (Some(k), None) => {
                let left = pos.tricks_left();
                if k == 0 || k as usize > left {
                    return Err(bad(
                        "goal.tricks",
                        format!("{k} is out of range; {left} tricks are left, so use 1 to {left}"),
                    ));
                }
                Target::Tricks(k)
            }
            (None, Some(p)) => {
                let left = CardSet(!pos.played.0 & CardSet::ALL.0).points() as u16;
                if p == 0 || p > left {
                    return Err(bad(
                        "goal.points",
                        format!("{p} is out of range; {left} points are left, so use 1 to {left}"),
                    ));
                }
                Target::Points(p)
            }
            _ => return Err(bad("goal", "give exactly one of tricks = K or points = P")),
        };
        Ok((g.player as usize - 1, target))
    }
}

/// The cards a position names, placed ([`PositionSpec::place_cards`]).
struct Placed {
    hands: Vec<CardSet>,
    played: CardSet,
    face_up: Option<Card>,
    known_stock: Option<Vec<Card>>,
    /// How many cards are named in all.
    named: usize,
}

/// The counts a stock must agree with.
struct StockCount {
    players: usize,
    /// Cards of the deck named nowhere.
    pool: usize,
    /// Unknown cards in the hands.
    hidden: usize,
    /// Cards in each hand.
    hand: usize,
    /// Cards out of play.
    played: usize,
}

/// The stock, top first (`None` for a card not known): the known stock as given, or as many
/// unknown cards as the unplaced ones leave after the hands' unknown cards, the face-up card
/// last; it holds a multiple of the players.
fn stock_of(
    known: Option<Vec<Card>>,
    face_up: Option<Card>,
    c: StockCount,
) -> Result<Vec<Option<Card>>, PositionError> {
    let n = c.players;
    match known {
        Some(_) if face_up.is_some() => Err(bad(
            "face_up",
            "with a known stock the face-up card is the stock's last card; remove face_up",
        )),
        Some(v) => {
            if v.len() % n != 0 {
                return Err(bad(
                    "stock",
                    format!(
                        "{} cards; a stock holds a multiple of {n} (one card each per draw)",
                        v.len()
                    ),
                ));
            }
            if c.pool != c.hidden {
                return Err(bad(
                    "stock",
                    format!(
                        "{} cards of the deck are placed nowhere but the hands have {} unknown cards; list every card in a hand, the stock or `played`",
                        c.pool, c.hidden
                    ),
                ));
            }
            Ok(v.into_iter().map(Some).collect())
        }
        None => {
            let left = (c.pool + face_up.is_some() as usize).checked_sub(c.hidden);
            let Some(left) = left.filter(|l| l % n == 0) else {
                return Err(bad(
                    "hands",
                    format!(
                        "the hands hold {} cards and {} are out of play, which leaves {} for an unknown stock; a stock holds a multiple of {n} (check the hands' sizes and `played`)",
                        n * c.hand,
                        c.played,
                        c.pool as i64 + face_up.is_some() as i64 - c.hidden as i64
                    ),
                ));
            };
            let mut v = vec![None; left];
            if let (Some(f), Some(last)) = (face_up, v.last_mut()) {
                *last = Some(f);
            }
            Ok(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_names_parse_in_english_italian_and_the_seed_s_letters() {
        let k = Card::new(Suit::Spade, 9).unwrap();
        assert_eq!(parse_card("Knight of Swords"), Some(k));
        assert_eq!(parse_card("H Swords"), Some(k));
        assert_eq!(parse_card("cavallo di spade"), Some(k));
        assert_eq!(parse_card("7 Cups"), Card::new(Suit::Coppe, 7));
        assert_eq!(parse_card("Asso di Oro"), Card::new(Suit::Oro, 1));
        assert_eq!(parse_card("11 Cups"), None);
        assert_eq!(parse_card("7"), None);
        for c in Card::all() {
            assert_eq!(parse_card(&card_name(c)), Some(c), "{}", card_name(c));
        }
    }

    fn spec(text: &str) -> PositionSpec {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn malformed_positions_name_the_field() {
        let base = "trump = \"Swords\"\nhands = [[\"7 Cups\", \"2 Swords\", \"2 Coins\"], [\"A Coins\", \"K Cups\", \"3 Clubs\"]]\n";
        let ok = spec(&format!("{base}[goal]\nplayer = 1\ntricks = 3\n"))
            .validate()
            .unwrap();
        assert_eq!(ok.stock.len(), 34);
        assert_eq!(ok.tricks_left(), 20);
        let err = |extra: &str| spec(&format!("{base}{extra}")).validate().unwrap_err();
        assert_eq!(
            err("[goal]\nplayer = 1\ntricks = 21\n").field,
            "goal.tricks"
        );
        assert_eq!(err("[goal]\nplayer = 3\ntricks = 2\n").field, "goal.player");
        assert_eq!(
            err("played = [\"7 Cups\"]\n[goal]\nplayer = 1\ntricks = 2\n").field,
            "played[0]"
        );
        assert_eq!(
            err("played = [\"8 Cups\"]\n[goal]\nplayer = 1\ntricks = 2\n").field,
            "hands"
        );
        assert_eq!(
            err("face_up = \"7 Coins\"\n[goal]\nplayer = 1\ntricks = 2\n").field,
            "face_up"
        );
        // Without face_up the stock's last card names the trump: the error names `stock`, the
        // field the file wrote (it named face_up).
        let e = err("stock = [\"2 Cups\", \"3 Cups\"]\n[goal]\nplayer = 1\ntricks = 2\n");
        assert_eq!(e.field, "stock", "{e}");
        assert!(e.message.contains("its last card, 3 of Cups"), "{e}");
        let e = spec(
            "trump = \"Swords\"\nhands = [[\"7 Cupz\"], []]\n[goal]\nplayer = 1\ntricks = 1\n",
        )
        .validate()
        .unwrap_err();
        assert_eq!(e.field, "hands[0][0]");
        assert!(e.message.contains("`7 Cupz` is not a card"), "{e}");
    }
}
