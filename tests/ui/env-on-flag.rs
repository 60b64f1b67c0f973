// clap reads the variable of a flag as a boolean; MCP calls cannot mirror it.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, env = "APP_FORCE")]
    force: bool,
}

fn main() {}
