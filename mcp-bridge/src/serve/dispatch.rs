//! The typed side of a server — the CLI's [`Registry`] and the user's
//! handler — behind `dyn Dispatch`.

use serde_json::{Map, Value};

use crate::error::CallError;
use crate::handler::{Handler, Job};
use crate::registry::{Registry, Surface, ToolMode};
use crate::spec::{CommandSpec, ToolSpec};
use crate::traits::McpCommand;

/// The typed side of a server with the CLI's type erased, so that rmcp's
/// service code is compiled once, in this crate, and not again in every
/// binary that uses it.
pub(super) trait Dispatch: Send + Sync {
    /// The index of `tool` in the table.
    fn position(&self, tool: &str) -> Option<usize>;
    /// Builds the CLI's value from `arguments` and binds the handler to it;
    /// with the tool's index in the table.
    fn prepare(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
    ) -> Result<(usize, Job), CallError>;
    /// [`prepare`](Dispatch::prepare) for the tool at `index`.
    fn prepare_at(&self, index: usize, arguments: &Map<String, Value>) -> Result<Job, CallError>;
    /// What `tools/list` shows in `mode` (`None`: every tool, flat).
    fn surface(&self, mode: &ToolMode) -> Result<Option<Surface>, String>;
    /// The tool at `index`.
    fn spec(&self, index: usize) -> Option<&ToolSpec>;
    /// The root command.
    fn root(&self) -> &CommandSpec;
    /// The `--help` text of the command of the tool at `index`, as clap
    /// renders it.
    fn help(&self, index: usize) -> Option<String>;
}

pub(super) struct Typed<C> {
    pub(super) registry: Registry<C>,
    pub(super) handler: Handler<C>,
}

impl<C: McpCommand + Send + 'static> Dispatch for Typed<C> {
    fn position(&self, tool: &str) -> Option<usize> {
        self.registry.position(tool)
    }

    fn prepare(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
    ) -> Result<(usize, Job), CallError> {
        let index = self
            .registry
            .position(tool)
            .ok_or_else(|| CallError::UnknownTool {
                name: tool.to_owned(),
            })?;
        Ok((index, self.prepare_at(index, arguments)?))
    }

    fn prepare_at(&self, index: usize, arguments: &Map<String, Value>) -> Result<Job, CallError> {
        let cli = self.registry.build_at(index, arguments)?;
        Ok(self.handler.bind(cli))
    }

    fn surface(&self, mode: &ToolMode) -> Result<Option<Surface>, String> {
        Surface::new(&self.registry, mode)
    }

    fn spec(&self, index: usize) -> Option<&ToolSpec> {
        self.registry.tools().nth(index)
    }

    fn root(&self) -> &CommandSpec {
        self.registry.root()
    }

    fn help(&self, index: usize) -> Option<String> {
        let tool = self.spec(index)?;
        // clap's own rendering: built on demand (a resource read), never
        // on a call's path.
        let mut command = <C as clap::CommandFactory>::command();
        command.build();
        let mut at = &mut command;
        for name in tool.path.iter().skip(1) {
            at = at.find_subcommand_mut(name)?;
        }
        Some(at.render_long_help().to_string())
    }
}
