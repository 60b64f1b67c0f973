// A tool offers its ancestors' arguments, global or not (clap takes them
// before the subcommand), and each level's build reads its arguments by
// property name: one named like the tool's own is a collision.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long)]
    config: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    Run {
        #[arg(long)]
        config: Option<String>,
    },
}

fn main() {}
