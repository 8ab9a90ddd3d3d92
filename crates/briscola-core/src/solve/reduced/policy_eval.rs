//! A deterministic policy of the core (greedy, hoarder, counter, ...) playing the reduced
//! game ([`PolicyStrategy`]) and its exact exploitability there ([`PolicyExploitability`]).
//!
//! Invariant: the policy decides from the [`crate::game::SeatView`] the two-player engine
//! would give it (hand in arrival order, every order of the dealt hand enumerated with its
//! probability), so its ties break as they do in the full game.

use super::best_response::{best_response, profile_value};
use super::cfr::Cfr;
use super::game::ReducedGame;
use super::spec::MAX_HAND;
use super::state::{State, Strategy};
use crate::game::{Card, Policy, SeatRng};
use serde::Serialize;

/// A policy as a (pure) strategy of the reduced game, for whichever seat it is asked about.
pub(crate) struct PolicyStrategy<'a> {
    game: &'a ReducedGame,
    policy: &'a dyn Policy,
    rng: SeatRng,
}

impl<'a> PolicyStrategy<'a> {
    /// `policy` in `game` (a randomised policy draws from one fixed stream: only deterministic
    /// policies are exact here).
    pub fn new(game: &'a ReducedGame, policy: &'a dyn Policy) -> PolicyStrategy<'a> {
        PolicyStrategy {
            game,
            policy,
            rng: SeatRng::new([0; 32], 0),
        }
    }

    /// The hand position the policy plays at `st`.
    pub fn choose(&mut self, st: &super::sim::Sim) -> usize {
        let seat = st.mover().expect("a decision");
        let mut buf = [Card::from_id(0).expect("card 0"); MAX_HAND + 1];
        let view = st.view(self.game, seat, &mut buf);
        let i = self.policy.choose(&view, &mut self.rng);
        assert!(i < view.hand.len(), "policy chose outside its hand");
        i
    }
}

impl Strategy for PolicyStrategy<'_> {
    fn probs(&mut self, st: &State, out: &mut [f64; MAX_HAND]) {
        let i = self.choose(&st.sim);
        out.fill(0.0);
        out[i] = 1.0;
    }

    fn ordered(&self) -> bool {
        true
    }
}

/// How much a best response takes from a policy in the reduced game, in points (the
/// responder's points minus the policy's).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PolicyExploitability {
    /// `best_response[s]`: the expected margin of a best response in seat `s` against the
    /// policy in the other seat.
    pub best_response: [f64; 2],
    /// The mean over both seatings: the policy's exploitability (0 for an equilibrium
    /// strategy of a game whose value is 0; in general its distance from the game's value,
    /// with the seat value averaged out).
    pub exploitability: f64,
    /// The policy against itself: seat 0's expected margin.
    pub self_play: f64,
}

/// The exact exploitability of `policy` in `game` (two best-response walks and one play-out,
/// on rayon's threads at once; each walk is a pure function of the game and the policy).
pub fn policy_exploitability(game: &ReducedGame, policy: &dyn Policy) -> PolicyExploitability {
    let ((br0, br1), self_play) = rayon::join(
        || {
            rayon::join(
                || best_response(game, 0, &mut PolicyStrategy::new(game, policy)),
                || best_response(game, 1, &mut PolicyStrategy::new(game, policy)),
            )
        },
        || {
            profile_value(
                game,
                &mut PolicyStrategy::new(game, policy),
                &mut PolicyStrategy::new(game, policy),
            )
        },
    );
    PolicyExploitability {
        best_response: [br0, br1],
        exploitability: (br0 + br1) / 2.0,
        self_play,
    }
}

/// The policy against the solver's average strategy: the policy's expected margin averaged
/// over its two seats (negative: the equilibrium takes that much from it). The two play-outs
/// run on rayon's threads at once.
pub fn policy_vs_cfr(game: &ReducedGame, policy: &dyn Policy, cfr: &Cfr<'_>) -> f64 {
    let (as0, as1) = rayon::join(
        || {
            profile_value(
                game,
                &mut PolicyStrategy::new(game, policy),
                &mut cfr.average(),
            )
        },
        || {
            profile_value(
                game,
                &mut cfr.average(),
                &mut PolicyStrategy::new(game, policy),
            )
        },
    );
    (as0 - as1) / 2.0
}
