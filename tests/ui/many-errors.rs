use clap::Parser;
use mcp_bridge::McpTool;

/// Every mistake of this type is reported, and nothing else.
#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(name = "bad name", colour = "red")]
struct Cli {
    #[arg(long, default_value = "256")]
    level: u8,
    #[arg(long)]
    #[mcp(skip)]
    token: String,
    #[arg(long)]
    #[mcp(description = "first", description = "second")]
    label: String,
    #[arg(long = "level")]
    other_level: Option<u8>,
}

fn main() {}
