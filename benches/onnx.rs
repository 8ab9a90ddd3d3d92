//! Benchmarks of the ONNX policy (BriscolaBot-v3, `models/briscolabot-v3/`): the network per
//! observation evaluated alone and in batches of 64, and whole games against `random` played one
//! decision at a time (batch 1) and in lockstep blocks of 64 (the default), per move. Run with
//! `make bench`; figures go to BENCHMARKS.md.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use briscola::game::{Deck, SeatRng};
use briscola::policy::{AnyPolicy, Encoding, OnnxModel, OnnxPolicy, Random, Sampling};
use briscola::tournament::{BatchStreams, DealStream, play_batch};

fn model() -> std::sync::Arc<OnnxModel> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("models/briscolabot-v3/briscola-bot-v3.onnx");
    let enc = Encoding::BriscolaBotV3;
    OnnxModel::shared(&path, enc, enc.default_output()).expect("the shipped model loads")
}

/// Observations from real games: the bot's views against random, encoded.
fn observations(n: usize) -> Vec<f32> {
    let net = OnnxPolicy::new(model(), Sampling::Argmax, 1);
    let mut out = Vec::new();
    let mut decks = Vec::new();
    DealStream::chacha(1, "bench", "bench").next_chunk(n / 20 + 1, &mut decks);
    struct Grab<'a>(&'a OnnxPolicy, std::sync::Mutex<Vec<f32>>);
    impl briscola::game::Policy for Grab<'_> {
        fn choose(&self, v: &briscola::game::SeatView<'_>, rng: &mut SeatRng) -> usize {
            self.0.encode(v, &mut self.1.lock().unwrap());
            self.0.choose(v, rng)
        }
    }
    let grab = Grab(&net, Default::default());
    for (g, d) in decks.iter().enumerate() {
        let mut rngs = [
            SeatRng::new([1; 32], g as u64),
            SeatRng::new([2; 32], g as u64),
        ];
        briscola::game::play_game(d, &grab, &Random, &mut rngs, &mut briscola::game::NoTricks);
    }
    out.extend(grab.1.into_inner().unwrap());
    out.truncate(n * Encoding::BriscolaBotV3.input_len());
    out
}

fn inference(c: &mut Criterion) {
    let m = model();
    let len = Encoding::BriscolaBotV3.input_len();
    let obs = observations(64);
    let mut group = c.benchmark_group("onnx-inference");
    group.throughput(Throughput::Elements(64));
    group.bench_function("unbatched-64-moves", |b| {
        b.iter(|| {
            let mut acc = 0.0f32;
            for row in obs.chunks(len) {
                acc += m.run(row, 1)[0];
            }
            std::hint::black_box(acc)
        })
    });
    group.bench_function("batch-64", |b| {
        b.iter(|| std::hint::black_box(m.run(&obs, 64)[0]))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    const GAMES: usize = 256;
    let mut decks: Vec<Deck> = Vec::new();
    DealStream::chacha(2, "bench", "bench").next_chunk(GAMES, &mut decks);
    let keys = [[1u8; 32], [2u8; 32]];
    let mut group = c.benchmark_group("onnx-games-vs-random");
    // The bot decides 20 times a game.
    group.throughput(Throughput::Elements((GAMES * 20) as u64));
    group.sample_size(10);
    for batch in [1u32, 64] {
        let bot = AnyPolicy::Onnx(OnnxPolicy::new(model(), Sampling::Argmax, batch));
        let random = AnyPolicy::Random(Random);
        group.bench_function(format!("batch-{batch}"), |b| {
            b.iter(|| {
                let streams = BatchStreams {
                    first_game: 0,
                    keys: &keys,
                };
                std::hint::black_box(play_batch(&decks, streams, &bot, &random).len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, inference, games);
criterion_main!(benches);
