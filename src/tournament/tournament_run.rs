//! An ad-hoc tournament (`briscola simulate`): every ordered matchup of a policy list played into
//! one directory, one sub-directory per shard, with a manifest naming them in MatchId order.
//!
//! The manifest records each shard file's sha256, so a reader (`export --from`) can refuse a
//! file that changed after the tournament was written ([`check_shard_files`]).
//!
//! Invariant: the tournament is played into a temporary directory beside the output and
//! published by one rename, so the output directory holds either what it held before or the
//! complete tournament, never a part (a failed or killed run leaves at most a hidden
//! `.<name>.<pid>.*.tmp` directory, which the next run into the same place removes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::shard::{ShardError, ShardSummary};
use super::tournament_spec::TournamentSpec;
use crate::deal::DealSourceKind;
use crate::policy::PolicySpec;

/// File name of the manifest.
pub const MANIFEST_FILE: &str = "tournament.json";

/// One shard in a manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestShard {
    /// MatchId (1-based, row-major).
    pub match_id: u32,
    /// Sub-directory holding the shard's tables.
    pub dir: String,
    /// Its summary.
    pub summary: ShardSummary,
    /// Each file of the shard's directory by name, with its sha256 (hex). Empty in a manifest
    /// written before the hashes were recorded (then nothing can be checked).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, String>,
}

/// The manifest of a tournament directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Deal source.
    pub deal_source: DealSourceKind,
    /// Seed.
    pub seed: i64,
    /// Games per ordered matchup.
    pub games_per_matchup: u64,
    /// Policies in matchup order.
    pub policies: Vec<PolicySpec>,
    /// Shards in MatchId order.
    pub shards: Vec<ManifestShard>,
}

/// Errors of a tournament run or of reading a tournament directory.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// A shard failed.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// File system trouble.
    #[error("{path}: {message}")]
    Io {
        /// where
        path: PathBuf,
        /// what
        message: String,
    },
}

/// What is at a tournament's output path before it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutState {
    /// Nothing: the directory will be created.
    Absent,
    /// An empty directory.
    Empty,
    /// A directory with entries (replaced only with `force`).
    NonEmpty,
}

/// Check that `out` is absent or a directory (not a symlink, file or device), and say which.
pub fn out_state(out: &Path) -> Result<OutState, TournamentError> {
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(OutState::Absent),
        Err(e) => Err(io_err(out, e)),
        Ok(m) if m.file_type().is_dir() => {
            let mut rd = std::fs::read_dir(out).map_err(|e| io_err(out, e))?;
            Ok(if rd.next().is_some() {
                OutState::NonEmpty
            } else {
                OutState::Empty
            })
        }
        Ok(m) => Err(TournamentError::Io {
            path: out.to_path_buf(),
            message: format!(
                "is a {}, not a directory; name a new or existing directory",
                file_kind(&m.file_type())
            ),
        }),
    }
}

/// What `out` holds, refused unless a tournament may be written there: absent, empty, or
/// (with `force`) a tournament an earlier `simulate` wrote (it holds [`MANIFEST_FILE`]) that
/// neither is nor holds the current directory. `--force` replaces a tournament, never a
/// directory of other files: the whole directory goes.
pub fn check_out(out: &Path, force: bool) -> Result<OutState, TournamentError> {
    let state = out_state(out)?;
    if state != OutState::NonEmpty {
        return Ok(state);
    }
    let refuse = |message: String| {
        Err(TournamentError::Io {
            path: out.to_path_buf(),
            message,
        })
    };
    if !force {
        return refuse(
            "the directory is not empty; name a new or empty directory, or give --force to \
             replace the tournament it holds (atomically, once the new one is complete)"
                .into(),
        );
    }
    if !out.join(MANIFEST_FILE).is_file() {
        return refuse(format!(
            "--force replaces only a tournament `briscola simulate` wrote (a directory with \
             {MANIFEST_FILE}), and this directory has none; name a new or empty directory"
        ));
    }
    let here = std::env::current_dir().and_then(|d| d.canonicalize());
    if let (Ok(here), Ok(target)) = (here, out.canonicalize())
        && here.starts_with(&target)
    {
        return refuse(
            "holds the current directory, which replacing it would remove; run from outside \
             it, or name another directory"
                .into(),
        );
    }
    Ok(state)
}

pub use crate::files::file_kind;

