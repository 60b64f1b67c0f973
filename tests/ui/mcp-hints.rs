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
    /// Changes nothing and destroys everything
    #[mcp(read_only, destructive)]
    Contradiction,
    /// A hint is a flag or a bool
    #[mcp(idempotent = "yes", open_world = 1)]
    NotABool,
    /// Once is enough
    #[mcp(read_only, read_only = false)]
    Twice,
    /// A title to read
    #[mcp(title = "  ")]
    EmptyTitle,
    /// Titles are strings
    #[mcp(title = 5)]
    TitleNotAString,
    /// Hints describe a tool, not an argument
    Misplaced {
        #[arg(long)]
        #[mcp(read_only, title = "Force", icon = "https://example.com/f.png")]
        force: bool,
    },
    /// Icons come from where clients load them
    #[mcp(icon = "file:///tmp/icon.png")]
    IconNotHttps,
    /// One icon
    #[mcp(icon = "https://example.com/a.png", icon = "https://example.com/b.png")]
    IconTwice,
}

fn main() {}
