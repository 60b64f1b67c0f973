//! [`Bridge`]: the CLI with its handler, and the `mcp` subcommand (`serve`,
//! `tools`) added in front of it without touching its parsing, help or
//! exit codes; or, for a CLI whose `main` stays as it is, the drop-ins for
//! clap's parse functions (`parse.rs`) and `get_matches*` methods
//! (`matches.rs`).
//!
//! By job, top to bottom (each file uses only those below it):
//! `matches.rs`, the drop-ins for `Command::get_matches*` (for a CLI that
//! reads clap's matches itself); `parse.rs`, the drop-ins for the parse
//! functions; `builder.rs`, the [`Bridge`] builder and the
//! CLI's side (the handler run on the parsed value, here or in a child
//! process started for one call); `route.rs`, which tells the CLI's
//! command lines from the bridge's; `run.rs`, which runs the bridge's
//! (serve, tools, install, server-json); `args.rs`, the bridge's own
//! command line; `settings.rs`, what the untyped side holds and asks of
//! the CLI's type. This file only declares and re-exports.

mod args;
mod builder;
mod matches;
mod parse;
mod route;
mod run;
mod settings;

pub use builder::Bridge;
pub use matches::{
    get_matches, get_matches_from, get_matches_mut, try_get_matches, try_get_matches_from,
    try_get_matches_from_mut,
};
pub use parse::{parse, parse_from, try_parse, try_parse_from};
