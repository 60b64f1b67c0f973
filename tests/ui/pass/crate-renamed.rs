//! `#[mcp(crate = "...")]`: generated code reaches mcp-bridge through the
//! path given, for a renamed or re-exported crate.
//!
//! The rename is an `extern crate` item rather than a renamed dependency:
//! Cargo refuses a package that depends on one crate under two names, and
//! this crate already depends on `mcp-bridge`. (That `::mcp_bridge` still
//! resolves here, so this case cannot show the derive never names it: the
//! derive's expansion snapshots `crate_*` check that.)
extern crate mcp_bridge as mcp_bridge_renamed;

/// A re-export, as a facade crate would have it.
mod reexport {
    pub use ::mcp_bridge as bridge;
}

use clap::{Args, Parser, Subcommand};
use mcp_bridge_renamed::{McpTool, Registry};

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(crate = "mcp_bridge_renamed")]
struct Cli {
    #[arg(long, global = true)]
    verbose: bool,
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, McpTool)]
#[mcp(crate = "::mcp_bridge_renamed")]
struct Common {
    #[arg(long, default_value_t = 3)]
    retries: u8,
}

#[derive(Subcommand, McpTool)]
#[mcp(crate = "crate::reexport::bridge")]
enum Command {
    Run {
        #[arg(long)]
        name: String,
    },
    #[command(flatten)]
    More(More),
}

#[derive(Subcommand, McpTool)]
#[mcp(crate = "self::reexport::bridge")]
enum More {
    Stop,
}

fn main() {
    let registry = Registry::<Cli>::new().unwrap();
    let names: Vec<&str> = registry.tools().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["app_run", "app_stop"]);
}
