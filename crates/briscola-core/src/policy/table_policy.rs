//! The paper's policies at a table of any variant: which reading of "win the trick" a follower
//! uses when the card to beat is its partner's, and which variants a policy has a meaning in.
//!
//! "Win the trick" for a follower whose partner is currently winning has two readings:
//! - **verbatim** (the paper's definitions transplanted word for word, as in blind play): beat
//!   the best card on the table, whoever played it, so a follower may overtake its own partner;
//! - **partner-aware**: a follower whose partner is winning does not try to win; it plays the
//!   card its rule plays when it cannot win (greedy: its cheapest card; hoarder and counter: their
//!   cheapest non-trump, else their cheapest card).
//!
//! In two-player play no seat has a partner, so both readings are the paper's policy exactly.
//!
//! Invariant: a [`TablePolicy`] exists only for a policy and variant where the policy's rule
//! means something (see [`TablePolicy::new`]); it plays a card of its hand.

use serde::{Deserialize, Serialize};

use super::order::stable_min;
use super::{AnyPolicy, Explanation, PolicyKind, PolicySpec, TieBreak};
use crate::game::{KeyTables, Policy, Rules, SeatRng, SeatView};

/// How a follower reads "win the trick" when its partner is winning.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum FollowReading {
    /// Beat the best card on the table, whoever played it (the definitions word for word).
    #[default]
    #[serde(rename = "verbatim")]
    Verbatim,
    /// Do not overtake a winning partner.
    #[serde(rename = "partner-aware")]
    PartnerAware,
}

impl FollowReading {
    /// Whether this is the verbatim reading (the default, omitted from serialised specs).
    pub fn is_verbatim(&self) -> bool {
        *self == FollowReading::Verbatim
    }

    /// The name used in `pipeline.toml` and the report.
    pub const fn as_str(self) -> &'static str {
        match self {
            FollowReading::Verbatim => "verbatim",
            FollowReading::PartnerAware => "partner-aware",
        }
    }
}

/// A policy that has no meaning in a variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantFitError {
    /// The paper's rules rank cards against a trump suit.
    #[error(
        "policy `{name}` ({kind}) has no meaning without a trump suit: its rules choose between \
         trumps and non-trumps; use trump = \"face-up\" or a policy defined for Briscolone"
    )]
    NeedsTrump {
        /// The policy's name.
        name: String,
        /// Its kind.
        kind: &'static str,
    },
    /// The partner-aware reading is defined for the paper's three rule policies only.
    #[error(
        "policy `{name}` ({kind}) has no partner-aware reading: it is defined for the paper's \
         greedy, hoarder and counter; use the verbatim reading"
    )]
    NoPartnerReading {
        /// The policy's name.
        name: String,
        /// Its kind.
        kind: &'static str,
    },
    /// The search agent samples and solves two-player worlds of the standard rules only.
    #[error(
        "policy `{name}` ({kind}) plays the standard two-player rules only: its worlds are \
         solved as two-player games with the winner drawing first; use it in a study without \
         `rules`, or another policy in this variant"
    )]
    SearchNeedsStandard {
        /// The policy's name.
        name: String,
        /// Its kind (search or exploit).
        kind: &'static str,
    },
    /// A network encoding describes the standard two-player game only.
    #[error(
        "policy `{name}` (onnx) plays the standard two-player rules only: its network was \
         trained on, and its encoding describes, two-player games with the winner drawing first; \
         use it in a study without `rules`, or another policy in this variant"
    )]
    OnnxNeedsStandard {
        /// The policy's name.
        name: String,
    },
    /// The policy's definition does not build.
    #[error("policy `{name}`: {message}")]
    Build {
        /// The policy's name.
        name: String,
        /// What is wrong with its definition.
        message: String,
    },
}

/// One of the paper's policies playing at a table under a reading.
#[derive(Clone, Debug)]
pub struct TablePolicy {
    inner: AnyPolicy,
    reading: FollowReading,
    tie: TieBreak,
    trumps_last: bool,
    /// The paper's three as key tables: each decision is then one table read per card (the
    /// rule chain's keys computed once, as the two-player engine reads them).
    keys: Option<Box<KeyTables>>,
}

