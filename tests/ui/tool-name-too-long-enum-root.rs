// An enum that derives `Parser` is a root: its `#[mcp(prefix)]` and
// `#[mcp(max_name_len)]` set every tool name, and the root's checks apply.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "a-rather-long-application-name-for-a-command-line-tool")]
#[mcp(prefix = "app", max_name_len = 20)]
enum Cli {
    /// `app_synchronise-everything` is 26 characters: shortened
    #[command(name = "synchronise-everything")]
    Sync,
    /// A given name is never shortened: past the budget it is refused
    #[mcp(name = "status-of-every-remote")]
    Status,
}

fn main() {}
