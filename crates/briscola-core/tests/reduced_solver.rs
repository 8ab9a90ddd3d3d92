//! The reduced-game solver (`solve::reduced`) against an independent brute force: its own
//! game (deals as whole deck permutations, the stock's order fixed at the root, observations
//! as token lists), the textbook best response over explicit lists of histories per
//! information set (equal to the best of the responder's pure strategies), and the game
//! value bracketed by the two best responses to the CFR average.
//!
//! Invariant: nothing here reuses the solver's walk, keys or aggregation; the reference only
//! shares the engine's trick rule (`leader_wins`) and the policies' `choose`.

use briscola_core::game::{Card, Policy, SeatRng, SeatView, leader_wins};
use briscola_core::policy::{Counter, Greedy, Hoarder, TieBreak};
use briscola_core::solve::reduced::{
    Cfr, Observation, ReducedGame, ReducedSpec, ReducedSpecError, pimc_bound,
    policy_exploitability, policy_vs_cfr,
};
use std::collections::BTreeMap;

/// One history of the reference game: the stock's order is part of the deal.
#[derive(Clone)]
struct Ref {
    hands: [Vec<Card>; 2],
    dealt: [Vec<Card>; 2],
    draws: [Vec<Card>; 2],
    plays: Vec<Card>,
    stock: Vec<Card>,
    face_up: Card,
    leader: usize,
    table: Option<Card>,
    points: [u8; 2],
    played: u64,
    trick: u8,
}

impl Ref {
    fn mover(&self) -> Option<usize> {
        match self.table {
            Some(_) => Some(1 - self.leader),
            None if !self.hands[self.leader].is_empty() => Some(self.leader),
            None => None,
        }
    }

    fn margin(&self, seat: usize) -> f64 {
        let m = self.points[0] as f64 - self.points[1] as f64;
        if seat == 0 { m } else { -m }
    }

    /// What `seat` has seen, as a token list (its own format).
    fn seen(&self, seat: usize) -> Vec<u8> {
        let mut dealt: Vec<u8> = self.dealt[seat].iter().map(|c| c.id()).collect();
        dealt.sort_unstable();
        let mut t = vec![seat as u8, self.face_up.id(), 200];
        t.extend(dealt);
        t.push(201);
        t.extend(self.plays.iter().map(|c| c.id()));
        t.push(202);
        t.extend(self.draws[seat].iter().map(|c| c.id()));
        t
    }

    fn play(&self, card: Card) -> Ref {
        let mut s = self.clone();
        let seat = s.mover().unwrap();
        let i = s.hands[seat].iter().position(|&c| c == card).unwrap();
        s.hands[seat].remove(i);
        s.plays.push(card);
        let Some(led) = s.table else {
            s.table = Some(card);
            return s;
        };
        let w = if leader_wins(led, card, s.face_up.suit()) {
            s.leader
        } else {
            1 - s.leader
        };
        s.points[w] += led.points() + card.points();
        s.played |= 1 << led.id() | 1 << card.id();
        s.table = None;
        s.trick += 1;
        s.leader = w;
        if !s.stock.is_empty() {
            for seat in [w, 1 - w] {
                let c = s.stock.remove(0);
                s.hands[seat].push(c);
                s.draws[seat].push(c);
            }
        }
        s
    }

    fn view_choose(&self, p: &dyn Policy) -> Card {
        let seat = self.mover().unwrap();
        let tc: Vec<Card> = self.table.into_iter().collect();
        let v = SeatView {
            hand: &self.hands[seat],
            table: self.table,
            trump: self.face_up.suit(),
            face_up: self.face_up,
            played: self.played,
            stock_left: self.stock.len() as u8,
            trick: self.trick,
            my_points: self.points[seat],
            opp_points: self.points[1 - seat],
            players: 2,
            seat: seat as u8,
            trick_cards: &tc,
            partner_winning: false,
            no_trump: false,
            open_hand: &[],
            stock_top: None,
            history: &[],
        };
        self.hands[seat][p.choose(&v, &mut SeatRng::new([0; 32], 0))]
    }
}

/// A fixed strategy of the reference: a policy, or the CFR average.
enum Fixed<'a> {
    Policy(&'a dyn Policy),
    Cfr(&'a Cfr<'a>),
}

impl Fixed<'_> {
    fn probs(&self, s: &Ref) -> Vec<(Card, f64)> {
        match self {
            Fixed::Policy(p) => vec![(s.view_choose(*p), 1.0)],
            Fixed::Cfr(c) => {
                let seat = s.mover().unwrap();
                let obs = Observation {
                    seat: seat as u8,
                    face_up: s.face_up,
                    hand: s.dealt[seat].clone(),
                    draws: s.draws[seat].clone(),
                    plays: s.plays.clone(),
                };
                c.average_at(&obs).expect("an information set CFR met")
            }
        }
    }
}

