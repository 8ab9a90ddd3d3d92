//! The sampled best response of the reduced game ([`pimc_bound`]): the reduced twin of the
//! full game's exploit agent. At each decision it lists the worlds (the target's dealt hand in
//! order, its draws, the stock's order) consistent with everything it has seen, keeping only
//! those in which the target policy, replayed on its reconstructed past views, plays the cards
//! it really played; in each world it searches its own moves with the target's moves taken
//! from the target policy, and plays the card with the best mean over the worlds (perfect
//! information Monte Carlo). Its expected value over all deals is computed exactly
//! ([`PimcBound`]).
//!
//! Invariant: the agent's choice is a function of its own observation only (its key; a
//! sample of worlds is seeded from the seed and that key), so caching choices by key is exact
//! and the value is the exact expectation of one well-defined strategy: never above the
//! exact best response's.

use super::best_response::profile_value;
use super::game::{ReducedGame, permute};
use super::key_map::KeyMap;
use super::observation::Observation;
use super::policy_eval::PolicyStrategy;
use super::sim::Sim;
use super::spec::MAX_HAND;
use super::state::{State, Strategy, canonical};
use crate::game::Policy;
use serde::Serialize;

/// The sampled best response's value against one policy, in points (its margin).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PimcBound {
    /// `value[s]`: the agent's expected margin in seat `s` against the policy in the other.
    pub value: [f64; 2],
    /// The mean over both seatings: the sampled lower bound on the policy's exploitability.
    pub bound: f64,
    /// Distinct decisions (observations) the agent solved.
    pub decisions: usize,
    /// Worlds searched over all those decisions.
    pub worlds: u64,
}

/// The PIMC agent's exact expected value against `target` in both seats. `max_worlds`: search
/// at most this many consistent worlds per decision (a sample seeded from `seed` and the
/// decision's observation); `None` searches them all.
pub fn pimc_bound(
    game: &ReducedGame,
    target: &dyn Policy,
    max_worlds: Option<usize>,
    seed: u64,
) -> PimcBound {
    // The two seatings are independent walks (each with its own cache of decisions): played on
    // rayon's threads at once, summed in seat order.
    let seating = |a: usize| -> (f64, usize, u64) {
        let mut agent = Agent {
            game,
            target: PolicyStrategy::new(game, target),
            seat: a,
            cache: KeyMap::default(),
            max_worlds,
            seed,
            worlds: 0,
        };
        let mut opp = PolicyStrategy::new(game, target);
        let m = if a == 0 {
            profile_value(game, &mut agent, &mut opp)
        } else {
            -profile_value(game, &mut opp, &mut agent)
        };
        (m, agent.cache.len(), agent.worlds)
    };
    let ((v0, d0, w0), (v1, d1, w1)) = rayon::join(|| seating(0), || seating(1));
    let value = [v0, v1];
    let (decisions, worlds) = (d0 + d1, w0 + w1);
    PimcBound {
        value,
        bound: (value[0] + value[1]) / 2.0,
        decisions,
        worlds,
    }
}

/// A world at the agent's decision: the position and the stock's future unseen cards in order.
struct World {
    sim: Sim,
    stock: Vec<u8>,
}

struct Agent<'a> {
    game: &'a ReducedGame,
    target: PolicyStrategy<'a>,
    seat: usize,
    cache: KeyMap<u8>,
    max_worlds: Option<usize>,
    seed: u64,
    worlds: u64,
}

/// What the agent has seen, as local cards.
struct Seen {
    plays: Vec<u8>,
    draws: Vec<u8>,
}

impl Strategy for Agent<'_> {
    fn probs(&mut self, st: &State, out: &mut [f64; MAX_HAND]) {
        let key = st.key(self.seat);
        let card = match self.cache.get(&key) {
            Some(&c) => c,
            None => {
                let c = self.decide(key);
                self.cache.insert(key, c);
                c
            }
        };
        let hand = st.sim.hand(self.seat);
        let i = hand
            .iter()
            .position(|&c| c == card)
            .expect("agent plays from its hand");
        out.fill(0.0);
        out[i] = 1.0;
    }
}

