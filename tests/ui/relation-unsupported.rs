// Relations mcp-bridge cannot enforce yet are refused, not dropped.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, overrides_with = "quiet")]
    verbose: bool,
    #[arg(long)]
    quiet: bool,
}

fn main() {}
