//! Proposition 1 of the paper: who wins a two-card trick.
//!
//! Invariant: exactly one of leader and follower wins every trick (the rule is a total function
//! of the two distinct cards and the trump suit).

use super::card::{Card, Suit};

/// Whether the leader's card `lead` beats the follower's `follow` with `trump` as briscola.
///
/// (i) same suit and the leader's rank is stronger; (ii) the leader trumps and the follower does
/// not; (iii) neither trumps and the suits differ.
///
/// Computed without a data-dependent branch: each card gets a power of (is a trump, is of the
/// led suit, 9 - strength index) in bits 5, 4 and 0..4; the leader's card is of the led suit by
/// definition, and the higher power wins.
#[inline]
pub fn leader_wins(lead: Card, follow: Card, trump: Suit) -> bool {
    let (sl, sf, t) = (lead.suit_index(), follow.suit_index(), trump as u8);
    let pl = ((sl == t) as u8) << 5 | 1 << 4 | (9 - lead.strength());
    let pf = ((sf == t) as u8) << 5 | ((sf == sl) as u8) << 4 | (9 - follow.strength());
    pl > pf
}

/// Whether `challenger`, played after `best` (the card winning the trick so far, which is of the
/// led suit or a trump), takes the trick from it; `trump` is `None` in a game without trumps.
/// With a trump this is Proposition 1 read from the winning card's side, so a trick of any
/// number of cards is won by folding this rule over its cards in playing order.
#[inline]
pub fn beats(best: Card, challenger: Card, trump: Option<Suit>) -> bool {
    match trump {
        Some(t) => !leader_wins(best, challenger, t),
        None => best.suit() == challenger.suit() && challenger.strength() < best.strength(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second formulation, written from the standard rules rather than from Proposition 1:
    /// a trump beats a non-trump; otherwise the led suit beats an off-suit card; within a suit the
    /// higher-ranked card by Table 1 wins.
    fn winner_by_rules(lead: Card, follow: Card, trump: Suit) -> u8 {
        let order = [1u8, 3, 10, 9, 8, 7, 6, 5, 4, 2];
        let power = |c: Card| -> i32 {
            let base = if c.suit() == trump {
                200
            } else if c.suit() == lead.suit() {
                100
            } else {
                0
            };
            base + (10 - order.iter().position(|&r| r == c.rank()).unwrap() as i32)
        };
        if power(lead) > power(follow) { 0 } else { 1 }
    }

    #[test]
    fn proposition1_agrees_with_the_rules_for_every_pair_and_trump() {
        let mut checked = 0;
        for trump in Suit::ALL {
            for a in Card::all() {
                for b in Card::all() {
                    if a == b {
                        continue;
                    }
                    let ours = if leader_wins(a, b, trump) { 0 } else { 1 };
                    assert_eq!(
                        ours,
                        winner_by_rules(a, b, trump),
                        "{a} vs {b}, trump {trump}"
                    );
                    // Exactly one of the two wins when the roles swap with the same trump rule.
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 4 * 40 * 39);
    }

    // Worked examples from rules-two-player-intro.md, with Cups (Coppe) as trump.
    #[test]
    fn intro_king_of_clubs_loses_to_three_of_clubs() {
        let king = Card::new(Suit::Bastoni, 10).unwrap();
        let three = Card::new(Suit::Bastoni, 3).unwrap();
        assert!(!leader_wins(king, three, Suit::Coppe));
    }

    #[test]
    fn intro_ace_of_swords_loses_to_two_of_cups_trump() {
        let ace = Card::new(Suit::Spade, 1).unwrap();
        let two = Card::new(Suit::Coppe, 2).unwrap();
        assert!(!leader_wins(ace, two, Suit::Coppe));
    }

    #[test]
    fn intro_seven_of_coins_beats_five_of_coins() {
        let seven = Card::new(Suit::Oro, 7).unwrap();
        let five = Card::new(Suit::Oro, 5).unwrap();
        assert!(leader_wins(seven, five, Suit::Coppe));
    }

    #[test]
    fn off_suit_discard_loses_to_the_lead() {
        // Leading any non-trump: a different non-trump suit cannot win, even an Ace.
        let lead = Card::new(Suit::Oro, 2).unwrap();
        let ace = Card::new(Suit::Spade, 1).unwrap();
        assert!(leader_wins(lead, ace, Suit::Coppe));
    }

    #[test]
    fn led_trump_beats_any_non_trump_and_loses_to_a_higher_trump() {
        let two_cups = Card::new(Suit::Coppe, 2).unwrap();
        assert!(leader_wins(
            two_cups,
            Card::new(Suit::Oro, 1).unwrap(),
            Suit::Coppe
        ));
        assert!(!leader_wins(
            two_cups,
            Card::new(Suit::Coppe, 4).unwrap(),
            Suit::Coppe
        ));
    }

    // Worked examples from rules-pagat.md and rules-and-game-marzano.md (French suits mapped:
    // clubs -> Bastoni, hearts -> Coppe, diamonds -> Oro, spades -> Spade). Briscola: spades.
    #[test]
    fn pagat_five_of_clubs_loses_to_ace_of_clubs_rule_1() {
        let five = Card::new(Suit::Bastoni, 5).unwrap();
        let ace = Card::new(Suit::Bastoni, 1).unwrap();
        assert!(!leader_wins(five, ace, Suit::Spade));
    }

    #[test]
    fn pagat_five_of_hearts_beats_king_of_clubs_rule_2() {
        let five = Card::new(Suit::Coppe, 5).unwrap();
        let king = Card::new(Suit::Bastoni, 10).unwrap();
        assert!(leader_wins(five, king, Suit::Spade));
    }

    #[test]
    fn pagat_ace_of_diamonds_loses_to_six_of_spades_rule_3() {
        let ace = Card::new(Suit::Oro, 1).unwrap();
        let six = Card::new(Suit::Spade, 6).unwrap();
        assert!(!leader_wins(ace, six, Suit::Spade));
    }
}