fn io_err(path: &Path, e: std::io::Error) -> TournamentError {
    TournamentError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Play the tournament `spec` into the directory `out`. `progress(done_games)` is called as
/// games finish.
///
/// Everything is written into a fresh, unpredictably named temporary directory beside `out`
/// (`.<name>.XXXXXX.tmp`, removed on any failure) and synced; only then is it published as `out`
/// in one rename (an atomic exchange when `out` already holds a tournament, `force`), so `out`
/// holds either its old contents or the complete new tournament at every moment. A non-empty
/// `out` is refused unless `force` and it holds a tournament ([`check_out`]).
pub fn run_tournament(
    spec: &TournamentSpec,
    out: &Path,
    force: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Manifest, TournamentError> {
    let state = check_out(out, force)?;
    let parent = crate::files::parent_dir(out).to_path_buf();
    std::fs::create_dir_all(&parent).map_err(|e| io_err(&parent, e))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tournament".into());
    // A run killed earlier left its temporary directory: nothing else removes it.
    crate::files::sweep_stale_temps(&parent, &name);
    let tmp = tempfile::Builder::new()
        .prefix(&crate::files::temp_prefix(&name))
        .suffix(".tmp")
        .tempdir_in(&parent)
        .map_err(|e| io_err(&parent, e))?;
    let manifest = play_into(spec, tmp.path(), progress)?;
    sync_tree(tmp.path())?;
    publish_dir(tmp, out, state)?;
    Ok(manifest)
}

/// Shards played at once: at least three, and one per rayon thread on larger machines. A shard
/// of the general path runs three threads that wait on each other (its player, which deals and
/// plays a chunk on the rayon pool, and one writer per table, each encoding a window of chunks
/// on the pool; a ChaCha shard of keyed policies without the trick log instead hands whole
/// chunks to the pool as tasks and writes them, `chunk_tasks.rs`), so a lone shard
/// leaves cores idle while it waits; with three in flight two cores stay busy
/// (simulate with the trick log: 2.5 s with one, 1.9 s with two, 1.7 s with three;
/// BENCHMARKS.md), and more cores need more shards' work to choose from. The threads are
/// shared out as the trick writers' windows ([`ShardSpec::run_windowed`]), so the trick chunks
/// held grow with the threads, not with their square. Each shard's files depend on its spec alone, so
/// this changes no byte.
fn shards_in_flight() -> usize {
    rayon::current_num_threads().max(3)
}

fn play_into(
    spec: &TournamentSpec,
    dir: &Path,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Manifest, TournamentError> {
    let shards = play_shards(spec, dir, progress)?;
    let manifest = Manifest {
        deal_source: spec.deal_source(),
        seed: spec.seed(),
        games_per_matchup: spec.games_per_matchup(),
        policies: spec.policies().to_vec(),
        shards,
    };
    let path = dir.join(MANIFEST_FILE);
    let mut text = serde_json::to_string_pretty(&manifest).map_err(|e| TournamentError::Io {
        path: path.clone(),
        message: e.to_string(),
    })?;
    text.push('\n');
    std::fs::write(&path, text).map_err(|e| io_err(&path, e))?;
    Ok(manifest)
}

/// Play every shard of `spec` into its sub-directory of `dir`, [`shards_in_flight`] at a time,
/// and return their manifest entries in MatchId order. Once a shard has failed (or panicked),
/// no further shard starts; the ones already running finish. Every shard that is taken is
/// played, so the error reported is the failed shard's with the lowest MatchId among those
/// played. `progress` gets the games finished over all shards, never decreasing.
fn play_shards(
    spec: &TournamentSpec,
    dir: &Path,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<ManifestShard>, TournamentError> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    let todo = spec.shard_specs();
    let results: Vec<Mutex<Option<Result<ManifestShard, TournamentError>>>> =
        todo.iter().map(|_| Mutex::new(None)).collect();
    let (next, failed, total) = (
        AtomicUsize::new(0),
        AtomicBool::new(false),
        Mutex::new(0u64),
    );
    let in_flight = shards_in_flight().min(todo.len()).max(1);
    let window = rayon::current_num_threads().div_ceil(in_flight);
    let play_one = |i: usize| -> Result<ManifestShard, TournamentError> {
        let (m, shard) = &todo[i];
        let sub = dir.join(m.slug());
        std::fs::create_dir_all(&sub).map_err(|e| io_err(&sub, e))?;
        let seen = AtomicU64::new(0);
        let shown = |done: u64| {
            let delta = done - seen.swap(done, Ordering::Relaxed);
            // Added and shown under one lock, so the count shown never goes back.
            let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
            *t += delta;
            progress(*t);
        };
        let summary = shard.run_windowed(&sub, &shown, window)?;
        Ok(ManifestShard {
            match_id: m.match_id,
            dir: m.slug(),
            summary,
            files: file_hashes(&sub)?,
        })
    };
    std::thread::scope(|scope| {
        for _ in 0..in_flight {
            scope.spawn(|| {
                // A panicking shard stops the others from starting new shards too.
                let _stop = StopOnPanic(&failed);
                while !failed.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= todo.len() {
                        break;
                    }
                    let r = play_one(i);
                    if r.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                }
            });
        }
    });
    let mut shards = Vec::with_capacity(todo.len());
    for r in results {
        match r.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(Ok(shard)) => shards.push(shard),
            Some(Err(e)) => return Err(e),
            // Shards are taken in order and every one taken is played, so one not taken
            // comes after a failed one, which returned above; never a shorter manifest.
            None => {
                return Err(TournamentError::Io {
                    path: dir.to_path_buf(),
                    message: "a shard was neither played nor failed (internal error)".into(),
                });
            }
        }
    }
    Ok(shards)
}

/// Sets its flag when dropped during a panic (a shard thread's stop signal to the others).
struct StopOnPanic<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// fsync every file and directory under `dir` (the directory itself last).
fn sync_tree(dir: &Path) -> Result<(), TournamentError> {
    for e in std::fs::read_dir(dir).map_err(|e| io_err(dir, e))? {
        let p = e.map_err(|e| io_err(dir, e))?.path();
        if p.is_dir() {
            sync_tree(&p)?;
        } else {
            std::fs::File::open(&p)
                .and_then(|f| f.sync_all())
                .map_err(|e| io_err(&p, e))?;
        }
    }
    std::fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(|e| io_err(dir, e))
}

/// Move the finished `tmp` to `out` in one step. An absent or empty `out` is replaced by a plain
/// rename; a non-empty one is exchanged with `tmp` atomically (Linux `renameat2(EXCHANGE)`) and
/// the old contents, now at the temporary name, are removed when `tmp` drops.
fn publish_dir(tmp: tempfile::TempDir, out: &Path, state: OutState) -> Result<(), TournamentError> {
    let parent = tmp.path().parent().map(Path::to_path_buf);
    match state {
        OutState::Absent | OutState::Empty => {
            let kept = tmp.keep();
            if let Err(e) = std::fs::rename(&kept, out) {
                let _ = std::fs::remove_dir_all(&kept);
                return Err(io_err(out, e));
            }
        }
        OutState::NonEmpty => {
            use rustix::fs::{CWD, RenameFlags, renameat_with};
            renameat_with(CWD, tmp.path(), CWD, out, RenameFlags::EXCHANGE).map_err(|e| {
                TournamentError::Io {
                    path: out.to_path_buf(),
                    message: format!(
                        "cannot replace the directory atomically ({e}); remove it or name another"
                    ),
                }
            })?;
            drop(tmp); // now the old tournament
        }
    }
    if let Some(p) = parent {
        let _ = std::fs::File::open(p).and_then(|f| f.sync_all());
    }
    Ok(())
}

/// The sha256 (hex) of each file in `dir`, by name.
fn file_hashes(dir: &Path) -> Result<BTreeMap<String, String>, TournamentError> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).map_err(|e| io_err(dir, e))? {
        let path = e.map_err(|e| io_err(dir, e))?.path();
        if path.is_file() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            out.insert(name.unwrap_or_default(), sha256_file(&path)?);
        }
    }
    Ok(out)
}

