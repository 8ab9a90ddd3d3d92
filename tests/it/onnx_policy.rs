//! The `onnx` policy kind through the real binary, with the shipped BriscolaBot-v3 network
//! (`models/briscolabot-v3/`): its score against `random` (the figure its authors report,
//! ~0.92), byte-identical shards on 1 and 2 threads and for lockstep blocks of 1 and 64 games,
//! and every bad input (missing or wrong model file, a network whose input or output does not
//! fit the encoding, an unknown encoding, a bad batch) exiting 2 with the file, the field and
//! what is valid.

use std::path::{Path, PathBuf};

use briscola::tournament::read_manifest;

use crate::common::{
    assert_exit, briscola, briscola_env, file_hashes, simulate_into, stderr, stdout, write_config,
};

/// The shipped network, from the checkout.
fn model() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/briscolabot-v3/briscola-bot-v3.onnx")
}

/// A study file whose `[policies]` hold `bot` (the shipped network, with `extra` lines) and
/// `random`; enough of the rest for `simulate --config` to read it.
fn config(dir: &Path, extra: &str) -> PathBuf {
    std::fs::create_dir_all(dir.join("models")).unwrap();
    std::fs::copy(model(), dir.join("models/bot.onnx")).unwrap();
    let text = crate::common::BASE_CONFIG
        .replace(
            "policies = [\"greedy\", \"hoarder\", \"counter\"]",
            "policies = [\"greedy\", \"bot\", \"random\"]",
        )
        .replace(
            "[policies.counter]\nkind = \"counter\"\nthreshold = 10",
            &format!(
                "[policies.random]\nkind = \"random\"\n\n[policies.bot]\nkind = \"onnx\"\nmodel = \"models/bot.onnx\"\nencoding = \"briscolabot-v3\"\n{extra}"
            ),
        );
    write_config(dir, &text)
}

/// The bot's line of `simulate`'s pair summary against random.
fn bot_vs_random(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with("bot vs random"))
        .unwrap_or_else(|| panic!("no bot vs random line in\n{out}"))
        .to_string()
}

/// BriscolaBot-v3 against random over 10,000 games (5,000 in each seat, chacha seed 2026,
/// argmax): the model's README (`models/briscolabot-v3/README.md`) reports ~92% (its authors
/// ~93%); we measure 0.896 (ties as half; wins 0.900 of the decided games, 95% Wilson
/// 0.894-0.906), the same counts on 1 and 2 threads. Every encoding mistake we tried lands far
/// lower (no led-card plane 0.48, no completed-tricks plane 0.81, no face-up plane 0.79, raw
/// points 0.64), while suit relabelings stay within noise of 0.90: so the interval must lie
/// above 0.85, and the counts are pinned (a change in the encoding, the mapping, the cut or
/// the sampling moves them).
#[test]
fn briscolabot_beats_random_about_90_percent_on_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), "");
    let cfg = cfg.to_str().unwrap();
    let args = [
        "--config", cfg, "--policies", "bot,random", "--seed", "2026", "--games", "20000",
    ];
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let run = |out: &Path, threads: &str| {
        let out_s = out.to_str().unwrap();
        let mut all = vec!["simulate"];
        all.extend_from_slice(&args);
        all.extend_from_slice(&["--out", out_s]);
        let o = briscola_env(&all, dir.path(), &[("RAYON_NUM_THREADS", threads)]);
        assert_exit(&o, 0);
        stdout(&o)
    };
    let line = bot_vs_random(&run(&one, "1"));
    assert_eq!(bot_vs_random(&run(&two, "2")), line);
    assert_eq!(file_hashes(&one), file_hashes(&two));
    assert!(line.contains("(both seats, 10000 games)"), "{line}");
    let m = read_manifest(&one).unwrap();
    let (mut wins, mut decided) = (0, 0);
    for s in &m.shards {
        let sum = &s.summary;
        match (sum.spec.g1.name.as_str(), sum.spec.g2.name.as_str()) {
            ("bot", "random") => wins += sum.g1_wins,
            ("random", "bot") => wins += sum.non_tied - sum.g1_wins,
            _ => continue,
        }
        decided += sum.non_tied;
    }
    let ci = briscola::stats::wilson(wins, decided, 0.95).unwrap();
    assert!(ci.lo > 0.85, "bot wins {wins} of {decided}: {ci:?}\n{line}");
    assert_eq!((wins, decided), (8911, 9898), "{line}");
    assert!(
        line.contains("bot wins 8911, ties 102, loses 987") && line.contains("half 0.8962"),
        "{line}"
    );
}

