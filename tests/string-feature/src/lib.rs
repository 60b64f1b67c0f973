//! Forms clap takes only with its `string` feature, as published CLIs
//! write them: a version made with `format!`, a default from a function
//! returning `String`, help texts built at run time.

use std::sync::LazyLock;

use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

/// Where the configuration lives, found at run time.
pub fn config_path() -> String {
    format!("{}/app.toml", "config")
}

/// A text made once.
pub static GREETING: LazyLock<String> = LazyLock::new(|| "hello".to_owned());

/// Help made at run time.
pub fn long_help() -> String {
    "The name to greet, in full.".to_owned()
}

/// The CLI.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "strings", version = format!("{}-{}", "1.0", "custom"), about = format!("Greets {}", "people"))]
pub struct Cli {
    /// The configuration file
    #[arg(long, default_value = config_path())]
    pub config: String,
    /// The greeting
    #[clap(long, default_value = &GREETING.as_str())]
    pub greeting: String,
    /// The name
    #[arg(long, help = String::from("The name"), long_help = long_help())]
    pub name: Option<String>,
    /// The variable holding the token
    #[arg(long, env = String::from("STRINGS_TOKEN_TEST"))]
    pub token: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What to do.
#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum Command {
    /// Say it
    Say {
        /// How often
        #[arg(long, default_value = 1.to_string())]
        times: u32,
    },
}
