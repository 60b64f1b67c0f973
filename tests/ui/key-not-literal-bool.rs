// `required` and `global` shape the schema and the tools, so they must be
// `true` or `false`; `hide` may be an expression (evaluated as clap
// evaluates it).
use clap::Parser;
use mcp_bridge::McpTool;

const STRICT: bool = true;

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, required = STRICT)]
    name: Option<String>,
    #[arg(long, global = STRICT)]
    quiet: bool,
    #[arg(long, hide = !STRICT)]
    shown: bool,
}

fn main() {}
