//! [`Bridge`]: the builder, and the CLI's side — the handler run on the
//! parsed value, in this process or in a child started for one isolated
//! call — with the `mcp` command handed to `run.rs`.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use super::args::BridgeArgs;
use super::route::Routed;
use super::run::on_runtime;
use super::settings::{isolated_value, Settings, TypedCli};

use crate::error::RegistryError;
use crate::handler::{Ended, Handler, IntoHandler};
use crate::io::Io;
use crate::registry::{Registry, Table, ToolMode};
use crate::serve::isolate::Reply;
use crate::serve::{BridgeServer, Skill};
use crate::traits::McpCommand;

/// A CLI with its handler, run either as itself or as an MCP server.
///
/// `<bin> mcp serve` serves every runnable command as a tool over stdio;
/// `<bin> mcp tools [--output FILE]` prints the tool definitions as
/// `tools/list` returns them; anything else runs the CLI exactly as before.
///
/// The handler is the function the CLI's `main` already called with its
/// parsed value ([`IntoHandler`]): synchronous or `async`, printing with
/// `println!` or through [`Io`], returning `()`, a `Result`, an
/// `ExitCode` or a code.
///
/// ```no_run
/// # use clap::Parser;
/// # use mcp_bridge::{Bridge, McpTool};
/// # #[derive(Parser, McpTool)] struct Cli { name: String }
/// fn run(cli: Cli) -> Result<(), String> {
///     println!("hello {}", cli.name);
///     Ok(())
/// }
///
/// fn main() -> std::process::ExitCode {
///     // The CLI has its own `mcp` command, so the bridge answers to `ai`.
///     Bridge::new(run).command_name("ai").run()
/// }
/// ```
///
/// Under `mcp serve`:
///
/// - a synchronous handler runs on a thread of its own (it may block, or
///   start a runtime and `block_on` it), an `async` one as a task; `ping`
///   and other calls are answered meanwhile;
/// - what a handler prints with `println!`/`eprintln!` (and what the child
///   processes it starts print) is captured into the call's result. Such
///   calls take turns, since the process has one stdout; calls of handlers
///   that write through [`Io`] run side by side, up to
///   [`max_concurrent_calls`](Self::max_concurrent_calls);
/// - a handler's stdin is empty (`/dev/null`): the protocol's input is
///   not the command's;
/// - output is kept to [`output_limit`](Self::output_limit) bytes per
///   stream, a call may have a [`call_timeout`](Self::call_timeout), and a
///   client's `notifications/cancelled` stops waiting for the call (an
///   `async` handler is dropped; a synchronous one sees
///   [`Io::cancelled`]);
/// - on SIGTERM, SIGINT or the end of stdin, new calls are refused and
///   running ones get [`shutdown_grace`](Self::shutdown_grace) to finish;
///   the exit code is non-zero if some were cut off. A call waiting for
///   its user's answer in an `input_required` round or in a task (or
///   asking so from then on) stops at once: a person's answer is not
///   waited for, and a round's would come in a call the server refuses.
pub struct Bridge<C> {
    handler: Handler<C>,
    /// The CLI's own parse (`Bridge::parse_with`).
    parse: Option<ParseWith<C>>,
    pub(super) settings: Settings,
}

impl<C: McpCommand + Send + 'static> TypedCli for Bridge<C> {
    type Cli = C;

    fn server(&self, table: Table) -> BridgeServer {
        BridgeServer::from_registry(Registry::from_table(table), self.handler.clone())
    }
}

type ParseWith<C> = Box<dyn Fn(Vec<OsString>) -> C + Send + Sync>;

