//! Named observation encodings: how a [`SeatView`] becomes the float vector a network was
//! trained on, and how the network's card ids map to the project's cards.
//!
//! `briscolabot-v3` (the published BriscolaBot-v3 network, `models/briscolabot-v3/README.md`):
//! 202 values = 162 observation values then a 40-value mask of legal moves. The observation is
//! four 40-wide one-hot card planes and two scalars:
//! `[0, 40)` cards of completed tricks; `[40, 80)` the face-up trump card (for the whole game);
//! `[80, 120)` the card the opponent led, only when the bot follows; `[120, 160)` the bot's own
//! hand; `[160]` own card points / 120; `[161]` the opponent's / 120. The network numbers a card
//! `suit * 10 + rank - 1` with suits Bastoni, Coppe, Denari (our Oro), Spade.
//!
//! `briscola-v1` (the Python environment's observation, for any player count): 206
//! observation values then the 40-value legal mask, cards numbered by their own id
//! (`suit * 10 + rank - 1`, suits Oro, Spade, Bastoni, Coppe). Planes: `[0, 40)` cards of
//! completed tricks; `[40, 80)` the face-up trump card (none in a no-trump variant); `[80, 120)`
//! the cards already played to this trick; `[120, 160)` the card currently winning the trick;
//! `[160, 200)` the own hand (every card held, playable or not); then `[200]` own side's points /
//! 120, `[201]` the other sides' / 120, `[202]` cards left in the stock / 40, `[203]` the
//! current trick's number minus one / 20 (the tricks completed before it; 19/20 once the game is
//! over), `[204]` 1 if the partner is winning the trick, `[205]` the cards already on the table
//! in this trick / 5 (for the seat to play: its place in the trick, 0 when it leads). Its network's output node is named `logits` by default.
//!
//! Invariant: the card mapping is a bijection of the 40 cards (tested both ways), and an
//! encoding reads only the [`SeatView`] (what the seat may see).

use serde::{Deserialize, Serialize};

use crate::game::{Card, Suit};
use crate::policy::SeatView;

/// A named observation encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Encoding {
    /// BriscolaBot-v3's 202-value input (162 observation values and the legal-move mask).
    #[serde(rename = "briscolabot-v3")]
    BriscolaBotV3,
    /// briscola's own 246-value input for any player count (206 observation values and the
    /// legal-move mask), the observation of the Python environment.
    #[serde(rename = "briscola-v1")]
    BriscolaV1,
}

/// Width of a card plane and of the network's output (one entry per card).
pub const CARDS: usize = 40;

/// BriscolaBot-v3's suit order: the network's suit index of each of our suits (Oro, Spade,
/// Bastoni, Coppe in our deck order).
const BOT_SUIT: [usize; 4] = [2, 3, 0, 1];

impl Encoding {
    /// Every encoding, for error messages.
    pub const ALL: [Encoding; 2] = [Encoding::BriscolaBotV3, Encoding::BriscolaV1];

    /// The name used in `pipeline.toml`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Encoding::BriscolaBotV3 => "briscolabot-v3",
            Encoding::BriscolaV1 => "briscola-v1",
        }
    }

    /// The encoding named `name`, if there is one.
    pub fn parse(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// The valid names, comma-separated.
    pub fn names() -> String {
        Encoding::ALL.map(Encoding::as_str).join(", ")
    }

    /// The graph node whose output is the card scores (logits, illegal cards already masked),
    /// before any in-graph softmax and sampler: BriscolaBot-v3 samples inside the graph with a
    /// self-reseeding generator, and its in-graph log-sum-exp overflows in tract on confident
    /// positions, so it is cut at the masked logits (`/Where_output_0`) and the softmax is ours.
    pub const fn default_output(self) -> &'static str {
        match self {
            Encoding::BriscolaBotV3 => "/Where_output_0",
            Encoding::BriscolaV1 => "logits",
        }
    }

    /// Length of the network's input vector.
    pub const fn input_len(self) -> usize {
        match self {
            Encoding::BriscolaBotV3 => 202,
            Encoding::BriscolaV1 => V1_OBS + CARDS,
        }
    }

    /// Length of the network's output vector (a score per card id).
    pub const fn output_len(self) -> usize {
        CARDS
    }

    /// The network's id of `card`.
    #[inline]
    pub const fn net_id(self, card: Card) -> usize {
        match self {
            Encoding::BriscolaBotV3 => {
                BOT_SUIT[card.suit_index() as usize] * 10 + (card.rank() as usize - 1)
            }
            Encoding::BriscolaV1 => card.id() as usize,
        }
    }

    /// The card the network numbers `id` (`None` for an id outside `0..40`).
    pub fn card_of(self, id: usize) -> Option<Card> {
        if id >= CARDS {
            return None;
        }
        if self == Encoding::BriscolaV1 {
            return Card::from_id(id as u8);
        }
        let suit = BOT_SUIT.iter().position(|&s| s == id / 10)?;
        Card::new(Suit::from_index(suit as u8), (id % 10) as u8 + 1)
    }

    /// Write the network's input for `view` into `out` (length [`Encoding::input_len`]).
    pub fn encode(self, v: &SeatView<'_>, out: &mut [f32]) {
        debug_assert_eq!(out.len(), self.input_len());
        if self == Encoding::BriscolaV1 {
            let (obs, mask) = out.split_at_mut(V1_OBS);
            encode_v1(v, v.hand, obs);
            mask.fill(0.0);
            for &c in v.hand {
                mask[c.id() as usize] = 1.0;
            }
            return;
        }
        out.fill(0.0);
        let mut set = |at: usize, c: Card| out[at + self.net_id(c)] = 1.0;
        for c in Card::all().filter(|c| v.played & (1u64 << c.id()) != 0) {
            set(COMPLETED, c);
        }
        set(FACE_UP, v.face_up);
        if let Some(led) = v.table {
            set(LED, led);
        }
        for &c in v.hand {
            set(HAND, c);
            // Every card in hand is legal in Briscola: the mask is the hand.
            set(MASK, c);
        }
        out[MY_POINTS] = v.my_points as f32 / 120.0;
        out[OPP_POINTS] = v.opp_points as f32 / 120.0;
    }
}

