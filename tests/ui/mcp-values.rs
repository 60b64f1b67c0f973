// The attribute errors of `#[mcp(values = ...)]` and `#[mcp(values_ttl = ...)]`.
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

fn labels() -> Result<Vec<String>, String> {
    Ok(vec!["bug".into()])
}

#[derive(Parser, McpTool)]
struct Cli {
    #[arg(long)]
    #[mcp(values = "labels")]
    quoted: Option<String>,
    #[arg(long)]
    #[mcp(values)]
    bare: Option<String>,
    #[arg(long)]
    #[mcp(values_ttl = "5m")]
    ttl_alone: Option<String>,
    #[arg(long)]
    #[mcp(values = labels, values_ttl = "soon")]
    bad_ttl: Option<String>,
    #[arg(long)]
    #[mcp(values = labels, values = labels)]
    twice: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(values = labels)]
    Show,
}

fn main() {}
