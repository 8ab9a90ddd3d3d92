//! The rules of a game as a value: players and partnerships, the deck, hand size, trump, draw
//! order and the optional rules of Pagat's variants (face-up Ace/Three redraw, Scoperta,
//! must-follow-suit, Briscola a 31), validated once.
//!
//! Invariant: a [`Rules`] value exists only if it describes a playable game: every player holds
//! `hand_size` cards after the deal, each trick's draw gives every player exactly one card, and
//! the deck runs out at a trick boundary. [`RulesSpec`] is the raw, serialisable description;
//! [`RulesSpec::validate`] is the only way to a [`Rules`].

use serde::{Deserialize, Serialize};

use super::card::{Card, Suit};

/// Whether the trick winner or the others draw first after a trick.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum DrawOrder {
    /// The standard rule: the winner draws first, then the others in playing order.
    #[default]
    #[serde(rename = "winner-first")]
    WinnerFirst,
    /// The intervention that tests the paper's mechanism: the player after the winner draws
    /// first and the winner draws last (in two-player play: the loser draws first).
    #[serde(rename = "loser-first")]
    LoserFirst,
}

/// Where the trump suit comes from.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum TrumpRule {
    /// The suit of the face-up card at the bottom of the stock (the standard rule).
    #[default]
    #[serde(rename = "face-up")]
    FaceUp,
    /// No trump suit (Briscolone): the highest card of the led suit wins.
    #[serde(rename = "none")]
    None,
}

/// The raw description of a variant, as `pipeline.toml` writes it (field `rules` of a study).
/// Every field has the standard two-player game's value as its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesSpec {
    /// Players at the table: 2, 3, 4 (two partnerships, seats 0+2 against 1+3) or 6 (two teams
    /// of three, seats 0+2+4 against 1+3+5).
    pub players: u8,
    /// Cards in the deck: 40; 39 (the Two of Coppe removed, for three players); 36 (no Twos).
    pub deck: u8,
    /// Cards in a hand after the deal and after every draw: 3, or 5 (Briscolone, two players).
    pub hand_size: u8,
    /// The trump suit's source.
    pub trump: TrumpRule,
    /// Who draws first after a trick.
    pub draw_order: DrawOrder,
    /// Pagat: a face-up Ace or Three is put back into the middle of the stock and the card
    /// above it is turned up instead, until the face-up card is neither.
    pub redraw_ace_three: bool,
    /// Briscola Scoperta (two players): hands are open and the stock's top card is visible.
    pub scoperta: bool,
    /// Followers must play a card of the led suit when they hold one (a Briscolone option).
    pub must_follow_suit: bool,
    /// Briscola a 31 (two players): the game ends when a side's points reach this target. The
    /// claim rule implemented: a side claims as soon as its taken points reach the target at the
    /// end of a trick, and the claim is always correct (claims are never early or late).
    pub target: Option<u8>,
    /// The seat that leads the first trick (seat 0 receives the first hand of the deal).
    pub first_leader: u8,
}

impl Default for RulesSpec {
    fn default() -> RulesSpec {
        RulesSpec {
            players: 2,
            deck: 40,
            hand_size: 3,
            trump: TrumpRule::FaceUp,
            draw_order: DrawOrder::WinnerFirst,
            redraw_ace_three: false,
            scoperta: false,
            must_follow_suit: false,
            target: None,
            first_leader: 0,
        }
    }
}

/// The player counts a table may have, in words (every message about `players` says this).
pub const PLAYER_COUNTS: &str =
    "Briscola is played by 2, 3, 4 (two partnerships) or 6 (two teams of three)";

