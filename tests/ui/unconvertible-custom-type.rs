// A type neither clap nor mcp-bridge can read from text (no parser, no
// `FromStr`, `From<&str>`, `ValueEnum`...): clap refuses it, and so does
// McpTool, saying what to give it.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Clone)]
struct Label(String);

#[derive(Parser, McpTool)]
#[command(name = "tag")]
struct Cli {
    #[arg(long)]
    label: Label,
}

fn main() {}
