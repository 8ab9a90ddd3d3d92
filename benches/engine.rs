//! Benchmarks of the bare engine: shuffle + play, no logging, per ordered policy pair, on one
//! thread (games/s/core). Run with `make bench`; figures go to BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use briscola::game::{Deck, NoTricks, SeatRng, play_game};
use briscola::policy::{PolicyKind, PolicySpec, TieBreak};
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
    targets = engine, rules
}
criterion_main!(benches);
