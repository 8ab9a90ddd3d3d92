//! Benchmarks of the search agent and the solvers: one `search` game against greedy at the
//! default setting (20 decisions of the search seat; the per-decision time is the game's time
//! divided by 20), a decision at the first trick alone (the widest sampling), an open two-player
//! game solved exactly to its end, and `briscola solve`'s question on the logic model's seed
//! position (some and every completion). Run with `make bench`; figures go to BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use briscola::game::{Card, Deck, DrawOrder, NoTricks, Policy, SeatRng, SeatView, play_game};
use briscola::policy::{PolicyKind, PolicySpec, TieBreak};
use briscola::solve::{CardSet, DEFAULT_MAX_NODES, Duel, DuelSolver, Feasibility, PositionSpec};
use briscola::tournament::DotNetRandom;

fn deck(seed: i32) -> Deck {
    let mut rng = DotNetRandom::new(seed);
    let mut d = Deck::ordered();
    d.shuffle_with(|m| rng.next_below(m));
    d
}

fn agent(c: &mut Criterion) {
    let search = PolicySpec::search_default().build();
    let greedy = PolicySpec::paper(PolicyKind::Greedy, TieBreak::AsReleased).build();
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(20));
    group.bench_function("game-vs-greedy-20-decisions", |b| {
        let mut i = 0;
        b.iter(|| {
            i += 1;
            let d = deck(i);
            let mut rngs = [SeatRng::new([1; 32], i as u64), SeatRng::new([2; 32], 0)];
            play_game(&d, &search, &greedy, &mut rngs, &mut NoTricks).points[0]
        })
    });
    group.throughput(Throughput::Elements(1));
    let d = deck(7);
    let hand: Vec<Card> = d.cards()[..3].to_vec();
    group.bench_function("first-trick-decision", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            let view = SeatView::opening(&hand, d.face_up());
            search.choose(&view, &mut SeatRng::new([3; 32], i))
        })
    });
    group.finish();
}

fn solvers(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    // An open game after 10 tricks: 20 cards left (6 in hands, 14 in the stock), solved exactly.
    let d = deck(11);
    let cards = d.cards();
    let duel = Duel {
        trump: Some(d.face_up().suit()),
        hands: [CardSet::of(&cards[20..23]), CardSet::of(&cards[23..26])],
        stock: cards[26..].to_vec(),
        leader: 0,
        led: None,
        draw_order: DrawOrder::WinnerFirst,
    };
    let mut solver = DuelSolver::new();
    group.bench_function("duel-exact-last-10-tricks", |b| {
        b.iter(|| solver.value(&duel, None))
    });
    let text = include_str!("../tests/data/solve/logic-model-seed.toml");
    let pos = toml::from_str::<PositionSpec>(text)
        .expect("the seed parses")
        .validate()
        .expect("the seed is valid");
    group.bench_function("seed-some-completion", |b| {
        b.iter(|| Feasibility::some(&pos, DEFAULT_MAX_NODES))
    });
    group.bench_function("seed-every-completion", |b| {
        b.iter(|| Feasibility::every(&pos, DEFAULT_MAX_NODES))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = agent, solvers
}
criterion_main!(benches);
