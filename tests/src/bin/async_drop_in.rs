//! A CLI with an async `main` (`#[tokio::main]`) that adopted the bridge
//! through `mcp_bridge::parse::<Cli>()` (tests/drop_in.rs): the server
//! cannot start a runtime on the runtime's own thread, so it serves from
//! a thread of its own; each call runs this `main`, runtime and all.

use clap::Parser;
use mcp_bridge::McpTool;

/// Echo words after a pause.
#[derive(Parser, McpTool, Debug)]
#[command(name = "pause")]
struct Cli {
    /// What to print
    words: Vec<String>,
    /// How long to wait first, in milliseconds
    #[arg(long, default_value_t = 1)]
    millis: u64,
}

#[tokio::main]
async fn main() {
    let cli = mcp_bridge::parse::<Cli>();
    tokio::time::sleep(std::time::Duration::from_millis(cli.millis)).await;
    println!("{}", cli.words.join(" "));
}
