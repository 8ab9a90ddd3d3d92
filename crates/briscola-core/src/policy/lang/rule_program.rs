//! A rule-defined policy compiled for play: the lead and follow rule lists with each rule's sort
//! keys resolved for the tie-break reading, evaluated with one feature word per card in hand.
//!
//! Invariant: the last rule of each list always decides (checked at compile time), so `choose`
//! always returns an index into the hand; deciding allocates nothing and matches no strings.

use std::fmt;

use super::LangError;
use super::card_filter::{MEMORY_BITS, features};
use super::fused_list::FusedList;
use super::rule::{Order, Rule};
use crate::game::{KeyTables, Policy, SeatRng, SeatView};
use crate::policy::counter::SIBLING;
use crate::policy::{Explanation, TieBreak};

/// One compiled rule: the rule and its per-card sort keys under the program's reading.
#[derive(Clone, Debug, PartialEq, Eq)]
struct CompiledRule {
    rule: Rule,
    keys: [u8; 64],
}

/// Which rule list an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleList {
    /// `lead`
    Lead,
    /// `follow`
    Follow,
}

impl RuleList {
    /// The field name in `pipeline.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleList::Lead => "lead",
            RuleList::Follow => "follow",
        }
    }
}

/// A compile error: the list, the rule's index in it (`None`: the list as a whole) and what is
/// wrong (with the byte offset in the rule's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramError {
    /// Which list.
    pub list: RuleList,
    /// Which rule (0-based), or `None` for the list itself.
    pub index: Option<usize>,
    /// What is wrong.
    pub error: LangError,
}

/// A policy given as rules: for leading and for following, the first rule whose condition holds
/// and whose choice is non-empty decides.
///
/// ```
/// use briscola_core::policy::{RuleProgram, TieBreak};
/// let p = RuleProgram::compile(
///     &["cheapest of !trump", "cheapest"],
///     &["cheapest-by-points of led-suit & wins", "cheapest-by-points of trump & wins", "cheapest"],
///     TieBreak::AsReleased,
/// ).unwrap();
/// assert!(p.to_string().contains("follow 2: cheapest-by-points of trump & wins"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleProgram {
    tie: TieBreak,
    lead: Vec<CompiledRule>,
    follow: Vec<CompiledRule>,
    memory: bool,
    /// The lists as key tables, where they fuse (the interpreter plays the others).
    fused_lead: Option<FusedList>,
    fused_follow: Option<FusedList>,
}

impl RuleProgram {
    /// Compile rule texts under a tie-break reading.
    pub fn compile<S: AsRef<str>>(
        lead: &[S],
        follow: &[S],
        tie: TieBreak,
    ) -> Result<RuleProgram, ProgramError> {
        let lead = compile_list(lead, RuleList::Lead, tie)?;
        let follow = compile_list(follow, RuleList::Follow, tie)?;
        let bits = lead
            .iter()
            .chain(&follow)
            .map(|r| r.rule.filter.bits() | r.rule.when.bits())
            .fold(0, |a, b| a | b);
        let fuse = |list: &[CompiledRule]| FusedList::new(list.iter().map(|r| (&r.rule, &r.keys)));
        Ok(RuleProgram {
            tie,
            fused_lead: fuse(&lead),
            fused_follow: fuse(&follow),
            lead,
            follow,
            memory: bits & MEMORY_BITS != 0,
        })
    }

    /// The program as key tables for the table-driven engine ([`crate::game::play_keyed`]),
    /// when both lists fuse and their choices depend only on the cards, the led card and (when
    /// leading) whether a card's carico sibling is public: no condition other than on the led
    /// card, no `random` rule, no `master` class. `None` otherwise (the program plays through
    /// [`crate::game::play_game`]).
    pub fn key_tables(&self) -> Option<KeyTables> {
        let (lead, follow) = (self.fused_lead.as_ref()?, self.fused_follow.as_ref()?);
        if !lead.keyed(false) || !follow.keyed(true) {
            return None;
        }
        let memory = self.memory;
        KeyTables::try_build(
            |c, seen| lead.card_key(None, c, memory && seen),
            |c| {
                if memory {
                    SIBLING[(c.id() & 63) as usize]
                } else {
                    0
                }
            },
            |led, c| follow.card_key(Some(led), c, false),
        )
        .ok()
    }

