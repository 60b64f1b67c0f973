use clap::{Args, Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, global = true)]
    quiet: bool,
    #[command(flatten)]
    #[mcp(name = "common")]
    common: Common,
    #[command(subcommand)]
    #[mcp(skip)]
    command: Command,
    #[arg(skip)]
    #[mcp(description = "never an argument")]
    cache: Vec<String>,
}

#[derive(Args, McpTool)]
struct Common {
    #[arg(long)]
    verbose: bool,
}

#[derive(Subcommand, McpTool)]
enum Command {
    Run,
    #[command(flatten)]
    #[mcp(name = "more")]
    More(More),
}

#[derive(Subcommand, McpTool)]
enum More {
    Stop {
        #[arg(from_global)]
        #[mcp(name = "silent")]
        quiet: bool,
    },
}

fn main() {}
