// `#[mcp(args(...))]` names properties of the command's own tool, as its
// schema names them.
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
    /// The flag is `--dry-run`: `dry_run` is its field, not its property
    #[mcp(args(dry_run = true))]
    Sync(SyncArgs),
}

#[derive(Args, McpTool)]
struct SyncArgs {
    #[arg(long)]
    dry_run: bool,
}

fn main() {}
