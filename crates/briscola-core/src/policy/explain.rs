//! Why a policy played what it did: the explanation path beside the engine's fast one.
//!
//! Each built-in policy has an `explain` method that asks its own [`Policy::choose`] for the
//! card (so the decision is the engine's, never a second copy of the rule) and then names the
//! rule of the policy's chain that the chosen card came from, with the reason in words.
//!
//! Invariant: `explain(view, rng).index == choose(view, rng)` for every view and stream state;
//! the engine's hot loop never calls anything in this file.

use serde::Serialize;

use super::{AnyPolicy, Policy, SeatRng, SeatView, TieBreak};
use crate::game::Card;

/// The rule of a policy's chain that produced a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Leading: the cheapest card that is not a trump.
    LeadCheapestNonTrump,
    /// Leading with only trumps in hand: the cheapest of them.
    LeadCheapestTrump,
    /// Counter leading: a non-trump Ace whose Three has been seen.
    LeadCaricoTrapAce,
    /// Counter leading: a non-trump Three whose Ace has been seen.
    LeadCaricoTrapThree,
    /// Following: the cheapest card of the led suit that beats the led card.
    FollowCheapestInSuitWinner,
    /// Following: the cheapest trump that wins against an off-suit lead.
    FollowCheapestWinningTrump,
    /// Following (greedy): nothing wins, so the cheapest card.
    FollowCheapestCard,
    /// Following (hoarder, counter): the cheapest non-trump.
    FollowCheapestNonTrump,
    /// Following (hoarder, counter) with only trumps that may not or cannot win: the cheapest.
    FollowCheapestTrump,
}

impl Rule {
    /// A stable identifier, e.g. `follow.cheapest-winning-trump` (used in `replay --json`).
    pub const fn id(self) -> &'static str {
        match self {
            Rule::LeadCheapestNonTrump => "lead.cheapest-non-trump",
            Rule::LeadCheapestTrump => "lead.cheapest-trump",
            Rule::LeadCaricoTrapAce => "lead.carico-trap-ace",
            Rule::LeadCaricoTrapThree => "lead.carico-trap-three",
            Rule::FollowCheapestInSuitWinner => "follow.cheapest-in-suit-winner",
            Rule::FollowCheapestWinningTrump => "follow.cheapest-winning-trump",
            Rule::FollowCheapestCard => "follow.cheapest-card",
            Rule::FollowCheapestNonTrump => "follow.cheapest-non-trump",
            Rule::FollowCheapestTrump => "follow.cheapest-trump",
        }
    }

    /// The rule in words, e.g. `follow: cheapest winning trump`.
    pub const fn text(self) -> &'static str {
        match self {
            Rule::LeadCheapestNonTrump => "lead: cheapest non-trump",
            Rule::LeadCheapestTrump => "lead: cheapest trump",
            Rule::LeadCaricoTrapAce => "lead: carico trap, the Ace",
            Rule::LeadCaricoTrapThree => "lead: carico trap, the Three",
            Rule::FollowCheapestInSuitWinner => "follow: cheapest winner of the led suit",
            Rule::FollowCheapestWinningTrump => "follow: cheapest winning trump",
            Rule::FollowCheapestCard => "follow: cheapest card",
            Rule::FollowCheapestNonTrump => "follow: cheapest non-trump",
            Rule::FollowCheapestTrump => "follow: cheapest trump",
        }
    }
}

/// One explained decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Index into the hand of the chosen card (what [`Policy::choose`] returned).
    pub index: usize,
    /// The chosen card.
    pub card: Card,
    /// The rule that fired, or `None` for a policy that has no rule chain (random, a network:
    /// then `because` says how it chose, if it can).
    pub rule: Option<Rule>,
    /// Why, in words (empty when the policy cannot say).
    pub because: String,
}

