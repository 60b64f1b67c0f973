use clap::{Args, Parser};
use mcp_bridge::McpTool;

/// The package name, not the crate name Rust code uses.
#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(crate = "mcp-bridge")]
struct Cli {
    #[arg(long)]
    verbose: bool,
}

/// A path with generic arguments.
#[derive(Args, McpTool)]
#[mcp(crate = "mcp_bridge::<T>")]
struct Common {
    #[arg(long)]
    quiet: bool,
}

fn main() {}