/// Lockstep blocks of 64 games (the default) and decisions evaluated one at a time give the
/// same bytes, for both sampling rules: a game's decisions do not depend on the games that
/// share its batch.
#[test]
fn batch_size_does_not_change_any_decision() {
    for sampling in ["argmax", "sample"] {
        let dir = tempfile::tempdir().unwrap();
        let hashes: Vec<_> = ["1", "64", "7"]
            .iter()
            .map(|b| {
                let sub = dir.path().join(format!("b{b}"));
                std::fs::create_dir_all(&sub).unwrap();
                let cfg = config(&sub, &format!("sampling = \"{sampling}\"\nbatch = {b}\n"));
                let out = sub.join("out");
                simulate_into(
                    &sub,
                    &out,
                    &[
                        "--config",
                        cfg.to_str().unwrap(),
                        "--policies",
                        "bot,greedy",
                        "--games",
                        "1200",
                    ],
                    &[],
                );
                let mut h = file_hashes(&out);
                // shard.json and the manifest name the batch when it is not the default.
                h.retain(|k, _| k.ends_with(".parquet"));
                h
            })
            .collect();
        assert_eq!(hashes[0].len(), 4, "{:?}", hashes[0]);
        assert_eq!(hashes[0], hashes[1], "{sampling}: batch 1 vs 64");
        assert_eq!(hashes[0], hashes[2], "{sampling}: batch 1 vs 7");
    }
}

/// `sample` draws from the seat's stream: a different seed gives other games, the same seed the
/// same ones; and it differs from `argmax` on the same deals.
#[test]
fn sampling_is_reproducible_by_seed_and_differs_from_argmax() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &str, seed: &str| {
        let sub = dir.path().join(name);
        std::fs::create_dir_all(&sub).unwrap();
        let cfg = config(&sub, extra);
        let out = sub.join("out");
        simulate_into(
            &sub,
            &out,
            &[
                "--config",
                cfg.to_str().unwrap(),
                "--policies",
                "bot,random",
                "--seed",
                seed,
                "--games",
                "400",
            ],
            &[],
        );
        let mut h = file_hashes(&out);
        h.retain(|k, _| k.ends_with("games.parquet"));
        h
    };
    let a = run("a", "sampling = \"sample\"\n", "1");
    assert_eq!(a.len(), 4, "{a:?}");
    assert_eq!(a, run("b", "sampling = \"sample\"\n", "1"));
    assert_ne!(a, run("c", "sampling = \"sample\"\n", "2"));
    assert_ne!(a, run("d", "", "1"));
}

/// `briscola policies bot` shows the model's sha256; `play` against the bot and `replay` of a
/// recorded game explain its choices with the network's probability.
#[test]
fn policies_play_and_replay_know_the_bot() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), "");
    let cfg = cfg.to_str().unwrap();
    let o = briscola(&["policies", "bot", "--config", cfg], dir.path());
    assert_exit(&o, 0);
    let sha = "ab6fed4667cb9ddbacdd394d717108233ab2dbdced7ee4440d0bdfbce1cb53d2";
    assert!(stdout(&o).contains(sha), "{}", stdout(&o));
    assert!(stdout(&o).contains("briscolabot-v3"), "{}", stdout(&o));

    std::fs::write(dir.path().join("moves"), "1\n".repeat(20)).unwrap();
    let o = briscola(
        &[
            "play",
            "--config",
            cfg,
            "--opponent",
            "bot",
            "--seed",
            "4",
            "--moves",
            "moves",
            "--record",
            "game.json",
        ],
        dir.path(),
    );
    assert_exit(&o, 0);
    let o = briscola(
        &["replay", "--config", cfg, "--record", "game.json"],
        dir.path(),
    );
    assert_exit(&o, 0);
    assert!(
        stdout(&o).contains("network argmax, p="),
        "{}",
        stdout(&o)
    );
}

