// A call in a child process cannot become a task part-way through:
// `task = "deferred"` does not go with `isolate` (`task` alone does).
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
    #[mcp(isolate, task = "deferred")]
    Deploy,
    #[mcp(task = "deferred")]
    #[mcp(isolate)]
    Release,
    #[mcp(isolate, task)]
    Build,
}

fn main() {}
