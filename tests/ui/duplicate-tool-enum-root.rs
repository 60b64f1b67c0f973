// An enum that derives `Parser` checks its own variants as a root: two of
// them named alike are reported at the second one.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
enum Cli {
    #[command(name = "run")]
    Start,
    #[command(name = "run")]
    Launch,
}

fn main() {}
