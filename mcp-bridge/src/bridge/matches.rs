//! Drop-ins for clap's `Command::get_matches*`, for a CLI whose `main`
//! reads clap's `ArgMatches` itself: it asks where a value came from
//! (`value_source`), merges a config file's arguments into the user's, or
//! changes its `Command` before parsing, and builds its value with
//! `Cli::from_arg_matches`. `mcp_bridge::get_matches_from::<Cli>(cmd,
//! args)` in place of `cmd.get_matches_from(args)`:
//!
//! - On a command line, clap's own method runs on the CLI's own command,
//!   with its errors and exit codes; nothing of the bridge is built unless
//!   the bridge's command (`mcp`) is among the arguments.
//! - `<cli> mcp serve|tools|install ...` is served from `Cli`'s tools, and
//!   the process ends there, as with [`parse`](super::parse).
//! - Each call runs in a child process of the binary. There, clap's method
//!   parses the command line that says the call, in its plain spelling
//!   (`--long=value`, `--` before positionals that start with `-`),
//!   rendered from the call's JSON arguments and the CLI's command, so the
//!   matches the CLI reads are those of that command line (`value_source`
//!   included). The CLI's own test of `testing::assert_agrees_with_clap`
//!   is what shows, for its tools, that such a command line builds what
//!   the call's arguments build. Every drop-in the child calls parses
//!   that command line (a first look with errors ignored, then the real
//!   parse). A call no command line says (a flag given `false` while its
//!   variable is set) ends the child with exit code 2, saying why.
//!
//! The parent checks a call's arguments by building `Cli`'s value, as for
//! the parse drop-ins, before starting the child.

use std::ffi::OsString;

use clap::{ArgMatches, Command};

use super::parse::unless_served;
use crate::registry::Registry;
use crate::spec::command_line::{external_said, models, said};
use crate::traits::McpCommand;

/// `cmd.get_matches()`, with the bridge's `mcp` command served (see the
/// module's documentation):
///
/// ```no_run
/// # use clap::{CommandFactory, FromArgMatches, Parser};
/// # use mcp_bridge::McpTool;
/// #[derive(Parser, McpTool)]
/// struct Cli {
///     #[arg(long, default_value = "world")]
///     name: String,
/// }
///
/// fn main() {
///     let matches = mcp_bridge::get_matches::<Cli>(Cli::command());
///     let given = matches.value_source("name") == Some(clap::parser::ValueSource::CommandLine);
///     let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
///     println!("hello {} (given: {given})", cli.name);
/// }
/// ```
pub fn get_matches<C: McpCommand + 'static>(cmd: Command) -> ArgMatches {
    get_matches_from::<C>(cmd, std::env::args_os())
}

/// `cmd.get_matches_mut()`, with the bridge's `mcp` command served.
pub fn get_matches_mut<C: McpCommand + 'static>(cmd: &mut Command) -> ArgMatches {
    let args = words::<C>(cmd, std::env::args_os());
    cmd.try_get_matches_from_mut(args)
        .unwrap_or_else(|e| e.exit())
}

/// `cmd.try_get_matches()`, with the bridge's `mcp` command served.
pub fn try_get_matches<C: McpCommand + 'static>(cmd: Command) -> Result<ArgMatches, clap::Error> {
    try_get_matches_from::<C>(cmd, std::env::args_os())
}

/// `cmd.get_matches_from(args)`, with the bridge's `mcp` command served.
pub fn get_matches_from<C: McpCommand + 'static>(
    cmd: Command,
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> ArgMatches {
    let args = words::<C>(&cmd, args);
    cmd.get_matches_from(args)
}

/// `cmd.try_get_matches_from(args)`, with the bridge's `mcp` command
/// served.
pub fn try_get_matches_from<C: McpCommand + 'static>(
    cmd: Command,
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Result<ArgMatches, clap::Error> {
    let args = words::<C>(&cmd, args);
    cmd.try_get_matches_from(args)
}

/// `cmd.try_get_matches_from_mut(args)`, with the bridge's `mcp` command
/// served.
pub fn try_get_matches_from_mut<C: McpCommand + 'static>(
    cmd: &mut Command,
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Result<ArgMatches, clap::Error> {
    let args = words::<C>(cmd, args);
    cmd.try_get_matches_from_mut(args)
}

/// What clap's method is to parse: the command line that says the call,
/// in the child process started for one; else the CLI's arguments (the
/// bridge's are served, and the process ends).
fn words<C: McpCommand + 'static>(
    cmd: &Command,
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Vec<OsString> {
    match crate::serve::isolate::isolated_call() {
        Some(call) => {
            // Run for a server: a question goes to no terminal.
            crate::io::set_serving();
            let said = call.and_then(|call| call_words::<C>(cmd, &call.tool, &call.arguments));
            match said {
                Ok(words) => words.into_iter().map(OsString::from).collect(),
                Err(error) => {
                    eprintln!("{error}");
                    std::process::exit(2);
                }
            }
        }
        None => unless_served::<C>(args),
    }
}

/// The command line that says a call of `tool` with `arguments`, for the
/// CLI's command `cmd`.
fn call_words<C: McpCommand>(
    cmd: &Command,
    tool: &str,
    arguments: &serde_json::Map<String, serde_json::Value>,
) -> Result<Vec<String>, String> {
    let registry = Registry::<C>::new().map_err(|e| e.to_string())?;
    let spec = registry
        .tool(tool)
        .ok_or_else(|| format!("no tool is named `{tool}`"))?;
    let mut built = cmd.clone();
    built.build();
    let words = match spec.external {
        Some(_) => external_said(&built, spec, arguments),
        None => models(&built, std::iter::once(spec))
            .and_then(|mut model| said(&model.remove(0), arguments)),
    };
    words.map_err(|why| format!("tool `{tool}`: no command line says this call: {why}"))
}
