// A `num_args` expression is evaluated on a list; on a single value it
// decides whether the property accepts `null`, so it must be readable.
use clap::Parser;
use mcp_bridge::McpTool;

const MAYBE: std::ops::RangeInclusive<usize> = 0..=1;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, num_args = MAYBE, default_missing_value = "always")]
    color: Option<String>,
}

fn main() {}
