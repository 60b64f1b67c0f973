// A command that runs only through its subcommands has no calls of its
// own to fix values for.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(args(format = "json"))]
    #[command(subcommand)]
    Remote(Remote),
}

#[derive(Subcommand, McpTool)]
enum Remote {
    List {
        #[arg(long)]
        format: Option<String>,
    },
}

fn main() {}