impl<C: McpCommand + Send + 'static> Bridge<C> {
    /// A bridge running `handler` for every command, in both modes.
    pub fn new<K, H: IntoHandler<C, K>>(handler: H) -> Self {
        Self {
            handler: handler.into_handler().0,
            parse: None,
            settings: Settings::new(),
        }
    }

    /// Offers a skill to clients (SEP-2640, the Skills extension): the
    /// author's `SKILL.md` with the files beside it, or one made from the
    /// CLI's help and examples ([`Skill::generated`]). Its files are
    /// served as `skill://<name>/...` resources; a skill that cannot be
    /// served as it is stops `mcp serve`, saying why. Nothing is read in
    /// CLI mode.
    ///
    /// ```no_run
    /// # use clap::Parser;
    /// # use mcp_bridge::{Bridge, McpTool, Skill};
    /// # #[derive(Parser, McpTool)] struct Cli { #[arg(long)] color: bool }
    /// # fn run(cli: Cli) {}
    /// Bridge::new(run)
    ///     .skill(Skill::generated())
    ///     .run();
    /// ```
    pub fn skill(mut self, skill: Skill) -> Self {
        self.settings.skills.push(skill);
        self
    }

    /// The CLI's own changes to its `clap::Command`, for a CLI that
    /// changes it at run time (adds `--no-<flag>` negations, settings,
    /// arguments read before its value is built...): in CLI mode the
    /// command line is parsed by the changed command and the value built
    /// from its matches with `FromArgMatches`, as the CLI's own `main` did.
    /// The tools stay those of the derive: a change that adds arguments
    /// adds nothing to them.
    ///
    /// ```no_run
    /// # use clap::Parser;
    /// # use mcp_bridge::{Bridge, McpTool};
    /// # #[derive(Parser, McpTool)] struct Cli { #[arg(long)] color: bool }
    /// # fn run(cli: Cli) {}
    /// Bridge::new(run)
    ///     .command(|cmd| cmd.after_help("See the manual for more."))
    ///     .run();
    /// ```
    pub fn command(
        mut self,
        customise: impl Fn(clap::Command) -> clap::Command + Send + Sync + 'static,
    ) -> Self {
        self.settings.customise = Some(Box::new(customise));
        self
    }

    /// The CLI's own parse, for a CLI that parses its command line its own
    /// way (expands `@argfile`s, rewrites arguments, reads a config file
    /// first): given the process's arguments (the binary name first), it
    /// returns the value or exits as the CLI did. In CLI mode it is all
    /// that runs; the bridge only takes a command line whose first
    /// argument is its command (`<bin> mcp serve`), or one that the
    /// derive's command reads as its command after root options
    /// (`<bin> --db x mcp serve`, which pins `--db`).
    ///
    /// ```no_run
    /// # use clap::Parser;
    /// # use mcp_bridge::{Bridge, McpTool};
    /// # #[derive(Parser, McpTool)] struct Cli { name: String }
    /// # fn run(cli: Cli) {}
    /// fn parse(args: Vec<std::ffi::OsString>) -> Cli {
    ///     // e.g. expand `@file` arguments first
    ///     Cli::parse_from(args)
    /// }
    /// Bridge::new(run).parse_with(parse).run();
    /// ```
    pub fn parse_with(
        mut self,
        parse: impl Fn(Vec<OsString>) -> C + Send + Sync + 'static,
    ) -> Self {
        self.parse = Some(Box::new(parse));
        self
    }

    /// The CLI's value, parsed as the CLI parses it (exiting on `--help`
    /// or an error, as clap does).
    fn parse_cli(&self, args: Vec<OsString>) -> C {
        if let Some(parse) = &self.parse {
            return parse(args);
        }
        let mut cmd = self.settings.cli_command(self);
        let mut matches = cmd
            .try_get_matches_from_mut(&args)
            .unwrap_or_else(|error| error.exit());
        C::from_arg_matches_mut(&mut matches).unwrap_or_else(|error| error.format(&mut cmd).exit())
    }

    /// How `tools/list` presents the commands unless `mcp serve` is given
    /// `--flat`, `--grouped` or `--search` (see [`ToolMode`]; flat by
    /// default).
    pub fn tool_mode(mut self, mode: ToolMode) -> Self {
        self.settings.tool_mode = mode;
        self
    }

    /// Renames the bridge's command (default `mcp`), for CLIs that already
    /// use that name.
    pub fn command_name(mut self, name: impl Into<String>) -> Self {
        self.settings.command_name = name.into();
        self
    }

    /// Leaves the bridge's command out of the CLI's `--help` (it still
    /// works).
    pub fn hide_command(mut self, hide: bool) -> Self {
        self.settings.hide_command = hide;
        self
    }

    /// See [`BridgeServer::call_timeout`].
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.settings.limits.timeout = Some(timeout);
        self
    }

    /// See [`BridgeServer::max_concurrent_calls`].
    pub fn max_concurrent_calls(mut self, calls: usize) -> Self {
        self.settings.limits.max_concurrent = calls;
        self
    }

    /// See [`BridgeServer::task_ttl`].
    pub fn task_ttl(mut self, ttl: Duration) -> Self {
        self.settings.task_ttl = ttl;
        self
    }

    /// See [`BridgeServer::isolate_calls`].
    pub fn isolate_calls(mut self, isolate: bool) -> Self {
        self.settings.isolate = isolate;
        self
    }

    /// See [`BridgeServer::output_limit`].
    pub fn output_limit(mut self, bytes: usize) -> Self {
        self.settings.limits.output_limit = bytes;
        self
    }

    /// How long running calls may take to finish when the server is asked
    /// to stop (default 10 s).
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.settings.grace = grace;
        self
    }

    /// The MCP server this bridge would serve.
    pub fn server(&self) -> Result<BridgeServer, RegistryError> {
        let server = BridgeServer::from_registry(Registry::<C>::new()?, self.handler.clone());
        self.settings.set_up(server, &self.settings.tool_mode)
    }

    /// Runs with the process's arguments. An `async` handler runs on a
    /// runtime made for it; from an async `main`, use
    /// [`run_async`](Self::run_async).
    pub fn run(self) -> ExitCode {
        self.run_from(std::env::args_os())
    }

    /// Runs with the given arguments (the first is the binary name).
    pub fn run_from<I, T>(self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString>,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        // Only what needs it runs on a runtime: the server, and async
        // handlers; a synchronous CLI command runs on this thread.
        match self.route(args) {
            Route::Cli(cli, reply) => {
                let panics = reply.as_ref().map(Reply::for_panic);
                match telling_panics(panics, || run_cli(&self.handler, cli, reply)) {
                    Ok(code) => code,
                    Err((call, reply)) => run_async_call(call, reply),
                }
            }
            Route::Bridge(args) => self.settings.serve_blocking(&self, *args),
        }
    }

    /// Runs with the process's arguments on the current runtime, from an
    /// async `main` (`#[tokio::main]`).
    pub async fn run_async(self) -> ExitCode {
        self.run_async_from(std::env::args_os()).await
    }

    /// [`run_async`](Self::run_async) with the given arguments.
    pub async fn run_async_from<I, T>(self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString>,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        match self.route(args) {
            Route::Cli(cli, reply) => match &self.handler {
                // A blocking handler must not hold a worker of the caller's
                // runtime, and may start a runtime of its own.
                Handler::WithIo(_) | Handler::Plain(_) => {
                    let handler = self.handler.clone();
                    let panics = reply.as_ref().map(Reply::for_panic);
                    let ran =
                        crate::spawn::spawn_blocking(move || run_cli(&handler, cli, reply).ok())
                            .await;
                    match joined(ran, panics) {
                        Ok(Some(code)) => code,
                        // (`None`: an async handler, not run here.)
                        Ok(None) => ExitCode::from(101),
                        Err(code) => code,
                    }
                }
                Handler::Async(f) => {
                    let call = f(cli, reply.is_some());
                    let Some(panics) = reply.as_ref().map(Reply::for_panic) else {
                        return ended(call.await, reply);
                    };
                    // An isolated call: run as a task, to see its panic.
                    match joined(crate::spawn::spawn(call).await, Some(panics)) {
                        Ok(done) => ended(done, reply),
                        Err(code) => code,
                    }
                }
            },
            Route::Bridge(args) => self.settings.run_bridge(&self, *args).await,
        }
    }

    /// Whether the arguments ask for the bridge or for the CLI itself (then
    /// parsed, exiting on `--help` or an error as clap does).
    fn route(&self, args: Vec<OsString>) -> Route<C> {
        // A child started for one isolated call.
        if let Some((cli, reply)) = isolated_value::<C>() {
            return Route::Cli(cli, Some(reply));
        }
        match self.settings.route(self, self.parse.is_some(), args) {
            Routed::Parse(args) => Route::Cli(self.parse_cli(args), None),
            Routed::Matches(mut cmd, mut matches) => match C::from_arg_matches_mut(&mut matches) {
                Ok(cli) => Route::Cli(cli, None),
                Err(error) => error.format(&mut cmd).exit(),
            },
            Routed::Bridge(args) => Route::Bridge(args),
        }
    }
}

