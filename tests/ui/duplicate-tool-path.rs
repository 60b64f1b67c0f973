use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "root")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
#[command(rename_all = "snake_case")]
enum Command {
    #[command(subcommand)]
    A(A),
    #[command(subcommand)]
    AFoo(AFoo),
}

#[derive(Subcommand, McpTool)]
#[command(rename_all = "snake_case")]
enum A {
    /// The tool `root_a_foo_bar`
    FooBar,
}

#[derive(Subcommand, McpTool)]
enum AFoo {
    /// The tool `root_a_foo_bar` too
    Bar,
}

fn main() {}
