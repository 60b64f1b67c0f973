//! The rmcp `ServerHandler`: `tools/list` from the cache, `tools/call`
//! routed by exact name to the typed build, then to the user's handler.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Map, Value};

use crate::command::McpCommand;
use crate::io::Io;
use crate::registry::{CallError, Registry};
use crate::spec::{output_schema, ToolSpec};
use crate::tree_check::RegistryError;

/// The user's handler, with its return value already turned into an exit
/// code.
pub(crate) type Handler<C> = Arc<dyn Fn(C, &mut Io<'_>) -> i32 + Send + Sync>;

/// What one tool call produced: the captured output and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOutcome {
    /// What the command wrote to its stdout.
    pub stdout: String,
    /// What the command wrote to its stderr (or the argument error).
    pub stderr: String,
    /// The exit code: 0 for success, 2 for bad arguments (as clap), 101
    /// for a panic.
    pub exit_code: i32,
}

impl CallOutcome {
    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        self.exit_code != 0
    }

    fn into_result(self) -> CallToolResult {
        let text = match (self.stdout.is_empty(), self.stderr.is_empty()) {
            (_, true) => self.stdout.clone(),
            (true, false) => self.stderr.clone(),
            (false, false) => format!(
                "{}\n[stderr]\n{}",
                self.stdout.trim_end_matches('\n'),
                self.stderr
            ),
        };
        let content = vec![ContentBlock::text(text)];
        let mut result = if self.is_error() {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        result.structured_content = Some(json!({
            "stdout": self.stdout,
            "stderr": self.stderr,
            "exitCode": self.exit_code,
        }));
        result
    }
}

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
        R: crate::Report,
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

fn run_handler<C>(handler: &Handler<C>, cli: C) -> CallOutcome {
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let exit_code = {
        let mut io = Io::new(&mut stdout, &mut stderr, true);
        match catch_unwind(AssertUnwindSafe(|| handler(cli, &mut io))) {
            Ok(code) => code,
            Err(panic) => {
                let message = panic_message(&*panic);
                tracing::error!("command panicked: {message}");
                let _ = std::io::Write::write_fmt(
                    io.err(),
                    format_args!("command panicked: {message}\n"),
                );
                101
            }
        }
    };
    CallOutcome {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        exit_code,
    }
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_owned()
    }
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

/// Runs a (possibly slow, blocking) command without starving the runtime:
/// on a multi-threaded runtime other requests keep being served meanwhile.
fn run_blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

/// The MCP methods a client may send to a server.
const STANDARD_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/cancel",
];

fn malformed_request_error(method: &str, params: Option<&Value>) -> ErrorData {
    if !STANDARD_METHODS.contains(&method) {
        return ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("unknown method `{method}`"),
            None,
        );
    }
    let detail = if method == "tools/call" {
        match params {
            None => "params are missing; send {\"name\": <tool>, \"arguments\": {...}}".to_owned(),
            Some(Value::Object(params)) => match (params.get("name"), params.get("arguments")) {
                (None, _) => "params.name is missing: give the tool name as a string".to_owned(),
                (Some(name), _) if !name.is_string() => {
                    format!("params.name must be a string, got {name}")
                }
                (_, Some(arguments)) if !arguments.is_object() => {
                    format!(
                        "params.arguments must be an object of argument values, got {arguments}"
                    )
                }
                _ => "params do not match the tools/call request".to_owned(),
            },
            Some(other) => format!("params must be an object, got {other}"),
        }
    } else {
        "params do not match the request".to_owned()
    };
    ErrorData::invalid_params(format!("{method}: {detail}"), None)
}
