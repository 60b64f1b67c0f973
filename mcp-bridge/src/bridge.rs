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
use crate::handler::{Ended, Handler, IntoHandler};
use crate::io::Io;
use crate::registry::{Builds, Registry, Table, ToolMode};
use crate::serve::isolate::Reply;
use crate::serve::{BridgeServer, Limits, Skill};
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
///   the exit code is non-zero if some were cut off. A call waiting for
///   its user's answer in an `input_required` round or in a task (or
///   asking so from then on) stops at once: a person's answer is not
///   waited for, and a round's would come in a call the server refuses.
pub struct Bridge<C> {
    handler: Handler<C>,
    /// The CLI's own parse (`Bridge::parse_with`).
    parse: Option<ParseWith<C>>,
    settings: Settings,
}

/// A bridge's settings: all of it but the CLI's type. What only they need
/// is a method of theirs, compiled once in this crate and not again for
/// every CLI type; the typed side answers through [`CliType`].
struct Settings {
    command_name: String,
    limits: Limits,
    grace: Duration,
    isolate: bool,
    task_ttl: Duration,
    hide_command: bool,
    tool_mode: ToolMode,
    /// The CLI's own changes to its `Command` (`Bridge::command`).
    customise: Option<Customise>,
    /// The skills offered (`Bridge::skill`).
    skills: Vec<Skill>,
}

/// What the bridge's untyped code asks of the CLI's type.
trait CliType: Sync {
    /// The derive's command (`CommandFactory::command`).
    fn command(&self) -> clap::Command;
    /// The command tree (`McpCommand::command_spec`).
    fn command_spec(&self) -> CommandSpec;
    /// The package the CLI is declared in.
    #[cfg(feature = "server-json")]
    fn package(&self) -> crate::traits::Package;
    /// Builds (and drops) a call's value: checks examples.
    fn builds(&self) -> Builds<'static>;
    /// The server of `table`, running the CLI's handler.
    fn server(&self, table: Table) -> BridgeServer;
}

impl<C: McpCommand + Send + 'static> CliType for Bridge<C> {
    fn command(&self) -> clap::Command {
        C::command()
    }

    fn command_spec(&self) -> CommandSpec {
        C::command_spec()
    }

    #[cfg(feature = "server-json")]
    fn package(&self) -> crate::traits::Package {
        C::package()
    }

    fn builds(&self) -> Builds<'static> {
        &Registry::<C>::builds
    }

    fn server(&self, table: Table) -> BridgeServer {
        BridgeServer::from_registry(Registry::from_table(table), self.handler.clone())
    }
}

type Customise = Box<dyn Fn(clap::Command) -> clap::Command + Send + Sync>;
type ParseWith<C> = Box<dyn Fn(Vec<OsString>) -> C + Send + Sync>;

