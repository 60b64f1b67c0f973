// An enum that derives `Parser` is a root: its name is part of every tool
// name, and the root's checks apply to it.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "a-rather-long-application-name-for-a-command-line-tool")]
enum Cli {
    /// 54 + 1 + 74 = 129 characters
    #[command(name = "synchronise-every-remote-repository-with-its-upstream-and-report-conflicts")]
    Sync,
    /// Fine
    Status,
}

fn main() {}
