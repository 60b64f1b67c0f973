// A type clap reads through `From<&str>` (`value_parser!` takes it): so
// does McpTool, whatever the text.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Clone, Debug)]
struct Label(String);

impl From<&str> for Label {
    fn from(text: &str) -> Self {
        Label(text.to_owned())
    }
}

#[derive(Parser, McpTool, Debug)]
#[command(name = "tag")]
struct Cli {
    #[arg(long)]
    label: Label,
}

fn main() {
    mcp_bridge::testing::assert_parity::<Cli>();
    mcp_bridge::testing::assert_agrees_with_clap::<Cli>();
}
