//! Issue 26's hostile trials on the newer commands, a test per class: a record whose policy was
//! edited replays as exit 2 with a sentence (never a panic); `play --record` never replaces a
//! device, a FIFO, a directory or a symbolic link; user-named files are read with a cap on the
//! bytes actually read, so `/dev/zero` as moves, a record, a position or a model is exit 2
//! under a memory limit instead of an abort or an out-of-memory kill.

use std::path::Path;
use std::process::Command;

use crate::common::{BASE_CONFIG, assert_exit, bin, briscola, code, stderr, study};

/// `briscola args` in `dir` under a 512 MiB address-space limit (`ulimit -v`), so an unbounded
/// read would fail loudly instead of exhausting the machine.
fn limited(args: &[&str], dir: &Path) -> std::process::Output {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v 524288; exec {} {}",
            bin(),
            quoted.join(" ")
        ))
        .current_dir(dir)
        .output()
        .unwrap()
}

fn no_panic(o: &std::process::Output) {
    let e = stderr(o);
    assert!(!e.contains("panicked"), "{e}");
    assert_ne!(code(o), Some(101), "{e}");
    assert_ne!(code(o), Some(134), "{e}");
}

/// `briscola play` against greedy on seed 5, playing the first card every trick, saving its
/// record to `record`.
fn play_first_cards(dir: &Path, record: &str) -> std::process::Output {
    std::fs::write(dir.join("moves"), "1\n".repeat(20)).unwrap();
    briscola(
        &[
            "play",
            "--seed",
            "5",
            "--opponent",
            "greedy",
            "--moves",
            "moves",
            "--record",
            record,
        ],
        dir,
    )
}

/// A record of a game against greedy, played by the first card every trick.
fn record(dir: &Path) -> String {
    assert_exit(&play_first_cards(dir, "g.json"), 0);
    std::fs::read_to_string(dir.join("g.json")).unwrap()
}

#[test]
fn an_edited_record_replays_as_exit_2_with_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let text = record(p);
    assert!(text.contains("\"kind\": \"greedy\""), "{text}");
    for (from, to, says) in [
        (
            "\"kind\": \"greedy\"",
            "\"kind\": \"onnx\"",
            "kind onnx needs its definition",
        ),
        (
            "\"kind\": \"greedy\"",
            "\"kind\": \"search\"",
            "cannot be played",
        ),
        (
            "\"kind\": \"greedy\"",
            "\"kind\": \"rules\"",
            "cannot be played",
        ),
        (
            "\"kind\": \"greedy\"",
            "\"kind\": \"epsilon\"",
            "cannot be played",
        ),
    ] {
        std::fs::write(p.join("edited.json"), text.replacen(from, to, 1)).unwrap();
        let o = briscola(&["replay", "--record", "edited.json"], p);
        no_panic(&o);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(e.contains("edited.json") && e.contains(says), "{to}: {e}");
    }
}

#[test]
fn play_never_replaces_a_device_fifo_directory_or_link() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let fifo = p.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::fs::create_dir(p.join("adir")).unwrap();
    std::os::unix::fs::symlink("target-file", p.join("link")).unwrap();
    let null_before = std::fs::symlink_metadata("/dev/null").unwrap();
    for (path, kind) in [
        ("/dev/null", "character device"),
        ("fifo", "FIFO"),
        ("adir", "directory"),
        ("link", "symbolic link"),
    ] {
        let o = play_first_cards(p, path);
        no_panic(&o);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains(&format!("--record {path}")) && e.contains(kind),
            "{e}"
        );
        // Refused before the game: nothing was played or printed as a game.
        assert!(!String::from_utf8_lossy(&o.stdout).contains("trick 1"));
    }
    use std::os::unix::fs::FileTypeExt;
    let null_after = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(null_after.file_type().is_char_device());
    assert_eq!(null_before.len(), null_after.len());
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(
        std::fs::symlink_metadata(p.join("link"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(!p.join("target-file").exists());
}

#[test]
fn endless_inputs_are_exit_2_under_a_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    for (args, says) in [
        (
            vec![
                "play",
                "--seed",
                "1",
                "--opponent",
                "greedy",
                "--moves",
                "/dev/zero",
                "--no-record",
            ],
            "",
        ),
        (vec!["replay", "--record", "/dev/zero"], "character device"),
        (vec!["solve", "/dev/zero"], "character device"),
        (
            vec!["status", "--config", "/dev/urandom"],
            "character device",
        ),
    ] {
        let o = limited(&args, p);
        no_panic(&o);
        assert_exit(&o, 2);
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_model_path_of_a_device_is_exit_2() {
    let dir = study(&format!(
        "{BASE_CONFIG}\n[policies.dev]\nkind = \"onnx\"\nmodel = \"/dev/zero\"\nencoding = \"briscola-v1\"\n"
    ));
    let p = dir.path();
    let o = limited(&["policies", "dev"], p);
    no_panic(&o);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}
