//! A document converter configured mostly through the environment, in the
//! style of tools meant for scripts and containers: nearly every option has
//! a variable, the input is given either as a positional or as `--input`
//! (which clap tells apart by position), durations have a parser of the
//! tool's own.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::ValueParser;
use clap::{value_parser, Parser, ValueEnum};
use mcp_bridge::McpTool;

/// Convert documents between formats.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "conv", version)]
pub struct Conv {
    /// The document to convert
    #[arg(required_unless_present = "input_file", conflicts_with = "input_file")]
    pub input: Option<PathBuf>,

    /// The document to convert, as an option (for scripts)
    #[arg(short, long = "input", id = "input_file", env = "CONV_INPUT")]
    pub input_file: Option<PathBuf>,

    /// The format to write
    #[arg(short = 't', long = "to", env = "CONV_TO", value_enum, default_value_t = Format::Html)]
    pub to: Format,

    /// The column to wrap at
    #[arg(long, env = "CONV_WRAP", default_value_t = 80, value_parser = value_parser!(u16).range(20..))]
    pub wrap: u16,

    /// Give up after this long, in seconds (`30`) or minutes (`2m`)
    #[arg(long, env = "CONV_TIMEOUT", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,

    /// Print nothing but errors
    #[arg(short, long, env = "CONV_QUIET")]
    pub quiet: bool,

    /// How hard to compress the output, from 0 to 9
    #[arg(long, value_parser = level_parser())]
    pub level: Option<u8>,
}

/// A parser the CLI only has as clap's type-erased `ValueParser` (built
/// elsewhere and handed over), so only clap itself can run it.
fn level_parser() -> ValueParser {
    ValueParser::new(|text: &str| -> Result<u8, String> {
        match text.parse::<u8>() {
            Ok(level) if level <= 9 => Ok(level),
            _ => Err(format!("`{text}` is not a level from 0 to 9")),
        }
    })
}

/// Output formats.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// HTML
    Html,
    /// Markdown
    #[value(alias = "md")]
    Markdown,
    /// Plain text
    Text,
}

fn parse_timeout(text: &str) -> Result<Duration, String> {
    match text.strip_suffix('m') {
        Some(minutes) => minutes
            .parse::<u64>()
            .map(|m| Duration::from_secs(m * 60))
            .map_err(|_| format!("`{text}` is not a number of minutes")),
        None => text
            .parse::<u64>()
            .map(Duration::from_secs)
            .map_err(|_| format!("`{text}` is not a number of seconds")),
    }
}
