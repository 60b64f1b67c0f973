//! Keys mirrored through clap's own conversions and methods: every form
//! clap takes for them compiles.
use clap::{ArgAction, Parser, Subcommand};
use mcp_bridge::McpTool;

fn default_dir() -> &'static str {
    "."
}
static LAZY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| "x".to_owned());
fn long_help() -> String {
    "More words.".to_owned()
}

#[derive(Parser, McpTool)]
#[command(
    name = "app",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    mut_args(|arg| arg),
    arg(clap::Arg::new("extra").long("extra")),
    rename_all_env = "SCREAMING_SNAKE_CASE"
)]
struct Cli {
    #[arg(long, use_value_delimiter = true, default_value = "a,b")]
    names: Vec<String>,
    #[arg(long, default_value = default_dir())]
    dir: String,
    #[arg(long, default_value = &**LAZY)]
    lazy: String,
    #[arg(long, default_value_os = std::ffi::OsStr::new("o"))]
    os: std::ffi::OsString,
    #[arg(long, env_os = "APP_TOKEN")]
    token: Option<String>,
    #[arg(long, number_of_values = 2)]
    pair: Option<Vec<String>>,
    #[arg(long, long_help = long_help())]
    described: Option<String>,
    #[arg(short, action = ArgAction::Count, value_parser = clap::value_parser!(u8).range(0..3))]
    quiet: u8,
    #[arg(long, required_if_eq_any([("dir", "x"), ("lazy", "y")]))]
    reason: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, McpTool)]
enum Command {
    Run {
        #[arg(raw = true)]
        rest: Vec<String>,
    },
}

fn main() {
    let _ = <Cli as mcp_bridge::McpCommand>::command_spec();
}