/// Observation values of `briscola-v1` (before its 40-value mask).
pub const V1_OBS: usize = 206;

/// `briscola-v1`'s observation values (not the mask) of a seat holding `hand` (all its cards,
/// playable or not) whose view is `v`, into `out` (length [`V1_OBS`]).
pub fn encode_v1(v: &SeatView<'_>, hand: &[Card], out: &mut [f32]) {
    debug_assert_eq!(out.len(), V1_OBS);
    out.fill(0.0);
    let mut played = v.played;
    while played != 0 {
        out[played.trailing_zeros() as usize] = 1.0;
        played &= played - 1;
    }
    if !v.no_trump {
        out[40 + v.face_up.id() as usize] = 1.0;
    }
    for &c in v.trick_cards {
        out[80 + c.id() as usize] = 1.0;
    }
    if let Some(t) = v.table {
        out[120 + t.id() as usize] = 1.0;
    }
    for &c in hand {
        out[160 + c.id() as usize] = 1.0;
    }
    let completed = (v.trick as usize - 1) as f32;
    out[200] = v.my_points as f32 / 120.0;
    out[201] = v.opp_points as f32 / 120.0;
    out[202] = v.stock_left as f32 / 40.0;
    out[203] = completed / 20.0;
    out[204] = v.partner_winning as u8 as f32;
    out[205] = v.trick_cards.len() as f32 / 5.0;
}

/// Where each plane of `briscolabot-v3` starts.
pub const COMPLETED: usize = 0;
/// The face-up trump card's plane.
pub const FACE_UP: usize = 40;
/// The opponent's led card's plane (only when following).
pub const LED: usize = 80;
/// The own hand's plane.
pub const HAND: usize = 120;
/// Own card points / 120.
pub const MY_POINTS: usize = 160;
/// The opponent's card points / 120.
pub const OPP_POINTS: usize = 161;
/// The legal-move mask (40 values).
pub const MASK: usize = 162;

#[cfg(test)]
mod tests {
    use super::*;

    const E: Encoding = Encoding::BriscolaBotV3;

    fn card(s: Suit, r: u8) -> Card {
        Card::new(s, r).unwrap()
    }

    /// The README's numbering: suit * 10 + face value - 1, suits Bastoni, Coppe, Denari (our
    /// Oro), Spade; e.g. the Ace of Bastoni is 0, the King of Spade 39.
    #[test]
    fn card_ids_follow_the_networks_numbering() {
        assert_eq!(E.net_id(card(Suit::Bastoni, 1)), 0);
        assert_eq!(E.net_id(card(Suit::Bastoni, 10)), 9);
        assert_eq!(E.net_id(card(Suit::Coppe, 1)), 10);
        assert_eq!(E.net_id(card(Suit::Oro, 3)), 22);
        assert_eq!(E.net_id(card(Suit::Oro, 8)), 27, "Fante di Denari");
        assert_eq!(E.net_id(card(Suit::Spade, 9)), 38, "Cavallo di Spade");
        assert_eq!(E.net_id(card(Suit::Spade, 10)), 39);
    }

    #[test]
    fn the_card_mapping_is_a_bijection_both_ways() {
        let mut seen = [false; CARDS];
        for c in Card::all() {
            let id = E.net_id(c);
            assert!(!seen[id], "{c} collides at {id}");
            seen[id] = true;
            assert_eq!(E.card_of(id), Some(c));
        }
        for id in 0..CARDS {
            assert_eq!(E.net_id(E.card_of(id).unwrap()), id);
        }
        assert_eq!(E.card_of(40), None);
    }

    #[test]
    fn names_parse_and_unknown_ones_do_not() {
        assert_eq!(Encoding::parse("briscolabot-v3"), Some(E));
        assert_eq!(Encoding::parse("briscolabot-v2"), None);
        assert_eq!(E.input_len(), MASK + CARDS);
    }

