// `task` is a flag or names a mode: `"optional"`, `"required"` or
// `"deferred"`; given once.
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
    #[mcp(task = "later")]
    Build,
    #[mcp(task = true)]
    Test,
    #[mcp(task, task = "required")]
    Deploy,
    #[mcp(task = "deferred")]
    Release,
}

fn main() {}
