//! Benchmarks of the bare engine: shuffle + play, no logging, per ordered policy pair, on one
//! thread (games/s/core). Run with `make bench`; figures go to BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use briscola::game::{Deck, NoTricks, Rules, RulesSpec, SeatRng, play_game, play_table};
use briscola::policy::{FollowReading, PolicyKind, PolicySpec, TablePolicy, TieBreak};
use briscola::tournament::DotNetRandom;

const BATCH: u64 = 10_000;

fn engine(c: &mut Criterion) {
    let kinds = [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter];
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(BATCH));
    for a in kinds {
        for b in kinds {
            let p1 = PolicySpec::paper(a, TieBreak::AsReleased).build();
            let p2 = PolicySpec::paper(b, TieBreak::AsReleased).build();
            let name = format!("{a:?}-vs-{b:?}").to_lowercase();
            group.bench_function(name, |bench| {
                let mut rng = DotNetRandom::new(42);
                bench.iter(|| {
                    let mut acc = 0u32;
                    for _ in 0..BATCH {
                        let mut d = Deck::ordered();
                        d.shuffle_with(|m| rng.next_below(m));
                        let mut rngs = [SeatRng::new([1; 32], 0), SeatRng::new([2; 32], 0)];
                        let o = play_game(&d, &p1, &p2, &mut rngs, &mut NoTricks);
                        acc += o.points[0] as u32;
                    }
                    std::hint::black_box(acc)
                })
            });
        }
    }
    group.finish();
}

/// The general engine (`play_table`): the four-player partnership game (greedy+greedy against
/// hoarder+counter, seats alternating) and, for comparison, the standard two-player game.
fn table(c: &mut Criterion) {
    let four = RulesSpec {
        players: 4,
        ..RulesSpec::default()
    }
    .validate()
    .expect("valid");
    let spec = |k| PolicySpec::paper(k, TieBreak::AsReleased);
    let mut group = c.benchmark_group("table");
    group.throughput(Throughput::Elements(BATCH));
    let cases: [(&str, Rules, Vec<PolicyKind>); 2] = [
        (
            "four-player-greedy-hoarder-greedy-counter",
            four,
            vec![
                PolicyKind::Greedy,
                PolicyKind::Hoarder,
                PolicyKind::Greedy,
                PolicyKind::Counter,
            ],
        ),
        (
            "standard-greedy-vs-greedy",
            Rules::standard(),
            vec![PolicyKind::Greedy, PolicyKind::Greedy],
        ),
    ];
    for (name, rules, kinds) in cases {
        let seats: Vec<TablePolicy> = kinds
            .iter()
            .map(|&k| TablePolicy::new(&spec(k), &rules, FollowReading::Verbatim).expect("fits"))
            .collect();
        let refs: Vec<&TablePolicy> = seats.iter().collect();
        group.bench_function(name, |bench| {
            let mut rng = DotNetRandom::new(42);
            bench.iter(|| {
                let mut acc = 0u32;
                for _ in 0..BATCH {
                    let mut d = Deck::ordered();
                    d.shuffle_with(|m| rng.next_below(m));
                    let mut rngs: Vec<SeatRng> = (0..refs.len())
                        .map(|s| SeatRng::new([s as u8; 32], 0))
                        .collect();
                    let o = play_table(&rules, &d, &refs, &mut rngs, &mut NoTricks);
                    acc += o.points[0] as u32;
                }
                std::hint::black_box(acc)
            })
        });
    }
    group.finish();
}

/// The paper's greedy as a data-defined rule program (the interpreter, not the built-in fast
/// path) against the built-in greedy: the bound is within 1.25x of `engine/greedy-vs-greedy`.
fn rules(c: &mut Criterion) {
    use briscola::policy::AnyPolicy;
    use briscola::policy::builtin_defs::builtin_program;
    let mut group = c.benchmark_group("rules");
    group.throughput(Throughput::Elements(BATCH));
    let prog = builtin_program(PolicyKind::Greedy, 0, TieBreak::AsReleased).expect("shipped");
    let p1 = AnyPolicy::Rules(std::sync::Arc::new(prog));
    let p2 = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build();
    group.bench_function("data-greedy-vs-greedy", |bench| {
        let mut rng = DotNetRandom::new(42);
        bench.iter(|| {
            let mut acc = 0u32;
            for _ in 0..BATCH {
                let mut d = Deck::ordered();
                d.shuffle_with(|m| rng.next_below(m));
                let mut rngs = [SeatRng::new([1; 32], 0), SeatRng::new([2; 32], 0)];
                let o = play_game(&d, &p1, &p2, &mut rngs, &mut NoTricks);
                acc += o.points[0] as u32;
            }
            std::hint::black_box(acc)
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = engine, table, rules
}
criterion_main!(benches);
