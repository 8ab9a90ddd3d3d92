//! Every command around `run` as safe as `run` (issue 9 items 1-3, 5; issue 8 items 2 and 4;
//! issue 11 item 4), through the real binary: the Parquet export at full size (read back with
//! polars, and with pyarrow when it is installed), `--out` that never replaces a device, FIFO or
//! symlink, `--out -` streaming to stdout, no panic on a closed stdout, `simulate`'s atomic
//! publish (killed at seeded random moments) and its `--force`, `simulate --config` with the
//! config's named policies, and `gc`'s summary.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::*;
use polars::prelude::*;

fn parquet(path: &Path) -> DataFrame {
    let p = path.to_string_lossy().to_string();
    LazyFrame::scan_parquet(PlRefPath::new(p.as_str()), ScanArgsParquet::default())
        .unwrap()
        .collect()
        .unwrap()
}

fn sum_u64(df: &DataFrame, col: &str) -> u64 {
    df.column(col)
        .unwrap()
        .cast(&DataType::UInt64)
        .unwrap()
        .u64()
        .unwrap()
        .into_no_null_iter()
        .sum()
}

fn small_sim(dir: &Path) {
    simulate_into(dir, &dir.join("t"), &["--games", "90"], &[]);
}

/// A shell pipeline `briscola args | head -c 1`, returning briscola's exit code and stderr.
fn into_closed_pipe(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then close the pipe.
    let mut out = child.stdout.take().unwrap();
    let mut one = [0u8; 1];
    let _ = std::io::Read::read(&mut out, &mut one);
    drop(out);
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn full_size_parquet_export_of_the_paper_design_reads_back() {
    // The paper's design: 999,999 games (111,111 per ordered matchup, several engine chunks per
    // shard, which is what made the batched writer panic), dotnet-replay seed 42. The trick
    // table is not written by simulate: the export regenerates it from each shard's seed.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    simulate_into(
        p,
        &p.join("t"),
        &["--games", "1000000", "--seed", "42"],
        &[],
    );
    for (table, rows) in [("games", 999_999usize), ("tricks", 19_999_980)] {
        let out = format!("{table}.parquet");
        let o = briscola(
            &[
                "export", table, "--format", "parquet", "--from", "t", "--out", &out,
            ],
            p,
        );
        assert_exit(&o, 0);
        let df = parquet(&p.join(&out));
        assert_eq!(df.height(), rows, "{table}");
        // Checksums of columns: every game's points sum to 120, and game ids run 1..=999,999.
        let games = 999_999u64;
        let per_game = (rows as u64) / games;
        assert_eq!(
            sum_u64(&df, "points_g1") + sum_u64(&df, "points_g2"),
            120 * games * per_game,
            "{table}"
        );
        assert_eq!(
            sum_u64(&df, "game_id"),
            per_game * games * (games + 1) / 2,
            "{table}"
        );
        let names: Vec<String> = df
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let want: Vec<&str> = if table == "games" {
            briscola::tournament::EXPORT_GAME_COLUMNS.to_vec()
        } else {
            briscola::tournament::EXPORT_TRICK_COLUMNS.to_vec()
        };
        assert_eq!(names, want, "{table}");
        pyarrow_check(&p.join(&out), rows);
    }
    // Nothing but the two exports and the tournament.
    let mut left: Vec<String> = std::fs::read_dir(p)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["games.parquet", "t", "tricks.parquet"]);
}

/// Read `path` with pyarrow too, if python3 has it; skip loudly if not.
fn pyarrow_check(path: &Path, rows: usize) {
    let script = "import sys, pyarrow.parquet as pq\nf = pq.ParquetFile(sys.argv[1])\nm = f.metadata.metadata or {}\nprint(f.metadata.num_rows, m.get(b'deal_source', b'').decode(), m.get(b'seed', b'').decode())";
    let o = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output();
    match o {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            assert_eq!(text.trim(), format!("{rows} dotnet-replay 42"), "pyarrow");
        }
        _ => eprintln!(
            "SKIPPED: pyarrow is not installed (pip install pyarrow); the Parquet file was read with polars only"
        ),
    }
}

