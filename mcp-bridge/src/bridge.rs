//! [`Bridge`]: the CLI with its handler, and the `mcp` subcommand (`serve`,
//! `tools`) added in front of it without touching its parsing, help or
//! exit codes.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use rmcp::ServiceExt;

use crate::error::RegistryError;
use crate::handler::{Handler, IntoHandler};
use crate::io::Io;
use crate::registry::Registry;
use crate::serve::{BridgeServer, Limits};
use crate::spec::CommandSpec;
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
///   the exit code is non-zero if some were cut off.
pub struct Bridge<C> {
    handler: Handler<C>,
    command_name: String,
    limits: Limits,
    grace: Duration,
    isolate: bool,
}

impl<C: McpCommand + Send + 'static> Bridge<C> {
    /// A bridge running `handler` for every command, in both modes.
    pub fn new<K, H: IntoHandler<C, K>>(handler: H) -> Self {
        Self {
            handler: handler.into_handler().0,
            command_name: "mcp".to_owned(),
            limits: Limits::default(),
            grace: Duration::from_secs(10),
            isolate: false,
        }
    }

    /// Renames the bridge's command (default `mcp`), for CLIs that already
    /// use that name.
    pub fn command_name(mut self, name: impl Into<String>) -> Self {
        self.command_name = name.into();
        self
    }

    /// See [`BridgeServer::call_timeout`].
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.limits.timeout = Some(timeout);
        self
    }

    /// See [`BridgeServer::max_concurrent_calls`].
    pub fn max_concurrent_calls(mut self, calls: usize) -> Self {
        self.limits.max_concurrent = calls;
        self
    }

    /// See [`BridgeServer::isolate_calls`].
    pub fn isolate_calls(mut self, isolate: bool) -> Self {
        self.isolate = isolate;
        self
    }

    /// See [`BridgeServer::output_limit`].
    pub fn output_limit(mut self, bytes: usize) -> Self {
        self.limits.output_limit = bytes;
        self
    }

    /// How long running calls may take to finish when the server is asked
    /// to stop (default 10 s).
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// The MCP server this bridge would serve.
    pub fn server(&self) -> Result<BridgeServer, RegistryError> {
        Ok(self.server_from(Registry::new()?))
    }

    fn server_from(&self, registry: Registry<C>) -> BridgeServer {
        let limits = self.limits.clone();
        BridgeServer::from_registry(registry, self.handler.clone())
            .limits(|set| *set = limits)
            .isolate_calls(self.isolate)
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
        let (call, bridge) = match self.route(args) {
            Route::Cli(cli, mcp) => match run_cli(&self.handler, cli, mcp) {
                Ok(code) => return code,
                Err(call) => (Some(call), None),
            },
            Route::Bridge(args, root) => (None, Some((args, root))),
        };
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(error) => return fail(&error),
        };
        let code = match (call, bridge) {
            (Some(call), _) => exit_code(runtime.block_on(call)),
            (None, Some((args, root))) => runtime.block_on(self.run_bridge(args, root)),
            (None, None) => unreachable!("routed to one of them"),
        };
        // Blocked reads of stdin must not keep the process alive.
        runtime.shutdown_background();
        code
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
            Route::Cli(cli, mcp) => match &self.handler {
                // A blocking handler must not hold a worker of the caller's
                // runtime, and may start a runtime of its own.
                Handler::WithIo(_) | Handler::Plain(_) => {
                    let handler = self.handler.clone();
                    let ran =
                        tokio::task::spawn_blocking(move || run_cli(&handler, cli, mcp).ok()).await;
                    match ran {
                        Ok(Some(code)) => code,
                        _ => ExitCode::from(101),
                    }
                }
                Handler::Async(f) => exit_code(f(cli).await),
            },
            Route::Bridge(args, root) => self.run_bridge(args, root).await,
        }
    }

    /// Whether the arguments ask for the bridge or for the CLI itself (then
    /// parsed, exiting on `--help` or an error as clap does).
    fn route(&self, args: Vec<OsString>) -> Route<C> {
        // A child started for one isolated call: the value comes from the
        // tool's name and JSON arguments, never from argv.
        if let Some(call) = crate::serve::isolate::isolated_call() {
            let built = call.and_then(|(tool, arguments)| {
                let registry = Registry::<C>::new().map_err(|e| e.to_string())?;
                registry.build(&tool, &arguments).map_err(|e| e.to_string())
            });
            match built {
                Ok(cli) => return Route::Cli(cli, true),
                Err(error) => {
                    eprintln!("{error}");
                    std::process::exit(2);
                }
            }
        }
        let wants_bridge = args.get(1).is_some_and(|a| *a == *self.command_name);
        if wants_bridge {
            // The tree is built once and reused by the server.
            let root = C::command_spec();
            if !root.subcommands.iter().any(|s| s.name == self.command_name) {
                return Route::Bridge(args, Box::new(root));
            }
            eprintln!(
                "mcp-bridge: `{name}` is a command of this CLI, so it runs as before; \
                 give the bridge another name with `Bridge::command_name`",
                name = self.command_name
            );
        }
        Route::Cli(C::parse_from(args), false)
    }

    async fn run_bridge(&self, args: Vec<OsString>, root: Box<CommandSpec>) -> ExitCode {
        let bin = args
            .first()
            .and_then(|a| std::path::Path::new(a).file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let matches = bridge_command(&bin, &self.command_name).get_matches_from(&args[1..]);
        let server = match Registry::from_spec(*root) {
            Ok(registry) => self.server_from(registry),
            Err(error) => return fail(&error),
        };
        match matches.subcommand() {
            Some(("tools", sub)) => print_tools(&server, sub.get_one::<PathBuf>("output")),
            Some(("serve", serve)) => match serve.get_one::<String>("http") {
                #[cfg(feature = "http")]
                Some(addr) => match http_options(addr, serve) {
                    Ok(options) => serve_http(server, options, self.grace).await,
                    Err(error) => fail(&error),
                },
                #[cfg(not(feature = "http"))]
                Some(_) => fail(&"this binary was built without mcp-bridge's `http` feature"),
                None => serve_stdio(server, self.grace).await,
            },
            _ => unreachable!("clap requires a subcommand"),
        }
    }
}

