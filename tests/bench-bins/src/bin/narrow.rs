//! `narrow`: the one-command counterpart of `wide`, for the stdio
//! benchmark (`cargo bench -p tests --bench stdio`, see
//! docs/benchmarks.md). Same command, arguments and handler as each of
//! `wide`'s 300.
//!
//! ```text
//! narrow c000 Ann --count 2   # the CLI
//! narrow mcp serve            # one tool, narrow_c000
//! ```

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcp_bridge::{Bridge, Io, McpTool};

/// One command that greets someone.
#[derive(Parser, McpTool, Debug)]
#[command(name = "narrow", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool, Debug)]
enum Command {
    /// Greet someone, a number of times
    C000 {
        /// Who to greet
        name: String,
        /// How many times
        #[arg(long, default_value_t = 1)]
        count: u32,
    },
}

fn run(cli: Cli, io: &mut Io<'_>) -> std::io::Result<()> {
    let Command::C000 { name, count } = cli.command;
    writeln!(io.out(), "C000: hello {name} x{count}")
}

fn main() -> ExitCode {
    // `BENCH_DROP_IN=1`: the CLI adopted through the drop-in for
    // `Cli::parse()`, its `main` printing itself (the benchmark's
    // "mcp-bridge parse::<Cli>()": every call runs this `main` in a child
    // process).
    if std::env::var_os("BENCH_DROP_IN").is_some() {
        let Command::C000 { name, count } = mcp_bridge::parse::<Cli>().command;
        println!("C000: hello {name} x{count}");
        return ExitCode::SUCCESS;
    }
    // `BENCH_ISOLATE=1`: every call in a child process (the benchmark's
    // "mcp-bridge isolated").
    Bridge::new(run)
        .isolate_calls(std::env::var_os("BENCH_ISOLATE").is_some())
        .run()
}
