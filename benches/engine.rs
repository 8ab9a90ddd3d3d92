//! Benchmarks of the bare engine: shuffle + play, no logging, per ordered policy pair, on one
//! thread (games/s/core). Run with `make bench`; figures go to BENCHMARKS.md.
//!
//! Every group deals `BATCH` games from one .NET `System.Random(42)` stream (the paper's
//! Fisher-Yates, 39 draws per game, dealt as the simulate stage deals them) and plays them: one
//! at a time ([`play_games`], the `engine`, `keyed`, `rules` and `table` groups), or in blocks
//! through the batch path (`batch`: `play_keyed_batch`, games in SIMD lanes on the best path the
//! CPU has, AVX-512 or AVX2; valgrind has no AVX-512, so callgrind counts the AVX2 path).
//!
//! Instruction counts (repeatable on a loaded machine, unlike wall time): with
//! `ENGINE_PLAY=<group>/<name>:<games>` the binary plays that case's loop once for `<games>`
//! games and exits instead of benchmarking, e.g.
//! `ENGINE_PLAY=engine/greedy-vs-greedy:20000 valgrind --tool=callgrind <bench binary>`.

use criterion::{Criterion, Throughput};

use briscola::game::{
    Deck, KeyTables, NoTricks, Rules, RulesSpec, SeatRng, play_game, play_keyed, play_keyed_batch,
    play_table,
};
use briscola::policy::{
    AnyPolicy, FollowReading, PairWork, Policy, PolicyKind, PolicySpec, TablePolicy, TieBreak,
};
use briscola::tournament::DotNetRandom;

const BATCH: u64 = 10_000;

/// The next game's deck from the stream, as the simulate stage deals it (39 draws, then
/// [`DotNetRandom::deck_from_draws`]).
#[inline(always)]
fn deal(rng: &mut DotNetRandom) -> Deck {
    let mut draws = [0i32; 39];
    rng.fill(&mut draws);
    DotNetRandom::deck_from_draws(&draws)
}

/// Deal `games` games from `rng` and play each with `play` (given the deck and the game's seat
/// streams); returns a checksum of G1's points so nothing is optimised away.
#[inline(always)]
fn play_games(
    rng: &mut DotNetRandom,
    games: u64,
    seats: usize,
    mut play: impl FnMut(&Deck, &mut [SeatRng]) -> u8,
) -> u32 {
    let mut acc = 0u32;
    for _ in 0..games {
        let d = deal(rng);
        let mut rngs: [SeatRng; 4] = std::array::from_fn(|s| SeatRng::new([s as u8 + 1; 32], 0));
        acc += play(&d, &mut rngs[..seats]) as u32;
    }
    std::hint::black_box(acc)
}

/// Plays `games` games dealt from a stream; returns the loop's checksum.
type PlayLoop = Box<dyn Fn(&mut DotNetRandom, u64) -> u32>;

/// One benchmarked loop: its group, its name, and how it plays `games` games from a stream.
struct Case {
    group: &'static str,
    name: String,
    run: PlayLoop,
}

/// The two-player loop with both policies as their concrete types, as the simulate stage
/// dispatches them ([`AnyPolicy::with_pair`]).
struct TwoPlayer<'a> {
    rng: &'a mut DotNetRandom,
    games: u64,
}

impl PairWork for TwoPlayer<'_> {
    type Output = u32;
    fn run<P1: Policy, P2: Policy>(self, p1: &P1, p2: &P2) -> u32 {
        play_games(self.rng, self.games, 2, |d, r| {
            let r: &mut [SeatRng; 2] = r.try_into().expect("two seats");
            play_game(d, p1, p2, r, &mut NoTricks).points[0]
        })
    }
}

/// A two-player case through `play_game` (the path of every standard study).
fn two_player(group: &'static str, name: String, p1: AnyPolicy, p2: AnyPolicy) -> Case {
    Case {
        group,
        name,
        run: Box::new(move |rng, games| AnyPolicy::with_pair(&p1, &p2, TwoPlayer { rng, games })),
    }
}

/// A two-player case through the table-driven engine.
fn keyed(group: &'static str, name: String, t1: KeyTables, t2: KeyTables) -> Case {
    Case {
        group,
        name,
        run: Box::new(move |rng, games| {
            let mut acc = 0u32;
            for _ in 0..games {
                let d = deal(rng);
                acc += play_keyed(&d, [&t1, &t2], &mut NoTricks).0.points[0] as u32;
            }
            std::hint::black_box(acc)
        }),
    }
}

/// A two-player case through the batch path (`play_keyed_batch`, games in SIMD lanes on the
/// CPU's best path): the games are dealt into a block, then the block is played.
fn batched(group: &'static str, name: String, t1: KeyTables, t2: KeyTables) -> Case {
    Case {
        group,
        name,
        run: Box::new(move |rng, games| {
            let mut acc = 0u32;
            let mut decks = Vec::with_capacity(BLOCK);
            let mut left = games;
            while left > 0 {
                let n = left.min(BLOCK as u64);
                decks.clear();
                // Four games' shuffles at a time, as the simulate stage deals them.
                let mut draws = [[0i32; 39]; 4];
                for _ in 0..n / 4 {
                    rng.fill(draws.as_flattened_mut());
                    decks.extend(DotNetRandom::decks_from_draws(&draws));
                }
                decks.extend((0..n % 4).map(|_| deal(rng)));
                for (o, _) in play_keyed_batch(&decks, [&t1, &t2]) {
                    acc += o.points[0] as u32;
                }
                left -= n;
            }
            std::hint::black_box(acc)
        }),
    }
}

