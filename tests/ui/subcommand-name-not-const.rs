// Tool names are checked at compile time: a subcommand's name is a literal
// or a `&'static str` constant (`name = LIST` is fine); an expression
// that is no constant cannot be checked.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

const LIST: &str = "ls";

fn add_name() -> &'static str {
    "add"
}

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[command(name = LIST)]
    List,
    #[command(name = add_name())]
    Add,
}

fn main() {}