impl Agent<'_> {
    /// The card (local) the agent plays at the observation `key`: the best mean over the
    /// (sampled) consistent worlds, ties to the smallest card.
    fn decide(&mut self, key: u128) -> u8 {
        let mut worlds = self.worlds(key);
        if let Some(m) = self.max_worlds
            && worlds.len() > m
        {
            let mut rng = SplitMix(self.seed ^ (key as u64) ^ ((key >> 64) as u64).rotate_left(17));
            for i in 0..m {
                let j = i + (rng.next() % (worlds.len() - i) as u64) as usize;
                worlds.swap(i, j);
            }
            worlds.truncate(m);
        }
        self.worlds += worlds.len() as u64;
        let game = self.game;
        let hand = worlds[0].sim.hand(self.seat).to_vec();
        let pos = canonical(&hand);
        let mut best = (i64::MIN, 0u8);
        for &p in &pos[..hand.len()] {
            let mut total: i64 = 0;
            for w in &worlds {
                let (child, next) = step(game, &w.sim, p as usize, &w.stock, 0);
                total += self.search(&child, &w.stock, next) as i64;
            }
            if total > best.0 {
                best = (total, hand[p as usize]);
            }
        }
        best.1
    }

    /// Every world consistent with the observation `key` (each equally likely).
    fn worlds(&mut self, key: u128) -> Vec<World> {
        let game = self.game;
        let obs = Observation::from_key(game, key);
        let loc = |c| game.local(c).expect("card of this deck");
        let face = loc(obs.face_up);
        let mut own: Vec<u8> = obs.hand.iter().map(|&c| loc(c)).collect();
        own.sort_unstable();
        let seen = Seen {
            plays: obs.plays.iter().map(|&c| loc(c)).collect(),
            draws: obs.draws.iter().map(|&c| loc(c)).collect(),
        };
        let n = game.deck_size();
        let h = game.hand_size();
        let mut hidden: u64 = (1u64 << n) - 1;
        hidden &= !(1u64 << face);
        for &c in own.iter().chain(&seen.draws) {
            hidden &= !(1u64 << c);
        }
        let mut worlds = Vec::new();
        let mut pool: Vec<u8> = (0..n as u8).filter(|&c| hidden >> c & 1 == 1).collect();
        let unknown0 = (n - 1 - 2 * h) as u8;
        // Every ordered dealt hand of the target: choose h of the pool, in every order.
        for_each_arrangement(&mut pool, h, &mut |t_hand| {
            let mut hands: [&[u8]; 2] = [&[], &[]];
            hands[self.seat] = &own;
            hands[1 - self.seat] = t_hand;
            let sim = Sim::deal(face, hands, unknown0);
            let mut left = hidden;
            for &c in t_hand {
                left &= !(1u64 << c);
            }
            self.replay(sim, &seen, 0, 0, left, &mut worlds);
        });
        worlds
    }

    /// Replays the seen plays from `sim` (the next play is `seen.plays[pi]`, the agent's next
    /// draw `seen.draws[di]`), branching over the target's draws from `left`; pushes a world
    /// for every consistent line and every order of the stock's remaining unseen cards.
    fn replay(
        &mut self,
        mut sim: Sim,
        seen: &Seen,
        mut pi: usize,
        di: usize,
        left: u64,
        out: &mut Vec<World>,
    ) {
        let game = self.game;
        let t = 1 - self.seat;
        while pi < seen.plays.len() {
            let card = seen.plays[pi];
            let seat = sim.mover().expect("plays within the game");
            let pos = if seat == t {
                let pos = self.target.choose(&sim);
                if sim.hand(t)[pos] != card {
                    return;
                }
                pos
            } else {
                match sim.hand(seat).iter().position(|&c| c == card) {
                    Some(p) => p,
                    None => return,
                }
            };
            let (_, done) = sim.play(game, pos);
            pi += 1;
            if let Some(w) = done
                && let Some(both) = sim.draws()
            {
                return self.draw(sim, seen, pi, di, left, [w, 1 - w], both, out);
            }
        }
        let mut rest: Vec<u8> = (0..64u8).filter(|&c| left >> c & 1 == 1).collect();
        permute(&mut rest, 0, &mut |order| {
            out.push(World {
                sim,
                stock: order.to_vec(),
            })
        });
    }

    /// The draws after a trick: `order[0]` (the winner) draws an unseen card, then `order[1]`
    /// an unseen card when `both`, else the face-up card.
    #[allow(clippy::too_many_arguments)]
    fn draw(
        &mut self,
        sim: Sim,
        seen: &Seen,
        pi: usize,
        di: usize,
        left: u64,
        order: [usize; 2],
        both: bool,
        out: &mut Vec<World>,
    ) {
        let t = 1 - self.seat;
        // The first drawer's options.
        let firsts: Vec<(u8, usize, u64)> = if order[0] == t {
            (0..64u8)
                .filter(|&c| left >> c & 1 == 1)
                .map(|c| (c, di, left & !(1u64 << c)))
                .collect()
        } else {
            match seen.draws.get(di) {
                Some(&c) => vec![(c, di + 1, left)],
                None => return,
            }
        };
        for (c1, di1, left1) in firsts {
            let mut s1 = sim;
            s1.give(order[0], c1);
            let seconds: Vec<(u8, usize, u64)> = if !both {
                vec![(sim.face_up, di1, left1)]
            } else if order[1] == t {
                (0..64u8)
                    .filter(|&c| left1 >> c & 1 == 1)
                    .map(|c| (c, di1, left1 & !(1u64 << c)))
                    .collect()
            } else {
                match seen.draws.get(di1) {
                    Some(&c) => vec![(c, di1 + 1, left1)],
                    None => continue,
                }
            };
            for (c2, di2, left2) in seconds {
                let mut s2 = s1;
                s2.give(order[1], c2);
                self.replay(s2, seen, pi, di2, left2, out);
            }
        }
    }

    /// The agent's best margin in an open world, the target playing its policy.
    fn search(&mut self, sim: &Sim, stock: &[u8], next: usize) -> i32 {
        let Some(seat) = sim.mover() else {
            let m = sim.margin0();
            return if self.seat == 0 { m } else { -m };
        };
        if seat != self.seat {
            let pos = self.target.choose(sim);
            let (c, nx) = step(self.game, sim, pos, stock, next);
            return self.search(&c, stock, nx);
        }
        let mut best = i32::MIN;
        for pos in 0..sim.hand(seat).len() {
            let (c, nx) = step(self.game, sim, pos, stock, next);
            best = best.max(self.search(&c, stock, nx));
        }
        best
    }
}