/// Games dealt before a batch is played (the simulate stage's tasks are of this order).
const BLOCK: usize = 1024;

fn cases() -> Vec<Case> {
    let spec = |k| PolicySpec::paper(k, TieBreak::AsReleased);
    let kinds = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter];
    let mut out = Vec::new();
    // The paper's three policies, every ordered pair.
    for a in kinds {
        for b in kinds {
            let name = format!("{a:?}-vs-{b:?}").to_lowercase();
            out.push(two_player("engine", name, spec(a).build(), spec(b).build()));
        }
    }
    // The same pairs through the table-driven engine (`play_keyed`), as the simulate stage
    // plays them.
    for a in kinds {
        for b in kinds {
            let name = format!("{a:?}-vs-{b:?}").to_lowercase();
            let t1 = spec(a).build().key_tables().expect("a paper policy");
            let t2 = spec(b).build().key_tables().expect("a paper policy");
            out.push(keyed("keyed", name.clone(), t1.clone(), t2.clone()));
            out.push(batched("batch", name, t1, t2));
        }
    }
    // The paper's policies as policy-language programs (the rule interpreter, not the built-in
    // fast path), against each other.
    use briscola::policy::builtin_defs::builtin_program;
    let program = |k| {
        let p = builtin_program(k, 0, TieBreak::AsReleased).expect("shipped");
        AnyPolicy::Rules(std::sync::Arc::new(p))
    };
    for (a, b) in [
        (PolicyKind::Greedy, PolicyKind::Greedy),
        (PolicyKind::Hoarder, PolicyKind::Hoarder),
        (PolicyKind::Counter, PolicyKind::Counter),
    ] {
        let name = format!("data-{a:?}-vs-data-{b:?}").to_lowercase();
        out.push(two_player("rules", name.clone(), program(a), program(b)));
        // The same programs as key tables (what the simulate stage plays).
        let tables = |k| {
            program(k)
                .key_tables()
                .expect("the shipped programs are keyed")
        };
        out.push(keyed("keyed", name.clone(), tables(a), tables(b)));
        out.push(batched("batch", name, tables(a), tables(b)));
    }
    // The general engine (`play_table`): the four-player partnership game and, for comparison,
    // the standard two-player game.
    let four = RulesSpec {
        players: 4,
        ..RulesSpec::default()
    }
    .validate()
    .expect("valid");
    let g = PolicyKind::Greedy;
    let tables: [(&str, Rules, Vec<PolicyKind>); 2] = [
        (
            "four-player-greedy-hoarder-greedy-counter",
            four,
            vec![g, PolicyKind::Hoarder, g, PolicyKind::Counter],
        ),
        ("standard-greedy-vs-greedy", Rules::standard(), vec![g, g]),
    ];
    for (name, rules, kinds) in tables {
        let seats: Vec<TablePolicy> = kinds
            .iter()
            .map(|&k| TablePolicy::new(&spec(k), &rules, FollowReading::Verbatim).expect("fits"))
            .collect();
        out.push(Case {
            group: "table",
            name: name.to_string(),
            run: Box::new(move |rng, games| {
                let refs: Vec<&TablePolicy> = seats.iter().collect();
                play_games(rng, games, refs.len(), |d, r| {
                    play_table(&rules, d, &refs, r, &mut NoTricks).points[0]
                })
            }),
        });
    }
    out
}

fn main() {
    let cases = cases();
    if let Ok(what) = std::env::var("ENGINE_PLAY") {
        let (id, games) = what.split_once(':').unwrap_or((&what, "20000"));
        let games: u64 = games.parse().expect("ENGINE_PLAY=<group>/<name>:<games>");
        let case = cases
            .iter()
            .find(|c| format!("{}/{}", c.group, c.name) == id)
            .unwrap_or_else(|| panic!("no case {id}"));
        let mut rng = DotNetRandom::new(42);
        println!(
            "{id}: {games} games, checksum {}",
            (case.run)(&mut rng, games)
        );
        return;
    }
    let mut c = Criterion::default()
        .sample_size(20)
        .measurement_time(std::time::Duration::from_secs(3))
        .configure_from_args();
    for group in ["engine", "keyed", "batch", "rules", "table"] {
        let mut g = c.benchmark_group(group);
        g.throughput(Throughput::Elements(BATCH));
        for case in cases.iter().filter(|c| c.group == group) {
            g.bench_function(&case.name, |b| {
                let mut rng = DotNetRandom::new(42);
                b.iter(|| (case.run)(&mut rng, BATCH))
            });
        }
        g.finish();
    }
    c.final_summary();
}
