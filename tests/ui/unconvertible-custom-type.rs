use clap::Parser;
use mcp_bridge::McpTool;

/// clap reads it through `From<&str>`; MCP has no conversion for it.
#[derive(Clone)]
struct Label(String);

impl From<&str> for Label {
    fn from(text: &str) -> Self {
        Label(text.to_owned())
    }
}

#[derive(Parser, McpTool)]
#[command(name = "tag")]
struct Cli {
    #[arg(long)]
    label: Label,
}

fn main() {}
