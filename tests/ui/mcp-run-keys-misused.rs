// `timeout` must be a duration; `serial`, `timeout` and `isolate` are
// said of a command, not of an argument.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long)]
    #[mcp(serial)]
    quiet: bool,
    #[arg(long)]
    #[mcp(isolate)]
    loud: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(timeout = "soon")]
    Build,
    #[mcp(timeout = "0s")]
    Test,
    #[mcp(serial = "yes", timeout = "1m30s")]
    Deploy,
}

fn main() {}