/// Every deal of `cards` (each permutation of the deck: hands, then the stock's order, the
/// face-up card last), with probability 1/n!.
fn deals(cards: &[Card], hand: usize) -> Vec<(Ref, f64)> {
    fn perms(v: &mut Vec<Card>, i: usize, out: &mut Vec<Vec<Card>>) {
        if i == v.len() {
            out.push(v.clone());
            return;
        }
        for j in i..v.len() {
            v.swap(i, j);
            perms(v, i + 1, out);
            v.swap(i, j);
        }
    }
    let mut all = Vec::new();
    perms(&mut cards.to_vec(), 0, &mut all);
    let p = 1.0 / all.len() as f64;
    all.into_iter()
        .map(|d| {
            let h0 = d[..hand].to_vec();
            let h1 = d[hand..2 * hand].to_vec();
            let r = Ref {
                hands: [h0.clone(), h1.clone()],
                dealt: [h0, h1],
                draws: [vec![], vec![]],
                plays: vec![],
                stock: d[2 * hand..].to_vec(),
                face_up: *d.last().unwrap(),
                leader: 0,
                table: None,
                points: [0, 0],
                played: 0,
                trick: 1,
            };
            (r, p)
        })
        .collect()
}

/// The textbook best response of seat `me` to `opp`: expand the opponent's moves; group the
/// histories at `me`'s decisions by what `me` has seen; each group takes the card whose
/// continuation (recursively the same) is worth most summed over the group's histories.
fn br(histories: Vec<(Ref, f64)>, me: usize, opp: &Fixed) -> f64 {
    let mut total = 0.0;
    let mut groups: BTreeMap<Vec<u8>, Vec<(Ref, f64)>> = BTreeMap::new();
    let mut stack = histories;
    while let Some((s, w)) = stack.pop() {
        match s.mover() {
            None => total += w * s.margin(me),
            Some(m) if m == me => groups.entry(s.seen(me)).or_default().push((s, w)),
            Some(_) => {
                for (c, q) in opp.probs(&s) {
                    if q > 0.0 {
                        stack.push((s.play(c), w * q));
                    }
                }
            }
        }
    }
    for (_, g) in groups {
        let hand = g[0].0.hands[me].clone();
        let best = hand
            .iter()
            .map(|&c| br(g.iter().map(|(s, w)| (s.play(c), *w)).collect(), me, opp))
            .fold(f64::NEG_INFINITY, f64::max);
        total += best;
    }
    total
}

/// Seat 0's expected margin with `a` in seat 0 and `b` in seat 1.
fn value(histories: Vec<(Ref, f64)>, a: &Fixed, b: &Fixed) -> f64 {
    let mut total = 0.0;
    let mut stack = histories;
    while let Some((s, w)) = stack.pop() {
        match s.mover() {
            None => total += w * s.margin(0),
            Some(m) => {
                let f = if m == 0 { a } else { b };
                for (c, q) in f.probs(&s) {
                    if q > 0.0 {
                        stack.push((s.play(c), w * q));
                    }
                }
            }
        }
    }
    total
}

fn game(suits: u8, ranks: &[u8], hand: u8) -> ReducedGame {
    ReducedGame::new(ReducedSpec {
        suits,
        ranks: ranks.to_vec(),
        hand,
    })
    .unwrap()
}

fn policies() -> Vec<(&'static str, Box<dyn Policy>)> {
    let tie = TieBreak::AsReleased;
    vec![
        ("greedy", Box::new(Greedy::new(tie))),
        ("hoarder", Box::new(Hoarder::new(10, tie))),
        ("counter", Box::new(Counter::new(10, tie))),
        (
            "greedy as-written",
            Box::new(Greedy::new(TieBreak::AsWritten)),
        ),
        ("hoarder threshold 4", Box::new(Hoarder::new(4, tie))),
    ]
}

