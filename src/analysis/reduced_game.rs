//! A reduced two-player Briscola solved for the report and for `briscola solve-game`: CFR+ over
//! the whole tree ([`briscola_core::solve::reduced`]) with exploitability checkpoints at powers
//! of two, then each given policy's exact exploitability, the exploit agent's sampled bound and
//! its margin against the equilibrium strategy, as a [`ReducedResults`].
//!
//! Invariant: the result is a pure function of the spec, the iteration count, the worlds and the
//! policies (the sampled bound's worlds are seeded; no clock enters it): the pipeline hashes it.

use crate::game::{Card, Policy};
use crate::results::reduced::{ReducedCheckpoint, ReducedPolicy, ReducedResults};
use crate::solve::reduced::{Cfr, ReducedGame, pimc_bound, policy_exploitability, policy_vs_cfr};
pub use crate::solve::reduced::{ReducedSpec, ReducedSpecError};

/// The seed of the exploit agent's world samples in the reduced game.
const WORLDS_SEED: u64 = 1;

/// The iterations at which the exploitability is measured: powers of two, and the last.
pub fn checkpoints(iterations: u64) -> Vec<u64> {
    let mut out: Vec<u64> = (0..64)
        .map(|k| 1u64 << k)
        .take_while(|&i| i < iterations)
        .collect();
    out.push(iterations);
    out
}

fn rank_name(r: u8) -> String {
    match r {
        1 => "Ace".into(),
        8 => "Knave".into(),
        9 => "Knight".into(),
        10 => "King".into(),
        n => n.to_string(),
    }
}

/// Solve `spec` with `iterations` CFR+ iterations (`progress` after each, with the checkpoint
/// when there is one) and measure `policies` in it; `worlds` caps the exploit agent's worlds
/// per decision (`None`: all consistent worlds). The policies' measures that need no solver
/// (exact exploitability, the sampled bound) run on rayon's threads beside the iterations, and
/// the checkpoints beside the iterations that follow them (see [`Cfr::run`]): every number is
/// the one a serial run gives.
pub fn solve_reduced(
    spec: ReducedSpec,
    iterations: u64,
    worlds: Option<usize>,
    policies: &[(String, &dyn Policy)],
    mut progress: impl FnMut(u64, Option<f64>),
) -> Result<ReducedResults, ReducedSpecError> {
    use rayon::prelude::*;
    let game = ReducedGame::new(spec)?;
    let mut cfr = Cfr::new(&game);
    let mut measures = Vec::new();
    let done = rayon::in_place_scope(|scope| {
        scope.spawn(|_| {
            measures = policies
                .par_iter()
                .map(|(_, p)| {
                    rayon::join(
                        || policy_exploitability(&game, *p),
                        || pimc_bound(&game, *p, worlds, WORLDS_SEED),
                    )
                })
                .collect();
        });
        cfr.run(iterations, &checkpoints(iterations), |t, c| {
            progress(t, c.map(|c| c.exploitability))
        })
    });
    let stats = cfr.stats();
    let policies = policies
        .par_iter()
        .zip(measures)
        .map(|((name, p), (e, bound))| ReducedPolicy {
            name: name.clone(),
            exploitability: e.exploitability,
            best_response: e.best_response,
            sampled_bound: Some(bound.bound),
            vs_equilibrium: (iterations > 0).then(|| policy_vs_cfr(&game, *p, &cfr)),
        })
        .collect();
    let spec = game.spec();
    let names: Vec<String> = game
        .cards()
        .iter()
        .take(spec.ranks.len())
        .map(|c: &Card| rank_name(c.rank()))
        .collect();
    Ok(ReducedResults {
        deck: format!(
            "{} suit{} x {}",
            spec.suits,
            if spec.suits == 1 { "" } else { "s" },
            names.join(", ")
        ),
        cards: game.deck_size() as u32,
        hand: spec.hand,
        points: game.total_points(),
        deals: game.deals().to_string(),
        histories: game.histories().to_string(),
        iterations,
        worlds: worlds.map(|w| w as u64),
        info_sets: stats.info_sets,
        bytes: stats.bytes,
        seconds: None,
        checkpoints: done
            .iter()
            .map(|c| ReducedCheckpoint {
                iteration: c.iteration,
                value: c.value,
                exploitability: c.exploitability,
            })
            .collect(),
        policies,
    })
}
