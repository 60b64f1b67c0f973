use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    /// The positional `name`
    name: String,
    /// The flag `--name`
    #[arg(long = "name")]
    display_name: Option<String>,
}

fn main() {}
