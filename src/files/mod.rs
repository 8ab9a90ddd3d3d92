//! Files a user names on the command line: reading them with a cap on the bytes actually read
//! (a device or a FIFO reports no size, so a cap on the reported size would trust nothing), and
//! checking a path the user asked us to write before anything is written there; the names of
//! the temporaries such a write goes through, and the sweep of those an interrupted command
//! left behind.
//!
//! Invariant: [`read_capped`] never holds more than `cap + 1` bytes of a file, whatever the
//! file is; [`output_problem`] accepts only a missing path or a regular file (never a device, a
//! FIFO, a socket, a directory or a symbolic link, which a rename would replace).

use std::io::Read;
use std::path::Path;

/// Why a capped read failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The system's error (missing file, permissions, a read error).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// More than the cap: the read stopped there.
    #[error("larger than {}", size_text(*.0))]
    TooLarge(u64),
    /// Not a regular file: a device or FIFO, read at most to the cap, is refused outright.
    #[error("a {0}, not a regular file")]
    NotAFile(&'static str),
}

fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The bytes of the regular file `path`, at most `cap` of them: a larger file is an error, and
/// a device, FIFO or directory is refused before it is read.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.file_type().is_file() {
        return Err(ReadError::NotAFile(file_kind(&meta.file_type())));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok(bytes)
}

/// Why `path` may not be written as a command's output (a missing path or a regular file
/// may), naming what is there.
pub fn output_problem(path: &Path) -> Option<String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(format!("cannot inspect it: {e}")),
        Ok(m) if m.file_type().is_file() => None,
        Ok(m) => Some(format!(
            "it is a {}; give the path of a regular file or of a new one",
            file_kind(&m.file_type())
        )),
    }
}

/// Whether a new file can be made in the directory `dir` (created first if missing), asked
/// before any work: a probe file is made there and removed. The error names the directory and
/// the system's reason, not the probe's name.
pub fn dir_writable(dir: &Path) -> Result<(), String> {
    let reason = |e: std::io::Error| os_reason(&e);
    std::fs::create_dir_all(dir).map_err(|e| {
        format!(
            "cannot create the directory {}: {}",
            dir.display(),
            reason(e)
        )
    })?;
    tempfile::Builder::new()
        .prefix(".briscola-write-check")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| format!("cannot write in {}: {}", dir.display(), reason(e)))
}

/// The operating system's sentence for `e` ("Permission denied (os error 13)"), without the
/// ` at path "..."` that tempfile's errors add (the probe's name): the caller names the path
/// the user gave.
fn os_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((reason, _)) => reason.to_string(),
        None => text,
    }
}

/// Whether a command may write its output file at `path`, asked before any work:
/// [`output_problem`], then [`dir_writable`] for its directory.
pub fn output_writable(path: &Path) -> Result<(), String> {
    if let Some(problem) = output_problem(path) {
        return Err(problem);
    }
    dir_writable(parent_dir(path))
}

/// The directory `path` is in (`.` for a bare name).
pub fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The prefix of a temporary written beside the output `name` by this process:
/// `.NAME.PID.` (the rest is random, then `.tmp`), so a later command can tell whose it is.
pub fn temp_prefix(name: &str) -> String {
    format!(".{name}.{}.", std::process::id())
}

/// Remove from `dir` the temporaries of `name` ([`temp_prefix`]) whose process is gone: what a
/// killed `simulate` or `export` left. A temporary of a live process (another command writing
/// the same output now) is left alone, and so is everything else; where the system has no
/// `/proc` to ask, nothing is removed. Returns how many were removed.
pub fn sweep_stale_temps(dir: &Path, name: &str) -> usize {
    let proc = Path::new("/proc/self");
    if !proc.exists() {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let head = format!(".{name}.");
    let mut removed = 0;
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file
            .strip_prefix(&head)
            .and_then(|r| r.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some(pid) = rest.split('.').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if Path::new("/proc").join(pid.to_string()).exists() {
            continue;
        }
        let path = e.path();
        let gone = match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path).is_ok(),
            Ok(_) => std::fs::remove_file(&path).is_ok(),
            Err(_) => false,
        };
        removed += gone as usize;
    }
    removed
}

/// The sha256 (hex) of a file's bytes, read in 1 MiB blocks.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex::encode(h.finalize()))
}

/// What kind of file `t` is, in words.
pub fn file_kind(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_symlink() {
        "symbolic link"
    } else if t.is_file() {
        "regular file"
    } else if t.is_fifo() {
        "FIFO"
    } else if t.is_char_device() {
        "character device"
    } else if t.is_block_device() {
        "block device"
    } else if t.is_socket() {
        "socket"
    } else {
        "directory"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_refused_before_it_is_read() {
        let e = read_capped(Path::new("/dev/zero"), 16).unwrap_err();
        assert!(matches!(e, ReadError::NotAFile("character device")), "{e}");
        assert_eq!(e.to_string(), "a character device, not a regular file");
    }

    #[test]
    fn the_cap_counts_bytes_read() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, [7u8; 100]).unwrap();
        assert_eq!(read_capped(&f, 100).unwrap().len(), 100);
        assert_eq!(
            read_capped(&f, 99).unwrap_err().to_string(),
            "larger than 99 bytes"
        );
        assert_eq!(size_text(1 << 20), "1 MiB");
    }

    #[test]
    fn outputs_are_regular_files_or_new() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(output_problem(&dir.path().join("new")), None);
        assert!(
            output_problem(Path::new("/dev/null"))
                .unwrap()
                .contains("character device")
        );
        assert!(output_problem(dir.path()).unwrap().contains("directory"));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(output_problem(&link).unwrap().contains("symbolic link"));
    }
}
