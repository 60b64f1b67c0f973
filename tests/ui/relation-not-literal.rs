// A group's membership given as an expression cannot be read at expansion
// time (an argument's relations to other ids can: they are evaluated
// through clap when the table is built).
use clap::Parser;
use mcp_bridge::McpTool;

const OUTPUT: &str = "output";

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, group = OUTPUT)]
    verbose: bool,
    #[arg(long, group = "output")]
    quiet: bool,
}

fn main() {}
