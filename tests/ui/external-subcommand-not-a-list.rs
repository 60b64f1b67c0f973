// An external subcommand's variant holds the words clap hands it: the
// command's name and its arguments, `Vec<String>` or `Vec<OsString>`.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    List,
    #[command(external_subcommand)]
    Plugin { name: String },
}

fn main() {}