/// Plays `pos` in an open world whose stock's unseen cards come in the order `stock[next..]`.
fn step(game: &ReducedGame, sim: &Sim, pos: usize, stock: &[u8], next: usize) -> (Sim, usize) {
    let mut s = *sim;
    let (_, done) = s.play(game, pos);
    let Some(w) = done else {
        return (s, next);
    };
    match s.draws() {
        None => (s, next),
        Some(true) => {
            s.give(w, stock[next]);
            s.give(1 - w, stock[next + 1]);
            (s, next + 2)
        }
        Some(false) => {
            let face = s.face_up;
            s.give(w, stock[next]);
            s.give(1 - w, face);
            (s, next + 1)
        }
    }
}

/// Every ordered choice of `k` cards of `pool`.
fn for_each_arrangement(pool: &mut [u8], k: usize, f: &mut dyn FnMut(&[u8])) {
    fn rec(pool: &mut [u8], i: usize, k: usize, f: &mut dyn FnMut(&[u8])) {
        if i == k {
            return f(&pool[..k]);
        }
        for j in i..pool.len() {
            pool.swap(i, j);
            rec(pool, i + 1, k, f);
            pool.swap(i, j);
        }
    }
    rec(pool, 0, k, f)
}

/// SplitMix64, the seeded sampler of worlds.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{SeatRng, SeatView};
    use crate::solve::reduced::spec::ReducedSpec;

    /// Plays the first card of its hand: its choice depends only on the hand's order.
    struct First;
    impl Policy for First {
        fn choose(&self, _: &SeatView<'_>, _: &mut SeatRng) -> usize {
            0
        }
    }

    /// Plays its cheapest card, ties to the earliest; follows with the first card that wins.
    struct Cheap;
    impl Policy for Cheap {
        fn choose(&self, v: &SeatView<'_>, _: &mut SeatRng) -> usize {
            if let Some(led) = v.table
                && let Some(i) = v
                    .hand
                    .iter()
                    .position(|&c| !crate::game::leader_wins(led, c, v.trump))
            {
                return i;
            }
            (0..v.hand.len())
                .min_by_key(|&i| v.hand[i].points())
                .unwrap()
        }
    }

    /// A world as the brute force sees it: the target's hand, the future stock's order, the
    /// points and the leader.
    type Shape = (Vec<u8>, Vec<u8>, [u8; 2], u8);

    fn shape(sim: &Sim, seat: usize, stock: &[u8]) -> Shape {
        (
            sim.hand(seat).to_vec(),
            stock.to_vec(),
            sim.points,
            sim.leader,
        )
    }

    /// The consistent worlds at every decision of the agent, on sampled lines of every deal,
    /// are exactly the complete deals (target's hand in order, stock in order) that replay to
    /// what the agent saw: none the target's past plays rule out, none missing, the true one
    /// among them.
    #[test]
    fn consistent_worlds_are_exactly_the_replayable_deals() {
        let game = ReducedGame::new(ReducedSpec::default()).unwrap();
        let n = game.deck_size() as u8;
        let h = game.hand_size();
        let mut checked = 0;
        for target in [&First as &dyn Policy, &Cheap] {
            for seat in 0..2 {
                let mut agent = Agent {
                    game: &game,
                    target: PolicyStrategy::new(&game, target),
                    seat,
                    cache: KeyMap::default(),
                    max_worlds: None,
                    seed: 0,
                    worlds: 0,
                };
                // A sample of true deals: every 97th permutation-like deal.
                let mut deck: Vec<u8> = (0..n).collect();
                let mut k = 0u64;
                permute(&mut deck, 0, &mut |d| {
                    k += 1;
                    if !k.is_multiple_of(97) {
                        return;
                    }
                    let (hands, stock) = ([&d[..h], &d[h..2 * h]], &d[2 * h..]);
                    let face = *stock.last().unwrap();
                    let mut sim = Sim::deal(face, hands, stock.len() as u8 - 1);
                    let mut next = 0;
                    let (mut plays, mut draws) = (Vec::new(), Vec::new());
                    let mut line = k;
                    while let Some(m) = sim.mover() {
                        let pos = if m == seat {
                            let obs = Observation {
                                seat: seat as u8,
                                face_up: game.cards()[face as usize],
                                hand: hands[seat]
                                    .iter()
                                    .map(|&c| game.cards()[c as usize])
                                    .collect(),
                                draws: draws.iter().map(|&c| game.cards()[c as usize]).collect(),
                                plays: plays.iter().map(|&c| game.cards()[c as usize]).collect(),
                            };
                            let key = obs.key(&game).unwrap();
                            let mut got: Vec<_> = agent
                                .worlds(key)
                                .iter()
                                .map(|w| shape(&w.sim, 1 - seat, &w.stock))
                                .collect();
                            got.sort();
                            let want = brute_worlds(
                                &game,
                                seat,
                                target,
                                hands[seat],
                                face,
                                &plays,
                                &draws,
                            );
                            assert_eq!(got, want, "deal {d:?} plays {plays:?}");
                            let truth = shape(&sim, 1 - seat, &stock[next..stock.len() - 1]);
                            assert!(got.contains(&truth));
                            checked += 1;
                            line /= 3;
                            (line % sim.hand(m).len() as u64) as usize
                        } else {
                            agent.target.choose(&sim)
                        };
                        let before = sim.lens[seat];
                        let card = sim.hand(m)[pos];
                        let (s2, nx) = step(&game, &sim, pos, &stock[..stock.len() - 1], next);
                        plays.push(card);
                        if s2.lens[seat] > before - (m == seat) as u8 {
                            draws.push(s2.hands[seat][s2.lens[seat] as usize - 1]);
                        }
                        sim = s2;
                        next = nx;
                    }
                });
            }
        }
        assert!(checked > 200, "{checked}");
    }

    /// Every complete deal of the cards the agent has not seen (the target's hand in order,
    /// then the stock in order), kept when replaying it gives the seen plays and draws.
    fn brute_worlds(
        game: &ReducedGame,
        seat: usize,
        target: &dyn Policy,
        own: &[u8],
        face: u8,
        plays: &[u8],
        draws: &[u8],
    ) -> Vec<Shape> {
        let n = game.deck_size() as u8;
        let h = game.hand_size();
        let mut hidden: Vec<u8> = (0..n)
            .filter(|c| *c != face && !own.contains(c) && !draws.contains(c))
            .collect();
        let mut out = Vec::new();
        let mut pol = PolicyStrategy::new(game, target);
        permute(&mut hidden, 0, &mut |perm| {
            let t_hand = &perm[..h];
            let mut hands: [&[u8]; 2] = [&[], &[]];
            hands[seat] = own;
            hands[1 - seat] = t_hand;
            // The stock: the target's draws and the agent's seen draws in drawing order.
            let unknown = (n as usize - 1 - 2 * h) as u8;
            let mut sim = Sim::deal(face, hands, unknown);
            let mut tq = perm[h..].iter();
            let mut aq = draws.iter();
            let mut pi = 0;
            while pi < plays.len() {
                let m = sim.mover().unwrap();
                let pos = if m == seat {
                    match sim.hand(m).iter().position(|&c| c == plays[pi]) {
                        Some(p) => p,
                        None => return,
                    }
                } else {
                    let p = pol.choose(&sim);
                    if sim.hand(m)[p] != plays[pi] {
                        return;
                    }
                    p
                };
                let (_, done) = sim.play(game, pos);
                pi += 1;
                if let Some(w) = done
                    && let Some(both) = sim.draws()
                {
                    for (i, s) in [w, 1 - w].into_iter().enumerate() {
                        let c = if i == 1 && !both {
                            if s == seat && aq.next() != Some(&face) {
                                return;
                            }
                            face
                        } else if s == seat {
                            match aq.next() {
                                Some(&c) => c,
                                None => return,
                            }
                        } else {
                            *tq.next().unwrap()
                        };
                        sim.give(s, c);
                    }
                }
            }
            if aq.next().is_some() {
                return;
            }
            let rest: Vec<u8> = tq.copied().collect();
            out.push(shape(&sim, 1 - seat, &rest));
        });
        out.sort();
        out
    }
}
