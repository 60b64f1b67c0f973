// Relations mcp-bridge cannot enforce yet are refused, not dropped.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, requires_if("json", "format"))]
    pretty: bool,
    #[arg(long)]
    format: Option<String>,
}

fn main() {}
