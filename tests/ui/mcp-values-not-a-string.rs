// A values function gives strings, which become the property's `enum`: on
// an argument whose values the derive knows are no plain strings, or that
// is no property of the tool, it could do nothing. (Where a `value_parser`
// decides the type, the registry refuses it when it is made.)
use clap::{Parser, ValueEnum};
use mcp_bridge::McpTool;

fn labels() -> Result<Vec<String>, String> {
    Ok(vec!["bug".into()])
}

#[derive(Clone, ValueEnum)]
enum Color {
    Red,
    Blue,
}

#[derive(Parser, McpTool)]
struct Cli {
    #[arg(long)]
    #[mcp(values = labels)]
    count: Option<u32>,
    #[arg(long)]
    #[mcp(values = labels)]
    force: bool,
    #[arg(short, action = clap::ArgAction::Count)]
    #[mcp(values = labels)]
    verbose: u8,
    #[arg(long, value_enum)]
    #[mcp(values = labels)]
    color: Option<Color>,
    #[arg(long, value_parser = ["low", "high"])]
    #[mcp(values = labels)]
    level: Option<String>,
    #[arg(long)]
    #[mcp(json, values = labels)]
    limits: Option<String>,
    #[arg(long, hide = true)]
    #[mcp(values = labels)]
    hidden: Option<String>,
    #[arg(long)]
    #[mcp(skip, values = labels)]
    skipped: Option<String>,
    // Fine: a string, and a type a parser of the user's makes.
    #[arg(long)]
    #[mcp(values = labels)]
    label: Option<String>,
    #[arg(long, value_parser = parse_name)]
    #[mcp(values = labels)]
    name: Option<String>,
}

fn parse_name(text: &str) -> Result<String, String> {
    Ok(text.to_owned())
}

fn main() {}
