use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "a-rather-long-application-name-for-a-command-line-tool")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    /// 54 + 1 + 74 = 129 characters
    #[command(name = "synchronise-every-remote-repository-with-its-upstream-and-report-conflicts")]
    Sync,
}

fn main() {}
