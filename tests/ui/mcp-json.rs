// `#[mcp(json)]` is said of an argument, takes no value, and needs a type
// serde can read and schemars can describe.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
struct Cli {
    #[arg(long)]
    #[mcp(json = true)]
    limits: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(json)]
    Run,
}

fn main() {}
