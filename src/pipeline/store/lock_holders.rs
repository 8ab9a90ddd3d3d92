//! Who holds an OS file lock, from the kernel's table of locks: on Linux `/proc/locks` lists
//! every `flock` with its holder's pid, device and inode, updated atomically with the lock.
//!
//! Invariant: read-only and best effort: `None` means "cannot tell on this system", never an
//! error; nothing here takes or changes a lock.

use std::fs::File;

/// The pids holding a lock on `file` (waiters excluded), in the kernel's order; `None` where
/// the kernel's table cannot be read (not Linux, no `/proc`).
pub fn holder_pids(file: &File) -> Option<Vec<u32>> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = file.metadata().ok()?;
        let table = std::fs::read_to_string("/proc/locks").ok()?;
        Some(pids_in(&table, meta.dev(), meta.ino()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        None
    }
}

/// The holders of locks on the file (`dev`, `ino`) listed in a `/proc/locks` text. Lines look
/// like `1: FLOCK  ADVISORY  WRITE 4242 00:2e:131090 0 EOF`; a blocked waiter's line has `->`
/// after the number. The device is `major:minor` in hex, as the kernel prints it.
pub fn pids_in(table: &str, dev: u64, ino: u64) -> Vec<u32> {
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    let want = format!("{major:02x}:{minor:02x}:{ino}");
    table
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.get(1) == Some(&"->") {
                return None;
            }
            let id = fields.get(5)?;
            if !id.eq_ignore_ascii_case(&want) {
                return None;
            }
            fields.get(4)?.parse().ok()
        })
        .collect()
}

/// The command line of process `pid` (arguments joined by spaces), where the system shows it.
pub fn command_line(pid: u32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let args: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    (!args.is_empty()).then(|| args.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_holders_and_skips_waiters() {
        // Linux 6.x /proc/locks lines, device 0:46 = dev 46 (major 0, minor 0x2e).
        let table = "1: FLOCK  ADVISORY  WRITE 4242 00:2e:131090 0 EOF\n\
                     1: -> FLOCK  ADVISORY  WRITE 4343 00:2e:131090 0 EOF\n\
                     2: POSIX  ADVISORY  READ 99 fd:01:131090 0 EOF\n";
        assert_eq!(pids_in(table, 0x2e, 131090), vec![4242]);
        assert_eq!(pids_in(table, (0xfd << 8) | 1, 131090), vec![99]);
        assert!(pids_in(table, 0x2e, 7).is_empty());
    }
}
