//! A package manager whose root is an enum (`#[derive(Parser)] enum`), as
//! small tools often write it: every command a variant, flags read from
//! the environment, a counted flag, a ranged value, a hidden command
//! written with clap 3's `#[clap(...)]`.

use clap::{value_parser, ArgAction, Parser};
use mcp_bridge::McpTool;

/// Install and remove packages.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "pkg", version)]
pub enum Pkg {
    /// Install packages
    Install {
        /// What to install
        #[arg(required = true)]
        names: Vec<String>,

        /// Answer yes to every question
        #[arg(short, long, env = "PKG_YES")]
        yes: bool,

        /// Say more (repeat for more)
        #[arg(short, long, action = ArgAction::Count, env = "PKG_VERBOSE")]
        verbose: u8,
    },

    /// Remove a package
    #[clap(alias = "rm")]
    Remove {
        /// What to remove
        name: String,

        /// Keep its configuration
        #[clap(long = "keep-config", action = ArgAction::SetFalse)]
        purge: bool,
    },

    /// Search the index
    Search {
        /// What to look for
        query: String,

        /// How many results
        #[arg(long, value_parser = value_parser!(u16).range(1..=100), default_value_t = 20)]
        limit: u16,
    },

    /// Dump internal state (for developers)
    #[clap(hide = true)]
    Debug,
}
