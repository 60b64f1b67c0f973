// The type of `#[mcp(output = Type)]` must be `Serialize` (the value is
// sent as JSON) and `JsonSchema` (its schema is the tool's `outputSchema`);
// the error points at the type.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(output = Plain)]
    Show,
    #[mcp(output = Vec<Described>)]
    List,
}

struct Plain {
    name: String,
}

#[derive(schemars::JsonSchema)]
struct Described {
    name: String,
}

fn main() {}
