use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(name = "app", name = "other")]
struct Cli {
    #[arg(long)]
    #[mcp(skip)]
    #[mcp(skip)]
    verbose: bool,
    #[arg(long)]
    #[mcp(description = "one")]
    #[mcp(description = "two")]
    quiet: bool,
}

fn main() {}
