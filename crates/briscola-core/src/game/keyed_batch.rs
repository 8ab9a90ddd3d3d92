//! Many two-player games at once for policies given as [`KeyTables`]: the batch path of the
//! table-driven engine. Games ride in the 64-bit lanes of a SIMD register (eight for AVX-512,
//! four for AVX2), each lane holding exactly the state [`play_keyed`] keeps; the kernel is
//! written once over a lane abstraction (`super::lanes`). This file owns the public entry
//! points and the choice of path: [`play_keyed_batch`] plays on the process's
//! [`engine_path`] (the best the CPU has, detected at run time, unless
//! [`super::select_engine_path`] chose another), [`play_keyed_batch_on`] on a path named by
//! the caller.
//!
//! Invariant: for every deck, pair of tables and path, a game's outcome and Table 5's tallies
//! are those [`play_keyed`] gives (the lanes run its steps, and the end of a game is read by
//! the same function, `Taken::finish`). The games of a batch past its last full group, and
//! every game on the scalar path, are played by [`play_keyed`] itself, so results never depend
//! on the machine or the path. Tested game by game for every path the machine has in
//! `crates/briscola-core/tests/engine_paths.rs` (and in `tests/it/keyed_engine.rs`).
//!
//! [`play_keyed`]: super::play_keyed

use super::deck::Deck;
use super::engine_path::{EnginePath, EnginePathError, engine_path};
use super::key_tables::KeyTables;
use super::keyed_play::play_keyed;
use super::play::{GameOutcome, NoTricks};
use super::trump_use::TrumpUse;

/// Games per group on the AVX-512 path, the most lanes any path has ([`EnginePath::lanes`]
/// gives each path's).
pub const BATCH_LANES: usize = 8;

/// Whether [`play_keyed_batch`] plays its groups in SIMD lanes: whether the process's
/// [`engine_path`] (the best this CPU has, unless another was selected) is not the scalar one.
/// When not, every game goes through [`super::play_keyed`] (same results, scalar speed).
///
/// ```
/// let _simd: bool = briscola_core::game::batch_lanes_available();
/// ```
pub fn batch_lanes_available() -> bool {
    engine_path().lanes() > 1
}

/// Play every deck with `seats[0]`'s tables in seat G1 and `seats[1]`'s in G2, without a trick
/// log, on the process's [`engine_path`]; returns each game's outcome and Table 5's tallies
/// (G1's first), in deck order. The same results as calling [`super::play_keyed`] on each
/// deck, faster where [`batch_lanes_available`].
///
/// ```
/// use briscola_core::game::{Deck, KeyTables, NoTricks, play_keyed, play_keyed_batch};
/// let cheapest = KeyTables::build(|c, _| c.points() as u32, |_| 0, |_, c| c.points() as u32);
/// let mut decks = vec![Deck::ordered(); 11];
/// for (i, d) in decks.iter_mut().enumerate() {
///     let mut k = i as u32;
///     d.shuffle_with(|m| { k = k.wrapping_mul(2_654_435_761).wrapping_add(12_345); k % m });
/// }
/// let batch = play_keyed_batch(&decks, [&cheapest, &cheapest]);
/// for (d, got) in decks.iter().zip(&batch) {
///     assert_eq!(*got, play_keyed(d, [&cheapest, &cheapest], &mut NoTricks));
/// }
/// ```
pub fn play_keyed_batch(
    decks: &[Deck],
    seats: [&KeyTables; 2],
) -> Vec<(GameOutcome, [TrumpUse; 2])> {
    play_on(engine_path(), decks, seats)
}

