// `required` shapes the schema and the conversion, so it must be `true` or
// `false`; `hide` and `global` may be expressions (evaluated as clap
// evaluates them).
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
