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
    /// The tool `app_list`
    List,
    /// Renamed to the name `List` already has
    #[mcp(name = "app_list")]
    Show,
}

fn main() {}
