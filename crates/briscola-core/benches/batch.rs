//! Throughput of the table-driven engine's paths, games per second on one thread: the scalar
//! `play_keyed` one game at a time, and `play_keyed_batch_on` on every [`EnginePath`] this CPU
//! has (`scalar`: `play_keyed` behind the batch interface; `avx2`: four games per register;
//! `avx512`: eight). Two pairs of tables: greedy vs greedy (the paper's Definition 1, no watches) and
//! counter vs counter (its carico trap watches each card's sibling, so the watch lookups run).
//!
//! Two groups per pair, over `GAMES` (80,000) decks from the paper's .NET stream
//! (`System.Random(42)`): `deal+play/<pair>` deals them in blocks of 1,024 (four shuffles at a
//! time, as the simulate stage deals) and plays each block; `play/<pair>` plays decks dealt
//! once before timing (the engine alone).
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p briscola-core --bench batch` (a filter after `--`
//! picks cases, e.g. `-- 'play/greedy'`). Criterion prints the median time per iteration and
//! the throughput in games/s (`Kelem/s`/`Melem/s`); name the CPU with the figures
//! (`grep -m1 'model name' /proc/cpuinfo`).

use criterion::{Criterion, Throughput};

use briscola_core::deal::DotNetRandom;
use briscola_core::game::{Deck, EnginePath, KeyTables, NoTricks, play_keyed, play_keyed_batch_on};
use briscola_core::policy::{PolicyKind, PolicySpec, TieBreak};

/// Games per timed iteration.
const GAMES: usize = 80_000;

/// Games dealt before a block is played (the simulate stage's tasks are of this order).
const BLOCK: usize = 1024;

/// One way of playing a slice of decks; returns a checksum of G1's points.
type Play = Box<dyn Fn(&[Deck], [&KeyTables; 2]) -> u32>;

/// The ways measured, by name: `play_keyed` one game at a time, and `play_keyed_batch_on`
/// every path this CPU has (`scalar`, `avx2`, `avx512`).
fn paths() -> Vec<(&'static str, Play)> {
    let mut out: Vec<(&'static str, Play)> = vec![(
        "play_keyed",
        Box::new(|decks, seats| {
            decks
                .iter()
                .map(|d| play_keyed(d, seats, &mut NoTricks).0.points[0] as u32)
                .sum()
        }),
    )];
    for path in EnginePath::available() {
        out.push((
            path.name(),
            Box::new(move |decks, seats| {
                play_keyed_batch_on(path, decks, seats)
                    .expect("an available path")
                    .iter()
                    .map(|(o, _)| o.points[0] as u32)
                    .sum()
            }),
        ));
    }
    out
}

/// Deal `n` decks from `rng` into `out` (cleared first), four shuffles at a time.
fn deal(rng: &mut DotNetRandom, n: usize, out: &mut Vec<Deck>) {
    out.clear();
    let mut draws = [[0i32; 39]; 4];
    for _ in 0..n / 4 {
        rng.fill(draws.as_flattened_mut());
        out.extend(DotNetRandom::decks_from_draws(&draws));
    }
    let mut one = [0i32; 39];
    for _ in 0..n % 4 {
        rng.fill(&mut one);
        out.push(DotNetRandom::deck_from_draws(&one));
    }
}

fn main() {
    let tables = |k| {
        PolicySpec::paper(k, TieBreak::AsReleased)
            .build()
            .key_tables()
            .expect("the paper's policies have tables")
    };
    let (greedy, counter) = (tables(PolicyKind::Greedy), tables(PolicyKind::Counter));
    let pairs = [
        ("greedy-vs-greedy", [&greedy, &greedy]),
        ("counter-vs-counter", [&counter, &counter]),
    ];
    let mut dealt = Vec::new();
    deal(&mut DotNetRandom::new(42), GAMES, &mut dealt);
    let mut c = Criterion::default()
        .sample_size(20)
        .measurement_time(std::time::Duration::from_secs(4))
        .configure_from_args();
    for (pair, seats) in pairs {
        let mut g = c.benchmark_group(format!("deal+play/{pair}"));
        g.throughput(Throughput::Elements(GAMES as u64));
        for (name, play) in paths() {
            g.bench_function(name, |b| {
                let mut rng = DotNetRandom::new(42);
                let mut decks = Vec::with_capacity(BLOCK);
                b.iter(|| {
                    let mut acc = 0u32;
                    for _ in 0..GAMES / BLOCK {
                        deal(&mut rng, BLOCK, &mut decks);
                        acc += play(&decks, seats);
                    }
                    deal(&mut rng, GAMES % BLOCK, &mut decks);
                    acc += play(&decks, seats);
                    std::hint::black_box(acc)
                })
            });
        }
        g.finish();
        let mut g = c.benchmark_group(format!("play/{pair}"));
        g.throughput(Throughput::Elements(GAMES as u64));
        for (name, play) in paths() {
            g.bench_function(name, |b| {
                b.iter(|| std::hint::black_box(play(std::hint::black_box(&dealt), seats)))
            });
        }
        g.finish();
    }
    c.final_summary();
}
