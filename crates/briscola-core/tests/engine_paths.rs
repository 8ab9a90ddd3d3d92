//! Every engine path this machine has (`EnginePath::available`: scalar, and AVX2 and AVX-512
//! where the CPU has them) against `play_keyed`, game by game: the same outcome and Table 5
//! tallies for every deck, at every batch size around the group sizes (0 to 17, 100 and a
//! large batch: full groups, pairs of groups, a last group alone, the scalar tail), for the
//! paper's policies (Definitions 1-3 at several thresholds, both tie-break readings), their
//! shipped policy-language programs, a program whose leader rule reads `sibling-seen` (the
//! watches), and tables with arbitrary keys (many ties, keys next to the empty slot's, random
//! watches). And the path's name, its choice and its refusals.
//!
//! Invariant: the expected values come from `play_keyed` alone, whose own equality with the
//! policies' games is tested in the workspace (`tests/it/keyed_engine.rs`); a path this CPU
//! lacks is reported on stderr, never silently compared with another.

use briscola_core::deal::DotNetRandom;
use briscola_core::game::{
    Deck, EnginePath, EnginePathError, KeyTables, NoTricks, engine_path, play_keyed,
    play_keyed_batch, play_keyed_batch_on, select_engine_path,
};
use briscola_core::policy::builtin_defs::builtin_program;
use briscola_core::policy::{PolicyKind, PolicySpec, RuleProgram, TieBreak};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// The batch sizes every path is tried at.
const SIZES: [usize; 13] = [0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 100, 2_503];

/// The paths compared here, with a note on stderr for the ones this CPU lacks.
fn paths() -> Vec<EnginePath> {
    let have = EnginePath::available();
    for p in EnginePath::ALL.iter().filter(|p| !have.contains(p)) {
        eprintln!("note: this CPU cannot run the {p} engine path; it is not tested here");
    }
    have
}

/// `n` decks: uniformly random ones (ChaCha8, seeded) and the paper's .NET stream, alternately.
fn decks(seed: u64, n: usize) -> Vec<Deck> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut net = DotNetRandom::new(seed as i32);
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                let mut ids: Vec<u8> = (0..40).collect();
                ids.shuffle(&mut rng);
                Deck::from_ids(&ids).expect("a permutation")
            } else {
                let mut d = Deck::ordered();
                d.shuffle_with(|m| net.next_below(m));
                d
            }
        })
        .collect()
}

/// `path`'s batch equals `play_keyed` on every deck.
fn check(path: EnginePath, decks: &[Deck], seats: [&KeyTables; 2], what: &str) {
    let got = play_keyed_batch_on(path, decks, seats).expect("an available path");
    assert_eq!(got.len(), decks.len(), "{path}: {what}");
    for (i, (d, g)) in decks.iter().zip(&got).enumerate() {
        let want = play_keyed(d, seats, &mut NoTricks);
        assert_eq!(
            *g,
            want,
            "{path}: {what}, game {i} of {}: {d:?}",
            decks.len()
        );
    }
}

/// The paper's policies as [`PolicySpec`]s build them: every kind at thresholds that change
/// decisions, both readings.
fn paper_tables() -> Vec<(String, KeyTables)> {
    let mut out = Vec::new();
    for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
        for kind in [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter] {
            for threshold in [0, 3, 11] {
                let spec = PolicySpec {
                    threshold,
                    ..PolicySpec::paper(kind, tie)
                };
                let t = spec
                    .build()
                    .key_tables()
                    .expect("the paper's policies have tables");
                out.push((format!("{kind:?}/{threshold}/{tie:?}"), t));
            }
        }
    }
    out
}

/// Policy-language programs: the shipped definitions of the paper's policies, and one whose
/// leader rule reads `sibling-seen` (watches) and whose follower rules read the led card.
fn program_tables() -> Vec<(String, KeyTables)> {
    let mut out = Vec::new();
    for tie in [TieBreak::AsReleased, TieBreak::AsWritten] {
        for kind in [PolicyKind::Greedy, PolicyKind::Hoarder, PolicyKind::Counter] {
            let p = builtin_program(kind, 7, tie).expect("shipped");
            out.push((
                format!("program {kind:?}/{tie:?}"),
                p.key_tables().expect("tables"),
            ));
        }
        let trapper = RuleProgram::compile(
            &[
                "dearest of carico & !trump & sibling-seen",
                "cheapest of figure",
                "dearest",
            ],
            &[
                "if led.trump then cheapest of trump & wins",
                "if led.points >= 3 and not led.trump then dearest of wins",
                "cheapest of liscio",
                "cheapest",
            ],
            tie,
        )
        .expect("compiles");
        out.push((
            format!("trapper/{tie:?}"),
            trapper.key_tables().expect("tables"),
        ));
    }
    out
}

/// Tables with arbitrary keys: `style` 0 many ties, 1 any key, 2 keys next to the empty
/// slot's; random watches on every card.
fn arbitrary_tables(rng: &mut rand_chacha::ChaCha8Rng, style: u32) -> KeyTables {
    let lead: Vec<u32> = (0..80).map(|_| rng.random_range(0..4)).collect();
    let watch: Vec<u64> = (0..40)
        .map(|_| rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>())
        .map(|w| w & ((1 << 40) - 1))
        .collect();
    let max = KeyTables::MAX_KEY;
    let follow: Vec<u32> = (0..1600)
        .map(|_| match style {
            0 => rng.random_range(0..3),
            1 => rng.random_range(0..=max),
            _ => rng.random_range(max - 2..=max),
        })
        .collect();
    KeyTables::build(
        |c, w| lead[c.id() as usize * 2 + w as usize],
        |c| watch[c.id() as usize],
        |l, c| follow[l.id() as usize * 40 + c.id() as usize],
    )
}

