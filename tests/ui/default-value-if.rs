// A default that depends on other arguments cannot be mirrored by MCP calls.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, default_value = "normal", default_value_if("fast", clap::builder::ArgPredicate::IsPresent, "quick"))]
    mode: String,
    #[arg(long)]
    fast: bool,
}

fn main() {}
