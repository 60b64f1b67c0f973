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
    #[command(name = "run")]
    Start,
    #[command(name = "run")]
    Launch,
    #[mcp(name = "app_status")]
    Status,
    #[mcp(name = "app_status")]
    Health,
}

fn main() {}