impl TablePolicy {
    /// Build `spec` for `rules` under `reading`, or say why it has no meaning there.
    pub fn new(
        spec: &PolicySpec,
        rules: &Rules,
        reading: FollowReading,
    ) -> Result<TablePolicy, VariantFitError> {
        let seam = spec.kind.seam();
        if !rules.has_trump() && seam.needs_trump() {
            return Err(VariantFitError::NeedsTrump {
                name: spec.name.clone(),
                kind: spec.kind.as_str(),
            });
        }
        seam.fits(spec, rules)?;
        if reading == FollowReading::PartnerAware && !seam.partner_aware() {
            return Err(VariantFitError::NoPartnerReading {
                name: spec.name.clone(),
                kind: spec.kind.as_str(),
            });
        }
        let inner = spec.try_build().map_err(|e| VariantFitError::Build {
            name: spec.name.clone(),
            message: e.to_string(),
        })?;
        // Only the paper's three: each reads nothing of a view but the hand, the card to beat,
        // the trump and the public cards, at any table (a rule program may read more).
        let keys = match &inner {
            AnyPolicy::Greedy(_) | AnyPolicy::Hoarder(_) | AnyPolicy::Counter(_) => {
                inner.key_tables().map(Box::new)
            }
            _ => None,
        };
        Ok(TablePolicy {
            inner,
            reading,
            tie: spec.tie_break,
            trumps_last: spec.kind != PolicyKind::Greedy,
            keys,
        })
    }

    /// [`TablePolicy::new`] with `reading` where the policy's kind has a partner reading (the
    /// paper's three) and the verbatim reading otherwise: a table that asks every seat for the
    /// partner-aware reading still seats a rule program or a random player.
    pub fn for_table(
        spec: &PolicySpec,
        rules: &Rules,
        reading: FollowReading,
    ) -> Result<TablePolicy, VariantFitError> {
        let reading = if spec.kind.seam().partner_aware() {
            reading
        } else {
            FollowReading::Verbatim
        };
        TablePolicy::new(spec, rules, reading)
    }

    /// [`Policy::choose`] with the reason: the partner-aware reading's rule when it applies
    /// (the partner is winning the trick), else the policy's own explanation.
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        if self.reading == FollowReading::PartnerAware && v.partner_winning {
            let index = self.choose(v, rng);
            let c = v.hand[index];
            return Explanation {
                index,
                card: c,
                rule: None,
                because: format!(
                    "partner-aware reading: the partner is winning the trick, so the cheapest card{}: {c} ({} points)",
                    if self.trumps_last {
                        ", trumps last"
                    } else {
                        ""
                    },
                    c.points()
                ),
            };
        }
        self.inner.explain(v, rng)
    }

    /// The policy itself, as the two-player standard game plays it (where no seat has a
    /// partner, so the reading never applies).
    pub fn inner(&self) -> &AnyPolicy {
        &self.inner
    }
}