#[test]
fn csv_and_parquet_game_exports_agree_column_for_column() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    small_sim(p);
    for f in ["csv", "parquet"] {
        let out = format!("g.{f}");
        assert_exit(
            &briscola(
                &[
                    "export", "games", "--format", f, "--from", "t", "--out", &out,
                ],
                p,
            ),
            0,
        );
    }
    let csv = CsvReadOptions::default()
        .try_into_reader_with_file_path(Some(p.join("g.csv")))
        .unwrap()
        .finish()
        .unwrap();
    let pq = parquet(&p.join("g.parquet"));
    assert_eq!(csv.get_column_names(), pq.get_column_names());
    assert_eq!(csv.height(), 90);
    for c in pq.get_column_names() {
        let a = csv.column(c).unwrap().cast(&DataType::String).unwrap();
        let b = pq.column(c).unwrap().cast(&DataType::String).unwrap();
        assert!(a.equals(&b), "column {c} differs");
    }
    // Every integer column of the Parquet is UInt8 except the ids (UInt32).
    for (name, dtype) in pq.schema().iter() {
        let want = match name.as_str() {
            "game_id" | "match_id" => DataType::UInt32,
            "g1_policy" | "g2_policy" | "winner" => DataType::String,
            _ => DataType::UInt8,
        };
        assert_eq!(dtype, &want, "{name}");
    }
}

#[test]
fn trick_parquet_has_policy_columns_and_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    small_sim(p);
    let o = briscola(
        &[
            "export",
            "tricks",
            "--format",
            "parquet",
            "--from",
            "t",
            "--out",
            "t.parquet",
        ],
        p,
    );
    assert_exit(&o, 0);
    let df = parquet(&p.join("t.parquet"));
    let g1 = df
        .column("g1_policy")
        .unwrap()
        .str()
        .unwrap()
        .get(0)
        .map(str::to_string);
    assert_eq!(
        g1.as_deref(),
        Some("greedy"),
        "names as the user wrote them"
    );
    // Key-value metadata, read from the file's footer by polars' parquet reader.
    let mut f = std::fs::File::open(p.join("t.parquet")).unwrap();
    let md = polars::io::parquet::read::ParquetReader::new(&mut f)
        .get_metadata()
        .unwrap()
        .clone();
    let kv: BTreeMap<String, String> = md
        .key_value_metadata()
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|k| (k.key, k.value.unwrap_or_default()))
        .collect();
    for (k, v) in [
        ("seed", "42"),
        ("deal_source", "dotnet-replay"),
        ("table", "tricks"),
    ] {
        assert_eq!(kv.get(k).map(String::as_str), Some(v), "{kv:?}");
    }
    for k in [
        "study",
        "code_version",
        "config_sha256",
        "policies",
        "simulate_code",
    ] {
        assert!(kv.contains_key(k), "{k} missing: {kv:?}");
    }
}

