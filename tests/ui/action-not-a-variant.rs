// The property's JSON type depends on the action, so it must be a path to
// one of clap's `ArgAction` variants.
use clap::{ArgAction, Parser};
use mcp_bridge::McpTool;

fn counting() -> ArgAction {
    ArgAction::Count
}

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(short, long, action = counting())]
    verbose: u8,
}

fn main() {}
