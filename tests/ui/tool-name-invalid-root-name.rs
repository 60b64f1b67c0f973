use clap::Parser;
use mcp_bridge::McpTool;

/// The root's name starts every tool name.
#[derive(Parser, McpTool)]
#[command(name = "my app")]
struct Cli {
    #[arg(long)]
    verbose: bool,
}

fn main() {}