/// Reference: the textbook best response over explicit history groups ([`br`]), on every
/// deck permutation. The solver's exact exploitability of each policy, seat by seat, and its
/// self-play value equal it.
#[test]
fn policy_exploitability_equals_brute_force() {
    for (suits, ranks, hand) in [
        (2, &[1u8, 3, 10][..], 2u8),
        (1, &[1, 3, 10, 8, 9, 2], 2),
        (2, &[1, 2], 1),
    ] {
        let g = game(suits, ranks, hand);
        let ds = deals(g.cards(), hand as usize);
        for (name, p) in policies() {
            let e = policy_exploitability(&g, p.as_ref());
            let f = Fixed::Policy(p.as_ref());
            let r0 = br(ds.clone(), 0, &f);
            let r1 = br(ds.clone(), 1, &f);
            assert!(
                (e.best_response[0] - r0).abs() < 1e-9,
                "{name} {ranks:?}: {e:?} vs {r0}"
            );
            assert!(
                (e.best_response[1] - r1).abs() < 1e-9,
                "{name} {ranks:?}: {e:?} vs {r1}"
            );
            assert!((e.exploitability - (r0 + r1) / 2.0).abs() < 1e-9);
            let sp = value(ds.clone(), &f, &f);
            assert!(
                (e.self_play - sp).abs() < 1e-9,
                "{name}: self-play {} vs {sp}",
                e.self_play
            );
            if hand == 1 {
                // Every move is forced: nothing to exploit.
                assert!(e.exploitability.abs() < 1e-9, "{name}: {e:?}");
            } else {
                assert!(
                    e.exploitability > 0.5,
                    "{name} is far from equilibrium here: {e:?}"
                );
            }
        }
    }
}

/// Reference: the same brute-force best response against the CFR average strategy (read
/// through the public `Cfr::average_at`), and the game value bracketed by it: for any
/// strategy pair, -BR1(s0) <= v <= BR0(s1), so a reference bracket narrower than 0.02
/// pins the value; the solver's exploitability goes down over iterations to below 0.01.
#[test]
fn cfr_value_and_exploitability_equal_brute_force() {
    let g = game(2, &[1, 3, 10], 2);
    let ds = deals(g.cards(), 2);
    let mut cfr = Cfr::new(&g);
    let marks = [1u64, 16, 256];
    let cps = cfr.run(1200, &marks, |_, _| {});
    assert_eq!(
        cps.iter().map(|c| c.iteration).collect::<Vec<_>>(),
        vec![1, 16, 256, 1200]
    );
    for w in cps.windows(2) {
        assert!(w[1].exploitability < w[0].exploitability, "{cps:?}");
    }
    let last = cps.last().unwrap();
    assert!(last.exploitability < 0.01, "{last:?}");
    assert!(
        cps[0].exploitability > 1.0,
        "uniform play is exploitable: {cps:?}"
    );
    let e = cfr.exploitability();
    let f = Fixed::Cfr(&cfr);
    let r0 = br(ds.clone(), 0, &f);
    let r1 = br(ds.clone(), 1, &f);
    assert!((e.best_response[0] - r0).abs() < 1e-9, "{e:?} vs {r0}");
    assert!((e.best_response[1] - r1).abs() < 1e-9, "{e:?} vs {r1}");
    let v = value(ds, &f, &f);
    assert!((e.value - v).abs() < 1e-9, "{e:?} vs {v}");
    // The value lies in the reference bracket, which is narrow.
    assert!(-r1 - 1e-9 <= v && v <= r0 + 1e-9, "{r1} {v} {r0}");
    assert!(r0 + r1 < 0.02, "bracket [{}, {r0}]", -r1);
    // A uniform strategy's exploitability, from the brute force, is far above it.
    let mut fresh = Cfr::new(&g);
    fresh.iterate();
    let u = fresh.exploitability().exploitability;
    assert!(u > 10.0 * e.exploitability);
}

/// A best response to a policy takes at least what the CFR strategy takes from it (seat by
/// seat, so on average too), and the PIMC agent's exact value lies between the CFR strategy's
/// take and the best response's (it is one strategy; the best response is the best).
#[test]
fn best_response_dominates_cfr_and_pimc_is_bounded_by_it() {
    for (suits, ranks, hand) in [(2, &[1u8, 3, 10][..], 2u8), (1, &[1, 3, 10, 8, 9, 2], 2)] {
        let g = game(suits, ranks, hand);
        let mut cfr = Cfr::new(&g);
        cfr.run(300, &[], |_, _| {});
        for (name, p) in policies() {
            let e = policy_exploitability(&g, p.as_ref());
            let vs = policy_vs_cfr(&g, p.as_ref(), &cfr);
            assert!(e.exploitability >= -vs - 1e-9, "{name}: {e:?}, vs cfr {vs}");
            let b = pimc_bound(&g, p.as_ref(), None, 1);
            for s in 0..2 {
                assert!(
                    b.value[s] <= e.best_response[s] + 1e-9,
                    "{name}: {b:?} {e:?}"
                );
            }
            assert!(b.bound <= e.exploitability + 1e-9);
            assert!(b.bound > 0.0, "{name}: the agent beats the policy: {b:?}");
            // A sample of one world per decision is a strategy too: never above the best.
            let one = pimc_bound(&g, p.as_ref(), Some(1), 7);
            assert!(one.bound <= e.exploitability + 1e-9);
            assert_eq!(
                one,
                pimc_bound(&g, p.as_ref(), Some(1), 7),
                "seeded: deterministic"
            );
        }
    }
}

