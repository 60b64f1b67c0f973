//! Keys and parsers that unseen real CLIs use and the derive once read
//! otherwise than clap, each written as such a CLI writes it, with nothing
//! but `McpTool` added: `use_value_delimiter`, a type deriving `ValueEnum`
//! and implementing `FromStr` with `ignore_case` but no `value_enum`, a
//! function of the CLI's reading its own notation into an integer, a
//! counted flag with a ranged parser, a ranged parser whose bound is a
//! constant, `args_conflicts_with_subcommands` with a hidden positional of
//! a child's name, `subcommand_negates_reqs`, `mut_args`, `env_os`,
//! `number_of_values`, `required_if_eq_any`, the `_os` defaults and a
//! required positional after an optional one (`allow_missing_positional`),
//! and a struct derived by clap alone (another crate's) with an about, a
//! `last` list and a `default_missing_value` (`ZigBuild`).

use std::ffi::OsString;
use std::str::FromStr;

use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use mcp_bridge::McpTool;

/// A picker, read by clap through its `ValueEnum` (which `value_parser!`
/// prefers to `FromStr`), with no `value_enum` key written.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq)]
pub enum Finder {
    /// The fuzzy one
    Fzf,
    /// The other one
    Skim,
}

impl FromStr for Finder {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "fzf" => Ok(Finder::Fzf),
            "skim" => Ok(Finder::Skim),
            other => Err(format!("no finder {other}")),
        }
    }
}

/// Sizes in the CLI's own notation: `512`, `4KB`, `1MB`.
pub fn bytes(text: &str) -> Result<u64, String> {
    let (digits, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = digits.parse().map_err(|_| format!("`{text}` is no size"))?;
    let scale = match unit {
        "" | "B" => 1,
        "KB" => 1 << 10,
        "MB" => 1 << 20,
        _ => return Err(format!("`{unit}` is no unit (B, KB, MB)")),
    };
    Ok(n * scale)
}

/// The most workers, a constant bound.
pub const MAX_JOBS: i64 = 64;

/// A flat command of the forms above.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "total", mut_args(|arg| arg.help_heading("Options")))]
pub struct Total {
    /// Bases to enable
    #[clap(long, value_enum, use_value_delimiter = true)]
    pub enabled: Vec<Finder>,
    /// Names, delimited with a default
    #[arg(long, use_value_delimiter = true, default_value = "a,b")]
    pub names: Vec<String>,
    /// The finder
    #[arg(long, ignore_case = true)]
    pub finder: Option<Finder>,
    /// The block size
    #[arg(long, default_value = "1MB", value_parser = bytes)]
    pub block_size: u64,
    /// Less output
    #[arg(short, long, action = ArgAction::Count, value_parser = clap::value_parser!(u8).range(0..3))]
    pub quiet: u8,
    /// Workers
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..=MAX_JOBS))]
    pub jobs: Option<i64>,
    /// A token, from the environment too
    #[arg(long, env_os = "TOTAL_TOKEN_TEST")]
    pub token: Option<OsString>,
    /// A pair
    #[arg(long, number_of_values = 2)]
    pub pair: Option<Vec<String>>,
    /// Why, needed with some names
    #[arg(long, required_if_eq_any([("finder", "skim"), ("block_size", "1KB")]))]
    pub reason: Option<String>,
    /// Where to, as an OS string
    #[arg(long, default_value_os = "out")]
    pub out: OsString,
}

/// A command whose own arguments conflict with its subcommands, with a
/// hidden positional of a child's name, and one whose requirements a
/// subcommand negates.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "hook", args_conflicts_with_subcommands = true)]
pub struct Hook {
    /// The agent, for running the hook itself
    #[arg(hide = true)]
    pub agent: Option<String>,
    /// Say more
    #[arg(long)]
    pub loud: bool,
    #[command(subcommand)]
    pub command: Option<HookCommand>,
}

/// What `hook` does.
#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum HookCommand {
    /// Install for an agent
    Install {
        /// The agent
        agent: String,
    },
    /// Sync, with a parent whose requirement a subcommand negates
    Sync(SyncArgs),
}

