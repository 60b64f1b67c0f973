// Property names are checked at compile time: an argument's id, long and
// short names must be literals, not expressions clap would evaluate.
use clap::Parser;
use mcp_bridge::McpTool;

const LONG: &str = "output-file";
const SHORT: char = 'o';

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long = LONG, short = SHORT)]
    output: Option<String>,
}

fn main() {}
