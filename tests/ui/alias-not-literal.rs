// Aliases are read as literals: a call naming one is told the property's
// name, so they must be readable.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

const OLD_NAME: &str = "colour";
const SHORT: [&str; 1] = ["ls"];

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, alias = OLD_NAME)]
    color: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[command(visible_aliases = SHORT)]
    List,
}

fn main() {}