    /// The tie-break reading.
    pub fn tie_break(&self) -> TieBreak {
        self.tie
    }

    /// The lead rules, in order.
    pub fn lead_rules(&self) -> impl Iterator<Item = &Rule> {
        self.lead.iter().map(|r| &r.rule)
    }

    /// The follow rules, in order.
    pub fn follow_rules(&self) -> impl Iterator<Item = &Rule> {
        self.follow.iter().map(|r| &r.rule)
    }
}

fn compile_list<S: AsRef<str>>(
    texts: &[S],
    list: RuleList,
    tie: TieBreak,
) -> Result<Vec<CompiledRule>, ProgramError> {
    let err = |index, error| ProgramError { list, index, error };
    if texts.is_empty() {
        return Err(err(
            None,
            LangError::new(
                0,
                format!(
                    "`{}` has no rules; give at least one, ending with a rule that always chooses, e.g. [\"cheapest\"]",
                    list.as_str()
                ),
            ),
        ));
    }
    let mut out = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        let rule = Rule::parse(t.as_ref(), list == RuleList::Lead).map_err(|e| err(Some(i), e))?;
        out.push(CompiledRule {
            keys: rule.order.keys(tie),
            rule,
        });
    }
    let last = texts.len() - 1;
    if !out[last].rule.is_catch_all() {
        return Err(err(
            Some(last),
            LangError::new(
                0,
                format!(
                    "the last `{}` rule `{}` may not choose a card (it has a condition or a filter); end the list with a rule that always chooses, e.g. \"cheapest\"",
                    list.as_str(),
                    out[last].rule
                ),
            ),
        ));
    }
    Ok(out)
}

impl Policy for RuleProgram {
    #[inline(always)]
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        let (rules, fused) = if v.table.is_some() {
            (&self.follow, &self.fused_follow)
        } else {
            (&self.lead, &self.fused_lead)
        };
        if let Some(fused) = fused {
            return fused.choose(v, self.memory);
        }
        // A copy made only on this path: the interpreter is out of line, and passing it `v`
        // itself would make every decision build the whole view in memory (the fused path reads
        // a few fields, which stay in registers).
        let copy = *v;
        self.interpret(rules, &copy, rng).0
    }
}

impl RuleProgram {
    /// [`Policy::choose`], naming the rule that decided: its list, its number and its text.
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        let (rules, list) = if v.table.is_some() {
            (&self.follow, RuleList::Follow)
        } else {
            (&self.lead, RuleList::Lead)
        };
        // The interpreter on a copy of the stream says which rule decided; the card is
        // `choose`'s own (the fused path and the interpreter agree, a property test checks it).
        let mut probe = rng.clone();
        let index = self.choose(v, rng);
        let (same, k) = self.interpret(rules, v, &mut probe);
        let because = if same == index {
            format!(
                "{} rule {} of {}: `{}`",
                list.as_str(),
                k + 1,
                rules.len(),
                rules[k].rule
            )
        } else {
            format!("{} rules (no single rule traced)", list.as_str())
        };
        Explanation {
            index,
            card: v.hand[index],
            rule: None,
            because,
        }
    }
}

impl RuleProgram {
    /// The rules evaluated one by one (lists with `random` rules or many conditions).
    #[inline(never)]
    /// The card the first deciding rule chooses and that rule's index in `rules`.
    fn interpret(
        &self,
        rules: &[CompiledRule],
        v: &SeatView<'_>,
        rng: &mut SeatRng,
    ) -> (usize, usize) {
        let n = v.hand.len().min(5);
        let mut feats = [0u32; 5];
        for (f, &c) in feats.iter_mut().zip(v.hand) {
            *f = features(c, v, self.memory);
        }
        let feats = &feats[..n];
        for (k, r) in rules.iter().enumerate() {
            if !r.rule.when.holds(v, feats) {
                continue;
            }
            let filter = r.rule.filter;
            if r.rule.order == Order::Random {
                let n_ok = feats.iter().filter(|&&f| filter.admits(f)).count() as u32;
                if n_ok == 0 {
                    continue;
                }
                let pick = rng.below(n_ok) as usize;
                let i = feats
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| filter.admits(**f))
                    .nth(pick)
                    .map_or(0, |(i, _)| i);
                return (i, k);
            }
            let mut best = u32::MAX;
            for (i, (&f, &c)) in feats.iter().zip(v.hand).enumerate() {
                if filter.admits(f) {
                    best = best.min((r.keys[(c.id() & 63) as usize] as u32) << 3 | i as u32);
                }
            }
            if best != u32::MAX {
                return ((best & 7) as usize, k);
            }
        }
        (0, rules.len() - 1) // unreachable: the last rule is a catch-all over a non-empty hand
    }
}