fn sha256_file(path: &Path) -> Result<String, TournamentError> {
    crate::files::sha256_file(path).map_err(|e| io_err(path, e))
}

/// Check that every file the manifest records for `shard` (in the tournament directory `dir`)
/// still has its recorded sha256: a flipped bit or an edited file is an error naming the file,
/// never rows read from it.
pub fn check_shard_files(dir: &Path, shard: &ManifestShard) -> Result<(), TournamentError> {
    for (name, want) in &shard.files {
        let path = dir.join(&shard.dir).join(name);
        let got = crate::files::sha256_file(&path).map_err(|e| TournamentError::Io {
            path: path.clone(),
            message: if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "cannot read it ({e}), and the tournament's {MANIFEST_FILE} lists it: a \
                     file `briscola simulate` wrote was removed; play the tournament again"
                )
            } else {
                format!("cannot read it ({e})")
            },
        })?;
        if &got != want {
            return Err(TournamentError::Io {
                path,
                message: format!(
                    "its sha256 is {got}, but the tournament's {MANIFEST_FILE} records {want}: the file changed after `briscola simulate` wrote it; play the tournament again"
                ),
            });
        }
    }
    Ok(())
}

/// Read the manifest of a tournament directory.
pub fn read_manifest(dir: &Path) -> Result<Manifest, TournamentError> {
    let path = dir.join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| TournamentError::Io {
        path: path.clone(),
        message: format!("{e} (is this a directory written by `briscola simulate`?)"),
    })?;
    serde_json::from_str(&text).map_err(|e| TournamentError::Io {
        path,
        message: e.to_string(),
    })
}
