use clap::{Args, Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long)]
    #[mcp(crate = "mcp_bridge")]
    verbose: bool,
    #[command(flatten)]
    #[mcp(crate = "mcp_bridge")]
    common: Common,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, McpTool)]
struct Common {
    #[arg(long)]
    quiet: bool,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(crate = "mcp_bridge")]
    Run,
}

fn main() {}
