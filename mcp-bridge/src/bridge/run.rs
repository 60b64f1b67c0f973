//! Running `mcp serve`, `mcp tools`, `mcp install` and `mcp server-json`:
//! the server set up as the bridge says, over stdio or HTTP, with its log
//! and shutdown.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use rmcp::ServiceExt;

#[cfg(not(feature = "server-json"))]
use super::args::NO_SERVER_JSON;
#[cfg(feature = "http")]
use super::args::{http_options, per_tool_scopes};
use super::args::{pinned_values, tool_mode, BridgeArgs};
use super::settings::{CliType, Settings};
use crate::error::RegistryError;
use crate::registry::{Table, ToolMode};
use crate::serve::BridgeServer;

impl Settings {
    /// A server set up as the bridge says, in `mode`.
    pub(super) fn set_up(
        &self,
        server: BridgeServer,
        mode: &ToolMode,
    ) -> Result<BridgeServer, RegistryError> {
        let limits = self.limits.clone();
        let server = server
            .limits(|set| *set = limits)
            .isolate_calls(self.isolate)
            .task_ttl(self.task_ttl);
        server.skills(&self.skills)?.tool_mode(mode)
    }

    /// `mcp install <client>` / `mcp uninstall <client>`. `pinned`: the
    /// root options the operator gave, as arguments.
    pub(super) fn install(
        &self,
        action: &str,
        matches: &clap::ArgMatches,
        bin: &str,
        pinned: &[String],
    ) -> Result<(), String> {
        use crate::install::{Client, Scope, ServerEntry};
        let client = *matches
            .get_one::<Client>("client")
            .ok_or("a client is required")?;
        let scope = matches
            .get_one::<Scope>("scope")
            .copied()
            .unwrap_or(client.default_scope());
        let home = home_dir().ok_or("cannot tell the home folder: HOME is not set")?;
        let project = std::env::current_dir().map_err(|e| format!("the current folder: {e}"))?;
        let path = client.config_path(scope, &home, &project)?;
        let name = matches
            .get_one::<String>("name")
            .cloned()
            .unwrap_or_else(|| bin.to_owned());
        let dry_run = matches.get_flag("dry-run");
        if action == "uninstall" {
            let change = crate::install::uninstall(client, &path, &name)?;
            if dry_run {
                print!("{}", change.diff());
                return Ok(());
            }
            change.write()?;
            eprintln!("removed `{name}` from {}", path.display());
            return Ok(());
        }
        let command = std::env::current_exe()
            .and_then(|exe| exe.canonicalize())
            .map_err(|e| format!("cannot tell where this binary is: {e}"))?;
        let mut args = vec![self.command_name.clone(), "serve".to_owned()];
        args.extend(
            matches
                .get_many::<String>("serve-args")
                .into_iter()
                .flatten()
                .cloned(),
        );
        if !pinned.is_empty() {
            // Relative values resolve where they were given.
            args.push("--cwd".to_owned());
            args.push(project.display().to_string());
            args.push("--".to_owned());
            args.extend(pinned.iter().cloned());
        }
        let mut env = Vec::new();
        if !matches.get_flag("no-path") {
            if let Some(path) = std::env::var_os("PATH") {
                env.push(("PATH".to_owned(), path.to_string_lossy().into_owned()));
            }
        }
        for pair in matches.get_many::<String>("env").into_iter().flatten() {
            let (key, value) = pair
                .split_once('=')
                .filter(|(key, _)| !key.is_empty())
                .ok_or_else(|| format!("--env {pair:?}: expected KEY=VALUE"))?;
            env.retain(|(k, _)| k != key);
            env.push((key.to_owned(), value.to_owned()));
        }
        let server = ServerEntry {
            name: name.clone(),
            command: command.display().to_string(),
            args,
            env,
        };
        if matches.get_flag("print") {
            print!("{}", crate::install::snippet(client, &server));
            return Ok(());
        }
        let change = crate::install::install(client, &path, &server)?;
        if dry_run {
            print!("{}", change.diff());
            return Ok(());
        }
        change.write()?;
        let done = if change.replaced { "updated" } else { "added" };
        let backup = if change.before.is_some() {
            format!(" (the previous file is kept as {}.bak)", path.display())
        } else {
            String::new()
        };
        eprintln!("{done} `{name}` in {}{backup}", path.display());
        Ok(())
    }

