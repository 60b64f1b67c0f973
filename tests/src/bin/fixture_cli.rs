//! A CLI made to misbehave, for integration tests: its handler prints
//! straight to the process's stdout (as a careless dependency would), and it
//! has its own `mcp` command, so the bridge must be renamed.
//!
//! The bridge's command name comes from `FIXTURE_BRIDGE_NAME` (default
//! `mcp`), so tests can try both the clash and the rename.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_bridge::{Bridge, Io, McpTool};

/// A CLI for testing the bridge.
#[derive(Parser, McpTool, Debug)]
#[command(name = "fixture")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool, Debug)]
enum Command {
    /// Print through the bridge's writer, and also straight to stdout
    Shout {
        /// What to print
        text: String,
    },
    /// The CLI's own `mcp` command
    Mcp,
    /// Panic, to show a panic becomes an error result
    Crash,
}

fn run(cli: Cli, io: &mut Io) -> std::io::Result<()> {
    match cli.command {
        Command::Shout { text } => {
            println!("stray println: {text}");
            writeln!(io.out(), "shouted {text}")?;
        }
        Command::Mcp => writeln!(io.out(), "the CLI's own mcp command")?,
        Command::Crash => panic!("deliberate crash"),
    }
    Ok(())
}

fn main() -> ExitCode {
    let name = std::env::var("FIXTURE_BRIDGE_NAME").unwrap_or_else(|_| "mcp".to_owned());
    // `FIXTURE_OFFLOAD=1` runs calls through `block_in_place`.
    let offload = std::env::var_os("FIXTURE_OFFLOAD").is_some();
    Bridge::new(run)
        .command_name(name)
        .offload_calls(offload)
        .run()
}
