use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5), default_value_t = 9)]
    priority: u8,
    #[arg(long, value_parser = clap::value_parser!(i64).range(..0), default_value = "0")]
    offset: i64,
    #[arg(long, value_parser = ["low", "high"], default_value = "medium")]
    level: String,
}

fn main() {}
