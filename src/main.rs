//! The `briscola` binary: parse the command line, run it, exit with its documented code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap prints usage errors itself and exits with code 2.
    let cli = cli::Cli::parse();
    ExitCode::from(cli::execute(cli) as u8)
}
