use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    /// Required by clap, hidden from MCP, no default: no call could work
    #[arg(long)]
    #[mcp(skip)]
    token: String,
    #[arg(long, required = true)]
    #[mcp(skip)]
    user: Option<String>,
}

fn main() {}