#[test]
fn export_never_replaces_a_device_fifo_symlink_or_directory() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    small_sim(p);
    std::fs::write(p.join("victim"), b"keep").unwrap();
    std::os::unix::fs::symlink(p.join("victim"), p.join("link")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(p.join("fifo"))
            .status()
            .unwrap()
            .success()
    );
    std::fs::create_dir(p.join("adir")).unwrap();
    let null = "/dev/null";
    for (out, kind) in [
        ("link", "symbolic link"),
        ("fifo", "FIFO"),
        (null, "character device"),
        ("adir", "directory"),
    ] {
        for format in ["csv", "parquet"] {
            let o = briscola(
                &[
                    "export", "tricks", "--format", format, "--from", "t", "--out", out,
                ],
                p,
            );
            assert_exit(&o, 2);
            let err = stderr(&o);
            assert!(err.contains(kind) && err.contains("--out -"), "{err}");
        }
    }
    assert_eq!(std::fs::read(p.join("victim")).unwrap(), b"keep");
    assert!(
        std::fs::symlink_metadata(p.join("link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::metadata(null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // A regular file is replaced, and no temporary is left.
    std::fs::write(p.join("old.csv"), b"old").unwrap();
    let o = briscola(
        &[
            "export", "games", "--format", "csv", "--from", "t", "--out", "old.csv",
        ],
        p,
    );
    assert_exit(&o, 0);
    assert!(
        std::fs::read_to_string(p.join("old.csv"))
            .unwrap()
            .starts_with("game_id,")
    );
    let stray: Vec<String> = std::fs::read_dir(p)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn a_planted_symlink_at_the_old_temp_name_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    small_sim(p);
    std::fs::write(p.join("victim"), b"keep").unwrap();
    // The old code wrote `.<name>.tmp` with File::create, following a symlink there.
    std::os::unix::fs::symlink(p.join("victim"), p.join(".out.csv.tmp")).unwrap();
    let o = briscola(
        &[
            "export", "games", "--format", "csv", "--from", "t", "--out", "out.csv",
        ],
        p,
    );
    assert_exit(&o, 0);
    assert_eq!(std::fs::read(p.join("victim")).unwrap(), b"keep");
}

#[test]
fn out_dash_streams_to_stdout_and_equals_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    small_sim(p);
    for (table, format) in [("tricks", "csv"), ("games", "parquet")] {
        let file = format!("{table}.{format}");
        assert_exit(
            &briscola(
                &[
                    "export", table, "--format", format, "--from", "t", "--out", &file,
                ],
                p,
            ),
            0,
        );
        let o = briscola(
            &[
                "export", table, "--format", format, "--from", "t", "--out", "-",
            ],
            p,
        );
        assert_exit(&o, 0);
        assert_eq!(
            o.stdout,
            std::fs::read(p.join(&file)).unwrap(),
            "{table} {format}"
        );
        assert!(stderr(&o).contains("standard output"), "{}", stderr(&o));
    }
}

/// A closed pipe is the reader's choice (exit 0, above); a stdout that cannot take the text
/// (a full disk: `/dev/full`) is a failure, said on stderr, not a silent success.
#[test]
fn a_full_stdout_is_an_error() {
    let dir = study(BASE_CONFIG);
    let p = dir.path();
    for args in [
        vec!["policies", "--language"],
        vec!["policies"],
        vec!["dag"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = command(&args, p).stdout(full).output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write to standard output"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_closed_stdout_never_panics() {
    let dir = study(BASE_CONFIG);
    let p = dir.path();
    assert_exit(&briscola(&["run"], p), 0);
    small_sim(p);
    let cases: Vec<Vec<&str>> = vec![
        vec!["status"],
        vec!["status", "--json"],
        vec!["dag"],
        vec!["dag", "--mermaid"],
        vec!["gc", "--verbose"],
        vec!["verify"],
        vec![
            "export", "tricks", "--format", "csv", "--from", "t", "--out", "-",
        ],
        vec![
            "export", "tricks", "--format", "parquet", "--from", "t", "--out", "-",
        ],
        vec![
            "export", "games", "--format", "csv", "--from", "t", "--out", "-",
        ],
    ];
    for args in cases {
        let (code, err) = into_closed_pipe(&args, p);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
}

#[test]
fn verify_before_any_run_says_so_in_one_line_and_writes_nothing() {
    let dir = study(BASE_CONFIG);
    let p = dir.path();
    let o = briscola(&["verify"], p);
    assert_exit(&o, 4);
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("briscola run"), "{err}");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(!p.join("outputs").exists(), "verify made outputs/");
}

#[test]
fn simulate_refuses_a_non_empty_out_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir(p.join("t")).unwrap();
    std::fs::write(p.join("t/mine.txt"), b"mine").unwrap();
    let o = briscola(&["simulate", "--games", "9", "--out", "t"], p);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(std::fs::read(p.join("t/mine.txt")).unwrap(), b"mine");
    // --force replaces a tournament, never a directory of other files.
    let o = briscola(&["simulate", "--games", "9", "--force", "--out", "t"], p);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("tournament.json"), "{}", stderr(&o));
    assert_eq!(std::fs::read(p.join("t/mine.txt")).unwrap(), b"mine");
    // An empty directory is fine; so is --force over a tournament, which replaces everything
    // (no stale shards), but not from inside it (it would take the current directory away).
    std::fs::create_dir(p.join("e")).unwrap();
    assert_exit(&briscola(&["simulate", "--games", "9", "--out", "e"], p), 0);
    let inside = briscola(
        &["simulate", "--games", "9", "--force", "--out", "."],
        &p.join("e"),
    );
    assert_exit(&inside, 2);
    assert!(
        stderr(&inside).contains("current directory"),
        "{}",
        stderr(&inside)
    );
    let o = briscola(
        &[
            "simulate",
            "--games",
            "4",
            "--policies",
            "greedy,counter",
            "--force",
            "--out",
            "e",
        ],
        p,
    );
    assert_exit(&o, 0);
    let mut entries: Vec<String> = std::fs::read_dir(p.join("e"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        [
            "counter-vs-counter",
            "counter-vs-greedy",
            "greedy-vs-counter",
            "greedy-vs-greedy",
            "tournament.json"
        ]
    );
    // Nothing hidden left beside it.
    let hidden: Vec<String> = std::fs::read_dir(p)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
}

#[test]
fn killed_simulate_leaves_the_old_state_or_the_complete_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let old_args = ["--games", "90000", "--deal-source", "chacha", "--seed", "1"];
    let new_args = ["--games", "90000", "--deal-source", "chacha", "--seed", "2"];
    simulate_into(p, &p.join("old"), &old_args, &[]);
    simulate_into(p, &p.join("new"), &new_args, &[]);
    let (old, new) = (file_hashes(&p.join("old")), file_hashes(&p.join("new")));
    assert_ne!(old, new);
    // Seeded kill moments (a tiny LCG, seed 9): 12 kills between 0 and ~1.5 s.
    let mut x: u64 = 9;
    let mut seen_new = false;
    for _ in 0..12 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let ms = (x >> 33) % 1500;
        let mut args = vec!["simulate", "--force", "--out", "old"];
        args.extend_from_slice(&new_args);
        let mut child = command(&args, p)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(ms));
        let _ = child.kill();
        let _ = child.wait();
        let now = file_hashes(&p.join("old"));
        assert!(
            now == old || now == new,
            "after a kill at {ms} ms the directory is neither the old nor the new tournament: {:?}",
            now.keys()
        );
        if now == new {
            seen_new = true;
            // Put the old one back for the next round.
            let mut back = vec!["simulate", "--force", "--out", "old"];
            back.extend_from_slice(&old_args);
            assert_exit(&briscola(&back, p), 0);
        }
    }
    let _ = seen_new;
}

