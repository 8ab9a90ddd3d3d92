//! `search`: determinized search (perfect-information Monte Carlo, PIMC). At each decision the
//! seat samples `worlds` placements of the cards it has not seen, consistent with what it knows
//! (its hand, every card played, the face-up trump at the bottom of the stock, the opponent's
//! hand size), solves each world exactly with alpha-beta over the next `horizon` tricks
//! ([`crate::solve::DuelSolver`]) and plays the card with the best mean points difference. Once
//! the stock is empty the game is of perfect information (the opponent holds exactly the unseen
//! cards): that position is solved exactly to its end, with no sampling.
//!
//! Invariant: a decision is a function of the seat's view and its own stream ([`SeatRng`]) only;
//! ties between equally good cards go to the card that comes first in the hand, so the same
//! seed gives the same game on any thread count.

use std::cell::RefCell;

use super::Explanation;
use crate::game::{Card, DrawOrder, Policy, SeatRng, SeatView};
use crate::solve::{CardSet, Duel, DuelSolver};

/// Worlds sampled per decision when none is given.
pub const DEFAULT_WORLDS: u32 = 16;
/// Tricks searched ahead in each world when no horizon is given.
pub const DEFAULT_HORIZON: u8 = 4;
/// The largest horizon: a whole two-player game.
pub const MAX_HORIZON: u8 = 20;
/// The most worlds a decision may sample.
pub const MAX_WORLDS: u32 = 100_000;

/// The PIMC search policy (standard two-player rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    worlds: u32,
    horizon: u8,
}

/// log2 of the entries of each thread's solver table (16,384 of 32 bytes: 512 KiB, which stays
/// in the core's cache). A decision's searches are shallow (a few tricks per world), and a
/// new world leaves the old entries useless, so a larger table only spreads the same work
/// over more cache misses: 2^18 entries took 1.5-2.5 times as long at horizons 4, 6 and 8
/// (BENCHMARKS.md). The values, and so the games, do not depend on it.
const SOLVER_TABLE_BITS: u32 = 14;

thread_local! {
    static SOLVER: RefCell<DuelSolver> =
        RefCell::new(DuelSolver::with_table_bits(SOLVER_TABLE_BITS));
}

impl Search {
    /// Sample `worlds` (>= 1) worlds per decision and search `horizon` (1..=20) tricks ahead.
    pub fn new(worlds: u32, horizon: u8) -> Search {
        Search {
            worlds: worlds.max(1),
            horizon: horizon.clamp(1, MAX_HORIZON),
        }
    }

