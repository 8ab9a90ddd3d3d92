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

fn main() -> ExitCode {
    // clap prints usage errors itself and exits with code 2.
    let cli = cli::Cli::parse();
    ExitCode::from(cli::execute(cli) as u8)
}
