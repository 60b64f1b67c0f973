// Tool names are checked at compile time: a subcommand's name must be a
// literal.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

const LIST: &str = "ls";

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[command(name = LIST)]
    List,
    Add,
}

fn main() {}
