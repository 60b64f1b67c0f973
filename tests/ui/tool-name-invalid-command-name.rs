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
    /// A tool named `app_my cmd`
    #[command(name = "my cmd")]
    MyCmd,
    /// Not a tool itself, but its subcommands are named `app_rémote_…`
    #[command(name = "rémote", subcommand)]
    Remote(Remote),
    /// Fine: the tool has a name of its own
    #[command(name = "the list")]
    #[mcp(name = "list")]
    List,
}

#[derive(Subcommand, McpTool)]
enum Remote {
    Add,
}

fn main() {}