    /// `mcp server-json` in a binary built without the feature: refused,
    /// naming it.
    #[cfg(not(feature = "server-json"))]
    pub(super) fn server_json(
        &self,
        _cli: &dyn CliType,
        _matches: &clap::ArgMatches,
        _bin: &str,
        _pinned: &[String],
    ) -> ExitCode {
        fail(&NO_SERVER_JSON)
    }

    /// `mcp server-json`: the server's entry for the MCP Registry.
    #[cfg(feature = "server-json")]
    pub(super) fn server_json(
        &self,
        cli: &dyn CliType,
        matches: &clap::ArgMatches,
        bin: &str,
        pinned: &[String],
    ) -> ExitCode {
        let text = |id: &str| matches.get_one::<String>(id).cloned();
        let options = crate::server_json::Options {
            name: text("name"),
            title: text("title"),
            description: text("description"),
        };
        let document = crate::server_json::document(
            &cli.command(),
            &cli.package(),
            &self.command_name,
            pinned,
            &options,
        );
        let document = match document {
            Ok(document) => document,
            Err(error) => return fail(&error),
        };
        for warning in &document.warnings {
            eprintln!("warning: {warning}");
        }
        if let Some(package) = cli.package().name.filter(|package| *package != bin) {
            eprintln!(
                "warning: this binary is `{bin}`, the package `{package}`: a client that \
                 installs the package runs the binary named after it"
            );
        }
        let json = match serde_json::to_string_pretty(&document.json) {
            Ok(json) => json + "\n",
            Err(error) => return fail(&error),
        };
        let written = match matches.get_one::<PathBuf>("output") {
            Some(path) => std::fs::write(path, json),
            None => std::io::stdout().lock().write_all(json.as_bytes()),
        };
        match written {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => fail(&error),
        }
    }

    /// `mcp ...` from a synchronous `main`, on a runtime made for it.
    #[inline(never)]
    pub(super) fn serve_blocking(&self, cli: &dyn CliType, args: BridgeArgs) -> ExitCode {
        on_runtime(|runtime| runtime.block_on(self.run_bridge(cli, args)))
    }

    /// `mcp ...`: the future is made here, once, whatever the CLI's type
    /// (boxed, so that the server's code is not compiled again with it).
    pub(super) fn run_bridge<'a>(
        &'a self,
        cli: &'a dyn CliType,
        args: BridgeArgs,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ExitCode> + Send + 'a>> {
        Box::pin(self.bridge(cli, args))
    }

    pub(super) async fn bridge(&self, cli: &dyn CliType, args: BridgeArgs) -> ExitCode {
        let BridgeArgs {
            root,
            matches,
            cli: before,
            bin,
        } = args;
        let serve_line = format!("{bin} {} serve", self.command_name);
        let pins = match pinned_values(cli, &root, before.as_ref(), &matches) {
            Ok(pins) => pins,
            Err(error) => return fail(&error),
        };
        let root_name_pins = crate::spec::pins::argv(&root, &pins);
        if let Some(("server-json", sub)) = matches.subcommand() {
            return self.server_json(cli, sub, &bin, &root_name_pins);
        }
        // The examples are checked as written, before the operator's pins.
        let mut registry = match Table::from_spec(root)
            .and_then(|table| table.check_examples(cli.builds()).map(|()| table))
        {
            Ok(registry) => registry,
            Err(error) => return fail(&error),
        };
        if let Err(error) = registry.pin(&pins) {
            return fail(&error);
        }
        let mut mode = self.tool_mode.clone();
        if let Some((sub @ ("serve" | "tools"), options)) = matches.subcommand() {
            if let Some(chosen) = tool_mode(options) {
                mode = chosen;
            }
            if sub == "tools" {
                // Listed as `serve` would list them.
            } else if let Err(error) = select_tools(&mut registry, options) {
                return fail(&error);
            }
        }
        if let Some(("serve", serve)) = matches.subcommand() {
            if let Some(dir) = serve.get_one::<PathBuf>("cwd") {
                if let Err(error) = std::env::set_current_dir(dir) {
                    return fail(&format!("--cwd {}: {error}", dir.display()));
                }
            }
        }
        // After the operator's pins: an example giving a pinned option is
        // one the served tool refuses.
        registry.check_doc_examples(cli.builds());
        let server = match self.set_up(cli.server(registry), &mode) {
            Ok(server) => server,
            Err(error) => return fail(&error),
        };
        match matches.subcommand() {
            Some(("tools", sub)) => {
                // No log here: the CLI's author reads these on the terminal.
                for warning in server.doc_example_warnings() {
                    eprintln!("warning: {warning}");
                }
                print_tools(&server, sub.get_one::<PathBuf>("output"))
            }
            Some((action @ ("install" | "uninstall"), sub)) => {
                match self.install(action, sub, &bin, &root_name_pins) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(error) => fail(&error),
                }
            }
            Some(("serve", serve)) => match serve.get_one::<String>("http") {
                #[cfg(feature = "http")]
                Some(addr) => match http_options(addr, serve) {
                    Ok(options) if per_tool_scopes(&options) && mode != ToolMode::Flat => fail(
                        &"--oauth-tool-scope needs the flat tool mode: a grouped or search \
                          tool runs many commands, each of which may need another scope",
                    ),
                    Ok(options) => serve_http(server, options, self.grace).await,
                    Err(error) => fail(&error),
                },
                #[cfg(not(feature = "http"))]
                Some(_) => fail(
                    &"`mcp serve --http` needs mcp-bridge's `http` feature, which this binary \
                      was built without: add `features = [\"http\"]` to the CLI's mcp-bridge \
                      dependency (stdio, `mcp serve`, needs no feature)",
                ),
                None => serve_stdio(server, self.grace, &serve_line).await,
            },
            _ => unreachable!("clap requires a subcommand"),
        }
    }
}

