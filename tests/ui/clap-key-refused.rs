//! A command key whose effect the tools cannot follow is refused, with
//! what to write instead: a subcommand added with clap's builder.
use clap::{Command, Parser};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(subcommands([Command::new("extra")]))]
struct Cli {
    #[arg(long)]
    name: Option<String>,
}

fn main() {}
