//! Generic types are checked at run time (the registry), not refused.
use clap::{Args, Parser};
use mcp_bridge::{McpArgs, McpTool};

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli<T: Args + McpArgs> {
    #[command(flatten)]
    inner: T,
}

#[derive(Args, McpTool)]
struct Inner {
    #[arg(long)]
    verbose: bool,
}

fn main() {
    let registry = mcp_bridge::Registry::<Cli<Inner>>::new().unwrap();
    assert_eq!(registry.tools().next().unwrap().name, "app");
}
