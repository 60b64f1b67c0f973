use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(crate = "mcp_bridge")]
#[mcp(crate = "::mcp_bridge")]
struct Cli {
    #[arg(long)]
    verbose: bool,
}

fn main() {}
