//! The `briscola` binary: parse the command line, run it, exit with its documented code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of glibc's malloc: the exploit agent's searches allocate and free on every
/// thread (a fifth of an exploit shard's time went to glibc's malloc and free), and simulate's
/// chunks, freed and allocated again above glibc's mmap threshold, cost 240,000 page faults
/// per 10^7 games (BENCHMARKS.md, "The allocator"). No output depends on the allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its place in `mi_option_e`, `mimalloc.h` of the v3
/// sources libmimalloc-sys 0.1.49 builds; its Rust binding names no constant for it): how long
/// freed memory is kept before it is given back to the OS. The test below checks the number
/// against the option's default.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// The purge delay this binary runs with, in milliseconds (mimalloc's default: 1,000). With the
/// default a cold run of the committed pipeline gave memory back between its jobs and faulted
/// it in again: 153,000-157,000 page faults on 2 cores; with 10 s, 24,000-30,000, for 50-100 MB
/// more peak memory (BENCHMARKS.md, "mimalloc's purge delay"). `MIMALLOC_PURGE_DELAY` in the
/// environment still decides when it is set.
const PURGE_DELAY_MS: std::ffi::c_long = 10_000;

unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

fn main() -> ExitCode {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: `mi_option_set` (mimalloc's C library, linked as the global allocator above)
        // takes an option number and a value; it is not thread-safe, and this runs before the
        // program starts any thread.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    }
    // clap prints usage errors itself and exits with code 2.
    let cli = cli::Cli::parse();
    ExitCode::from(cli::execute(cli) as u8)
}

#[cfg(test)]
mod tests {
    unsafe extern "C" {
        fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
    }

    /// The option number names the purge delay: its default (mimalloc v3's `options.c`: 1,000
    /// ms; no other option defaults to 1,000), read in a test process, where `main` set nothing.
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // SAFETY: reads an option of the linked mimalloc by number.
        let v = unsafe { mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(
                v,
                1000,
                "option {} is not the purge delay",
                super::MI_OPTION_PURGE_DELAY
            );
        }
    }
}
