// A positional named like a flag of its command is offered as
// `<id>-positional` automatically; a name given with `#[mcp(name)]` is
// taken as written, so it can still collide.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    /// The positional `label`, named on purpose
    #[mcp(name = "name")]
    label: String,
    /// The flag `--name`
    #[arg(long = "name")]
    display_name: Option<String>,
}

fn main() {}
