use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long)]
    #[mcp]
    verbose: bool,
    #[arg(long)]
    #[mcp = "skip"]
    quiet: bool,
}

fn main() {}