/// Runs a synchronous handler in CLI mode; an async one is handed back.
/// (`mcp`: in a child started for an isolated call.)
/// Runs the handler in CLI mode (or for an isolated call, which has a
/// `reply` for the value it returns); an async handler's call is handed
/// back to be awaited.
#[allow(clippy::result_large_err)]
fn run_cli<C>(
    handler: &Handler<C>,
    cli: C,
    reply: Option<Reply>,
) -> Result<ExitCode, (crate::handler::BoxedCall, Option<Reply>)> {
    let mcp = reply.is_some();
    match handler {
        Handler::WithIo(f) => {
            let stdout = std::io::stdout();
            let stderr = std::io::stderr();
            let mut out = stdout.lock();
            let mut err = stderr.lock();
            let mut io = Io::new(&mut out, &mut err, mcp);
            let code = f(cli, &mut io);
            let structured = io.take_structured();
            drop(io);
            let _ = out.flush();
            Ok(ended(Ended { code, structured }, reply))
        }
        Handler::Plain(f) => Ok(ended(f(cli, mcp), reply)),
        Handler::Async(f) => Err((f(cli, mcp), reply)),
    }
}

/// Runs `run`, the handler of an isolated call when `panics` is the way
/// back to its server: a panic is told to the server (which then fails
/// the call's task, as for a call it runs itself), and goes on.
fn telling_panics<R>(panics: Option<Reply>, run: impl FnOnce() -> R) -> R {
    let Some(panics) = panics else {
        return run();
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(ran) => ran,
        Err(panic) => {
            panics.send_panic(&*panic);
            std::panic::resume_unwind(panic)
        }
    }
}

