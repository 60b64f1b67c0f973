use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(name = 3)]
struct Cli {
    #[arg(long)]
    #[mcp(skip = true)]
    verbose: bool,
    #[arg(long)]
    #[mcp(description)]
    quiet: bool,
    #[arg(long)]
    #[mcp(name("q"))]
    query: Option<String>,
}

fn main() {}
