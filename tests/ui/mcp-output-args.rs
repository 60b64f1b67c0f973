// The attribute errors of `#[mcp(output = "...")]`, `#[mcp(output = Type)]`
// and `#[mcp(args(...))]`.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
struct Cli {
    #[mcp(output = "json", args(verbose = true))]
    #[arg(long)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(output = "xml")]
    Show,
    #[mcp(args(format = "json", format = "yaml"))]
    List,
    #[mcp(args())]
    Count,
    #[mcp(args(limit = usize::MAX))]
    Top,
    #[mcp(args = "json")]
    Dump,
    #[mcp(output = "json", output = "table")]
    Table,
    #[mcp(output = Listing, output = "json")]
    Both,
    #[mcp(output = yaml)]
    Unquoted,
    Item(Item),
}

#[derive(clap::Args, McpTool)]
struct Item {
    #[mcp(output = Listing)]
    #[arg(long)]
    id: u32,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Listing {
    names: Vec<String>,
}

fn main() {}
