//! Drop-ins for clap's parse functions: `mcp_bridge::parse::<Cli>()` in
//! place of `Cli::parse()`, and the rest of the CLI's `main` stays as it
//! is.
//!
//! - On a command line, clap's own function runs on the arguments, with
//!   its errors and exit codes; the bridge builds nothing unless the
//!   bridge's command (`mcp`) is among them.
//! - `<cli> mcp serve|tools|install ...` is served, and the process ends
//!   there: the function does not return.
//! - Each call runs in a child process of the binary (the isolated calls
//!   of [`Bridge::isolate_calls`](crate::Bridge::isolate_calls)), where the same function returns the
//!   value built from the call's JSON arguments, with no command line.
//!   The CLI's `main` then runs on it as on a command line (its config,
//!   its logging, its runtime, its `process::exit`), and the call's
//!   result is what it printed and its exit code.
//!
//! A process per call costs a process start (`docs/benchmarks.md`);
//! [`Bridge::new`](crate::Bridge::new) with the CLI's handler runs calls in the server.

use std::ffi::OsString;
use std::marker::PhantomData;
use std::process::ExitCode;

use super::args::BridgeArgs;
use super::route::Routed;
use super::settings::{isolated_value, CliType, Settings, TypedCli};
use crate::registry::{Registry, Table};
use crate::serve::BridgeServer;
use crate::traits::McpCommand;

/// `Cli::parse()`, with the bridge's `mcp` command served (see the
/// module's documentation):
///
/// ```no_run
/// # use clap::Parser;
/// # use mcp_bridge::McpTool;
/// #[derive(Parser, McpTool)]
/// struct Cli {
///     name: String,
/// }
///
/// fn main() {
///     let cli = mcp_bridge::parse::<Cli>();
///     println!("hello {}", cli.name);
/// }
/// ```
pub fn parse<C: McpCommand + 'static>() -> C {
    parse_from(std::env::args_os())
}

/// `Cli::try_parse()`, with the bridge's `mcp` command served.
pub fn try_parse<C: McpCommand + 'static>() -> Result<C, clap::Error> {
    try_parse_from(std::env::args_os())
}

/// `Cli::parse_from(args)`, with the bridge's `mcp` command served.
pub fn parse_from<C: McpCommand + 'static>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> C {
    match prepare::<C>(args) {
        Prepared::Value(cli) => cli,
        Prepared::Args(args) => C::parse_from(args),
    }
}

/// `Cli::try_parse_from(args)`, with the bridge's `mcp` command served.
pub fn try_parse_from<C: McpCommand + 'static>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Result<C, clap::Error> {
    match prepare::<C>(args) {
        Prepared::Value(cli) => Ok(cli),
        Prepared::Args(args) => C::try_parse_from(args),
    }
}

/// What the CLI's parse function is to return.
enum Prepared<C> {
    /// A call's value, in the child process started for it.
    Value(C),
    /// What clap's own function parses.
    Args(Vec<OsString>),
}

/// The value of a call, clap's arguments, or the bridge served (and the
/// process ended).
fn prepare<C: McpCommand + 'static>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Prepared<C> {
    // A child started for one call: the CLI's `main` prints and exits as
    // it does; nothing is returned as data.
    if let Some((cli, _)) = isolated_value::<C>() {
        return Prepared::Value(cli);
    }
    Prepared::Args(unless_served::<C>(args))
}

/// The arguments, when they are the CLI's; when they are the bridge's
/// (`<cli> mcp ...`), the bridge is served, every call in a child process,
/// and the process ends.
pub(super) fn unless_served<C: McpCommand + 'static>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> Vec<OsString> {
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // A command line without the bridge's name is clap's alone.
    if !args.iter().skip(1).any(|arg| arg == "mcp") {
        return args;
    }
    let cli = DropIn::<C>(PhantomData);
    let settings = Settings {
        isolate: true,
        ..Settings::new()
    };
    // Asked with the CLI's own parse (`true`), the route is the bridge or
    // that parse: never matches of its own.
    match settings.route(&cli, true, args.clone()) {
        Routed::Parse(args) => args,
        Routed::Matches(..) => args,
        Routed::Bridge(bridge) => {
            let code = serve(&settings, &cli, *bridge);
            std::process::exit(if code == ExitCode::SUCCESS { 0 } else { 1 })
        }
    }
}

/// Serves, on a thread of its own when called on a runtime's thread (an
/// async `main`), where another runtime cannot start.
fn serve(settings: &Settings, cli: &dyn CliType, args: BridgeArgs) -> ExitCode {
    if tokio::runtime::Handle::try_current().is_err() {
        return settings.serve_blocking(cli, args);
    }
    std::thread::scope(|scope| {
        scope
            .spawn(|| settings.serve_blocking(cli, args))
            .join()
            .unwrap_or(ExitCode::FAILURE)
    })
}

/// The CLI's type, for a server whose every call runs in a process of its
/// own: the value is built only to check a call's arguments, and never
/// leaves the thread it is built on, so the type need not be `Send` (a
/// CLI's options may hold an `Rc`).
struct DropIn<C>(PhantomData<fn() -> C>);

impl<C: McpCommand + 'static> TypedCli for DropIn<C> {
    type Cli = C;

    fn server(&self, table: Table) -> BridgeServer {
        BridgeServer::isolating(Registry::<C>::from_table(table))
    }
}
