//! clap's own keys, modelled or not, are left to clap; only `#[mcp]` keys
//! are ours.
use clap::{ArgAction, Parser};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(
    name = "app",
    version,
    author,
    about,
    long_about = None,
    propagate_version = true,
    arg_required_else_help = false,
    next_line_help = true,
    disable_help_subcommand = true
)]
struct Cli {
    #[arg(short, long, value_name = "FILE", help_heading = "Input", display_order = 3)]
    input: Option<std::path::PathBuf>,
    #[arg(long, visible_alias = "verb", action = ArgAction::SetTrue)]
    verbose: bool,
    #[arg(long, allow_hyphen_values = true, value_hint = clap::ValueHint::Other)]
    pattern: Option<String>,
    #[clap(long, hide_default_value = true, default_value_t = 3)]
    retries: u8,
}

fn main() {
    let _ = <Cli as mcp_bridge::McpCommand>::command_spec();
}