/// A one-node ONNX model (`Softmax` over an input of `width` values, output tensor
/// `/Softmax_output_0`), written as protobuf by hand (field numbers from onnx.proto).
fn softmax_model(width: u64) -> Vec<u8> {
    fn varint(mut v: u64, out: &mut Vec<u8>) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    fn field_int(n: u64, v: u64) -> Vec<u8> {
        let mut out = Vec::new();
        varint(n << 3, &mut out);
        varint(v, &mut out);
        out
    }
    fn field_bytes(n: u64, b: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        varint(n << 3 | 2, &mut out);
        varint(b.len() as u64, &mut out);
        out.extend_from_slice(b);
        out
    }
    let dim = |v: u64| field_bytes(1, &field_int(1, v));
    let value_info = |name: &str| {
        let shape = [dim(1), dim(width)].concat();
        let tensor = [field_int(1, 1), field_bytes(2, &shape)].concat(); // elem_type FLOAT
        let ty = field_bytes(1, &tensor);
        [field_bytes(1, name.as_bytes()), field_bytes(2, &ty)].concat()
    };
    let node = [
        field_bytes(1, b"x"),
        field_bytes(2, b"/Softmax_output_0"),
        field_bytes(3, b"/Softmax"),
        field_bytes(4, b"Softmax"),
    ]
    .concat();
    let graph = [
        field_bytes(1, &node),
        field_bytes(2, b"g"),
        field_bytes(11, &value_info("x")),
        field_bytes(12, &value_info("/Softmax_output_0")),
    ]
    .concat();
    let opset = [field_bytes(1, b""), field_int(2, 13)].concat();
    [
        field_int(1, 7),
        field_bytes(7, &graph),
        field_bytes(8, &opset),
    ]
    .concat()
}

/// Each bad input through `simulate --config` (and `run`): exit 2, stderr names the study
/// file, the field and what is valid; no panic; nothing written.
#[test]
fn bad_model_inputs_exit_2_naming_file_field_and_valid_values() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("not-onnx.onnx"), b"this is not a network\n").unwrap();
    std::fs::write(d.join("narrow.onnx"), softmax_model(100)).unwrap();
    std::fs::write(d.join("wide-out.onnx"), softmax_model(202)).unwrap();
    std::fs::copy(model(), d.join("bot.onnx")).unwrap();
    let cases: [(&str, &str, &[&str]); 8] = [
        (
            "missing model file",
            "model = \"nosuch.onnx\"\nencoding = \"briscolabot-v3\"",
            &["policies.bot.model", "nosuch.onnx", "cannot read"],
        ),
        (
            "not an ONNX file",
            "model = \"not-onnx.onnx\"\nencoding = \"briscolabot-v3\"",
            &["policies.bot.model", "not-onnx.onnx", "not an ONNX model"],
        ),
        (
            "input shape does not fit the encoding",
            "model = \"narrow.onnx\"\nencoding = \"briscolabot-v3\"",
            &["policies.bot.model", "narrow.onnx", "[1, 100]", "202", "briscolabot-v3"],
        ),
        (
            "output is not one value per card",
            "model = \"wide-out.onnx\"\nencoding = \"briscolabot-v3\"",
            &["policies.bot.model", "wide-out.onnx", "[1, 202]", "[N, 40]"],
        ),
        (
            "unknown encoding",
            "model = \"bot.onnx\"\nencoding = \"alphazero\"",
            &["policies.bot.encoding", "alphazero", "briscolabot-v3"],
        ),
        (
            "no node to cut at",
            "model = \"bot.onnx\"\nencoding = \"briscolabot-v3\"\noutput = \"/Nope\"",
            &["policies.bot.output", "/Nope", "Softmax_output_0"],
        ),
        (
            "batch 0",
            "model = \"bot.onnx\"\nencoding = \"briscolabot-v3\"\nbatch = 0",
            &["policies.bot.batch", "1", "4096"],
        ),
        (
            "no model",
            "encoding = \"briscolabot-v3\"",
            &["policies.bot", "needs `model`"],
        ),
    ];
    for (what, body, must) in cases {
        let text = crate::common::BASE_CONFIG.replace(
            "[policies.counter]\nkind = \"counter\"\nthreshold = 10",
            &format!("[policies.counter]\nkind = \"counter\"\n\n[policies.bot]\nkind = \"onnx\"\n{body}\n"),
        );
        let cfg = write_config(d, &text);
        for args in [
            vec!["simulate", "--config", "pipeline.toml", "--policies", "bot", "--out", "o"],
            vec!["run", "--config", "pipeline.toml"],
        ] {
            let o = briscola(&args, d);
            assert_exit(&o, 2);
            let err = stderr(&o);
            assert!(!err.contains("panicked"), "{what}: {err}");
            assert!(err.contains(cfg.file_name().unwrap().to_str().unwrap()), "{what}: {err}");
            for m in must {
                assert!(err.contains(m), "{what}: stderr lacks {m:?}\n{err}");
            }
            assert!(!d.join("o").exists(), "{what}: wrote output");
        }
    }
}
