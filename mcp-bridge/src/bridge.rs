//! [`Bridge`]: the CLI with its handler, and the `mcp` subcommand (`serve`,
//! `tools`) added in front of it without touching its parsing, help or
//! exit codes.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use rmcp::ServiceExt;

use crate::error::RegistryError;
use crate::io::{Io, Report};
use crate::registry::Registry;
use crate::serve::{BridgeServer, Handler};
use crate::spec::CommandSpec;
use crate::traits::McpCommand;

/// A CLI with its handler, run either as itself or as an MCP server.
///
/// `<bin> mcp serve` serves every runnable command as a tool over stdio;
/// `<bin> mcp tools [--output FILE]` prints the tool definitions as
/// `tools/list` returns them; anything else runs the CLI exactly as before.
///
/// ```no_run
/// # use clap::Parser;
/// # use mcp_bridge::{Bridge, Io, McpTool};
/// # #[derive(Parser, McpTool)] struct Cli { name: String }
/// # fn run(cli: Cli, io: &mut Io) {}
/// fn main() -> std::process::ExitCode {
///     // The CLI has its own `mcp` command, so the bridge answers to `ai`.
///     Bridge::new(run).command_name("ai").run()
/// }
/// ```
pub struct Bridge<C> {
    handler: Handler<C>,
    command_name: String,
    offload_calls: bool,
}

impl<C: McpCommand + Send + 'static> Bridge<C> {
    /// A bridge running `handler` for every command, in both modes.
    pub fn new<R, F>(handler: F) -> Self
    where
        R: Report,
        F: Fn(C, &mut Io<'_>) -> R + Send + Sync + 'static,
    {
        Self {
            handler: Arc::new(move |cli, io| handler(cli, io).report(io)),
            command_name: "mcp".to_owned(),
            offload_calls: false,
        }
    }

    /// Renames the bridge's command (default `mcp`), for CLIs that already
    /// use that name.
    pub fn command_name(mut self, name: impl Into<String>) -> Self {
        self.command_name = name.into();
        self
    }

    /// Runs each tool call where it may block without holding up other
    /// requests (for CLIs with slow commands); see
    /// [`BridgeServer::offload_calls`].
    pub fn offload_calls(mut self, offload: bool) -> Self {
        self.offload_calls = offload;
        self
    }

    /// The MCP server this bridge would serve.
    pub fn server(&self) -> Result<BridgeServer, RegistryError> {
        Ok(self.server_from(Registry::new()?))
    }

    fn server_from(&self, registry: Registry<C>) -> BridgeServer {
        BridgeServer::from_registry(registry, Arc::clone(&self.handler))
            .offload_calls(self.offload_calls)
    }

    /// Runs with the process's arguments.
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
        let wants_bridge = args.get(1).is_some_and(|a| *a == *self.command_name);
        if wants_bridge {
            // The tree is built once and reused by the server.
            let root = C::command_spec();
            if !root.subcommands.iter().any(|s| s.name == self.command_name) {
                return self.run_bridge(&args, root);
            }
            eprintln!(
                "mcp-bridge: `{name}` is a command of this CLI, so it runs as before; \
                 give the bridge another name with `Bridge::command_name`",
                name = self.command_name
            );
        }
        self.run_cli(args)
    }

    fn run_cli(self, args: Vec<OsString>) -> ExitCode {
        let cli = C::parse_from(args);
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        let mut out = stdout.lock();
        let mut err = stderr.lock();
        let code = (self.handler)(cli, &mut Io::new(&mut out, &mut err, false));
        let _ = out.flush();
        exit_code(code)
    }

    fn run_bridge(self, args: &[OsString], root: CommandSpec) -> ExitCode {
        let bin = args
            .first()
            .and_then(|a| std::path::Path::new(a).file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let matches = bridge_command(&bin, &self.command_name).get_matches_from(&args[1..]);
        let server = match Registry::from_spec(root) {
            Ok(registry) => self.server_from(registry),
            Err(error) => return fail(&error),
        };
        match matches.subcommand() {
            Some(("tools", sub)) => print_tools(&server, sub.get_one::<PathBuf>("output")),
            Some(("serve", _)) => serve_stdio(server),
            _ => unreachable!("clap requires a subcommand"),
        }
    }
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

fn serve_stdio(server: BridgeServer) -> ExitCode {
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return fail(&error),
    };
    let result = runtime.block_on(async move {
        let transport = crate::serve::transport::guarded_stdio()?;
        tracing::info!(tools = server.tools().len(), "serving over stdio");
        let running = match server.serve(transport).await {
            Ok(running) => running,
            // The client went away before initializing: a normal end.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(error) => return Err(std::io::Error::other(error.to_string())),
        };
        running
            .waiting()
            .await
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok::<(), std::io::Error>(())
    });
    // Blocked reads of stdin must not keep the process alive.
    runtime.shutdown_background();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error),
    }
}

fn bridge_command(bin: &str, name: &str) -> clap::Command {
    use clap::{value_parser, Arg, Command};
    Command::new("mcp")
        .bin_name(format!("{bin} {name}"))
        .about("Serve this CLI to AI assistants over the Model Context Protocol")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("serve").about("Serve every command as an MCP tool over stdio (JSON-RPC)"),
        )
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

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("MCP_BRIDGE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,mcp_bridge=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

fn fail(error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::FAILURE
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
