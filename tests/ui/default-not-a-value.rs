use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, default_value = "abc")]
    count: u32,
    #[arg(long, default_value_t = 300)]
    small: u8,
    #[arg(long, action = clap::ArgAction::Set, default_value = "x")]
    enabled: bool,
    #[arg(long, default_value = "ab")]
    separator: char,
    #[arg(long, default_values = ["1", "-2"])]
    sizes: Vec<u16>,
}

fn main() {}
