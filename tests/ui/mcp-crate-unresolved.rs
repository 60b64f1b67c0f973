use clap::Parser;
use mcp_bridge::McpTool;

/// A path that names no crate: the compiler says so at the string.
#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(crate = "mcp_bridge_typo")]
struct Cli {
    #[arg(long)]
    verbose: bool,
}

fn main() {}
