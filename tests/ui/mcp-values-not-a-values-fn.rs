// A `#[mcp(values = ...)]` function is a `fn() -> Result<Vec<S>, E>`
// (`S: Into<String>`, `E: Display`); another shape is an error at its path.
use clap::Parser;
use mcp_bridge::McpTool;

fn numbers() -> Result<Vec<u32>, String> {
    Ok(vec![1])
}

fn by_prefix(prefix: &str) -> Result<Vec<String>, String> {
    Ok(vec![prefix.to_owned()])
}

fn infallible() -> Vec<String> {
    vec![]
}

#[derive(Parser, McpTool)]
struct Cli {
    #[arg(long)]
    #[mcp(values = numbers)]
    number: Option<String>,
    #[arg(long)]
    #[mcp(values = by_prefix)]
    prefixed: Option<String>,
    #[arg(long)]
    #[mcp(values = infallible)]
    plain: Option<String>,
}

fn main() {}
