//! The typed side of a server — the CLI's [`Registry`] and the user's
//! handler — behind `dyn Dispatch`.

use serde_json::{Map, Value};

use crate::error::CallError;
use crate::handler::{Handler, Job};
use crate::registry::{Registry, Surface, Table, ToolMode};
use crate::spec::{CommandSpec, ToolSpec};
use crate::traits::McpCommand;

/// The typed side of a server with the CLI's type erased, so that rmcp's
/// service code is compiled once, in this crate, and not again in every
/// binary that uses it. Only what needs the type is here; the rest are
/// methods of `dyn Dispatch`, compiled once too.
pub(super) trait Dispatch: Send + Sync {
    /// The tool table.
    fn table(&self) -> &Table;
    /// Builds the CLI's value for the tool at `index` from `arguments` and
    /// binds the handler to it.
    fn prepare_at(&self, index: usize, arguments: &Map<String, Value>) -> Result<Job, CallError>;
    /// The `--help` text of the command of the tool at `index`, as clap
    /// renders it.
    fn help(&self, index: usize) -> Option<String>;
}

impl dyn Dispatch {
    /// The index of `tool` in the table.
    pub(super) fn position(&self, tool: &str) -> Option<usize> {
        self.table().position(tool)
    }

    /// [`prepare_at`](Dispatch::prepare_at) for the tool named `tool`, with
    /// its index in the table.
    pub(super) fn prepare(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
    ) -> Result<(usize, Job), CallError> {
        let index = self.position(tool).ok_or_else(|| CallError::UnknownTool {
            name: tool.to_owned(),
        })?;
        Ok((index, self.prepare_at(index, arguments)?))
    }

    /// What `tools/list` shows in `mode` (`None`: every tool, flat).
    pub(super) fn surface(&self, mode: &ToolMode) -> Result<Option<Surface>, String> {
        Surface::new(self.table(), mode)
    }

    /// The tool at `index`.
    pub(super) fn spec(&self, index: usize) -> Option<&ToolSpec> {
        self.table().tools().nth(index)
    }

    /// The root command.
    pub(super) fn root(&self) -> &CommandSpec {
        self.table().root()
    }
}

pub(super) struct Typed<C> {
    pub(super) registry: Registry<C>,
    pub(super) handler: Handler<C>,
}

impl<C: McpCommand + Send + 'static> Dispatch for Typed<C> {
    fn table(&self) -> &Table {
        self.registry.table()
    }

    fn prepare_at(&self, index: usize, arguments: &Map<String, Value>) -> Result<Job, CallError> {
        let cli = self.registry.build_at(index, arguments)?;
        Ok(self.handler.bind(cli))
    }

    fn help(&self, index: usize) -> Option<String> {
        let path = &self.table().tools().nth(index)?.path;
        help_of(<C as clap::CommandFactory>::command(), path)
    }
}

/// The typed side of a server whose every call runs in a process of its
/// own: a call's arguments are checked by building the value, which is
/// dropped where it was built; the child builds it again and runs.
pub(super) struct Checked<C> {
    pub(super) registry: Registry<C>,
}

impl<C: McpCommand + 'static> Dispatch for Checked<C> {
    fn table(&self) -> &Table {
        self.registry.table()
    }

    fn prepare_at(&self, index: usize, arguments: &Map<String, Value>) -> Result<Job, CallError> {
        drop(self.registry.build_at(index, arguments)?);
        let tool = self
            .table()
            .tools()
            .nth(index)
            .map(|tool| tool.name.clone());
        Ok(Job::Isolated {
            tool: tool.unwrap_or_default(),
            arguments: arguments.clone(),
        })
    }

    fn help(&self, index: usize) -> Option<String> {
        let path = &self.table().tools().nth(index)?.path;
        help_of(<C as clap::CommandFactory>::command(), path)
    }
}

/// The long help of the command at `path` (the root's name first) of
/// `command`, as clap renders it: built on demand (a resource read), never
/// on a call's path.
fn help_of(mut command: clap::Command, path: &[String]) -> Option<String> {
    command.build();
    let mut at = &mut command;
    for name in path.iter().skip(1) {
        at = at.find_subcommand_mut(name)?;
    }
    Some(at.render_long_help().to_string())
}