/// What a handler run as a task of the runtime gave, or the exit code of
/// its panic ([`telling_panics`] for a handler that ran in one): the panic
/// told to the server first, when `panics` is the way back to it.
fn joined<T>(
    joined: Result<T, tokio::task::JoinError>,
    panics: Option<Reply>,
) -> Result<T, ExitCode> {
    joined.map_err(|error| {
        if let (true, Some(panics)) = (error.is_panic(), panics) {
            panics.send_panic(&*error.into_panic());
        }
        ExitCode::from(101)
    })
}

/// The exit code of a handler that ended, after sending the value it
/// returned to the server that started this process for one call.
fn ended(ended: Ended, reply: Option<Reply>) -> ExitCode {
    if let Some(reply) = reply {
        reply.send(ended.structured.as_ref());
    }
    exit_code(ended.code)
}

enum Route<C> {
    /// Run the handler on this value (with a reply: for an isolated call).
    Cli(C, Option<Reply>),
    Bridge(Box<BridgeArgs>),
}

/// An async handler's call, from a synchronous `main`: run on a runtime
/// made for it. Not generic, so that tokio's runtime is not compiled again
/// in every CLI's crate.
#[inline(never)]
fn run_async_call(call: crate::handler::BoxedCall, reply: Option<Reply>) -> ExitCode {
    on_runtime(|runtime| {
        let panics = reply.as_ref().map(Reply::for_panic);
        telling_panics(panics, || ended(runtime.block_on(call), reply))
    })
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
