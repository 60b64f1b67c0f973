// The attribute errors of `#[mcp(header = "...")]` (SEP-2243 parameter
// headers).
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[mcp(header = "App")]
struct Cli {
    #[arg(long)]
    #[mcp(header = "Cloud Region")]
    spaced: Option<String>,
    #[arg(long)]
    #[mcp(header = "")]
    empty: Option<String>,
    #[arg(long)]
    #[mcp(header)]
    bare: Option<String>,
    #[arg(long)]
    #[mcp(header = "Zone", header = "Zone")]
    twice: Option<String>,
    #[arg(long)]
    #[mcp(header = "Tags")]
    tags: Vec<String>,
    #[arg(long, hide = true)]
    #[mcp(header = "Secret")]
    secret: Option<String>,
    #[arg(long)]
    #[mcp(header = "Tenant")]
    tenant: Option<String>,
    #[arg(long)]
    #[mcp(header = "tenant")]
    owner: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(header = "Run")]
    Run,
}

fn main() {}