#[test]
fn simulate_takes_the_configs_named_policies() {
    let cfg = BASE_CONFIG.replace(
        "[policies.counter]",
        "[policies.cautious]\nkind = \"hoarder\"\nthreshold = 4\n\n[policies.counter]",
    );
    let dir = study(&cfg);
    let p = dir.path();
    let o = briscola(
        &[
            "simulate",
            "--config",
            "pipeline.toml",
            "--policies",
            "greedy,cautious",
            "--games",
            "400",
            "--out",
            "t",
        ],
        p,
    );
    assert_exit(&o, 0);
    let m = briscola::tournament::read_manifest(&p.join("t")).unwrap();
    assert_eq!(m.policies[1].name, "cautious");
    assert_eq!(m.policies[1].threshold, 4);
    assert_eq!(m.seed, 7, "the config's seed");
    assert_eq!(m.games_per_matchup, 100);
    // A name the config does not define, and --threshold beside --config: exit 2.
    let o = briscola(
        &[
            "simulate",
            "--config",
            "pipeline.toml",
            "--policies",
            "greedy,bold",
            "--out",
            "u",
        ],
        p,
    );
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("bold") && stderr(&o).contains("cautious"),
        "{}",
        stderr(&o)
    );
    let o = briscola(
        &[
            "simulate",
            "--config",
            "pipeline.toml",
            "--threshold",
            "3",
            "--out",
            "u",
        ],
        p,
    );
    assert_exit(&o, 2);
    let o = briscola(&["simulate", "--config", "missing.toml", "--out", "u"], p);
    assert_exit(&o, 2);
    assert!(!p.join("u").exists());
}