/// Runs a synchronous handler in CLI mode; an async one is handed back.
/// (`mcp`: in a child started for an isolated call.)
fn run_cli<C>(
    handler: &Handler<C>,
    cli: C,
    mcp: bool,
) -> Result<ExitCode, crate::handler::BoxedCall> {
    match handler {
        Handler::WithIo(f) => {
            let stdout = std::io::stdout();
            let stderr = std::io::stderr();
            let mut out = stdout.lock();
            let mut err = stderr.lock();
            let code = f(cli, &mut Io::new(&mut out, &mut err, mcp));
            let _ = out.flush();
            Ok(exit_code(code))
        }
        Handler::Plain(f) => Ok(exit_code(f(cli))),
        Handler::Async(f) => Err(f(cli)),
    }
}

enum Route<C> {
    /// Run the handler on this value (`true`: for an isolated call).
    Cli(C, bool),
    Bridge(Vec<OsString>, Box<CommandSpec>),
}

fn print_tools(server: &BridgeServer, output: Option<&PathBuf>) -> ExitCode {
    let json = match serde_json::to_string_pretty(server.tools()) {
        Ok(json) => json + "\n",
        Err(error) => return fail(&error),
    };
    let written = match output {
        Some(path) => std::fs::write(path, json),
        None => std::io::stdout().lock().write_all(json.as_bytes()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

async fn serve_stdio(server: BridgeServer, grace: Duration) -> ExitCode {
    #[cfg(unix)]
    let (server, log) = match crate::serve::StdCapture::new() {
        Ok(capture) => {
            let capture = std::sync::Arc::new(capture);
            let log = capture.log_file().ok();
            (server.capture_with(capture), log)
        }
        Err(error) => return fail(&error),
    };
    #[cfg(not(unix))]
    let log = None;
    init_logging(log);
    let transport = match crate::serve::transport::guarded_stdio() {
        Ok(transport) => transport,
        Err(error) => return fail(&error),
    };
    tracing::info!(tools = server.tools().len(), "serving over stdio");
    let service = match server.clone().serve(transport).await {
        Ok(service) => service,
        // The client went away before initializing: a normal end.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return ExitCode::SUCCESS,
        Err(error) => return fail(&error),
    };
    let stop = service.cancellation_token();
    let waiting = service.waiting();
    tokio::pin!(waiting);
    let mut cut_off = false;
    let ended = tokio::select! {
        ended = &mut waiting => ended.map(|_| ()).map_err(|e| e.to_string()),
        signal = shutdown_signal() => {
            tracing::info!(signal, "asked to stop: finishing the running calls");
            server.drain();
            cut_off = !server.finish_calls(grace).await;
            // Let the last answers reach the transport.
            tokio::time::sleep(Duration::from_millis(50)).await;
            stop.cancel();
            waiting.await.map(|_| ()).map_err(|e| e.to_string())
        }
    };
    // The client is gone: calls still running finish their work within the
    // grace period (their answers have nowhere to go), so none is cut off
    // halfway through writing its data.
    server.drain();
    cut_off |= !server.finish_calls(grace).await;
    if cut_off {
        return ExitCode::FAILURE;
    }
    match ended {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

/// Resolves with the name of the first termination signal received.
async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = int.recv() => "SIGINT",
            },
            _ => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "Ctrl-C",
            Err(_) => std::future::pending().await,
        }
    }
}

fn bridge_command(bin: &str, name: &str) -> clap::Command {
    use clap::{value_parser, Arg, Command};
    Command::new("mcp")
        .bin_name(format!("{bin} {name}"))
        .about("Serve this CLI to AI assistants over the Model Context Protocol")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(serve_command())
        .subcommand(
            Command::new("tools")
                .about("Print the tool definitions as `tools/list` returns them, as JSON")
                .arg(
                    Arg::new("output")
                        .long("output")
                        .short('o')
                        .value_name("FILE")
                        .value_parser(value_parser!(PathBuf))
                        .help("Write to FILE instead of stdout"),
                ),
        )
}

/// `mcp serve`: stdio by default, Streamable HTTP with `--http`.
fn serve_command() -> clap::Command {
    use clap::{value_parser, Arg, ArgAction, Command};
    let http_only = |arg: Arg| arg.requires("http").help_heading("HTTP");
    Command::new("serve")
        .about("Serve every command as an MCP tool, over stdio (JSON-RPC) or Streamable HTTP")
        .arg(
            Arg::new("http")
                .long("http")
                .value_name("ADDR")
                .num_args(0..=1)
                .default_missing_value(DEFAULT_HTTP_ADDR)
                .help_heading("HTTP")
                .help(format!(
                    "Serve MCP Streamable HTTP at http://ADDR/mcp instead of stdio \
                     (ADDR: PORT, IP:PORT; default {DEFAULT_HTTP_ADDR}, loopback)"
                )),
        )
        .arg(http_only(
            Arg::new("stateless")
                .long("stateless")
                .action(ArgAction::SetTrue)
                .help("No sessions: every POST stands alone (for replicas behind a load balancer)"),
        ))
        .arg(http_only(
            Arg::new("token-env")
                .long("token-env")
                .value_name("VAR")
                .conflicts_with("token-file")
                .help("Require `Authorization: Bearer <token>`, the token read from VAR"),
        ))
        .arg(http_only(
            Arg::new("token-file")
                .long("token-file")
                .value_name("FILE")
                .value_parser(value_parser!(PathBuf))
                .help("Require `Authorization: Bearer <token>`, the token read from FILE"),
        ))
        .arg(http_only(
            Arg::new("allow-unauthenticated")
                .long("allow-unauthenticated")
                .action(ArgAction::SetTrue)
                .help("Listen beyond loopback without a token (something in front authenticates)"),
        ))
        .arg(http_only(
            Arg::new("allow-host")
                .long("allow-host")
                .value_name("HOST")
                .action(ArgAction::Append)
                .help("Accept this Host header too (loopback names and the bound IP always are)"),
        ))
        .arg(http_only(
            Arg::new("allow-origin")
                .long("allow-origin")
                .value_name("ORIGIN")
                .action(ArgAction::Append)
                .help("Accept requests from this browser origin too, e.g. https://app.example:443 (loopback pages always are)"),
        ))
        .arg(http_only(
            Arg::new("max-sessions")
                .long("max-sessions")
                .value_name("N")
                .value_parser(value_parser!(usize))
                .default_value("256")
                .help("Sessions open at once, at most"),
        ))
        .arg(http_only(
            Arg::new("max-body")
                .long("max-body")
                .value_name("BYTES")
                .value_parser(value_parser!(usize))
                .default_value("4194304")
                .help("The largest request body (413 beyond)"),
        ))
        .arg(http_only(
            Arg::new("session-idle")
                .long("session-idle")
                .value_name("SECONDS")
                .value_parser(value_parser!(u64).range(1..))
                .default_value("300")
                .help("Close a session unused this long"),
        ))
}

/// `--http` without an address.
const DEFAULT_HTTP_ADDR: &str = "127.0.0.1:8080";

#[cfg(feature = "http")]
fn http_options(
    addr: &str,
    matches: &clap::ArgMatches,
) -> Result<crate::serve::HttpOptions, String> {
    let addr: std::net::SocketAddr = match addr.parse::<u16>() {
        Ok(port) => std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Err(_) => addr.parse().map_err(|_| {
            format!("--http {addr:?}: expected PORT or IP:PORT (e.g. 8080, 127.0.0.1:8080)")
        })?,
    };
    let token = match (
        matches.get_one::<String>("token-env"),
        matches.get_one::<PathBuf>("token-file"),
    ) {
        (Some(var), _) => Some(std::env::var(var).map_err(|_| {
            format!("--token-env {var}: the environment variable {var} is not set")
        })?),
        (_, Some(file)) => Some(
            std::fs::read_to_string(file)
                .map_err(|error| format!("--token-file {}: {error}", file.display()))?
                .trim()
                .to_owned(),
        ),
        _ => None,
    };
    let strings = |id: &str| {
        matches
            .get_many::<String>(id)
            .map(|values| values.cloned().collect())
            .unwrap_or_default()
    };
    let mut options = crate::serve::HttpOptions::loopback(addr.port());
    options.addr = addr;
    options.stateless = matches.get_flag("stateless");
    options.token = token;
    options.allow_unauthenticated = matches.get_flag("allow-unauthenticated");
    options.allowed_hosts = strings("allow-host");
    options.allowed_origins = strings("allow-origin");
    options.max_sessions = matches
        .get_one::<usize>("max-sessions")
        .copied()
        .unwrap_or(256);
    if let Some(bytes) = matches.get_one::<usize>("max-body") {
        options.max_body_bytes = *bytes;
    }
    if let Some(seconds) = matches.get_one::<u64>("session-idle") {
        options.session_idle = Duration::from_secs(*seconds);
    }
    options.check()?;
    Ok(options)
}

#[cfg(feature = "http")]
async fn serve_http(
    server: BridgeServer,
    options: crate::serve::HttpOptions,
    grace: Duration,
) -> ExitCode {
    // Handlers that print are captured as over stdio; stdout is free here,
    // but a result is what the client reads.
    #[cfg(unix)]
    let (server, log) = match crate::serve::StdCapture::new() {
        Ok(capture) => {
            let capture = std::sync::Arc::new(capture);
            let log = capture.log_file().ok();
            (server.capture_with(capture), log)
        }
        Err(error) => return fail(&error),
    };
    #[cfg(not(unix))]
    let log = None;
    init_logging(log);
    let listener = match tokio::net::TcpListener::bind(options.addr).await {
        Ok(listener) => listener,
        Err(error) => return fail(&format!("cannot listen on {}: {error}", options.addr)),
    };
    let bound = listener.local_addr().unwrap_or(options.addr);
    tracing::info!(
        tools = server.tools().len(),
        url = crate::serve::endpoint_url(bound),
        stateless = options.stateless,
        auth = options.token.is_some(),
        "serving over Streamable HTTP"
    );
    match crate::serve::serve_http(server, options, listener, shutdown_signal(), grace).await {
        Ok(false) => ExitCode::SUCCESS,
        Ok(true) => ExitCode::FAILURE,
        Err(error) => fail(&error),
    }
}

fn init_logging(log: Option<std::fs::File>) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("MCP_BRIDGE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,mcp_bridge=info"));
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;

    // The log goes to the stderr the server started with, never into a
    // call's captured output; a call's events also go to its client when
    // the client asked for logs.
    let writer = match log {
        Some(file) => {
            tracing_subscriber::fmt::writer::BoxMakeWriter::new(std::sync::Mutex::new(file))
        }
        None => tracing_subscriber::fmt::writer::BoxMakeWriter::new(std::io::stderr),
    };
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(writer)
                .with_filter(filter),
        )
        .with(crate::serve::logs::client_logs())
        .try_init();
}

fn fail(error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::FAILURE
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
