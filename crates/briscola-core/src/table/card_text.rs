//! Cards as text in records and `replay --json`: `"<rank> <Suit>"`, e.g. `"1 Oro"` for the Ace of
//! coins, `"10 Coppe"` for the King of cups (the released simulator's ranks and suit names).
//!
//! Invariant: `parse(&text(c)) == Some(c)` for every card, and nothing else parses.

use crate::game::{Card, Suit};

/// The text form of `c`.
pub fn text(c: Card) -> String {
    format!("{} {}", c.rank(), c.suit().name())
}

/// The card named by `s` (`"<rank 1..=10> <Oro|Spade|Bastoni|Coppe>"`), or `None`.
pub fn parse(s: &str) -> Option<Card> {
    let (rank, suit) = s.trim().split_once(' ')?;
    let rank: u8 = rank.parse().ok()?;
    let suit = Suit::ALL.into_iter().find(|x| x.name() == suit.trim())?;
    Card::new(suit, rank)
}

/// Serde adapter for a [`Card`] field (`#[serde(with = "card_text")]`).
pub mod serde_card {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::game::Card;

    /// Write as text.
    pub fn serialize<S: Serializer>(c: &Card, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::text(*c))
    }

    /// Read from text, naming what is valid.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        super::parse(&s).ok_or_else(|| {
            D::Error::custom(format!(
                "`{s}` is not a card; write \"<rank 1..=10> <Oro|Spade|Bastoni|Coppe>\", e.g. \"1 Oro\""
            ))
        })
    }
}

/// Serde adapter for a list of cards.
pub mod serde_cards {
    use serde::{Deserialize, Deserializer, Serializer, de::Error, ser::SerializeSeq};

    use crate::game::Card;

    /// Write as a list of texts.
    pub fn serialize<S: Serializer>(cs: &[Card], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(cs.len()))?;
        for c in cs {
            seq.serialize_element(&super::text(*c))?;
        }
        seq.end()
    }

    /// Read a list of texts.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Card>, D::Error> {
        let v = Vec::<String>::deserialize(d)?;
        v.iter()
            .map(|s| {
                super::parse(s).ok_or_else(|| {
                    D::Error::custom(format!(
                        "`{s}` is not a card; write \"<rank 1..=10> <Oro|Spade|Bastoni|Coppe>\", e.g. \"1 Oro\""
                    ))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_and_junk_does_not_parse() {
        for c in Card::all() {
            assert_eq!(parse(&text(c)), Some(c));
        }
        assert_eq!(text(Card::new(Suit::Coppe, 10).unwrap()), "10 Coppe");
        for bad in ["", "1", "0 Oro", "11 Oro", "1 Denari", "Oro 1", "x Spade"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
