//! [`BridgeServer`] and its rmcp [`ServerHandler`], which hands each
//! request and notification to the part of the server that answers it
//! (the files beside this one, each with its own `impl BridgeServer`).

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CustomRequest, CustomResult, GetTaskParams, GetTaskResult, ListToolsResult,
    PaginatedRequestParams, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::requests::{self, malformed_request_error};
use super::shared::{Session, Shared};

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
    pub(super) shared: Arc<Shared>,
    pub(super) session: Session,
}

impl BridgeServer {
    /// The server as rmcp's `dyn` service, as stdio serves it (rmcp's
    /// HTTP service takes a concrete server). rmcp answers a request in an
    /// async body generic over the server, and rustc copies an async body
    /// (and every body it awaits) into each codegen unit that polls it:
    /// served as itself, the request handling was compiled twice (186 KB
    /// of a 3-command CLI's stripped binary). Behind `dyn`, it is polled
    /// from one place. Costs one allocation per request.
    pub(crate) fn into_service(self) -> Box<dyn rmcp::service::DynService<RoleServer>> {
        rmcp::ServiceExt::into_dyn(self)
    }
}

impl ServerHandler for BridgeServer {
    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        let _ = self.session.peer.set(context.peer.clone());
        self.initialized(context.peer);
    }

    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    // Prompts: the tools with examples (`#[mcp(example = "...")]`, or
    // command lines of their doc comments).
    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, ErrorData> {
        self.prompt_list()
    }

    async fn get_prompt(
        &self,
        request: rmcp::model::GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, ErrorData> {
        self.prompt(request)
    }

    // Resources: each tool's `--help`, as `help://<tool>`, and the files
    // of the skills.
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, ErrorData> {
        self.resource_list()
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, ErrorData> {
        self.resource_templates()
    }

    async fn read_resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, ErrorData> {
        self.resource(request)
    }

    // Skills (SEP-2640): the CLI's skills, their files `skill://` resources.
    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListSkillsResult, ErrorData> {
        Ok(self.shared.skills.list())
    }

    async fn get_skill(
        &self,
        request: rmcp::model::GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetSkillResult, ErrorData> {
        self.shared.skills.get(&request.uri)
    }

    async fn read_resource_directory(
        &self,
        request: rmcp::model::ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ReadResourceDirectoryResult, ErrorData> {
        self.shared.skills.folder(&request.uri)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.listed_tools(&context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.listed_tool(name)
    }

    /// rmcp hands over a standard request whose params do not fit its
    /// type as a "custom" request; answer it as invalid params, not as an
    /// unknown method.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(malformed_request_error(
            &request.method,
            request.params.as_ref(),
            requests::per_request(&context),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.tool_call(request, context).await
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.set_log_level(request, context)
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.reachable_task(&request.task_id, &context)
            .map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.reachable_task(&request.task_id, &context)?;
        self.shared
            .tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.reachable_task(&request.task_id, &context)?;
        self.shared.tasks.cancel_task(&request.task_id)
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        self.cancelled(notification);
    }
}
