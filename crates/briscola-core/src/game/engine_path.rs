//! Which code path the batch engine ([`super::play_keyed_batch`]) plays on: scalar
//! ([`super::play_keyed`] game by game), AVX2 (four games per register) or AVX-512 (eight),
//! what this CPU can run (detected at run time), and the process-wide choice: the best
//! available unless [`select_engine_path`] picked another. The core reads no environment: a
//! binary maps its own setting (e.g. `BRISCOLA_ENGINE=scalar|avx2|avx512`) to
//! [`select_engine_path`] at its edge.
//!
//! Invariant: the selected path is always one this CPU can run ([`select_engine_path`] refuses
//! the others), and every path gives the same games, so the choice changes speed only.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};

/// A code path of the batch engine.
///
/// ```
/// use briscola_core::game::EnginePath;
/// let p: EnginePath = "avx2".parse().unwrap();
/// assert_eq!(p.name(), "avx2");
/// assert!(EnginePath::best().is_available());
/// assert!(EnginePath::available().contains(&EnginePath::Scalar));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EnginePath {
    /// [`super::play_keyed`], one game at a time (every CPU).
    Scalar,
    /// Four games in the 64-bit lanes of an AVX2 register (x86-64 with AVX2).
    Avx2,
    /// Eight games in the 64-bit lanes of an AVX-512 register (x86-64 with AVX-512 F and BW).
    Avx512,
}

impl EnginePath {
    /// Every path, slowest first.
    pub const ALL: [EnginePath; 3] = [EnginePath::Scalar, EnginePath::Avx2, EnginePath::Avx512];

    /// The path's name, as [`FromStr`] reads it: `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            EnginePath::Scalar => "scalar",
            EnginePath::Avx2 => "avx2",
            EnginePath::Avx512 => "avx512",
        }
    }

    /// Games played side by side in one register (1 for the scalar path).
    pub fn lanes(self) -> usize {
        match self {
            EnginePath::Scalar => 1,
            EnginePath::Avx2 => 4,
            EnginePath::Avx512 => 8,
        }
    }

    /// Whether this CPU can run the path (detected at run time): the scalar path always, AVX2
    /// with AVX2, AVX-512 with AVX-512 F and BW.
    pub fn is_available(self) -> bool {
        match self {
            EnginePath::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            EnginePath::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            EnginePath::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            EnginePath::Avx2 | EnginePath::Avx512 => false,
        }
    }

    /// The paths this CPU can run, slowest first (always starting with [`EnginePath::Scalar`]).
    pub fn available() -> Vec<EnginePath> {
        EnginePath::ALL
            .into_iter()
            .filter(|p| p.is_available())
            .collect()
    }

    /// The fastest path this CPU can run.
    pub fn best() -> EnginePath {
        EnginePath::ALL
            .into_iter()
            .rev()
            .find(|p| p.is_available())
            .unwrap_or(EnginePath::Scalar)
    }
}

impl fmt::Display for EnginePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EnginePath {
    type Err = EnginePathError;

    /// A path by its [`EnginePath::name`] (exactly; no other spelling).
    fn from_str(s: &str) -> Result<EnginePath, EnginePathError> {
        EnginePath::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| EnginePathError::Unknown {
                given: s.to_string(),
            })
    }
}

/// `paths`' names, comma-separated.
fn names(paths: &[EnginePath]) -> String {
    paths
        .iter()
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a path cannot be named or chosen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnginePathError {
    /// A name that is no path's.
    #[error("unknown engine path {given:?}: the valid names are {}", names(&EnginePath::ALL))]
    Unknown { given: String },
    /// A path this CPU cannot run.
    #[error(
        "this CPU cannot run the {path} engine path; the paths it can run are {}",
        names(available)
    )]
    Unavailable {
        path: EnginePath,
        available: Vec<EnginePath>,
    },
}

/// The selected path: 0 for none ([`EnginePath::best`]), else its index in
/// [`EnginePath::ALL`] plus one.
static SELECTED: AtomicU8 = AtomicU8::new(0);

/// Make `path` the one [`super::play_keyed_batch`] plays on (and, `scalar` or not, whether
/// ChaCha decks are dealt eight at a time in AVX2 registers: `deal::DealStream`), for the
/// whole process (every thread), from now on; refused, with a sentence naming the path and the ones this CPU can
/// run, when the CPU cannot run it.
///
/// ```
/// use briscola_core::game::{EnginePath, engine_path, select_engine_path};
/// select_engine_path(EnginePath::Scalar).unwrap();
/// assert_eq!(engine_path(), EnginePath::Scalar);
/// select_engine_path(EnginePath::best()).unwrap();
/// ```
pub fn select_engine_path(path: EnginePath) -> Result<(), EnginePathError> {
    if !path.is_available() {
        return Err(EnginePathError::Unavailable {
            path,
            available: EnginePath::available(),
        });
    }
    let index = EnginePath::ALL.iter().position(|&p| p == path);
    SELECTED.store(index.map_or(0, |i| i as u8 + 1), Ordering::Relaxed);
    Ok(())
}

/// The path [`super::play_keyed_batch`] plays on: the one [`select_engine_path`] chose, else
/// [`EnginePath::best`].
pub fn engine_path() -> EnginePath {
    match SELECTED.load(Ordering::Relaxed) {
        0 => EnginePath::best(),
        i => EnginePath::ALL[i as usize - 1],
    }
}
