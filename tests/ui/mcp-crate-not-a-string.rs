use clap::{Args, Parser};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(crate = mcp_bridge)]
struct Cli {
    #[arg(long)]
    verbose: bool,
}

#[derive(Args, McpTool)]
#[mcp(crate)]
struct Common {
    #[arg(long)]
    quiet: bool,
}

fn main() {}