impl<C: McpCommand + Send + 'static> Bridge<C> {
    /// A bridge running `handler` for every command, in both modes.
    pub fn new<K, H: IntoHandler<C, K>>(handler: H) -> Self {
        Self {
            handler: handler.into_handler().0,
            parse: None,
            settings: Settings {
                command_name: "mcp".to_owned(),
                limits: Limits::default(),
                grace: Duration::from_secs(10),
                isolate: false,
                task_ttl: crate::serve::DEFAULT_TASK_TTL,
                hide_command: false,
                tool_mode: ToolMode::Flat,
                customise: None,
                skills: Vec::new(),
            },
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
        // A child started for one isolated call: the value comes from the
        // tool's name and JSON arguments, never from argv.
        if let Some(call) = crate::serve::isolate::isolated_call() {
            // Run for a server: a question goes to no terminal.
            crate::io::set_serving();
            let built = call.and_then(|call| {
                let registry = Registry::<C>::new().map_err(|e| e.to_string())?;
                let cli = registry
                    .build(&call.tool, &call.arguments)
                    .map_err(|e| e.to_string())?;
                Ok((cli, call.reply))
            });
            match built {
                Ok((cli, reply)) => return Route::Cli(cli, Some(reply)),
                Err(error) => {
                    eprintln!("{error}");
                    std::process::exit(2);
                }
            }
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

impl Settings {
    /// The derive's command, with the CLI's own changes.
    fn cli_command(&self, cli: &dyn CliType) -> clap::Command {
        let cmd = cli.command();
        match &self.customise {
            Some(customise) => customise(cmd),
            None => cmd,
        }
    }

    /// A server set up as the bridge says, in `mode`.
    fn set_up(&self, server: BridgeServer, mode: &ToolMode) -> Result<BridgeServer, RegistryError> {
        let limits = self.limits.clone();
        let server = server
            .limits(|set| *set = limits)
            .isolate_calls(self.isolate)
            .task_ttl(self.task_ttl);
        server.skills(&self.skills)?.tool_mode(mode)
    }

    /// [`Bridge::route`] without the CLI's type (an isolated call, which
    /// needs it, is routed before): the bridge's arguments, or how the
    /// CLI's value is to be built (`parse`: whether the CLI has a parse of
    /// its own).
    fn route(&self, cli: &dyn CliType, parse: bool, args: Vec<OsString>) -> Routed {
        let bin = bin_name(&args);
        let name = self.command_name.as_str();
        // `taskctl mcp ...`: the bridge, without parsing the CLI's options.
        if args.get(1).is_some_and(|a| *a == *name) {
            // The tree is built once and reused by the server.
            let root = cli.command_spec();
            if !root.subcommands.iter().any(|s| s.name == name) {
                let only = args.get(2).and_then(|a| a.to_str());
                let matches = bridge_command(&bin, name, only).get_matches_from(&args[1..]);
                return Routed::Bridge(Box::new(BridgeArgs {
                    root,
                    matches,
                    cli: None,
                    bin,
                }));
            }
            eprintln!(
                "mcp-bridge: `{name}` is a command of this CLI, so it runs as before; \
                 give the bridge another name with `Bridge::command_name`"
            );
            return Routed::Parse(args);
        }
        // A CLI's own parse runs alone unless the bridge's command may be
        // among the arguments.
        let named = args.iter().skip(1).any(|a| *a == *name);
        if parse && !named {
            return Routed::Parse(args);
        }
        // Otherwise the CLI parses its arguments, with the bridge as one
        // more subcommand when it has subcommands (shown in `--help`, and
        // `taskctl --db tasks.json mcp serve` pins `--db`).
        //
        // The bridge's own command is built only when an argument names
        // it: otherwise a stand-in with its name and summary lists it in
        // `--help`, and a trivial command pays nothing for the bridge's
        // options. (The stand-in chosen all the same, by an abbreviation
        // under `infer_subcommands`, sends the parse round again with the
        // real one.)
        let mut full = named;
        let (cmd, bridged, mut matches) = loop {
            let mut cmd = self.cli_command(cli);
            let bridged = cmd.has_subcommands() && cmd.find_subcommand(name).is_none();
            if bridged {
                let bridge = match full {
                    true => bridge_command(&bin, name, None),
                    false => bridge_stand_in(),
                };
                cmd = cmd.subcommand(
                    bridge
                        .name(crate::spec::clap_args::static_text(name))
                        .hide(self.hide_command),
                );
            }
            match cmd.try_get_matches_from_mut(&args) {
                Ok(matches) if bridged && !full && matches.subcommand_name() == Some(name) => {
                    full = true;
                }
                Ok(matches) => break (cmd, bridged, matches),
                // Not the bridge's: the CLI's own parse says what it is.
                Err(_) if parse => return Routed::Parse(args),
                Err(error) => error.exit(),
            }
        };
        if bridged && matches.subcommand_name() == Some(name) {
            if let Some((_, bridge)) = matches.remove_subcommand() {
                return Routed::Bridge(Box::new(BridgeArgs {
                    root: cli.command_spec(),
                    matches: bridge,
                    cli: Some(matches),
                    bin,
                }));
            }
        }
        if parse {
            return Routed::Parse(args);
        }
        Routed::Matches(Box::new(cmd), matches)
    }

    /// `mcp install <client>` / `mcp uninstall <client>`. `pinned`: the
    /// root options the operator gave, as arguments.
    fn install(
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
    fn server_json(
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
    fn server_json(
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
    fn serve_blocking(&self, cli: &dyn CliType, args: BridgeArgs) -> ExitCode {
        on_runtime(|runtime| runtime.block_on(self.run_bridge(cli, args)))
    }

    /// `mcp ...`: the future is made here, once, whatever the CLI's type
    /// (boxed, so that the server's code is not compiled again with it).
    fn run_bridge<'a>(
        &'a self,
        cli: &'a dyn CliType,
        args: BridgeArgs,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ExitCode> + Send + 'a>> {
        Box::pin(self.bridge(cli, args))
    }

    async fn bridge(&self, cli: &dyn CliType, args: BridgeArgs) -> ExitCode {
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

/// [`Route`] before the value is built: what builds it.
enum Routed {
    /// The CLI's own parse, on these arguments.
    Parse(Vec<OsString>),
    /// `FromArgMatches` on the matches of this command.
    Matches(Box<clap::Command>, clap::ArgMatches),
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

/// Runs `run` on a runtime made for it; blocked reads of stdin do not keep
/// the process alive after it.
fn on_runtime(run: impl FnOnce(&tokio::runtime::Runtime) -> ExitCode) -> ExitCode {
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

/// What `mcp ...` was started with.
struct BridgeArgs {
    /// The CLI's command tree.
    root: CommandSpec,
    /// The bridge's own arguments (`serve --http`).
    matches: clap::ArgMatches,
    /// The CLI's root options given before the bridge's name
    /// (`taskctl --db tasks.json mcp serve`).
    cli: Option<clap::ArgMatches>,
    /// The binary's name.
    bin: String,
}

/// The user's home folder.
fn home_dir() -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|home| home.is_absolute())
}

/// The binary's name, as `--help` shows it.
fn bin_name(args: &[OsString]) -> String {
    args.first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The root options the operator fixed, by clap id, as the JSON a call
/// would give, with how they were given: before the bridge's name, and
/// after `mcp serve --` (those win).
fn pinned_values(
    cli: &dyn CliType,
    root: &CommandSpec,
    before: Option<&clap::ArgMatches>,
    bridge: &clap::ArgMatches,
) -> Result<Vec<(String, serde_json::Value, String)>, String> {
    let mut pins = Vec::new();
    if let Some(matches) = before {
        pins.extend(crate::spec::pins::given(root, matches)?);
    }
    // Read by name: the bridge's command holds only the subcommand its
    // arguments named (`bridge_command`).
    let after = match bridge.subcommand() {
        Some(("serve", serve)) => serve.get_many::<OsString>("cli-args"),
        _ => None,
    };
    if let Some(after) = after {
        let mut argv = vec![OsString::from(root.name.clone())];
        argv.extend(after.cloned());
        let mut cmd = cli
            .command()
            .subcommand_required(false)
            .arg_required_else_help(false)
            .mut_args(|arg| arg.required(false));
        let a_command = |sub: &str| {
            format!(
                "the CLI's arguments after `--` are the root command's options, fixed for every \
                 call; `{sub}` is a command (each becomes a tool)"
            )
        };
        let matches = match cmd.try_get_matches_from_mut(&argv) {
            Ok(matches) => matches,
            Err(error) => {
                let sub = argv[1..]
                    .iter()
                    .filter_map(|arg| arg.to_str())
                    .find(|arg| cmd.find_subcommand(arg).is_some());
                return Err(match sub {
                    Some(sub) => a_command(sub),
                    None => format!("the CLI's arguments after `--`: {}", error.render()),
                });
            }
        };
        if let Some(sub) = matches.subcommand_name() {
            return Err(a_command(sub));
        }
        for pin in crate::spec::pins::given(root, &matches)? {
            pins.retain(|(id, _, _)| *id != pin.0);
            pins.push(pin);
        }
    }
    Ok(pins)
}

/// The mode `--flat`, `--grouped [DEPTH]` or `--search` (with `--pin`)
/// asks for, if any.
fn tool_mode(options: &clap::ArgMatches) -> Option<ToolMode> {
    if options.get_flag("flat") {
        return Some(ToolMode::Flat);
    }
    if let Some(depth) = options.get_one::<usize>("grouped") {
        return Some(ToolMode::Grouped { depth: *depth });
    }
    if options.get_flag("search") {
        let pinned = options
            .get_many::<String>("pin")
            .map(|values| values.cloned().collect())
            .unwrap_or_default();
        return Some(ToolMode::Search { pinned });
    }
    None
}

/// `--flat`, `--grouped [DEPTH]`, `--search` and `--pin`, for `serve` and
/// `tools`.
fn mode_args(command: clap::Command) -> clap::Command {
    use clap::{value_parser, Arg, ArgAction};
    command
        .arg(
            Arg::new("flat")
                .long("flat")
                .action(ArgAction::SetTrue)
                .help_heading("Tool list")
                .help("List every command as a tool with its full schema (the default)"),
        )
        .arg(
            Arg::new("grouped")
                .long("grouped")
                .value_name("DEPTH")
                .num_args(0..=1)
                .default_missing_value("0")
                .value_parser(value_parser!(usize))
                .conflicts_with_all(["flat", "search"])
                .help_heading("Tool list")
                .help("List the commands under each command DEPTH levels down (0, the default: the whole CLI) as one tool taking `command` and `arguments`; `help: true` gives a command's schema"),
        )
        .arg(
            Arg::new("search")
                .long("search")
                .action(ArgAction::SetTrue)
                .conflicts_with("flat")
                .help_heading("Tool list")
                .help("List two tools, `search_tools` (words -> the matching tools' definitions) and `call_tool`, instead of every command"),
        )
        .arg(
            Arg::new("pin")
                .long("pin")
                .value_name("PATTERN")
                .action(ArgAction::Append)
                .requires("search")
                .help_heading("Tool list")
                .help("With --search, also list the tools whose name matches (`*` and `?`; repeatable)"),
        )
}

/// Keeps the tools `--include` and `--exclude` select.
fn select_tools(registry: &mut Table, serve: &clap::ArgMatches) -> Result<(), String> {
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

fn print_tools(server: &BridgeServer, output: Option<&PathBuf>) -> ExitCode {
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
fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    #[cfg(unix)]
    return rustix::stdio::stdin().is_terminal();
    #[cfg(not(unix))]
    return std::io::stdin().is_terminal();
}

async fn serve_stdio(server: BridgeServer, grace: Duration, command: &str) -> ExitCode {
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

/// The bridge's command in a CLI's parse that does not name it: its
/// summary for `--help`, and whatever follows it taken as it is.
fn bridge_stand_in() -> clap::Command {
    use clap::{value_parser, Arg};
    clap::Command::new("mcp")
        .about(BRIDGE_ABOUT)
        .disable_help_flag(true)
        .arg(
            Arg::new("rest")
                .num_args(0..)
                .trailing_var_arg(true)
                .allow_hyphen_values(true)
                .value_parser(value_parser!(OsString)),
        )
}

/// What the bridge's command does, in the CLI's `--help`.
const BRIDGE_ABOUT: &str = "Serve this CLI to AI assistants over the Model Context Protocol";

/// The bridge's command. `only`: the word after the bridge's name; when
/// it names one of the bridge's subcommands, that one is the only one
/// built (the parse goes nowhere else, and building the others was most
/// of what a server's start spent parsing its arguments); otherwise all
/// of them are, for `--help` and for errors that list them.
fn bridge_command(bin: &str, name: &str, only: Option<&str>) -> clap::Command {
    use clap::Command;
    let only = only.filter(|word| BRIDGE_SUBCOMMANDS.contains(word));
    let wanted = |sub: &str| only.is_none_or(|only| only == sub);
    let mut command = Command::new("mcp")
        .bin_name(format!("{bin} {name}"))
        .about(BRIDGE_ABOUT)
        .subcommand_required(true)
        .arg_required_else_help(true);
    if wanted("serve") {
        command = command.subcommand(serve_command());
    }
    if wanted("tools") {
        command = command.subcommand(
            mode_args(Command::new("tools"))
                .about("Print the tool definitions as `tools/list` returns them, as JSON")
                .arg(output_arg()),
        );
    }
    if wanted("server-json") {
        command = command.subcommand(server_json_command());
    }
    if wanted("install") {
        command = command.subcommand(install_command(
            "install",
            "Add this server to an MCP client's configuration (root options given before the \
             bridge's name are fixed for every call, as with `serve`)",
        ));
    }
    if wanted("uninstall") {
        command = command.subcommand(install_command(
            "uninstall",
            "Remove this server from an MCP client's configuration",
        ));
    }
    command
}

/// `mcp server-json`.
#[cfg(feature = "server-json")]
fn server_json_command() -> clap::Command {
    use clap::{Arg, Command};
    Command::new("server-json")
        .about("Print the server's entry for the MCP Registry (server.json)")
        .arg(
            Arg::new("name")
                .long("name")
                .value_name("NAME")
                .help("The server's registry name, e.g. io.github.<owner>/<server> [default: from the package's GitHub repository]"),
        )
        .arg(
            Arg::new("title")
                .long("title")
                .value_name("TEXT")
                .help("A title to show in place of the name"),
        )
        .arg(
            Arg::new("description")
                .long("description")
                .value_name("TEXT")
                .help("At most 100 characters [default: the package's description]"),
        )
        .arg(output_arg())
}

/// `mcp server-json` in a binary built without the feature: hidden (the
/// CLI's users have no use for it), it takes any options and says which
/// feature it needs.
#[cfg(not(feature = "server-json"))]
fn server_json_command() -> clap::Command {
    clap::Command::new("server-json")
        .about("Print the server's entry for the MCP Registry (needs the `server-json` feature)")
        .hide(true)
        .disable_help_flag(true)
        .arg(
            clap::Arg::new("rest")
                .num_args(0..)
                .trailing_var_arg(true)
                .allow_hyphen_values(true),
        )
}

/// What `mcp server-json` says in a binary built without it.
#[cfg(not(feature = "server-json"))]
const NO_SERVER_JSON: &str = "`mcp server-json` needs mcp-bridge's `server-json` feature, which \
     this binary was built without (its users have no use for it): run it from a build with \
     the feature, e.g. `cargo run --features mcp-bridge/server-json -- mcp server-json`";

/// The bridge's subcommands, by name.
const BRIDGE_SUBCOMMANDS: [&str; 5] = ["serve", "tools", "server-json", "install", "uninstall"];

/// `--output FILE` of `mcp tools` and `mcp server-json`.
fn output_arg() -> clap::Arg {
    clap::Arg::new("output")
        .long("output")
        .short('o')
        .value_name("FILE")
        .value_parser(clap::value_parser!(PathBuf))
        .help("Write to FILE instead of stdout")
}

/// `mcp install <client>` and `mcp uninstall <client>`.
fn install_command(name: &'static str, about: &'static str) -> clap::Command {
    use clap::{value_parser, Arg, ArgAction, Command};
    let install = name == "install";
    let mut command = Command::new(name)
        .about(about)
        .arg(
            Arg::new("client")
                .required(true)
                .value_parser(value_parser!(crate::install::Client))
                .help("The client whose configuration to change"),
        )
        .arg(
            Arg::new("scope")
                .long("scope")
                .value_parser(value_parser!(crate::install::Scope))
                .help("The user's configuration, or the project's (the current directory); each client has its own default"),
        )
        .arg(
            Arg::new("name")
                .long("name")
                .value_name("NAME")
                .help("The server's name in the configuration [default: the binary's name]"),
        )
        .arg(
            Arg::new("dry-run")
                .long("dry-run")
                .action(ArgAction::SetTrue)
                .help("Print the change as a diff; write nothing"),
        );
    if install {
        command = command
            .arg(
                Arg::new("env")
                    .long("env")
                    .value_name("KEY=VALUE")
                    .action(ArgAction::Append)
                    .help("Set an environment variable for the server (repeatable)"),
            )
            .arg(
                Arg::new("no-path")
                    .long("no-path")
                    .action(ArgAction::SetTrue)
                    .help("Do not record the current PATH (recorded by default: clients start servers with a minimal one)"),
            )
            .arg(
                Arg::new("print")
                    .long("print")
                    .action(ArgAction::SetTrue)
                    .conflicts_with("dry-run")
                    .help("Print the JSON entry to add by hand; write nothing"),
            )
            .arg(
                Arg::new("serve-args")
                    .value_name("SERVE OPTIONS")
                    .num_args(0..)
                    .last(true)
                    .help("Options for `serve`, after -- (e.g. -- --include 'app_task_*')"),
            );
    }
    command
}

/// `mcp serve`: stdio by default, Streamable HTTP with `--http`.
fn serve_command() -> clap::Command {
    use clap::{value_parser, Arg, ArgAction, Command};
    let command = mode_args(Command::new("serve"))
        .about("Serve every command as an MCP tool, over stdio (JSON-RPC) or Streamable HTTP")
        .arg(
            Arg::new("cli-args")
                .value_name("CLI OPTIONS")
                .num_args(0..)
                .last(true)
                .value_parser(value_parser!(std::ffi::OsString))
                .help("The CLI's own root options (after --), fixed for every call and left out of the tools, e.g. -- --db tasks.json; they may also come before the bridge's name"),
        )
        .arg(
            Arg::new("cwd")
                .long("cwd")
                .value_name("DIR")
                .value_parser(value_parser!(PathBuf))
                .help("Run in DIR (relative paths and defaults resolve there, not wherever the client started the server)"),
        )
        .arg(
            Arg::new("include")
                .long("include")
                .value_name("PATTERN")
                .action(ArgAction::Append)
                .help("Serve only the tools whose name matches (`*` and `?`; repeatable)"),
        )
        .arg(
            Arg::new("exclude")
                .long("exclude")
                .value_name("PATTERN")
                .action(ArgAction::Append)
                .help("Leave out the tools whose name matches (`*` and `?`; repeatable)"),
        )
        .arg(
            Arg::new("http")
                .long("http")
                .value_name("ADDR")
                .num_args(0..=1)
                .default_missing_value(DEFAULT_HTTP_ADDR)
                .help_heading("HTTP")
                .help(format!(
                    "Serve MCP Streamable HTTP at http://ADDR/mcp instead of stdio \
                     (ADDR: PORT, IP:PORT; default {DEFAULT_HTTP_ADDR}, loopback){NEEDS_HTTP}"
                )),
        );
    #[cfg(feature = "http")]
    let command = http_args(command);
    command
}

/// What `--http`'s help adds in a binary built without the `http` feature.
const NEEDS_HTTP: &str = if cfg!(feature = "http") {
    ""
} else {
    " (needs the `http` feature)"
};

/// The HTTP server's options (`--http`'s own is with `serve`'s), in a
/// binary built with the `http` feature: without it, `--http` alone says
/// what it needs, and its options are not offered, built or parsed.
#[cfg(feature = "http")]
fn http_args(command: clap::Command) -> clap::Command {
    use clap::{value_parser, Arg, ArgAction};
    let http_only = |arg: Arg| arg.requires("http").help_heading("HTTP");
    command
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
        .arg(http_only(
            Arg::new("oauth-issuer")
                .long("oauth-issuer")
                .value_name("URL")
                .conflicts_with_all(["token-env", "token-file"])
                .help("OAuth: require an access token of this authorization server, checked against its keys (needs the `oauth` feature)"),
        ))
        .arg(
            Arg::new("oauth-resource")
                .long("oauth-resource")
                .value_name("URL")
                .requires("oauth-issuer")
                .help("OAuth: this server's URL as clients reach it, the tokens' audience [default: the endpoint's URL]"),
        )
        .arg(
            Arg::new("oauth-scope")
                .long("oauth-scope")
                .value_name("SCOPE")
                .action(ArgAction::Append)
                .requires("oauth-issuer")
                .help("OAuth: a scope every request needs (repeatable)"),
        )
        .arg(
            Arg::new("oauth-tool-scope")
                .long("oauth-tool-scope")
                .value_name("TOOL=SCOPE")
                .action(ArgAction::Append)
                .requires("oauth-issuer")
                .help("OAuth: a scope the calls of matching tools need, e.g. 'app_task_*=tasks:write' (repeatable; tools/list shows a token only what it may call)"),
        )
        .arg(
            Arg::new("oauth-client-id")
                .long("oauth-client-id")
                .value_name("ID")
                .requires_all(["oauth-issuer", "oauth-client-secret-env"])
                .help("OAuth: this server's client at the issuer, to introspect opaque tokens"),
        )
        .arg(
            Arg::new("oauth-client-secret-env")
                .long("oauth-client-secret-env")
                .value_name("VAR")
                .requires("oauth-client-id")
                .help("OAuth: the environment variable holding that client's secret"),
        )
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
    if let Some(issuer) = matches.get_one::<String>("oauth-issuer") {
        oauth_options(&mut options, issuer, matches, strings)?;
    }
    options.check()?;
    Ok(options)
}

/// Whether some tools need scopes of their own (`--oauth-tool-scope`).
#[cfg(feature = "http")]
fn per_tool_scopes(options: &crate::serve::HttpOptions) -> bool {
    #[cfg(feature = "oauth")]
    return options
        .oauth
        .as_ref()
        .is_some_and(|oauth| !oauth.tool_scopes.is_empty());
    #[cfg(not(feature = "oauth"))]
    {
        let _ = options;
        false
    }
}

/// `--oauth-*`: the resource server's setup.
#[cfg(feature = "oauth")]
fn oauth_options(
    options: &mut crate::serve::HttpOptions,
    issuer: &str,
    matches: &clap::ArgMatches,
    strings: impl Fn(&str) -> Vec<String>,
) -> Result<(), String> {
    use crate::serve::oauth::{is_scope_token, OAuthOptions};
    let scopes = strings("oauth-scope");
    if let Some(bad) = scopes.iter().find(|scope| !is_scope_token(scope)) {
        return Err(format!(
            "--oauth-scope {bad:?}: a scope is one word of printable ASCII"
        ));
    }
    let tool_scopes = strings("oauth-tool-scope")
        .iter()
        .map(|given| OAuthOptions::tool_scope(given))
        .collect::<Result<_, _>>()?;
    let introspection = match matches.get_one::<String>("oauth-client-id") {
        Some(id) => {
            let var = matches
                .get_one::<String>("oauth-client-secret-env")
                .ok_or("--oauth-client-id needs --oauth-client-secret-env")?;
            let secret = std::env::var(var).map_err(|_| {
                format!(
                    "--oauth-client-secret-env {var}: the environment variable {var} is not set"
                )
            })?;
            Some((id.clone(), secret))
        }
        None => None,
    };
    options.oauth = Some(OAuthOptions {
        issuer: issuer.to_owned(),
        resource: matches.get_one::<String>("oauth-resource").cloned(),
        scopes,
        tool_scopes,
        introspection,
    });
    Ok(())
}

#[cfg(all(feature = "http", not(feature = "oauth")))]
fn oauth_options(
    _options: &mut crate::serve::HttpOptions,
    _issuer: &str,
    _matches: &clap::ArgMatches,
    _strings: impl Fn(&str) -> Vec<String>,
) -> Result<(), String> {
    Err("--oauth-issuer: this binary was built without mcp-bridge's `oauth` feature".to_owned())
}

/// Listens on `addr` with room for a burst of connections: the kernel
/// keeps up to [`BACKLOG`] of them until they are accepted (tokio's default
/// is 1,024; past it, a client's connection may be reset before the server
/// ever sees it).
#[cfg(feature = "http")]
fn listen(addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
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
const BACKLOG: u32 = 4096;

#[cfg(feature = "http")]
async fn serve_http(
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
fn captured_and_logged(server: BridgeServer) -> std::io::Result<BridgeServer> {
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
fn log_filter(setting: Option<&str>) -> tracing_subscriber::filter::Targets {
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
fn log_subscriber(
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

fn init_logging(log: Option<std::fs::File>) {
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

fn fail(error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {error}");
    ExitCode::FAILURE
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use tracing::Level;

    use super::{bridge_command, log_filter, BRIDGE_SUBCOMMANDS};

    /// The word after the bridge's name picks the one subcommand built;
    /// any other word (`help`, an option, a typo) gets them all, and the
    /// list of names is the full command's.
    #[test]
    fn the_bridge_command_builds_the_subcommand_named_or_all_of_them() {
        let names = |only: Option<&str>| -> Vec<String> {
            bridge_command("taskctl", "mcp", only)
                .get_subcommands()
                .map(|sub| sub.get_name().to_owned())
                .collect()
        };
        assert_eq!(names(None), BRIDGE_SUBCOMMANDS);
        for sub in BRIDGE_SUBCOMMANDS {
            assert_eq!(names(Some(sub)), [sub]);
        }
        for other in ["help", "--help", "serv", "-V"] {
            assert_eq!(names(Some(other)), BRIDGE_SUBCOMMANDS, "{other}");
        }
        // The one built parses as in the whole command.
        let matches = bridge_command("taskctl", "mcp", Some("serve"))
            .try_get_matches_from(["mcp", "serve", "--cwd", "/tmp"])
            .unwrap();
        let (sub, serve) = matches.subcommand().unwrap();
        assert_eq!(sub, "serve");
        assert_eq!(
            serve.get_one::<std::path::PathBuf>("cwd"),
            Some(&std::path::PathBuf::from("/tmp"))
        );
    }

    /// Without its feature, `mcp server-json` is still a subcommand
    /// (hidden): what it is given parses, and the route answers it with
    /// the feature it needs (`NO_SERVER_JSON`), not clap's "unrecognized
    /// subcommand". Run by `scripts/deps-minimal.sh` (the default
    /// features); the workspace's tests build with the feature on.
    #[cfg(not(feature = "server-json"))]
    #[test]
    fn without_its_feature_server_json_is_refused_naming_the_feature() {
        let matches = bridge_command("taskctl", "mcp", Some("server-json"))
            .try_get_matches_from(["mcp", "server-json", "--name", "io.github.x/y", "-o", "f"])
            .unwrap();
        assert_eq!(matches.subcommand_name(), Some("server-json"));
        let all = bridge_command("taskctl", "mcp", None);
        let stand_in = all.find_subcommand("server-json").unwrap();
        assert!(stand_in.is_hide_set(), "not offered to the CLI's users");
        for needed in ["`server-json` feature", "--features mcp-bridge/server-json"] {
            assert!(super::NO_SERVER_JSON.contains(needed), "{needed}");
        }
    }

    /// Without the `http` feature, `mcp serve` has `--http` alone of the
    /// HTTP options (the route says which feature it needs); the others
    /// are neither offered in its help nor parsed. With it, all of them.
    #[test]
    fn the_http_options_come_with_the_http_feature() {
        let serve = super::serve_command();
        let has = |id: &str| serve.get_arguments().any(|arg| arg.get_id() == id);
        assert!(has("http") && has("cwd"));
        for id in ["stateless", "token-env", "max-body", "oauth-issuer"] {
            assert_eq!(has(id), cfg!(feature = "http"), "{id}");
        }
        let given = serve.try_get_matches_from(["serve", "--http", "--stateless"]);
        assert_eq!(given.is_ok(), cfg!(feature = "http"));
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
