// A tool offers its ancestors' arguments, global or not (clap takes them
// before the subcommand). One named like an argument of a command nearer
// the tool is offered as `<command>-<name>`: that name taken as well is a
// collision.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long)]
    config: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    Run {
        #[arg(long)]
        config: Option<String>,
        #[arg(long)]
        app_config: Option<String>,
    },
}

fn main() {}
