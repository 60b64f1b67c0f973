// The hand-written rmcp server shared by `bin/narrow_rmcp.rs`,
// `bin/wide_rmcp.rs` and `bin/wide_cli_rmcp.rs` (included by each, which
// then lists its tools with `tools!` and calls `serve` from its `main`).
// Plain comments: this file is `include!`d, so it cannot carry inner doc
// comments.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// Runs one tool: arguments in, result out.
type Call = fn(JsonObject) -> CallToolResult;

/// Parses the arguments into the tool's type, runs it and wraps its
/// output; bad arguments are a tool error the caller can read.
fn invoke<A: DeserializeOwned>(arguments: JsonObject, run: fn(A, &mut String)) -> CallToolResult {
    let args = match serde_json::from_value::<A>(serde_json::Value::Object(arguments)) {
        Ok(args) => args,
        Err(error) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "invalid arguments: {error}"
            ))])
        }
    };
    let mut stdout = String::new();
    run(args, &mut stdout);
    // The same answer as mcp-bridge's: the output once, as text.
    CallToolResult::success(vec![ContentBlock::text(stdout)])
}

fn schema<T: JsonSchema>() -> Arc<JsonObject> {
    match serde_json::to_value(schemars::schema_for!(T)) {
        Ok(serde_json::Value::Object(map)) => Arc::new(map),
        _ => unreachable!("a schema is an object"),
    }
}

/// One module per tool: its argument type and what it does.
macro_rules! tools {
    ($prefix:literal: $($name:ident)*) => {
        $(
            mod $name {
                use super::*;

                /// Greet someone, a number of times
                #[derive(Deserialize, JsonSchema)]
                #[serde(deny_unknown_fields)]
                pub(crate) struct Args {
                    /// Who to greet
                    name: String,
                    /// How many times
                    #[serde(default = "one")]
                    count: u32,
                }

                fn one() -> u32 {
                    1
                }

                pub(crate) fn run(args: Args, out: &mut String) {
                    let name = stringify!($name);
                    let _ = writeln!(out, "{name}: hello {} x{}", args.name, args.count);
                }
            }
        )*

        /// Every tool with the function that runs it.
        fn tools() -> Vec<(Tool, Call)> {
            vec![$(
                (
                    Tool::new(
                        concat!($prefix, stringify!($name)),
                        "Greet someone, a number of times",
                        schema::<$name::Args>(),
                    ),
                    (|arguments| invoke(arguments, $name::run)) as Call,
                ),
            )*]
        }
    };
}

struct Server {
    listed: ListToolsResult,
    calls: HashMap<String, Call>,
}

impl Server {
    fn new() -> Self {
        let (tools, calls): (Vec<Tool>, Vec<Call>) = tools().into_iter().unzip();
        let calls = tools
            .iter()
            .map(|t| t.name.to_string())
            .zip(calls)
            .collect();
        Server {
            listed: ListToolsResult::with_all_items(tools),
            calls,
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new(env!("CARGO_BIN_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(self.listed.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(call) = self.calls.get(&*request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`", request.name),
                None,
            ));
        };
        Ok(call(request.arguments.unwrap_or_default()).into())
    }
}

/// Serves over stdio: `rmcp::transport::stdio()`, as rmcp's README shows,
/// or `stdio_pipes()` (non-blocking pipes on Linux) with `--pipes`.
async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::new();
    let running = if std::env::args().any(|a| a == "--pipes") {
        server.serve(rmcp::transport::stdio_pipes()).await?
    } else {
        server.serve(rmcp::transport::stdio()).await?
    };
    running.waiting().await?;
    Ok(())
}
