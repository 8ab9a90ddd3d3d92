//! The `briscola` binary: parse the command line, run it, exit with its documented code.

#[macro_use]
mod cli_error;
mod cli;
mod cli_play;
mod cli_policies;
mod cli_solve;
mod cli_tournament;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap prints usage errors itself and exits with code 2.
    let cli = cli::Cli::parse();
    ExitCode::from(cli::execute(cli) as u8)
}
