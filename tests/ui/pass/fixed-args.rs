// Fixed values name a property as the schema does: a long flag (quoted
// when it is no identifier), a positional's id, or an ancestor's
// argument the tool is offered.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, global = true)]
    color: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(args("dry-run" = true, depth = -1i32, ratio = 0.5, color = "never", target = "all"), output = "lines")]
    Sync {
        #[arg(long)]
        dry_run: bool,
        #[arg(long, allow_negative_numbers = true)]
        depth: i32,
        #[arg(long)]
        ratio: f64,
        target: String,
    },
}

fn main() {}