impl Policy for TablePolicy {
    #[inline]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        if self.reading == FollowReading::PartnerAware && v.partner_winning {
            // The rule's "cannot win" card: cheapest by points then strength, trumps last
            // for the hoarder and the counter (their "cheapest non-trump, else any").
            let (trump, tie, last) = (v.trump, self.tie, self.trumps_last);
            return stable_min(v.hand, |c| {
                ((last && c.suit() == trump) as u32) << 8 | tie.points_then_strength(c) as u32
            });
        }
        if let Some(keys) = &self.keys {
            return keys.choose(v);
        }
        self.inner.choose(v, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Card, RulesSpec, Suit, TrumpRule};

    fn card(s: Suit, r: u8) -> Card {
        Card::new(s, r).unwrap()
    }

    fn view<'a>(hand: &'a [Card], on_table: &'a [Card], best: Card, partner: bool) -> SeatView<'a> {
        SeatView {
            table: Some(best),
            trump: Suit::Coppe,
            stock_left: 20,
            trick: 3,
            players: 4,
            seat: 2,
            trick_cards: on_table,
            partner_winning: partner,
            ..SeatView::opening(hand, card(Suit::Coppe, 4))
        }
    }

    #[test]
    fn readings_differ_only_when_the_partner_is_winning() {
        let rules = RulesSpec {
            players: 4,
            ..RulesSpec::default()
        }
        .validate()
        .unwrap();
        let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased);
        let verb = TablePolicy::new(&greedy, &rules, FollowReading::Verbatim).unwrap();
        let aware = TablePolicy::new(&greedy, &rules, FollowReading::PartnerAware).unwrap();
        // Partner led the King of Oro; we hold the Ace of Oro, a Two of Spade, the Two of Coppe.
        let hand = [
            card(Suit::Oro, 1),
            card(Suit::Spade, 2),
            card(Suit::Coppe, 2),
        ];
        let king = card(Suit::Oro, 10);
        let mut rng = SeatRng::new([0; 32], 0);
        let v = view(&hand, std::slice::from_ref(&king), king, true);
        assert_eq!(
            verb.choose(&v, &mut rng),
            0,
            "verbatim overtakes with the Ace"
        );
        let pick = aware.choose(&v, &mut rng);
        assert_ne!(pick, 0, "partner-aware does not overtake");
        assert_eq!(hand[pick].points(), 0);
        // With an opponent winning, both readings take the trick with the Ace.
        let v = view(&hand, std::slice::from_ref(&king), king, false);
        assert_eq!(aware.choose(&v, &mut rng), 0);
    }

    #[test]
    fn hoarder_partner_aware_keeps_its_trumps() {
        let rules = RulesSpec {
            players: 4,
            ..RulesSpec::default()
        }
        .validate()
        .unwrap();
        let hoarder = PolicySpec::paper(PolicyKind::Hoarder, TieBreak::AsReleased);
        let aware = TablePolicy::new(&hoarder, &rules, FollowReading::PartnerAware).unwrap();
        let hand = [card(Suit::Coppe, 2), card(Suit::Spade, 10)];
        let ace = card(Suit::Oro, 1);
        let v = view(&hand, std::slice::from_ref(&ace), ace, true);
        assert_eq!(
            aware.choose(&v, &mut SeatRng::new([0; 32], 0)),
            1,
            "the non-trump King"
        );
    }

    /// The key tables choose what the rule chain chooses, at every decision of whole games of
    /// every table size, must-follow-suit and both tie-breaks (each seat's choice played on, so
    /// the games reach every kind of position the studies meet).
    #[test]
    fn the_key_tables_choose_what_the_paper_policies_choose_at_any_table() {
        use crate::game::{Deck, DrawOrder, NoTricks, TableState};
        let variants = [
            RulesSpec::default(),
            RulesSpec {
                players: 3,
                deck: 39,
                ..RulesSpec::default()
            },
            RulesSpec {
                players: 4,
                ..RulesSpec::default()
            },
            RulesSpec {
                players: 6,
                deck: 36,
                ..RulesSpec::default()
            },
            RulesSpec {
                hand_size: 5,
                must_follow_suit: true,
                draw_order: DrawOrder::LoserFirst,
                ..RulesSpec::default()
            },
        ];
        let mut decisions = 0;
        for (vi, spec) in variants.iter().enumerate() {
            let rules = spec.validate().unwrap();
            for kind in [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter] {
                for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
                    let p = TablePolicy::new(
                        &PolicySpec::paper(kind, tie),
                        &rules,
                        FollowReading::Verbatim,
                    )
                    .unwrap();
                    let keys = p
                        .keys
                        .as_ref()
                        .expect("the paper's policies have key tables");
                    let mut rng = SeatRng::new([0; 32], 0);
                    for g in 0..40u64 {
                        let mut deck = Deck::ordered();
                        let mut x = (g + 1) * 0x9E37_79B9_7F4A_7C15 + vi as u64;
                        deck.shuffle_with(|n| {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            (x % u64::from(n)) as u32
                        });
                        let mut st = TableState::new(&rules, &deck);
                        while let Some(v) = st.view() {
                            let want = p.inner.choose(&v, &mut rng);
                            assert_eq!(keys.choose(&v), want, "{kind:?} {tie:?} {spec:?} game {g}");
                            decisions += 1;
                            st.play_legal(want, &mut NoTricks);
                        }
                    }
                }
            }
        }
        // Every card of each variant's deck is a decision: (40 + 39 + 40 + 36 + 40) x 6 x 40.
        assert_eq!(decisions, 46_800);
    }

    #[test]
    fn a_trump_policy_in_briscolone_is_a_named_error() {
        let rules = RulesSpec {
            hand_size: 5,
            trump: TrumpRule::None,
            ..RulesSpec::default()
        }
        .validate()
        .unwrap();
        let spec = PolicySpec::paper(PolicyKind::Counter, TieBreak::AsReleased);
        let e = TablePolicy::new(&spec, &rules, FollowReading::Verbatim).unwrap_err();
        assert!(e.to_string().contains("`counter`"), "{e}");
        assert!(e.to_string().contains("without a trump suit"), "{e}");
    }
}