    /// The sum over the sampled worlds of each hand card's value (own points minus the
    /// opponent's), in hand order.
    pub fn card_values(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Vec<i64> {
        let hand = CardSet::of(v.hand);
        let on_table = CardSet::of(v.trick_cards);
        let led = v.trick_cards.first().copied();
        let opp_len = v.hand.len() - led.is_some() as usize;
        let mut seen = CardSet(v.played | hand.0 | on_table.0);
        let stock_left = v.stock_left as usize;
        if stock_left > 0 {
            seen = seen.with(v.face_up);
        }
        let pool: Vec<Card> = CardSet(CardSet::ALL.0 & !seen.0).iter().collect();
        let mut sums = vec![0i64; v.hand.len()];
        let worlds = if stock_left == 0 { 1 } else { self.worlds };
        let mut cards = pool;
        SOLVER.with(|solver| {
            let mut solver = solver.borrow_mut();
            for _ in 0..worlds {
                if stock_left > 0 {
                    shuffle(&mut cards, rng);
                }
                let mut stock: Vec<Card> = cards[opp_len.min(cards.len())..].to_vec();
                if stock_left > 0 {
                    stock.push(v.face_up);
                }
                let duel = Duel {
                    trump: Some(v.trump),
                    hands: [hand, CardSet::of(&cards[..opp_len.min(cards.len())])],
                    stock,
                    leader: led.is_some() as u8,
                    led,
                    draw_order: DrawOrder::WinnerFirst,
                };
                let horizon = (stock_left > 0).then_some(self.horizon);
                for (c, value) in solver.move_values(&duel, horizon) {
                    let i = v.hand.iter().position(|&h| h == c).expect("a hand card");
                    sums[i] += value as i64;
                }
            }
        });
        sums
    }
}

/// Fisher-Yates from the end with the seat's stream.
pub(super) fn shuffle(cards: &mut [Card], rng: &mut SeatRng) {
    for i in (1..cards.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        cards.swap(i, j);
    }
}

impl Search {
    /// [`Policy::choose`], with each playable card's mean value over the sampled worlds (own
    /// points minus the opponents', to the horizon).
    pub fn explain(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> Explanation {
        if v.hand.len() == 1 {
            return Explanation {
                index: 0,
                card: v.hand[0],
                rule: None,
                because: "search: the only playable card".into(),
            };
        }
        let sums = self.card_values(v, rng);
        let best = best_index(&sums);
        let worlds = if v.stock_left == 0 { 1 } else { self.worlds };
        let each: Vec<String> = v
            .hand
            .iter()
            .zip(&sums)
            .map(|(c, &s)| format!("{c} {:+.1}", s as f64 / f64::from(worlds)))
            .collect();
        let how = if v.stock_left == 0 {
            "the exact endgame".to_string()
        } else {
            format!("{worlds} sampled worlds, {} tricks ahead", self.horizon)
        };
        Explanation {
            index: best,
            card: v.hand[best],
            rule: None,
            because: format!(
                "search over {how}: mean value of each card {}; the highest plays",
                each.join(", ")
            ),
        }
    }
}

/// The first index of the largest value.
pub(super) fn best_index(sums: &[i64]) -> usize {
    let mut best = 0;
    for (i, &s) in sums.iter().enumerate() {
        if s > sums[best] {
            best = i;
        }
    }
    best
}

impl Policy for Search {
    fn choose(&self, v: &SeatView<'_>, rng: &mut SeatRng) -> usize {
        if v.hand.len() == 1 {
            return 0;
        }
        best_index(&self.card_values(v, rng))
    }
}

/// The `search` kind's seam: `worlds` and `horizon`; two-player standard tables only.
pub(super) struct SearchKind;

/// The search fields of search and exploit.
pub(super) const WORLDS_HORIZON: [super::Field; 2] = [
    super::Field {
        name: "worlds",
        required: false,
        valid: "a whole number of worlds from 1 to 100000 (default 16)",
    },
    super::Field {
        name: "horizon",
        required: false,
        valid: "a whole number of tricks from 1 to 20 (default 4)",
    },
];

/// `worlds` and `horizon` (defaults [`DEFAULT_WORLDS`], [`DEFAULT_HORIZON`]), range-checked.
pub(super) fn worlds_horizon(
    cx: &super::KindContext<'_>,
) -> Result<(u32, u8), super::PolicyDefError> {
    let worlds = cx.get::<u32>("worlds")?.unwrap_or(DEFAULT_WORLDS);
    if !(1..=MAX_WORLDS).contains(&worlds) {
        return Err(cx.error(
            "worlds",
            format!(
                "{worlds} worlds is out of range; use 1 to {MAX_WORLDS} (the worlds sampled and solved per decision; default {DEFAULT_WORLDS})"
            ),
        ));
    }
    let horizon = cx.get::<u8>("horizon")?.unwrap_or(DEFAULT_HORIZON);
    if !(1..=MAX_HORIZON).contains(&horizon) {
        return Err(cx.error(
            "horizon",
            format!(
                "{horizon} tricks is out of range; use 1 to {MAX_HORIZON} (tricks searched ahead in each world, {MAX_HORIZON} = to the end; default {DEFAULT_HORIZON})"
            ),
        ));
    }
    Ok((worlds, horizon))
}

/// A built spec's worlds and horizon, refused out of range (e.g. from an edited record).
pub(super) fn checked_worlds_horizon(
    spec: &super::PolicySpec,
    worlds: u32,
    horizon: u8,
) -> Result<(), super::PolicyBuildError> {
    if worlds == 0 || worlds > MAX_WORLDS || horizon == 0 || horizon > MAX_HORIZON {
        return Err(super::PolicyBuildError::new(
            spec,
            format!(
                "worlds {worlds} and horizon {horizon}: use 1 to {MAX_WORLDS} worlds and a horizon of 1 to {MAX_HORIZON} tricks"
            ),
        ));
    }
    Ok(())
}

/// Search and exploit solve two-player worlds of the standard rules only.
pub(super) fn standard_only(
    spec: &super::PolicySpec,
    rules: &crate::game::Rules,
) -> Result<(), super::VariantFitError> {
    // Both read only their seat's view, so who led the first trick does not matter.
    if !rules.is_standard_play() {
        return Err(super::VariantFitError::SearchNeedsStandard {
            name: spec.name.clone(),
            kind: spec.kind.as_str(),
        });
    }
    Ok(())
}

impl super::KindSeam for SearchKind {
    fn summary(&self, _: &super::PolicySpec) -> String {
        "search (PIMC: sampled worlds solved by alpha-beta)".into()
    }