/// The user's home folder.
pub(super) fn home_dir() -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|home| home.is_absolute())
}

/// Keeps the tools `--include` and `--exclude` select.
pub(super) fn select_tools(registry: &mut Table, serve: &clap::ArgMatches) -> Result<(), String> {
    let patterns = |id: &str| -> Vec<wildmatch::WildMatch> {
        serve
            .get_many::<String>(id)
            .map(|values| values.map(|p| wildmatch::WildMatch::new(p)).collect())
            .unwrap_or_default()
    };
    let (include, exclude) = (patterns("include"), patterns("exclude"));
    if include.is_empty() && exclude.is_empty() {
        return Ok(());
    }
    registry.retain(&|tool| {
        (include.is_empty() || include.iter().any(|p| p.matches(&tool.name)))
            && !exclude.iter().any(|p| p.matches(&tool.name))
    });
    if registry.is_empty() {
        return Err("--include/--exclude leave no tool to serve".to_owned());
    }
    Ok(())
}

pub(super) fn print_tools(server: &BridgeServer, output: Option<&PathBuf>) -> ExitCode {
    server.fetch_values_here();
    let json = match serde_json::to_string_pretty(&server.tools()) {
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

/// Whether the standard input is a terminal, asked of the descriptor
/// itself: `std::io::stdin()` would allocate the 8 KB buffer of its
/// reader, which the server never reads through.
pub(super) fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    #[cfg(unix)]
    return rustix::stdio::stdin().is_terminal();
    #[cfg(not(unix))]
    return std::io::stdin().is_terminal();
}

pub(super) async fn serve_stdio(server: BridgeServer, grace: Duration, command: &str) -> ExitCode {
    // Started by hand: say what this is, once, and how to try it.
    if stdin_is_terminal() {
        eprintln!(
            "{command} speaks MCP (JSON-RPC, one message per line) on stdin and stdout: an MCP \
             client starts it. To try it: npx @modelcontextprotocol/inspector {command}. \
             Ctrl-D or Ctrl-C ends it."
        );
    }
    let server = match captured_and_logged(server) {
        Ok(server) => server,
        Err(error) => return fail(&error),
    };
    let mut transport = match crate::serve::transport::guarded_stdio() {
        Ok(transport) => transport,
        Err(error) => return fail(&error),
    };
    // A client that closes its input (a pipeline, a half-close) still gets
    // the answers to its calls that finish within the grace period.
    let input_ended = transport.on_input_end();
    let server = server.answering_through(&transport);
    crate::io::set_serving();
    tracing::info!(tools = server.tool_count(), "serving over stdio");
    let service = match server.clone().into_service().serve(transport).await {
        Ok(service) => service,
        // The client went away before initializing: a normal end.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return ExitCode::SUCCESS,
        Err(error) => return fail(&error),
    };
    let stop = service.cancellation_token();
    let waiting = service.waiting();
    tokio::pin!(waiting);
    // Asked to stop, or the client closed its input (its answers still go
    // out): the running calls have their grace period, are answered, and
    // rmcp stops then.
    let asked = tokio::select! {
        ended = &mut waiting => Err(ended),
        () = input_ended.cancelled() => Ok(None),
        signal = shutdown_signal() => Ok(Some(signal)),
    };
    let (ended, finished) = match asked {
        Ok(signal) => {
            match signal {
                Some(signal) => {
                    tracing::info!(signal, "asked to stop: finishing the running calls")
                }
                None => tracing::info!("the client closed its input: finishing the running calls"),
            }
            server.drain();
            let finished = server.finish_calls(grace).await;
            // Let the last answers reach the transport.
            tokio::time::sleep(Duration::from_millis(50)).await;
            stop.cancel();
            (waiting.await, finished)
        }
        // The session ended otherwise: calls still running finish their
        // work within the grace period (their answers have nowhere to
        // go), so none is cut off halfway through writing its data.
        Err(ended) => {
            server.drain();
            (ended, server.finish_calls(grace).await)
        }
    };
    let ended = ended.map(|_| ()).map_err(|e| e.to_string());
    let cut_off = !finished;
    if cut_off {
        return ExitCode::FAILURE;
    }
    match ended {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

/// Resolves with the name of the first termination signal received.
pub(super) async fn shutdown_signal() -> &'static str {
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

/// Listens on `addr` with room for a burst of connections: the kernel
/// keeps up to [`BACKLOG`] of them until they are accepted (tokio's default
/// is 1,024; past it, a client's connection may be reset before the server
/// ever sees it).
#[cfg(feature = "http")]
pub(super) fn listen(addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match addr {
        std::net::SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        std::net::SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// How many connections the kernel may hold for the HTTP server before it
/// accepts them (capped by the system's `somaxconn`).
#[cfg(feature = "http")]
pub(super) const BACKLOG: u32 = 4096;

#[cfg(feature = "http")]
pub(super) async fn serve_http(
    server: BridgeServer,
    options: crate::serve::HttpOptions,
    grace: Duration,
) -> ExitCode {
    // Handlers that print are captured as over stdio: stdout is free here,
    // but a result is what the client reads.
    let server = match captured_and_logged(server) {
        Ok(server) => server,
        Err(error) => return fail(&error),
    };
    let listener = match listen(options.addr) {
        Ok(listener) => listener,
        Err(error) => return fail(&format!("cannot listen on {}: {error}", options.addr)),
    };
    let bound = listener.local_addr().unwrap_or(options.addr);
    crate::io::set_serving();
    tracing::info!(
        tools = server.tool_count(),
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

/// Captures the output of handlers that print (Unix), and starts the log
/// on the stderr the server started with.
pub(super) fn captured_and_logged(server: BridgeServer) -> std::io::Result<BridgeServer> {
    #[cfg(unix)]
    let (server, log) = {
        let capture = std::sync::Arc::new(crate::serve::StdCapture::new()?);
        let log = capture.log_file().ok();
        (server.capture_with(capture), log)
    };
    #[cfg(not(unix))]
    let log = None;
    init_logging(log);
    // Found when the tool table was made, before there was a log.
    server.log_doc_examples();
    Ok(server)
}

/// What the server logs: `MCP_BRIDGE_LOG`'s levels by target
/// (`debug`, `warn,mcp_bridge=debug`: a level, or `target=level` pairs,
/// comma-separated), or by default warnings and the bridge's own
/// information. A value that does not read as that is said on stderr, and
/// the default kept.
pub(super) fn log_filter(setting: Option<&str>) -> tracing_subscriber::filter::Targets {
    const DEFAULT: &str = "warn,mcp_bridge=info";
    let default = || DEFAULT.parse().expect("the default filter reads");
    match setting.map(str::trim).filter(|s| !s.is_empty()) {
        None => default(),
        Some(setting) => setting.parse().unwrap_or_else(|error| {
            eprintln!(
                "mcp-bridge: MCP_BRIDGE_LOG={setting:?} is not a level or target=level \
                 pairs ({error}); logging with {DEFAULT:?}"
            );
            default()
        }),
    }
}

/// The server's log: `filter`'s events written to `writer`, and a call's
/// events sent to its client when the client asked for them.
pub(super) fn log_subscriber(
    filter: tracing_subscriber::filter::Targets,
    writer: tracing_subscriber::fmt::writer::BoxMakeWriter,
) -> impl tracing::Subscriber + Send + Sync {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::Layer;

    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(writer)
                .with_filter(filter),
        )
        .with(crate::serve::logs::client_logs())
}

pub(super) fn init_logging(log: Option<std::fs::File>) {
    let filter = log_filter(std::env::var("MCP_BRIDGE_LOG").ok().as_deref());
    use tracing_subscriber::util::SubscriberInitExt;

    // The log goes to the stderr the server started with, never into a
    // call's captured output; a call's events also go to its client when
    // the client asked for logs.
    let writer = match log {
        Some(file) => {
            tracing_subscriber::fmt::writer::BoxMakeWriter::new(std::sync::Mutex::new(file))
        }
        None => tracing_subscriber::fmt::writer::BoxMakeWriter::new(std::io::stderr),
    };
    let installed = log_subscriber(filter, writer).try_init();
    // Both the subscriber and the logger of `log` records are the bridge's
    // (an error: the program had one of them already).
    if installed.is_ok() {
        crate::serve::logs::log_records_are_ours();
    }
}

/// Runs `run` on a runtime made for it; blocked reads of stdin do not keep
/// the process alive after it.
pub(super) fn on_runtime(run: impl FnOnce(&tokio::runtime::Runtime) -> ExitCode) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return fail(&error),
    };
    let code = run(&runtime);
    runtime.shutdown_background();
    code
}

/// Says what failed, on stderr; the failure's exit code.
pub(super) fn fail(error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use tracing::Level;

    use super::log_filter;

    /// `--include`, `--exclude`, `--pin` and OAuth's per-tool scopes read
    /// a pattern as a shell reads one. wildmatch before 2.3.2 did not:
    /// 2.0 missed names a star should reach (a star before a repeated
    /// run), 2.3.1 matched names it should not (`*a_` took `a__`), which
    /// is why its floor is 2.3.2.
    #[test]
    fn tool_name_patterns_match_as_a_shell_matches_them() {
        for (pattern, name, matches) in [
            ("*__add", "x___add", true),
            ("*aa", "aaa", true),
            ("*a_", "a__", false),
            ("*_c__", "my_zig_c__", true),
            ("app_*", "app_task_add", true),
            ("app_?ask_*", "app_task_add", true),
            ("*_add", "app_task_list", false),
            ("app_task", "app_task_add", false),
        ] {
            assert_eq!(
                wildmatch::WildMatch::new(pattern).matches(name),
                matches,
                "{pattern} against {name}"
            );
        }
    }

    #[test]
    fn the_log_filter_reads_levels_by_target_and_keeps_the_default_otherwise() {
        let default = log_filter(None);
        assert!(default.would_enable("mcp_bridge::serve", &Level::INFO));
        assert!(!default.would_enable("mcp_bridge::serve", &Level::DEBUG));
        assert!(default.would_enable("rmcp", &Level::WARN));
        assert!(!default.would_enable("rmcp", &Level::INFO));
        let debug = log_filter(Some("debug"));
        assert!(debug.would_enable("rmcp::service", &Level::DEBUG));
        let pairs = log_filter(Some("error,mcp_bridge::serve=trace"));
        assert!(pairs.would_enable("mcp_bridge::serve::exec", &Level::TRACE));
        assert!(!pairs.would_enable("mcp_bridge::registry", &Level::WARN));
        assert!(!pairs.would_enable("tokio", &Level::WARN));
        // Not a level: the default, said on stderr.
        let bad = log_filter(Some("mcp_bridge=loud"));
        assert!(bad.would_enable("mcp_bridge", &Level::INFO));
        assert!(!bad.would_enable("mcp_bridge", &Level::DEBUG));
        assert!(log_filter(Some("  ")).would_enable("mcp_bridge", &Level::INFO));
    }

    #[test]
    fn the_server_log_enables_no_level_beyond_its_filter_until_a_client_asks_for_logs() {
        use tracing::level_filters::LevelFilter;
        use tracing::Subscriber;
        // The most verbose level enabled anywhere becomes the `log`
        // facade's: a `trace!` of mio's, made on every call, is then
        // dropped where it is made. (No test of this binary asks for
        // client logs.)
        let writer = || tracing_subscriber::fmt::writer::BoxMakeWriter::new(std::io::sink);
        let default = super::log_subscriber(log_filter(None), writer());
        assert_eq!(default.max_level_hint(), Some(LevelFilter::INFO));
        let debug = super::log_subscriber(log_filter(Some("warn,rmcp=debug")), writer());
        assert_eq!(debug.max_level_hint(), Some(LevelFilter::DEBUG));
    }
}