/// Every batch size, on every path, for a few pairs: greedy against itself (no watches),
/// counter against greedy and greedy against counter (watches on one seat), the trapper
/// program against itself, and arbitrary tables.
#[test]
fn every_path_plays_play_keyeds_games_at_every_batch_size() {
    let paper = paper_tables();
    let programs = program_tables();
    let find = |name: &str| &paper.iter().find(|(n, _)| n == name).expect(name).1;
    let greedy = find("Greedy/0/AsReleased");
    let counter = find("Counter/3/AsReleased");
    let trapper = &programs
        .iter()
        .find(|(n, _)| n == "trapper/AsReleased")
        .expect("trapper")
        .1;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(28);
    let (x, y) = (arbitrary_tables(&mut rng, 0), arbitrary_tables(&mut rng, 2));
    let pairs: [(&str, [&KeyTables; 2]); 5] = [
        ("greedy vs greedy", [greedy, greedy]),
        ("counter vs greedy", [counter, greedy]),
        ("greedy vs counter", [greedy, counter]),
        ("trapper vs trapper", [trapper, trapper]),
        ("arbitrary", [&x, &y]),
    ];
    for path in paths() {
        for (k, &n) in SIZES.iter().enumerate() {
            let some = decks(1000 + k as u64, n);
            for (what, seats) in pairs {
                check(path, &some, seats, &format!("{what}, {n} decks"));
            }
        }
    }
}

/// Every ordered pair of the paper's and the programs' tables, on every path, at sizes that
/// give pairs of groups, a last group alone and a tail.
#[test]
fn every_path_plays_play_keyeds_games_for_every_pair_of_tables() {
    let mut all = paper_tables();
    all.extend(program_tables());
    let paths = paths();
    for (i, (na, a)) in all.iter().enumerate() {
        for (j, (nb, b)) in all.iter().enumerate() {
            let n = [13, 29, 40][(i + j) % 3];
            let some = decks((i * 64 + j) as u64, n);
            for &path in &paths {
                check(path, &some, [a, b], &format!("{na} vs {nb}"));
            }
        }
    }
}

/// Arbitrary tables (ties broken by arrival, the empty slots, the watch switch) on every path.
#[test]
fn every_path_plays_play_keyeds_games_for_arbitrary_tables() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let paths = paths();
    for round in 0..30 {
        let (a, b) = (
            arbitrary_tables(&mut rng, round % 3),
            arbitrary_tables(&mut rng, (round + 1) % 3),
        );
        let some = decks(500 + round as u64, 203);
        for &path in &paths {
            check(path, &some, [&a, &b], &format!("round {round}"));
        }
    }
}

/// `play_keyed_batch` (the process's path) gives the same games too.
#[test]
fn the_default_path_plays_play_keyeds_games() {
    let t = paper_tables();
    let some = decks(77, 1_001);
    let seats = [&t[0].1, &t[8].1];
    let got = play_keyed_batch(&some, seats);
    for (d, g) in some.iter().zip(&got) {
        assert_eq!(*g, play_keyed(d, seats, &mut NoTricks));
    }
}

#[test]
fn engine_paths_parse_by_name_and_refuse_other_names() {
    for p in EnginePath::ALL {
        assert_eq!(p.name().parse::<EnginePath>(), Ok(p));
        assert_eq!(p.to_string(), p.name());
    }
    assert_eq!(EnginePath::Avx512.lanes(), 8);
    for bad in ["", "AVX2", "avx", "sse", "avx-512", " scalar"] {
        let e = bad.parse::<EnginePath>().unwrap_err();
        assert_eq!(
            e,
            EnginePathError::Unknown {
                given: bad.to_string()
            }
        );
        let text = e.to_string();
        assert!(
            text.contains("the valid names are scalar, avx2, avx512"),
            "{text}"
        );
        assert!(text.contains(&format!("{bad:?}")), "{text}");
    }
}

/// What this CPU has, the best of it, the selection (one test: the selection is the
/// process's), and the refusal of a path the CPU lacks where there is one.
#[test]
fn the_selection_is_an_available_path() {
    let have = EnginePath::available();
    eprintln!(
        "note: engine paths on this CPU: {:?}; best {}",
        have,
        EnginePath::best()
    );
    assert_eq!(have[0], EnginePath::Scalar);
    assert!(EnginePath::best().is_available());
    assert_eq!(have.last(), Some(&EnginePath::best()));
    for p in EnginePath::ALL {
        assert_eq!(have.contains(&p), p.is_available());
    }
    for &p in &have {
        select_engine_path(p).expect("available");
        assert_eq!(engine_path(), p);
    }
    let missing: Vec<EnginePath> = EnginePath::ALL
        .into_iter()
        .filter(|p| !p.is_available())
        .collect();
    if missing.is_empty() {
        eprintln!("note: this CPU runs every engine path: the refusal is not exercised here");
    }
    for p in missing {
        let before = engine_path();
        let e = select_engine_path(p).unwrap_err();
        assert_eq!(engine_path(), before, "a refused path is not selected");
        let text = e.to_string();
        assert!(text.contains(p.name()), "{text}");
        for q in &have {
            assert!(text.contains(q.name()), "{text}");
        }
        let t = paper_tables();
        assert_eq!(
            play_keyed_batch_on(p, &decks(1, 8), [&t[0].1, &t[0].1]),
            Err(e)
        );
    }
    select_engine_path(EnginePath::best()).expect("available");
}