impl fmt::Display for RuleProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "tie_break {}", self.tie.as_str())?;
        for (name, list) in [("lead", &self.lead), ("follow", &self.follow)] {
            for (i, r) in list.iter().enumerate() {
                writeln!(f, "{name} {}: {}", i + 1, r.rule)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::{Card, Suit};

    /// Rule lists covering every order but `random`, conditions on the view and on the hand,
    /// the public-memory classes, and up to three conditional rules.
    const LEADS: &[&[&str]] = &[
        &["cheapest of !trump", "cheapest"],
        &[
            "dearest of carico & !trump & sibling-seen",
            "cheapest of !trump",
            "cheapest",
        ],
        &[
            "if stock <= 6 then dearest of master",
            "if gap < -10 and count(trump) >= 2 then strongest of trump",
            "if not seen(trump-ace) then weakest of liscio & !trump",
            "first of figure",
            "cheapest-by-points",
        ],
    ];
    const FOLLOWS: &[&[&str]] = &[
        &[
            "cheapest-by-points of led-suit & wins",
            "cheapest-by-points of trump & wins",
            "cheapest",
        ],
        &[
            "cheapest-by-points of led-suit & wins",
            "if led.points >= 10 then cheapest-by-points of trump & wins",
            "cheapest of !trump",
            "cheapest",
        ],
        &[
            "if led.trump then dearest of wins",
            "if trick >= 15 and my-points < 50 then cheapest of wins & master",
            "if count(carico) == 0 then strongest of briscolina",
            "weakest of led-suit & !wins",
            "dearest",
        ],
    ];

    fn card(rng: &mut ChaCha8Rng) -> Card {
        Card::from_id(rng.random_range(0..40)).unwrap()
    }

    /// On random positions with hands of 1 to 5 cards, every list's key tables choose exactly
    /// the card the rules evaluated one by one choose, in both readings.
    #[test]
    fn fused_tables_choose_as_the_interpreter() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
            for (lead, follow) in LEADS.iter().zip(FOLLOWS) {
                let p = RuleProgram::compile(lead, follow, tie).unwrap();
                assert!(p.fused_lead.is_some() && p.fused_follow.is_some());
                for _ in 0..20_000 {
                    let n = rng.random_range(1..=5);
                    let hand: Vec<Card> = (0..n).map(|_| card(&mut rng)).collect();
                    let led = card(&mut rng);
                    let v = SeatView {
                        table: rng.random_bool(0.5).then_some(led),
                        trump: Suit::ALL[rng.random_range(0..4)],
                        played: rng.random::<u64>() & ((1 << 40) - 1),
                        stock_left: rng.random_range(0..=34),
                        trick: rng.random_range(1..=20),
                        my_points: rng.random_range(0..=120),
                        opp_points: rng.random_range(0..=120),
                        seat: 1,
                        trick_cards: std::slice::from_ref(&led),
                        ..SeatView::opening(&hand, card(&mut rng))
                    };
                    let mut r = SeatRng::new([3; 32], 0);
                    let list = if v.table.is_some() {
                        &p.follow
                    } else {
                        &p.lead
                    };
                    let want = p.interpret(list, &v, &mut r).0;
                    assert_eq!(p.choose(&v, &mut r), want, "{v:?}\n{p}");
                }
            }
        }
    }

    #[test]
    fn random_rules_and_long_condition_lists_are_interpreted() {
        let tie = TieBreak::AsReleased;
        let p =
            RuleProgram::compile(&["random of !trump", "cheapest"], &["cheapest"], tie).unwrap();
        assert!(p.fused_lead.is_none() && p.fused_follow.is_some());
        let four: Vec<String> = (1..=4)
            .map(|k| format!("if stock <= {k} then dearest of trump"))
            .chain(["cheapest".to_string()])
            .collect();
        let p = RuleProgram::compile(&four, &four, tie).unwrap();
        assert!(p.fused_lead.is_none());
    }
}
