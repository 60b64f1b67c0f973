use clap::{Args, Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    /// Offered on every tool below
    #[arg(long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    Run(RunArgs),
}

#[derive(Args, McpTool)]
struct RunArgs {
    /// Also `verbose` on `app_run`
    #[arg(long)]
    verbose: bool,
}

fn main() {}
