//! The `diagtui` binary: parses the command line and hands each command to its module.

use clap::Parser;

/// A terminal diagram manager for the Diagram Document REST API.
#[derive(Debug, Parser)]
#[command(name = "diagtui", version, about)]
struct Cli {}

fn main() {
    Cli::parse();
}
