// `num_args` decides how many values a list takes; it must be readable.
use clap::Parser;
use mcp_bridge::McpTool;

const PAIR: usize = 2;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, num_args = PAIR)]
    point: Vec<i32>,
}

fn main() {}
