// A name made from a long path is shortened (its end and a hash), and the
// shortened name must still be unique: here a given name takes it.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "a-rather-long-application-name-for-a-command-line-tool")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    /// 54 + 1 + 74 = 129 characters, served as its last 55 and a hash
    #[command(name = "synchronise-every-remote-repository-with-its-upstream-and-report-conflicts")]
    Sync,
    /// Given the very name the long one is shortened to
    #[mcp(name = "emote-repository-with-its-upstream-and-report-conflicts_129ad668")]
    Status,
}

fn main() {}
