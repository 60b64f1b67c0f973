//! What the bridge's untyped code holds and asks: a bridge's [`Settings`]
//! (all of it but the CLI's type), and [`CliType`], the questions it asks
//! of the CLI's type. What only they need is compiled once in this crate,
//! not again for every CLI type.

use std::time::Duration;

use crate::registry::{Builds, Registry, Table, ToolMode};
use crate::serve::isolate::Reply;
use crate::serve::{BridgeServer, Limits, Skill};
use crate::spec::CommandSpec;
use crate::traits::McpCommand;

/// A bridge's settings: all of it but the CLI's type. What only they need
/// is a method of theirs, compiled once in this crate and not again for
/// every CLI type; the typed side answers through [`CliType`].
pub(super) struct Settings {
    pub(super) command_name: String,
    pub(super) limits: Limits,
    pub(super) grace: Duration,
    pub(super) isolate: bool,
    pub(super) task_ttl: Duration,
    pub(super) hide_command: bool,
    pub(super) tool_mode: ToolMode,
    /// The CLI's own changes to its `Command` (`Bridge::command`).
    pub(super) customise: Option<Customise>,
    /// The skills offered (`Bridge::skill`).
    pub(super) skills: Vec<Skill>,
}

impl Settings {
    /// A bridge's settings before the builder changes any.
    pub(super) fn new() -> Self {
        Self {
            command_name: "mcp".to_owned(),
            limits: Limits::default(),
            grace: Duration::from_secs(10),
            isolate: false,
            task_ttl: crate::serve::DEFAULT_TASK_TTL,
            hide_command: false,
            tool_mode: ToolMode::Flat,
            customise: None,
            skills: Vec::new(),
        }
    }
}

/// What the bridge's untyped code asks of the CLI's type.
pub(super) trait CliType: Sync {
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

/// The CLI's type, and how a server of its tool table runs calls: all an
/// implementor writes; [`CliType`] follows from it.
pub(super) trait TypedCli: Sync {
    type Cli: McpCommand + 'static;
    /// The server of `table`.
    fn server(&self, table: Table) -> BridgeServer;
}

impl<T: TypedCli> CliType for T {
    fn command(&self) -> clap::Command {
        <T::Cli as clap::CommandFactory>::command()
    }

    fn command_spec(&self) -> CommandSpec {
        T::Cli::command_spec()
    }

    #[cfg(feature = "server-json")]
    fn package(&self) -> crate::traits::Package {
        T::Cli::package()
    }

    fn builds(&self) -> Builds<'static> {
        &Registry::<T::Cli>::builds
    }

    fn server(&self, table: Table) -> BridgeServer {
        TypedCli::server(self, table)
    }
}

/// In a child started for one isolated call: the value built from the
/// tool's name and JSON arguments (never from argv), with the way back
/// to the server. A call the child cannot build ends the process (exit
/// 2), saying why.
pub(super) fn isolated_value<C: McpCommand>() -> Option<(C, Reply)> {
    let call = crate::serve::isolate::isolated_call()?;
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
        Ok(built) => Some(built),
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    }
}

/// The CLI's own changes to its `clap::Command` (`Bridge::command`).
pub(super) type Customise = Box<dyn Fn(clap::Command) -> clap::Command + Send + Sync>;