/// `simulate` records each shard file's sha256 in tournament.json, and `export --from` checks
/// them before reading a row: one flipped bit in a shard's games.parquet (which once turned a
/// row's points into 73, the game's summing to 125) is exit 2 naming the file.
#[test]
fn export_refuses_a_shard_file_that_changed_after_simulate() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    small_sim(p);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p.join("t/tournament.json")).unwrap())
            .unwrap();
    let shard = &manifest["shards"][1];
    let files = shard["files"].as_object().expect("the shard's file hashes");
    assert!(files.contains_key("games.parquet"), "{files:?}");
    let games = p
        .join("t")
        .join(shard["dir"].as_str().unwrap())
        .join("games.parquet");
    let mut bytes = std::fs::read(&games).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    let export = || {
        briscola(
            &[
                "export", "games", "--format", "csv", "--from", "t", "--out", "out.csv",
            ],
            p,
        )
    };
    std::fs::write(&games, &bytes).unwrap();
    let o = export();
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("games.parquet") && err.contains("changed after `briscola simulate` wrote it"),
        "{err}"
    );
    assert!(!p.join("out.csv").exists(), "nothing is written");
    // A file removed is said so, with what to do (it was the system's bare "No such file").
    std::fs::remove_file(&games).unwrap();
    let o = export();
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("games.parquet: cannot read it")
            && err.contains("tournament.json lists it")
            && err.contains("play the tournament again"),
        "{err}"
    );
    assert!(!p.join("out.csv").exists(), "nothing is written");
}

/// What a killed `simulate` or `export` left (a hidden `.NAME.PID.*.tmp` of a process that is
/// gone) is removed by the next command writing the same output; a live process's temporary
/// (another command writing there now) and unrelated hidden files are left alone.
#[test]
fn leftovers_of_killed_writes_are_swept_by_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let live = std::process::id();
    std::fs::create_dir(p.join(format!(".t.{dead}.a1b2c3.tmp"))).unwrap();
    std::fs::write(
        p.join(format!(".t.{dead}.a1b2c3.tmp/games.parquet")),
        b"half",
    )
    .unwrap();
    std::fs::write(p.join(format!(".out.csv.{dead}.x9y8z7.tmp")), b"half").unwrap();
    std::fs::write(p.join(format!(".out.csv.{live}.q1w2e3.tmp")), b"busy").unwrap();
    std::fs::write(p.join(".out.csv.keep.tmp"), b"not ours").unwrap();
    small_sim(p);
    let o = briscola(
        &[
            "export", "games", "--format", "csv", "--from", "t", "--out", "out.csv",
        ],
        p,
    );
    assert_exit(&o, 0);
    let mut left: Vec<String> = std::fs::read_dir(p)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    left.sort();
    assert_eq!(
        left,
        vec![
            format!(".out.csv.{live}.q1w2e3.tmp"),
            ".out.csv.keep.tmp".to_string(),
        ]
    );
}

/// An `--out` whose directory is missing or is a file is a usage error (exit 2) for export as
/// for simulate, naming the directory; nothing is created.
#[test]
fn an_out_path_in_no_directory_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    small_sim(p);
    std::fs::write(p.join("afile"), b"x").unwrap();
    for (out, says) in [
        ("afile/x.csv", "afile is a regular file, not a directory"),
        ("nodir/x.csv", "its directory nodir does not exist"),
    ] {
        let o = briscola(
            &[
                "export", "games", "--format", "csv", "--from", "t", "--out", out,
            ],
            p,
        );
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(err.contains(says), "{err}");
    }
    let o = briscola(&["simulate", "--games", "9", "--out", "afile/sub"], p);
    assert_exit(&o, 2);
    assert!(!p.join("nodir").exists());
}
