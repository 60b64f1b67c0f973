// A fixed value its property cannot take, where the property is an
// argument of the same struct or variant and its type is known. (Where a
// `value_parser` decides the type, or the argument is declared elsewhere,
// the registry refuses it when it is made.)
use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(args(depth = "deep"))]
struct Cli {
    #[arg(long)]
    depth: Option<u8>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(args(
        retries = 300,
        ratio = "half",
        timeout = 1.5,
        format = "xml",
        "dry-run" = "yes",
        tags = 3,
        name = true,
        priority = 0
    ))]
    Sync {
        #[arg(long)]
        retries: u8,
        #[arg(long)]
        ratio: f64,
        #[arg(long)]
        timeout: i64,
        #[arg(long, value_parser = ["json", "yaml"])]
        format: String,
        #[arg(long)]
        dry_run: bool,
        #[arg(long)]
        tags: Vec<String>,
        name: String,
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
        priority: u8,
    },
    // Fine: a parser of the user's decides.
    #[mcp(args(level = 3))]
    Run {
        #[arg(long, value_parser = parse_level)]
        level: String,
    },
}

fn parse_level(text: &str) -> Result<String, String> {
    Ok(text.to_owned())
}

fn main() {}
