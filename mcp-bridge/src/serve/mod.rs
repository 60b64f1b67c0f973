//! Serving: the rmcp `ServerHandler` — `tools/list` from the cache,
//! `tools/call` routed by exact name to the typed build ([`Registry`]),
//! then to the user's handler ([`run`]) — and the [`transport`] it is
//! served over.

mod requests;
mod run;
pub(crate) mod transport;

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value};

use crate::error::{ArgError, CallError, RegistryError};
use crate::io::Io;
use crate::registry::Registry;
use crate::spec::{output_schema, CommandSpec, ToolSpec};
use crate::traits::McpCommand;

use requests::malformed_request_error;
pub use run::CallOutcome;
pub(crate) use run::Handler;
use run::{run_blocking, run_handler};

/// The typed side of a server with the CLI's type erased, so that rmcp's
/// service code is compiled once, in this crate, and not again in every
/// binary that uses it.
trait Dispatch: Send + Sync {
    /// The index of `tool` in the table.
    fn position(&self, tool: &str) -> Option<usize>;
    /// Builds the CLI's value from `arguments` and runs the handler on it
    /// (through `block_in_place` when `offload`).
    fn call(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
        offload: bool,
    ) -> Result<CallOutcome, CallError>;
}

struct Typed<C> {
    registry: Registry<C>,
    handler: Handler<C>,
}

impl<C: McpCommand + 'static> Dispatch for Typed<C> {
    fn position(&self, tool: &str) -> Option<usize> {
        self.registry.position(tool)
    }

    fn call(
        &self,
        tool: &str,
        arguments: &Map<String, Value>,
        offload: bool,
    ) -> Result<CallOutcome, CallError> {
        let cli = self.registry.build(tool, arguments)?;
        Ok(if offload {
            run_blocking(|| run_handler(&self.handler, cli))
        } else {
            run_handler(&self.handler, cli)
        })
    }
}

struct Shared {
    typed: Box<dyn Dispatch>,
    listed: ListToolsResult,
    info: ServerConfig,
    /// Whether calls run through `block_in_place`.
    offload: bool,
}

/// The MCP server for a CLI: an rmcp [`ServerHandler`].
///
/// Usually made by [`Bridge`](crate::Bridge); build one yourself to serve
/// over a transport of your choosing.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::{BridgeServer, Io, McpTool};
/// use std::io::Write;
///
/// #[derive(Parser, McpTool)]
/// #[command(name = "echo")]
/// struct Echo {
///     /// What to print
///     text: String,
/// }
///
/// let server = BridgeServer::new(|echo: Echo, io: &mut Io| writeln!(io.out(), "{}", echo.text)).unwrap();
/// let args = serde_json::json!({ "text": "hi" });
/// let outcome = server.call("echo", args.as_object().unwrap().clone()).unwrap();
/// assert_eq!(outcome.stdout, "hi\n");
/// ```
#[derive(Clone)]
pub struct BridgeServer {
    shared: Arc<Shared>,
}

impl BridgeServer {
    /// A server for the CLI `C`, running `handler` for every tool call.
    pub fn new<C, R, F>(handler: F) -> Result<Self, RegistryError>
    where
        C: McpCommand + 'static,
        R: crate::io::Report,
        F: Fn(C, &mut Io<'_>) -> R + Send + Sync + 'static,
    {
        let handler: Handler<C> = Arc::new(move |cli, io| handler(cli, io).report(io));
        Ok(Self::from_registry(Registry::<C>::new()?, handler))
    }

    pub(crate) fn from_registry<C: McpCommand + 'static>(
        registry: Registry<C>,
        handler: Handler<C>,
    ) -> Self {
        let output_schema = Arc::new(output_schema());
        let tools = registry
            .tools()
            .map(|spec| rmcp_tool(spec, &output_schema))
            .collect();
        let info = server_info(registry.root());
        Self {
            shared: Arc::new(Shared {
                typed: Box::new(Typed { registry, handler }),
                listed: ListToolsResult::with_all_items(tools),
                info,
                offload: false,
            }),
        }
    }

    /// Runs each call on a thread that may block (`block_in_place`), so a
    /// slow command does not hold up other requests on its worker. Off by
    /// default: a call then runs inline, as a synchronous rmcp tool does,
    /// which is the fastest (see docs/benchmarks.md).
    pub fn offload_calls(mut self, offload: bool) -> Self {
        match Arc::get_mut(&mut self.shared) {
            Some(shared) => shared.offload = offload,
            None => tracing::warn!("offload_calls ignored: the server is already shared"),
        }
        self
    }

    /// The tool definitions exactly as `tools/list` returns them.
    pub fn tools(&self) -> &[Tool] {
        &self.shared.listed.tools
    }

    /// Runs one tool call to completion on the current thread.
    ///
    /// Errors only for an unknown tool; bad arguments become an outcome
    /// with exit code 2 and the message on stderr, as clap would report
    /// them.
    pub fn call(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
    ) -> Result<CallOutcome, CallError> {
        match self.shared.typed.call(tool, &arguments, false) {
            Err(CallError::InvalidArguments(error)) => Ok(invalid_arguments(&error)),
            other => other,
        }
    }
}

fn server_info(root: &CommandSpec) -> ServerConfig {
    let version = root.version.clone().unwrap_or_else(|| "0.0.0".to_owned());
    let mut implementation = Implementation::new(root.name.clone(), version);
    if let Some(about) = &root.about {
        implementation = implementation.with_description(about.clone());
    }
    ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        .with_server_info(implementation)
}

/// Bad arguments, answered as clap would: exit code 2, the message on stderr.
fn invalid_arguments(error: &ArgError) -> CallOutcome {
    CallOutcome {
        stdout: String::new(),
        stderr: error.to_string(),
        exit_code: 2,
    }
}

fn rmcp_tool(spec: &ToolSpec, output_schema: &Arc<Map<String, Value>>) -> Tool {
    Tool::new(
        spec.name.clone(),
        spec.description.clone(),
        Arc::new(spec.input_schema()),
    )
    .with_raw_output_schema(Arc::clone(output_schema))
}

impl ServerHandler for BridgeServer {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(self.shared.listed.clone())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        // The cached list is in registry order.
        let index = self.shared.typed.position(name)?;
        self.shared.listed.tools.get(index).cloned()
    }

    /// rmcp hands over a standard request whose params do not fit its
    /// type as a "custom" request; answer it as invalid params, not as an
    /// unknown method.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(malformed_request_error(
            &request.method,
            request.params.as_ref(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let shared = &self.shared;
        let outcome = match shared.typed.call(&request.name, &arguments, shared.offload) {
            Ok(outcome) => outcome,
            Err(CallError::UnknownTool { name }) => {
                tracing::warn!(tool = %name, "call to an unknown tool");
                return Err(ErrorData::invalid_params(
                    CallError::UnknownTool { name }.to_string(),
                    None,
                ));
            }
            Err(CallError::InvalidArguments(error)) => {
                tracing::debug!(%error, "invalid arguments");
                invalid_arguments(&error)
            }
        };
        Ok(outcome.into_result().into())
    }
}
