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

use crate::error::{CallError, RegistryError};
use crate::io::Io;
use crate::registry::Registry;
use crate::spec::{output_schema, ToolSpec};
use crate::traits::McpCommand;

use requests::malformed_request_error;
pub use run::CallOutcome;
pub(crate) use run::Handler;
use run::{run_blocking, run_handler};

struct Shared<C> {
    registry: Registry<C>,
    listed: ListToolsResult,
    handler: Handler<C>,
    info: ServerConfig,
    /// Whether calls run through `block_in_place`.
    offload: bool,
}

/// The MCP server for the CLI `C`: an rmcp [`ServerHandler`].
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
pub struct BridgeServer<C> {
    shared: Arc<Shared<C>>,
}

impl<C> Clone for BridgeServer<C> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<C: McpCommand + 'static> BridgeServer<C> {
    /// A server running `handler` for every tool call.
    pub fn new<R, F>(handler: F) -> Result<Self, RegistryError>
    where
        R: crate::io::Report,
        F: Fn(C, &mut Io<'_>) -> R + Send + Sync + 'static,
    {
        Self::with_handler(Arc::new(move |cli, io| handler(cli, io).report(io)))
    }

    pub(crate) fn with_handler(handler: Handler<C>) -> Result<Self, RegistryError> {
        Self::from_registry(Registry::<C>::new()?, handler)
    }

    pub(crate) fn from_registry(
        registry: Registry<C>,
        handler: Handler<C>,
    ) -> Result<Self, RegistryError> {
        let output_schema = Arc::new(output_schema());
        let tools = registry
            .tools()
            .map(|spec| rmcp_tool(spec, &output_schema))
            .collect();
        let root = registry.root();
        let version = root.version.clone().unwrap_or_else(|| "0.0.0".to_owned());
        let mut implementation = Implementation::new(root.name.clone(), version);
        if let Some(about) = &root.about {
            implementation = implementation.with_description(about.clone());
        }
        let info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation);
        Ok(Self {
            shared: Arc::new(Shared {
                registry,
                listed: ListToolsResult::with_all_items(tools),
                handler,
                info,
                offload: false,
            }),
        })
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

    /// The tool table.
    pub fn registry(&self) -> &Registry<C> {
        &self.shared.registry
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
        match self.shared.registry.build(tool, &arguments) {
            Ok(cli) => Ok(run_handler(&self.shared.handler, cli)),
            Err(CallError::InvalidArguments(error)) => Ok(CallOutcome {
                stdout: String::new(),
                stderr: error.to_string(),
                exit_code: 2,
            }),
            Err(unknown) => Err(unknown),
        }
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

impl<C: McpCommand + Send + 'static> ServerHandler for BridgeServer<C> {
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
        let index = self.shared.registry.position(name)?;
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
        let cli = match shared.registry.build(&request.name, &arguments) {
            Ok(cli) => cli,
            Err(CallError::UnknownTool { name }) => {
                tracing::warn!(tool = %name, "call to an unknown tool");
                return Err(ErrorData::invalid_params(
                    CallError::UnknownTool { name }.to_string(),
                    None,
                ));
            }
            Err(CallError::InvalidArguments(error)) => {
                tracing::debug!(%error, "invalid arguments");
                let outcome = CallOutcome {
                    stdout: String::new(),
                    stderr: error.to_string(),
                    exit_code: 2,
                };
                return Ok(outcome.into_result().into());
            }
        };
        let outcome = if shared.offload {
            run_blocking(|| run_handler(&shared.handler, cli))
        } else {
            run_handler(&shared.handler, cli)
        };
        Ok(outcome.into_result().into())
    }
}