    fn fields(&self) -> &'static [super::Field] {
        &WORLDS_HORIZON
    }

    fn resolve(
        &self,
        cx: &mut super::KindContext<'_>,
        spec: &mut super::PolicySpec,
    ) -> Result<(), super::PolicyDefError> {
        let (worlds, horizon) = worlds_horizon(cx)?;
        spec.def = Some(super::PolicyDef::Search { worlds, horizon });
        Ok(())
    }

    fn build(&self, spec: &super::PolicySpec) -> Result<super::AnyPolicy, super::PolicyBuildError> {
        let Some(super::PolicyDef::Search { worlds, horizon }) = spec.def else {
            return Err(super::PolicyBuildError::missing_def(spec));
        };
        checked_worlds_horizon(spec, worlds, horizon)?;
        Ok(super::AnyPolicy::Search(Search::new(worlds, horizon)))
    }

    fn describe(&self, spec: &super::PolicySpec, d: &mut super::Describer<'_>) {
        if let Some(super::PolicyDef::Search { worlds, horizon }) = spec.def {
            d.line(&format!(
                "{worlds} worlds per decision, each solved {horizon} tricks ahead (exactly to the end once the stock is empty)"
            ));
        }
    }

    fn fits(
        &self,
        spec: &super::PolicySpec,
        rules: &crate::game::Rules,
    ) -> Result<(), super::VariantFitError> {
        standard_only(spec, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Deck, GameOutcome, NoTricks, Suit, play_game};
    use crate::policy::Greedy;
    use crate::policy::TieBreak;

    fn c(s: Suit, r: u8) -> Card {
        Card::new(s, r).unwrap()
    }

    fn endgame_view<'a>(hand: &'a [Card], table: &'a [Card], played: u64) -> SeatView<'a> {
        SeatView {
            table: table.first().copied(),
            trump: Suit::Spade,
            played,
            stock_left: 0,
            trick: 19,
            my_points: 50,
            opp_points: 40,
            seat: 1,
            trick_cards: table,
            ..SeatView::opening(hand, c(Suit::Spade, 4))
        }
    }

    #[test]
    fn with_the_stock_empty_it_plays_the_exact_endgame_without_sampling() {
        // Two tricks left, Spade trumps. We hold the Ace of Coppe and the Two of Spade; the
        // opponent led the Three of Coppe and holds the one unseen card, the Three of Spade.
        // Ace first: we take 21, then its Three of Spade takes our Two: 21 - 10 = 11. Two first:
        // we take 10, then its trump takes our Ace: 10 - 21 = -11.
        let hand = [c(Suit::Coppe, 1), c(Suit::Spade, 2)];
        let table = [c(Suit::Coppe, 3)];
        let three = c(Suit::Spade, 3);
        let played =
            CardSet(CardSet::ALL.0 & !CardSet::of(&[hand[0], hand[1], table[0], three]).0).0;
        let v = endgame_view(&hand, &table, played);
        let mut rng = SeatRng::new([1; 32], 0);
        let s = Search::new(8, 4);
        assert_eq!(s.card_values(&v, &mut rng), vec![11, -11]);
        assert_eq!(s.choose(&v, &mut rng), 0);
    }

    #[test]
    fn decisions_are_a_function_of_the_seat_stream() {
        let mut deck = Deck::ordered();
        let mut k = 7u32;
        deck.shuffle_with(|n| {
            k = k.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (k >> 8) % n
        });
        let s = Search::new(4, 2);
        let g = Greedy::new(TieBreak::AsReleased);
        let play = || -> GameOutcome {
            let mut rngs = [SeatRng::new([9; 32], 3), SeatRng::new([8; 32], 3)];
            play_game(&deck, &s, &g, &mut rngs, &mut NoTricks)
        };
        let a = play();
        assert_eq!(a, play());
        assert_eq!(a.points[0] as u32 + a.points[1] as u32, 120);
    }
}
