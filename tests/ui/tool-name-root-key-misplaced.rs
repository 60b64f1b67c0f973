// `prefix` and `max_name_len` shape every tool name: on anything but the
// root they are refused, even when they arrive through a flattened struct.
use clap::{Args, Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    Sync(SyncArgs),
}

#[derive(Args, McpTool)]
#[mcp(prefix = "sync")]
struct SyncArgs {
    #[arg(long)]
    dry_run: bool,
}

fn main() {}