/// Why a [`RulesSpec`] does not describe a playable game. Each variant names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Unsupported number of players.
    #[error("players = {0}: {PLAYER_COUNTS}")]
    Players(u8),
    /// Unsupported deck size.
    #[error("deck = {0}: valid decks are 40, 39 (a Two removed) and 36 (the Twos removed)")]
    Deck(u8),
    /// Unsupported hand size.
    #[error("hand_size = {0}: valid hand sizes are 3, and 5 for two-player Briscolone")]
    HandSize(u8),
    /// Five-card hands outside two-player play.
    #[error("hand_size = 5 with players = {0}: five-card hands (Briscolone) are a two-player game")]
    FiveCardHands(u8),
    /// The deck does not divide among the players.
    #[error(
        "deck = {deck} with players = {players}: {deck} cards do not divide into equal hands and \
         draws for {players} players (use {valid})"
    )]
    Indivisible {
        /// Deck size.
        deck: u8,
        /// Players.
        players: u8,
        /// The valid deck sizes for that many players.
        valid: &'static str,
    },
    /// The redraw rule needs a face-up card.
    #[error("redraw_ace_three = true with trump = \"none\": there is no face-up card to redraw")]
    RedrawWithoutTrump,
    /// Scoperta is defined for two players.
    #[error("scoperta = true with players = {0}: Briscola Scoperta is a two-player game")]
    Scoperta(u8),
    /// Briscola a 31 is defined for two players.
    #[error("target = {target} with players = {players}: Briscola a 31 is a two-player game")]
    TargetPlayers {
        /// Target points.
        target: u8,
        /// Players.
        players: u8,
    },
    /// Target out of range.
    #[error("target = {0}: a target must be between 1 and 120 points")]
    Target(u8),
    /// No such seat.
    #[error("first_leader = {leader} with players = {players}: seats are 0 to {}", .players.saturating_sub(1))]
    FirstLeader {
        /// The seat asked for.
        leader: u8,
        /// Players.
        players: u8,
    },
}

/// A validated description of a variant (see [`RulesSpec`] for the meaning of each field).
///
/// ```
/// use briscola_core::game::{Rules, RulesSpec};
/// let four = RulesSpec { players: 4, ..RulesSpec::default() }.validate().unwrap();
/// assert_eq!(four.tricks(), 10);
/// assert_eq!(four.sides(), 2);
/// assert!(RulesSpec { players: 6, hand_size: 5, ..RulesSpec::default() }.validate().is_err());
/// assert!(Rules::standard().is_standard());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules(RulesSpec);

/// The Two removed from the 39-card deck of three-player play (the rules do not say which).
pub const REMOVED_TWO: Card = match Card::new(Suit::Coppe, 2) {
    Some(c) => c,
    None => unreachable!(),
};

