use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(summary = "App")]
struct Cli {
    #[arg(long)]
    #[mcp(rename = "v")]
    verbose: bool,
}

fn main() {}
