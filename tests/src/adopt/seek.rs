//! A search tool with one big flat struct of flags, in the style of the
//! grep-like tools people use every day: `--foo`/`--no-foo` pairs that
//! override each other, a counted `-v` in call syntax, values taken from
//! constants and `cfg!`, a flag read from the environment, parsers given
//! every way clap allows, its own `-h`, and no-op compatibility flags.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, ValueParser};
use clap::{value_parser, ArgAction, Parser, ValueEnum};
use mcp_bridge::McpTool;

/// The separator of `--type` lists.
pub const TYPE_SEPARATOR: char = ',';

/// Lines of context unless told otherwise.
pub const DEFAULT_CONTEXT: &str = "2";

/// Search files for a pattern.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[clap(name = "seek", version, disable_help_flag = true)]
pub struct Seek {
    /// The pattern to look for
    pub pattern: String,

    /// Files or directories to search
    #[clap(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Search case-insensitively
    #[clap(short = 'i', long, overrides_with = "case_sensitive")]
    pub ignore_case: bool,

    /// Search case-sensitively (the default)
    #[clap(short = 's', long, overrides_with = "ignore_case")]
    pub case_sensitive: bool,

    /// Follow symbolic links
    #[arg(short = 'L', long, overrides_with("no_follow"))]
    pub follow: bool,

    /// Do not follow symbolic links
    #[arg(long, overrides_with("follow"), hide(true))]
    pub no_follow: bool,

    /// Say more about what is searched (repeat for more)
    #[arg(short('v'), long, action(ArgAction::Count))]
    pub verbose: u8,

    /// Lines of context around each match
    #[arg(short = 'C', long, default_value(DEFAULT_CONTEXT), value_parser = value_parser!(usize))]
    pub context: usize,

    /// Stop after this many matches
    #[arg(short = 'm', long, value_parser(clap::value_parser!(u64).range(1..)))]
    pub max_count: Option<u64>,

    /// Only search files of these types
    #[arg(short = 't', long = "type", value_delimiter = TYPE_SEPARATOR, num_args(1..))]
    pub types: Vec<String>,

    /// When to use colours
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,

    /// How to sort results
    #[arg(long, value_parser = PossibleValuesParser::new(["path", "modified"]))]
    pub sort: Option<String>,

    /// Print statistics at the end
    #[arg(long, env = "SEEK_STATS")]
    pub stats: bool,

    /// Worker threads (0: one per core)
    #[arg(short = 'j', long, value_parser = parse_threads)]
    pub threads: Option<usize>,

    /// A program each file is piped through first
    #[arg(long, value_parser = ValueParser::new(non_empty))]
    pub pre: Option<String>,

    /// Trace the matcher (only in builds with tracing)
    #[arg(long, hide = !cfg!(feature = "seek-trace"))]
    pub trace: bool,

    /// Show the matcher's plan
    #[arg(long, hide = cfg!(feature = "seek-trace"))]
    pub plan: bool,

    /// Print help
    #[arg(short = 'h', long, action = ArgAction::Help)]
    pub help: Option<bool>,

    /// Accepted and ignored, for scripts written for older versions
    #[arg(long = "mmap", hide = true, action = ArgAction::SetTrue)]
    pub legacy_mmap: (),
}

/// When to use colours.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// Always
    Always,
    /// Never
    Never,
    /// When writing to a terminal
    Auto,
}

fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if n > 256 {
        return Err(format!("at most 256 threads, not {n}"));
    }
    Ok(n)
}

fn non_empty(text: &str) -> Result<String, std::io::Error> {
    if text.is_empty() {
        Err(std::io::Error::other("the program must not be empty"))
    } else {
        Ok(text.to_owned())
    }
}
