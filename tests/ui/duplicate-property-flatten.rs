use clap::{Args, Parser};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[command(flatten)]
    common: Common,
    /// Repeats `Common::verbose`
    #[arg(long)]
    verbose: bool,
}

#[derive(Args, McpTool)]
struct Common {
    #[arg(long)]
    verbose: bool,
}

fn main() {}