/// [`play_keyed_batch`] on `path` rather than the process's choice (for tests and benchmarks
/// that compare the paths): the same results on every path. Refused, with nothing played,
/// when this CPU cannot run `path` ([`EnginePath::is_available`]); it never falls back to
/// another path.
///
/// ```
/// use briscola_core::game::{
///     Deck, EnginePath, KeyTables, NoTricks, play_keyed, play_keyed_batch_on,
/// };
/// let cheapest = KeyTables::build(|c, _| c.points() as u32, |_| 0, |_, c| c.points() as u32);
/// let decks = vec![Deck::ordered(); 9];
/// for path in EnginePath::available() {
///     let batch = play_keyed_batch_on(path, &decks, [&cheapest, &cheapest]).unwrap();
///     assert_eq!(batch[8], play_keyed(&decks[8], [&cheapest, &cheapest], &mut NoTricks));
/// }
/// ```
pub fn play_keyed_batch_on(
    path: EnginePath,
    decks: &[Deck],
    seats: [&KeyTables; 2],
) -> Result<Vec<(GameOutcome, [TrumpUse; 2])>, EnginePathError> {
    if !path.is_available() {
        return Err(EnginePathError::Unavailable {
            path,
            available: EnginePath::available(),
        });
    }
    Ok(play_on(path, decks, seats))
}

/// The batch on `path` (one this CPU can run): whole groups in lanes, the rest by
/// `play_keyed`.
fn play_on(
    path: EnginePath,
    decks: &[Deck],
    seats: [&KeyTables; 2],
) -> Vec<(GameOutcome, [TrumpUse; 2])> {
    let mut out = Vec::with_capacity(decks.len());
    let done = play_in_lanes(path, decks, seats, &mut out);
    out.extend(
        decks[done..]
            .iter()
            .map(|d| play_keyed(d, seats, &mut NoTricks)),
    );
    out
}

/// Play the leading whole groups of `decks` in `path`'s lanes, pushing their results; returns
/// how many decks that was (0 on the scalar path).
#[cfg(target_arch = "x86_64")]
fn play_in_lanes(
    path: EnginePath,
    decks: &[Deck],
    seats: [&KeyTables; 2],
    out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
) -> usize {
    use super::lanes::{avx2, avx512, pair_tables::PairTables};
    let full = decks.len() - decks.len() % path.lanes();
    if path == EnginePath::Scalar || full == 0 {
        return 0;
    }
    // Checked here, where the kernels are entered, not only by the callers: running a path
    // the CPU lacks would be undefined behaviour (a cached feature test, once a batch).
    assert!(path.is_available(), "{path} is not available on this CPU");
    let pair = PairTables::new(seats);
    match path {
        // SAFETY: the CPU has AVX-512 F and BW (asserted above), what `avx512::play` needs.
        EnginePath::Avx512 => unsafe { avx512::play(&pair, &decks[..full], out) },
        // SAFETY: the CPU has AVX2 (asserted above), what `avx2::play` needs.
        EnginePath::Avx2 => unsafe { avx2::play(&pair, &decks[..full], out) },
        EnginePath::Scalar => unreachable!("returned above"),
    }
    full
}

/// Without x86-64 there are no lanes: every game goes through `play_keyed`.
#[cfg(not(target_arch = "x86_64"))]
fn play_in_lanes(
    _path: EnginePath,
    _decks: &[Deck],
    _seats: [&KeyTables; 2],
    _out: &mut Vec<(GameOutcome, [TrumpUse; 2])>,
) -> usize {
    0
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::keyed_play::{LEADER_WINS, TRICK_RANK};

    /// The winner rule the kernel spells lane-wise (from [`TRICK_RANK`]) is `LEADER_WINS`
    /// (Proposition 1) for every ordered pair of distinct cards.
    #[test]
    fn the_rank_rule_is_the_winner_table() {
        for l in 0..40 {
            for f in (0..40).filter(|&f| f != l) {
                let (rl, rf) = (TRICK_RANK[l], TRICK_RANK[f]);
                let same = rl >> 8 == rf >> 8;
                let wins = (rl & 0xff | 16) > (rf & 0xff | (same as u16) << 4);
                assert_eq!(wins, LEADER_WINS[l * 64 + f] == 1, "{l} vs {f}");
            }
        }
    }
}
