// `#[mcp(example = "...")]` is a call's arguments as a JSON object, said
// of a command.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[mcp(example = "taskctl task add 'Write the docs'")]
struct Cli {
    #[mcp(example = r#"{"title": "x"}"#)]
    title: String,
}

fn main() {}