/// `hook sync`.
#[derive(Args, McpTool, Debug, PartialEq)]
#[command(subcommand_negates_reqs = true)]
pub struct SyncArgs {
    /// The remote (an `Option` that clap requires, as clap's docs write
    /// a requirement a subcommand negates)
    #[arg(long, required = true)]
    pub remote: Option<String>,
    #[command(subcommand)]
    pub then: Option<SyncThen>,
}

/// After a sync.
#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum SyncThen {
    /// Show the state
    Show,
}

/// A required positional after an optional one.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "copy", allow_missing_positional = true)]
pub struct Copy {
    /// Where from
    pub from: Option<String>,
    /// Where to
    pub to: String,
}

/// Relations whose ids the CLI computes: a constant list, a constant id,
/// a clap `Id`, a function's `Vec<&str>`.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "query")]
pub struct Query {
    /// Everything
    #[arg(long, conflicts_with_all = Query::NARROWING)]
    pub all: bool,
    /// By name
    #[arg(long, requires = Query::WHERE)]
    pub name: Option<String>,
    /// By age
    #[arg(long)]
    pub age: Option<u32>,
    /// Where to look
    #[arg(long = "where", required_unless_present_any = unless_given())]
    pub place: Option<String>,
    /// The newest first
    #[arg(long, overrides_with = clap::Id::from("oldest"))]
    pub newest: bool,
    /// The oldest first
    #[arg(long)]
    pub oldest: bool,
    /// Show the differences: a flag in an `Option` (always `Some`)
    #[arg(long, long = "diff", action = clap::ArgAction::SetTrue)]
    pub emit_diffs: Option<bool>,
}

impl Query {
    /// What `--all` conflicts with.
    pub const NARROWING: &'static [&'static str] = &["name", "age"];
    /// What `--name` requires.
    pub const WHERE: &'static str = "place";
}

/// What makes `--where` optional.
fn unless_given() -> Vec<&'static str> {
    vec!["all"]
}

/// Command names that are no tool names as they are: a space, a `+`, a
/// letter beyond ASCII.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "my zig")]
pub struct Zig {
    #[command(subcommand)]
    pub command: ZigCommand,
}

/// What `my zig` runs.
#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum ZigCommand {
    /// The C++ compiler
    #[command(name = "c++")]
    Cxx {
        /// Its arguments
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// The C compiler
    Cc,
    /// A remote's commands
    #[command(name = "rémote", subcommand)]
    Remote(ZigRemote),
    // No doc comment: the about is the flattened struct's, as clap's
    // derive applies it (cargo-zigbuild's commands over cargo-options').
    #[allow(missing_docs)]
    Build(ZigBuild),
}

// `my zig build`: its own option, and cargo's, from a struct of another
// crate's kind (no `McpTool`: read through clap). No doc comment, which
// clap would make the command's about in place of cargo's.
#[allow(missing_docs)]
#[derive(Args, McpTool, Debug, PartialEq)]
pub struct ZigBuild {
    /// Leave the zig linker out
    #[arg(long)]
    pub disable_zig_linker: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub cargo: CargoBuild,
}

/// cargo's options as a crate of them declares them: derived by clap
/// alone, with its own about.
#[derive(Args, Debug, PartialEq)]
#[command(about = "Compile a package and its dependencies")]
pub struct CargoBuild {
    /// Build for the target triple; alone, for the host
    #[arg(long, num_args = 0..=1, default_missing_value = "", action = ArgAction::Append)]
    pub target: Vec<String>,
    /// Colour the output; alone, always
    #[arg(long, num_args = 0..=1)]
    pub color: Option<Option<String>>,
    /// Only the tests whose name has this
    #[arg(value_name = "TESTNAME")]
    pub test_name: Option<String>,
    /// Arguments for the test binary
    #[arg(value_name = "ARGS", last = true, num_args = 0..)]
    pub args: Vec<String>,
}

/// `my zig rémote`.
#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum ZigRemote {
    /// Add one
    Add,
    /// Build on one: cargo's options two commands down, beside a required
    /// option
    Push {
        /// The remote
        #[arg(long)]
        name: String,
        #[command(flatten)]
        #[allow(missing_docs)]
        cargo: CargoBuild,
    },
}