/// The size formulas: deals as sets and terminal histories.
#[test]
fn sizes_count_the_tree() {
    let g = game(2, &[1, 3, 10, 8], 3);
    assert_eq!(g.deals(), 8 * 35 * 4);
    assert_eq!(g.histories(), 1120 * 9 * 9 * 4);
    assert_eq!(g.total_points(), 54);
    let g = game(2, &[1, 3, 10], 2);
    assert_eq!(g.histories(), 180 * 4 * 4);
}

/// Every bad field is an error naming it, never a panic.
#[test]
fn bad_specs_are_errors() {
    let spec = |suits, ranks: &[u8], hand| ReducedSpec {
        suits,
        ranks: ranks.to_vec(),
        hand,
    };
    let err = |s: ReducedSpec| ReducedGame::new(s).unwrap_err();
    assert_eq!(err(spec(0, &[1, 3], 1)), ReducedSpecError::Suits(0));
    assert_eq!(err(spec(5, &[1, 3], 1)), ReducedSpecError::Suits(5));
    assert_eq!(err(spec(2, &[], 1)), ReducedSpecError::Ranks(vec![]));
    assert_eq!(
        err(spec(2, &[0, 3], 1)),
        ReducedSpecError::Ranks(vec![0, 3])
    );
    assert_eq!(
        err(spec(2, &[1, 11], 1)),
        ReducedSpecError::Ranks(vec![1, 11])
    );
    assert_eq!(
        err(spec(2, &[3, 3], 1)),
        ReducedSpecError::Ranks(vec![3, 3])
    );
    assert_eq!(err(spec(2, &[1, 3, 10], 0)), ReducedSpecError::Hand(0));
    assert_eq!(err(spec(4, &[1, 3, 10], 5)), ReducedSpecError::Hand(5));
    assert!(matches!(
        err(spec(1, &[1, 3, 10], 1)),
        ReducedSpecError::Stock {
            deck: 3,
            stock: 1,
            ..
        }
    ));
    assert!(matches!(
        err(spec(2, &[1, 3, 10], 3)),
        ReducedSpecError::Stock {
            deck: 6,
            stock: 0,
            ..
        }
    ));
    assert!(matches!(
        err(spec(4, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3)),
        ReducedSpecError::TooLarge { deck: 40, .. }
    ));
    let msg = err(spec(2, &[1, 3, 10], 3)).to_string();
    assert!(msg.contains("stock") && msg.contains("even"), "{msg}");
    // Arbitrary input never panics; what is accepted is playable.
    for suits in 0..=6u8 {
        for hand in 0..=6u8 {
            for mask in 0..(1u16 << 10) {
                let ranks: Vec<u8> = (1..=10).filter(|r| mask >> (r - 1) & 1 == 1).collect();
                if let Ok(g) = ReducedGame::new(spec(suits, &ranks, hand)) {
                    let stock = g.deck_size() - 2 * g.hand_size();
                    assert!(stock >= 2 && stock % 2 == 0);
                }
            }
        }
    }
}

/// `Cfr::run` measures its checkpoints on other threads while the iterations go on: each
/// checkpoint is bit for bit the serial `exploitability()` at that iteration, `progress` sees
/// every iteration once and in order (a checkpoint with its measure), on a pool of one thread
/// and of four.
#[test]
fn checkpoints_measured_beside_the_iterations_equal_the_serial_ones() {
    let g = game(2, &[1, 3, 10], 2);
    let marks = [1u64, 2, 5, 8];
    let mut serial = Cfr::new(&g);
    let mut expected = Vec::new();
    for t in 1..=12u64 {
        serial.iterate();
        if marks.contains(&t) || t == 12 {
            let e = serial.exploitability();
            expected.push((t, e.value.to_bits(), e.exploitability.to_bits()));
        }
    }
    for threads in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (cps, seen) = pool.install(|| {
            let mut cfr = Cfr::new(&g);
            let mut seen = Vec::new();
            let cps = cfr.run(12, &marks, |t, c| seen.push((t, c.copied())));
            (cps, seen)
        });
        let got: Vec<_> = cps
            .iter()
            .map(|c| (c.iteration, c.value.to_bits(), c.exploitability.to_bits()))
            .collect();
        assert_eq!(got, expected, "{threads} threads");
        assert_eq!(
            seen.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
            (1..=12).collect::<Vec<_>>()
        );
        let reported: Vec<_> = seen.iter().filter_map(|(_, c)| *c).collect();
        assert_eq!(reported, cps, "{threads} threads");
    }
}
