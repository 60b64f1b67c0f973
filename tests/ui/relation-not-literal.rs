// A relation given as an expression cannot be read at expansion time.
use clap::Parser;
use mcp_bridge::McpTool;

const OTHER: &str = "quiet";

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, conflicts_with = OTHER)]
    verbose: bool,
    #[arg(long)]
    quiet: bool,
}

fn main() {}