impl Explanation {
    /// The rule and its reason on one line, e.g.
    /// `follow: cheapest winning trump, because the led Asso di Oro is worth 11 >= 10 points`.
    pub fn line(&self) -> String {
        match self.rule {
            Some(r) if self.because.is_empty() => r.text().to_string(),
            Some(r) => format!("{}, because {}", r.text(), self.because),
            None if !self.because.is_empty() => self.because.clone(),
            None => "no rule trace for this policy".to_string(),
        }
    }
}

/// The tie-break in words, for "cheapest" reasons.
pub(crate) fn order_words(tie: TieBreak) -> &'static str {
    match tie {
        TieBreak::AsReleased => "by points, strongest first on equal points",
        TieBreak::AsWritten => "by points, weakest first on equal points",
    }
}

pub(crate) fn explained(
    v: &SeatView<'_>,
    index: usize,
    rule: Rule,
    because: String,
) -> Explanation {
    Explanation {
        index,
        card: v.hand[index],
        rule: Some(rule),
        because,
    }
}

/// The leader rule shared by all three policies, explained.
pub(crate) fn explain_lead(v: &SeatView<'_>, index: usize, tie: TieBreak) -> Explanation {
    let c = v.hand[index];
    if c.suit() != v.trump {
        explained(
            v,
            index,
            Rule::LeadCheapestNonTrump,
            format!(
                "{c} ({} points) is the cheapest non-trump in hand ({})",
                c.points(),
                order_words(tie)
            ),
        )
    } else {
        explained(
            v,
            index,
            Rule::LeadCheapestTrump,
            format!(
                "every card in hand is a trump; {c} ({} points) is the cheapest",
                c.points()
            ),
        )
    }
}

impl AnyPolicy {
    /// Choose as [`Policy::choose`] does, and say which rule fired and why.
    ///
    /// ```
    /// use briscola_core::game::{Card, SeatRng, SeatView, Suit};
    /// use briscola_core::policy::{PolicyKind, PolicySpec, Rule, TieBreak};
    /// let hand = [Card::new(Suit::Oro, 1).unwrap(), Card::new(Suit::Coppe, 2).unwrap()];
    /// let led = Card::new(Suit::Spade, 3).unwrap();
    /// let view = SeatView {
    ///     table: Some(led), trick_cards: std::slice::from_ref(&led), seat: 1, stock_left: 30, trick: 3,
    ///     ..SeatView::opening(&hand, Card::new(Suit::Coppe, 7).unwrap())
    /// };
    /// let hoarder = PolicySpec::paper(PolicyKind::Hoarder, TieBreak::AsReleased).build();
    /// let e = hoarder.explain(&view, &mut SeatRng::new([0; 32], 0));
    /// assert_eq!(e.card, hand[1]);
    /// assert_eq!(e.rule, Some(Rule::FollowCheapestWinningTrump));
    /// assert!(e.line().contains("worth 10 >= 10"), "{}", e.line());
    /// ```
    pub fn explain(&self, view: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        match self {
            AnyPolicy::Greedy(p) => p.explain(view, rng),
            AnyPolicy::Hoarder(p) => p.explain(view, rng),
            AnyPolicy::Counter(p) => p.explain(view, rng),
            AnyPolicy::Random(p) => p.explain(view, rng),
            AnyPolicy::Onnx(p) => p.explain(view, rng),
            AnyPolicy::Rules(p) => p.explain(view, rng),
            AnyPolicy::Switch(p) => p.explain(view, rng),
            AnyPolicy::Epsilon(p) => p.explain(view, rng),
            AnyPolicy::Search(p) => p.explain(view, rng),
            AnyPolicy::Exploit(p) => p.explain(view, rng),
            AnyPolicy::Dyn(p) => p.explain(view, rng),
        }
    }

    /// A choice without a rule trace (for policies that cannot explain themselves).
    pub fn unexplained(p: &dyn Policy, view: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let index = p.choose(view, rng);
        Explanation {
            index,
            card: view.hand[index],
            rule: None,
            because: String::new(),
        }
    }
}
