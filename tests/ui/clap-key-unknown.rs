//! A key clap's derive would turn into a builder call that clap does not
//! have (a typo, or a method of a newer clap) is named, never ignored.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
struct Cli {
    #[arg(long, use_value_delimeter = true)]
    names: Vec<String>,
}

fn main() {}