impl RulesSpec {
    /// What field `key` of a rules table takes, in words (`None` for no such field): the one
    /// place the messages about a field's value say what would be valid.
    pub fn field_valid(key: &str) -> Option<&'static str> {
        Some(match key {
            "players" => PLAYER_COUNTS,
            "deck" => "a deck of 40 cards, 39 (no Two of Coppe) or 36 (no Twos)",
            "hand_size" => "3 cards, or 5 (two players)",
            "trump" => "\"face-up\" or \"none\"",
            "draw_order" => "\"winner-first\" or \"loser-first\"",
            "redraw_ace_three" | "scoperta" | "must_follow_suit" => "true or false",
            "target" => "points from 1 to 120 (Briscola a 31: 31; two players)",
            "first_leader" => "a seat, 0 to players - 1",
            _ => return None,
        })
    }

    /// Whether this is the standard game's description (every field at its default).
    pub fn is_default(&self) -> bool {
        *self == RulesSpec::default()
    }

    /// The usual game for `players` at the table (every other field the standard game's): the
    /// 40-card deck for two and four players, the Two of Coppe removed (39) for three, the Twos
    /// removed (36) for six. Validate it like any other description.
    pub fn for_players(players: u8) -> RulesSpec {
        RulesSpec {
            players,
            deck: match players {
                3 => 39,
                6 => 36,
                _ => 40,
            },
            ..RulesSpec::default()
        }
    }

    /// Check that the description is a playable game.
    pub fn validate(self) -> Result<Rules, RulesError> {
        let s = self;
        if !matches!(s.players, 2 | 3 | 4 | 6) {
            return Err(RulesError::Players(s.players));
        }
        if !matches!(s.deck, 40 | 39 | 36) {
            return Err(RulesError::Deck(s.deck));
        }
        if !matches!(s.hand_size, 3 | 5) {
            return Err(RulesError::HandSize(s.hand_size));
        }
        if s.hand_size == 5 && s.players != 2 {
            return Err(RulesError::FiveCardHands(s.players));
        }
        let dealt = s.players * s.hand_size;
        if !s.deck.is_multiple_of(s.players) || s.deck < dealt {
            let valid = match s.players {
                2 | 4 => "40 or 36",
                3 => "39 or 36",
                _ => "36",
            };
            return Err(RulesError::Indivisible {
                deck: s.deck,
                players: s.players,
                valid,
            });
        }
        if s.redraw_ace_three && s.trump == TrumpRule::None {
            return Err(RulesError::RedrawWithoutTrump);
        }
        if s.scoperta && s.players != 2 {
            return Err(RulesError::Scoperta(s.players));
        }
        if let Some(t) = s.target {
            if s.players != 2 {
                return Err(RulesError::TargetPlayers {
                    target: t,
                    players: s.players,
                });
            }
            if !(1..=120).contains(&t) {
                return Err(RulesError::Target(t));
            }
        }
        if s.first_leader >= s.players {
            return Err(RulesError::FirstLeader {
                leader: s.first_leader,
                players: s.players,
            });
        }
        Ok(Rules(s))
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

impl Rules {
    /// The standard two-player game of the paper.
    pub const fn standard() -> Rules {
        Rules(RulesSpec {
            players: 2,
            deck: 40,
            hand_size: 3,
            trump: TrumpRule::FaceUp,
            draw_order: DrawOrder::WinnerFirst,
            redraw_ace_three: false,
            scoperta: false,
            must_follow_suit: false,
            target: None,
            first_leader: 0,
        })
    }

    /// The description this value was validated from.
    #[inline]
    pub const fn spec(&self) -> &RulesSpec {
        &self.0
    }

    /// Whether these are the paper's rules (the specialised engine `play_game` plays them).
    pub fn is_standard(&self) -> bool {
        *self == Rules::standard()
    }

    /// The standard two-player game whichever seat leads the first trick (a match rotating
    /// its first leader): what a policy that reads only its own view needs.
    pub fn is_standard_play(&self) -> bool {
        Rules(RulesSpec {
            first_leader: 0,
            ..self.0
        })
        .is_standard()
    }

    /// Players at the table.
    #[inline]
    pub const fn players(&self) -> usize {
        self.0.players as usize
    }

    /// Cards in the deck.
    pub const fn deck_size(&self) -> usize {
        self.0.deck as usize
    }

    /// Hand size.
    pub const fn hand_size(&self) -> usize {
        self.0.hand_size as usize
    }

    /// Whether a trump suit is turned up.
    pub fn has_trump(&self) -> bool {
        self.0.trump == TrumpRule::FaceUp
    }

    /// Tricks in a full game (deck / players).
    #[inline]
    pub const fn tricks(&self) -> usize {
        self.0.deck as usize / self.0.players as usize
    }

    /// Number of sides: 2 for two players and the partnership games, 3 for three players.
    #[inline]
    pub const fn sides(&self) -> usize {
        match self.0.players {
            3 => 3,
            _ => 2,
        }
    }

    /// The side seat `seat` plays for: partners sit opposite (seat parity) in 4 and 6.
    #[inline]
    pub const fn side_of(&self, seat: usize) -> usize {
        match self.0.players {
            3 => seat,
            _ => seat % 2,
        }
    }

    /// Whether two distinct seats are partners.
    #[inline]
    pub const fn partners(&self, a: usize, b: usize) -> bool {
        a != b && self.0.players >= 4 && a % 2 == b % 2
    }

    /// Whether `card` is in this variant's deck.
    pub fn in_deck(&self, card: Card) -> bool {
        match self.0.deck {
            40 => true,
            39 => card != REMOVED_TWO,
            _ => card.rank() != 2,
        }
    }

    /// Total card points in the deck (120 for every valid deck: Twos are worth nothing).
    pub fn total_points(&self) -> u32 {
        Card::all()
            .filter(|&c| self.in_deck(c))
            .map(|c| c.points() as u32)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> RulesSpec {
        RulesSpec::default()
    }

    #[test]
    fn the_default_is_the_standard_game() {
        let r = spec().validate().unwrap();
        assert!(r.is_standard());
        assert_eq!((r.tricks(), r.sides(), r.total_points()), (20, 2, 120));
    }

    #[test]
    fn every_listed_variant_validates() {
        let ok = [
            RulesSpec {
                players: 3,
                deck: 39,
                ..spec()
            },
            RulesSpec {
                players: 3,
                deck: 36,
                ..spec()
            },
            RulesSpec {
                players: 4,
                ..spec()
            },
            RulesSpec {
                players: 4,
                deck: 36,
                ..spec()
            },
            RulesSpec {
                players: 6,
                deck: 36,
                ..spec()
            },
            RulesSpec {
                hand_size: 5,
                trump: TrumpRule::None,
                must_follow_suit: true,
                ..spec()
            },
            RulesSpec {
                scoperta: true,
                ..spec()
            },
            RulesSpec {
                redraw_ace_three: true,
                ..spec()
            },
            RulesSpec {
                target: Some(31),
                ..spec()
            },
            RulesSpec {
                draw_order: DrawOrder::LoserFirst,
                ..spec()
            },
            RulesSpec {
                players: 4,
                first_leader: 3,
                ..spec()
            },
        ];
        for s in ok {
            let r = s.validate().unwrap_or_else(|e| panic!("{s:?}: {e}"));
            assert_eq!(r.total_points(), 120);
            assert_eq!(Card::all().filter(|&c| r.in_deck(c)).count(), r.deck_size());
        }
    }

    #[test]
    fn impossible_combinations_are_named_errors() {
        let bad = [
            (
                RulesSpec {
                    players: 5,
                    ..spec()
                },
                "players = 5",
            ),
            (
                RulesSpec {
                    players: 6,
                    hand_size: 5,
                    ..spec()
                },
                "hand_size = 5 with players = 6",
            ),
            (
                RulesSpec {
                    players: 6,
                    ..spec()
                },
                "deck = 40 with players = 6",
            ),
            (
                RulesSpec {
                    players: 3,
                    ..spec()
                },
                "deck = 40 with players = 3",
            ),
            (
                RulesSpec { deck: 39, ..spec() },
                "deck = 39 with players = 2",
            ),
            (
                RulesSpec {
                    players: 4,
                    scoperta: true,
                    ..spec()
                },
                "Scoperta is a two-player",
            ),
            (
                RulesSpec {
                    trump: TrumpRule::None,
                    redraw_ace_three: true,
                    ..spec()
                },
                "no face-up",
            ),
            (
                RulesSpec {
                    players: 4,
                    target: Some(31),
                    ..spec()
                },
                "a 31 is a two-player",
            ),
            (
                RulesSpec {
                    target: Some(0),
                    ..spec()
                },
                "target = 0",
            ),
            (
                RulesSpec {
                    first_leader: 2,
                    ..spec()
                },
                "first_leader = 2",
            ),
            (
                RulesSpec {
                    hand_size: 4,
                    ..spec()
                },
                "hand_size = 4",
            ),
            (RulesSpec { deck: 32, ..spec() }, "deck = 32"),
        ];
        for (s, want) in bad {
            let e = s.validate().expect_err(want).to_string();
            assert!(e.contains(want), "{e:?} should mention {want:?}");
        }
    }

    #[test]
    fn partnerships_sit_opposite() {
        let four = RulesSpec {
            players: 4,
            ..spec()
        }
        .validate()
        .unwrap();
        assert!(four.partners(0, 2) && four.partners(1, 3));
        assert!(!four.partners(0, 1) && !four.partners(0, 0));
        let six = RulesSpec {
            players: 6,
            deck: 36,
            ..spec()
        }
        .validate()
        .unwrap();
        assert_eq!(
            (0..6).map(|s| six.side_of(s)).collect::<Vec<_>>(),
            [0, 1, 0, 1, 0, 1]
        );
        let three = RulesSpec {
            players: 3,
            deck: 39,
            ..spec()
        }
        .validate()
        .unwrap();
        assert!(!three.partners(0, 1) && three.sides() == 3);
    }
}
