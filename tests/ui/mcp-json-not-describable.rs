// A `#[mcp(json)]` argument's type must be `Deserialize` and `JsonSchema`.
use clap::Parser;
use mcp_bridge::McpTool;

#[derive(Clone, Debug)]
struct Limits {
    cpu: u32,
}

fn parse(text: &str) -> Result<Limits, String> {
    text.parse().map(|cpu| Limits { cpu }).map_err(|_| "a number".to_owned())
}

#[derive(Parser, McpTool)]
struct Cli {
    #[arg(long, value_parser = parse)]
    #[mcp(json)]
    limits: Limits,
}

fn main() {}