    /// A hand-built position, following: two tricks done (Asso di Oro and 2 di Spade; Re di
    /// Coppe and 4 di Bastoni), trump Coppe by the 7 di Coppe, the opponent led the 3 di Spade,
    /// the bot holds the Asso di Spade, the Cavallo di Oro and the 2 di Coppe; 15 points to 4.
    #[test]
    fn each_plane_holds_exactly_its_cards() {
        let done = [
            card(Suit::Oro, 1),
            card(Suit::Spade, 2),
            card(Suit::Coppe, 10),
            card(Suit::Bastoni, 4),
        ];
        let hand = [
            card(Suit::Spade, 1),
            card(Suit::Oro, 9),
            card(Suit::Coppe, 2),
        ];
        let led = card(Suit::Spade, 3);
        let face_up = card(Suit::Coppe, 7);
        let v = SeatView {
            table: Some(led),
            trump: Suit::Coppe,
            played: done.iter().fold(0, |m, c| m | 1u64 << c.id()),
            stock_left: 30,
            trick: 3,
            my_points: 15,
            opp_points: 4,
            seat: 1,
            trick_cards: std::slice::from_ref(&led),
            ..SeatView::opening(&hand, face_up)
        };
        let mut x = vec![9.0; E.input_len()];
        E.encode(&v, &mut x);
        let plane_of = |x: &[f32], at: usize| -> Vec<usize> {
            (0..CARDS).filter(|&i| x[at + i] != 0.0).collect::<Vec<_>>()
        };
        let plane = |at: usize| plane_of(&x, at);
        let ids = |cs: &[Card]| {
            let mut v: Vec<usize> = cs.iter().map(|&c| E.net_id(c)).collect();
            v.sort();
            v
        };
        // Asso di Oro 20, 2 di Spade 31, Re di Coppe 19, 4 di Bastoni 3.
        assert_eq!(plane(COMPLETED), vec![3, 19, 20, 31]);
        assert_eq!(plane(COMPLETED), ids(&done));
        assert_eq!(plane(FACE_UP), vec![16], "7 di Coppe");
        assert_eq!(plane(LED), vec![32], "3 di Spade");
        assert_eq!(plane(HAND), ids(&hand));
        assert_eq!(plane(HAND), vec![11, 28, 30]);
        assert_eq!(plane(MASK), ids(&hand), "every card in hand is legal");
        assert_eq!(x[MY_POINTS], 15.0 / 120.0);
        assert_eq!(x[OPP_POINTS], 4.0 / 120.0);
        // The buffer was full of 9s: every value was written.
        assert!(x.iter().all(|&v| v <= 1.0));
        assert_eq!(x.iter().filter(|&&v| v == 1.0).count(), 4 + 1 + 1 + 3 + 3);

        // Leading: the led-card plane is empty; the face-up card stays after it is drawn.
        let v = SeatView {
            table: None,
            trick_cards: &[],
            stock_left: 0,
            ..v
        };
        E.encode(&v, &mut x);
        assert!(plane_of(&x, LED).is_empty());
        assert_eq!(plane_of(&x, FACE_UP), vec![16]);
    }

    /// The model README: the face-up card's plane is "set for the whole game, even after it is
    /// drawn or played". Drawn (in the hand, stock empty) it is in both the hand and the face-up
    /// planes; played (in a completed trick) in both the completed and the face-up planes. Points
    /// are the seat's own first: 58 and 40 are 58/120 and 40/120.
    #[test]
    fn the_face_up_card_keeps_its_plane_after_it_is_drawn_and_played() {
        let face_up = card(Suit::Bastoni, 5);
        let hand = [face_up, card(Suit::Oro, 3)];
        let v = SeatView {
            trump: Suit::Bastoni,
            stock_left: 0,
            trick: 19,
            my_points: 58,
            opp_points: 40,
            ..SeatView::opening(&hand, face_up)
        };
        let mut x = vec![0.0; E.input_len()];
        E.encode(&v, &mut x);
        let plane =
            |x: &[f32], at: usize| (0..CARDS).filter(|&i| x[at + i] != 0.0).collect::<Vec<_>>();
        // 5 di Bastoni is 4; 3 di Oro (Denari) is 22.
        assert_eq!(plane(&x, FACE_UP), vec![4]);
        assert_eq!(plane(&x, HAND), vec![4, 22]);
        assert!(plane(&x, COMPLETED).is_empty());
        assert!(plane(&x, LED).is_empty());
        assert_eq!((x[MY_POINTS], x[OPP_POINTS]), (58.0 / 120.0, 40.0 / 120.0));

        let hand = [card(Suit::Oro, 3)];
        let v = SeatView {
            hand: &hand,
            played: 1u64 << face_up.id() | 1u64 << card(Suit::Spade, 1).id(),
            trick: 20,
            ..v
        };
        E.encode(&v, &mut x);
        assert_eq!(plane(&x, FACE_UP), vec![4]);
        assert_eq!(
            plane(&x, COMPLETED),
            vec![4, 30],
            "5 di Bastoni and Asso di Spade"
        );
        assert_eq!(plane(&x, HAND), vec![22]);
    }
}
