// The attribute errors of `#[mcp(prefix)]` and `#[mcp(max_name_len)]`.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[mcp(prefix = "my app", max_name_len = 200)]
struct Cli {
    #[mcp(prefix = "x")]
    #[arg(long)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Parser, McpTool)]
#[mcp(prefix = "a", prefix = "b", max_name_len = "64")]
struct Twice {}

#[derive(Parser, McpTool)]
#[mcp(max_name_len = 8, max_name_len)]
struct TooShort {}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(max_name_len = 32)]
    Run,
}

fn main() {}
