//! What the server offers: `tools/list` (every tool, or the grouped and
//! search modes' made tools) and the tools' definitions, a grouped or
//! search call answered from them, the tools with examples as prompts,
//! and each tool's `--help` as a `help://<tool>` resource.

use std::sync::{Arc, RwLock};

use rmcp::model::{CallToolResult, ContentBlock, ListToolsResult, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;

use super::locks::{read, write};
use super::requests;
use super::server::BridgeServer;
use crate::error::RegistryError;
use crate::registry::{Listed, Resolved, Shown, Surface, ToolMode};
use crate::spec::ToolSpec;

impl BridgeServer {
    /// Lists the tools in `mode` instead of one by one (see [`ToolMode`]);
    /// errors when a tool the mode makes has a name already taken, or a
    /// pinned pattern matches no tool.
    pub fn tool_mode(mut self, mode: &ToolMode) -> Result<Self, RegistryError> {
        let surface = self
            .shared
            .typed
            .surface(mode)
            .map_err(RegistryError::ToolMode)?;
        let Some(shared) = Arc::get_mut(&mut self.shared) else {
            return Err(RegistryError::ToolMode(
                "the tool mode is set before the server is shared".to_owned(),
            ));
        };
        let flat = match &mut shared.surface {
            Some((_, flat)) => std::mem::take(&mut *write(flat)),
            None => std::mem::take(&mut write(&shared.listed).tools),
        };
        match surface {
            None => {
                shared.listed = RwLock::new(ListToolsResult::with_all_items(flat));
                shared.surface = None;
            }
            Some(surface) => {
                let tools = surface
                    .shown
                    .iter()
                    .map(|shown| match shown {
                        Shown::Tool(index) => flat[*index].clone(),
                        Shown::Group(group) => made_tool(&group.listed),
                        Shown::Search(listed) | Shown::Call(listed) => made_tool(listed),
                    })
                    .collect();
                shared.listed = RwLock::new(ListToolsResult::with_all_items(tools));
                shared.surface = Some((surface, RwLock::new(flat)));
            }
        }
        Ok(self)
    }

    /// The tool definitions exactly as `tools/list` returns them (with
    /// the values fetched so far, `#[mcp(values = ...)]`).
    pub fn tools(&self) -> Vec<Tool> {
        read(&self.shared.listed).tools.clone()
    }

    /// How many tools `tools/list` returns.
    pub(crate) fn tool_count(&self) -> usize {
        read(&self.shared.listed).tools.len()
    }

    /// Every tool of the table, in order.
    fn specs(&self) -> impl Iterator<Item = &ToolSpec> + '_ {
        let typed = &self.shared.typed;
        (0..).map_while(|index| typed.spec(index))
    }

    /// Logs what became of the doc-comment examples of the tools (once
    /// the log is set up).
    pub(crate) fn log_doc_examples(&self) {
        crate::registry::log_doc_examples(self.specs());
    }

    /// The warnings for the doc-comment examples that were skipped.
    pub(crate) fn doc_example_warnings(&self) -> Vec<String> {
        self.specs()
            .flat_map(|tool| {
                tool.doc_examples
                    .iter()
                    .filter_map(move |example| crate::registry::doc_example_warning(tool, example))
            })
            .collect()
    }

    /// `tools/list`: the tools as listed, the first list with the fetched
    /// values (unless they take too long).
    pub(super) async fn listed_tools(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // The first list has the values, unless they take too long.
        self.first_values().await;
        #[allow(unused_mut)]
        let mut listed = read(&self.shared.listed).clone();
        // An OAuth token sees the tools it may call.
        #[cfg(feature = "oauth")]
        if let Some(access) = super::access::Access::of(context) {
            listed.tools.retain(|tool| access.may_call(&tool.name));
        }
        #[cfg(not(feature = "oauth"))]
        let _ = context;
        Ok(listed)
    }

    /// The tool `name` as listed, or as it is behind the grouped or search
    /// mode's made tools.
    pub(super) fn listed_tool(&self, name: &str) -> Option<Tool> {
        let listed = read(&self.shared.listed);
        if let Some((surface, flat)) = &self.shared.surface {
            let shown = surface.position(name).and_then(|at| listed.tools.get(at));
            return shown
                .cloned()
                .or_else(|| read(flat).get(self.shared.typed.position(name)?).cloned());
        }
        // The cached list is in registry order.
        let index = self.shared.typed.position(name)?;
        listed.tools.get(index).cloned()
    }

    /// Refuses a prompts method when the server declares no prompts (no
    /// tool has an example: `#[mcp(example)]` or a doc-comment command
    /// line), as it refuses any method it does not offer.
    fn offers_prompts(&self, method: &str) -> Result<(), ErrorData> {
        match self.shared.info.capabilities.prompts {
            Some(_) => Ok(()),
            None => Err(requests::undeclared_method(method, "prompts")),
        }
    }

    /// `prompts/list`: the tools with examples (`#[mcp(example = "...")]`,
    /// or command lines of their doc comments).
    pub(super) fn prompt_list(&self) -> Result<rmcp::model::ListPromptsResult, ErrorData> {
        self.offers_prompts("prompts/list")?;
        let typed = &self.shared.typed;
        let prompts = (0..)
            .map_while(|index| typed.spec(index))
            .filter(|spec| !spec.examples.is_empty())
            .map(|spec| {
                rmcp::model::Prompt::new(
                    spec.name.clone(),
                    Some(format!(
                        "Use the tool `{}`, as its examples show",
                        spec.name
                    )),
                    None,
                )
            })
            .collect();
        Ok(rmcp::model::ListPromptsResult::with_all_items(prompts))
    }

    /// `prompts/get`: a tool's prompt, its example calls.
    pub(super) fn prompt(
        &self,
        request: rmcp::model::GetPromptRequestParams,
    ) -> Result<rmcp::model::GetPromptResponse, ErrorData> {
        self.offers_prompts("prompts/get")?;
        let typed = &self.shared.typed;
        let spec = typed
            .position(&request.name)
            .and_then(|index| typed.spec(index))
            .filter(|spec| !spec.examples.is_empty())
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!(
                        "no prompt named `{}`: prompts/list names the tools with examples",
                        request.name
                    ),
                    None,
                )
            })?;
        Ok(
            rmcp::model::GetPromptResult::new(vec![prompt_message(spec)])
                .with_description(format!("Use the tool `{}`", spec.name))
                .into(),
        )
    }

    /// `resources/list`: each tool's `--help`, as `help://<tool>`.
    pub(super) fn resource_list(&self) -> Result<rmcp::model::ListResourcesResult, ErrorData> {
        let typed = &self.shared.typed;
        let resources = (0..)
            .map_while(|index| typed.spec(index))
            .map(|spec| {
                rmcp::model::Resource::new(format!("{HELP_SCHEME}{}", spec.name), spec.name.clone())
                    .with_description(format!("`{} --help`", spec.path.join(" ")))
                    .with_mime_type("text/plain")
            })
            .chain(self.shared.skills.resources())
            .collect();
        Ok(rmcp::model::ListResourcesResult::with_all_items(resources))
    }

    /// `resources/templates/list`: `help://{tool}`.
    pub(super) fn resource_templates(
        &self,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, ErrorData> {
        let template = rmcp::model::ResourceTemplate::new(format!("{HELP_SCHEME}{{tool}}"), "help")
            .with_description("The `--help` text of a tool's command")
            .with_mime_type("text/plain");
        Ok(rmcp::model::ListResourceTemplatesResult::with_all_items(
            vec![template],
        ))
    }

    /// `resources/read`: a tool's `--help`, rendered by clap, or a
    /// skill's file.
    pub(super) fn resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
    ) -> Result<rmcp::model::ReadResourceResponse, ErrorData> {
        if let Some(file) = self.shared.skills.file(&request.uri) {
            return Ok(file.into());
        }
        let typed = &self.shared.typed;
        let text = request
            .uri
            .strip_prefix(HELP_SCHEME)
            .and_then(|name| typed.position(name))
            .and_then(|index| typed.help(index))
            .ok_or_else(|| {
                ErrorData::resource_not_found(
                    format!(
                        "no resource `{}`: the resources are `{HELP_SCHEME}<tool>`, one per tool",
                        request.uri
                    ),
                    None,
                )
            })?;
        Ok(
            rmcp::model::ReadResourceResult::new(vec![rmcp::model::ResourceContents::text(
                text,
                request.uri.clone(),
            )])
            .into(),
        )
    }
}

/// The scheme of the resources: each tool's `--help` (`help://<tool>`).
const HELP_SCHEME: &str = "help://";

/// The message of a tool's prompt: what the tool does and its example
/// calls.
fn prompt_message(spec: &ToolSpec) -> rmcp::model::PromptMessage {
    let summary = spec.description.lines().next().unwrap_or_default();
    let mut text = format!("Use the tool `{}` ({summary}). Calls look like:", spec.name);
    for example in &spec.examples {
        text.push('\n');
        text.push_str(&Value::Object(example.clone()).to_string());
    }
    rmcp::model::PromptMessage::new_text(rmcp::model::Role::User, text)
}

/// The answer of a grouped or search call that runs no tool: a command's
/// definition, the tools a search found, or a refusal (`isError`, the
/// message alone: no command ran).
pub(super) fn surface_answer(
    answered: Resolved<'_>,
    surface: &Surface,
    flat: &[Tool],
) -> CallToolResult {
    let text = match answered {
        Resolved::Help { index, group } => {
            let tool = &flat[index];
            let mut text = format!(
                "{}\n\nCall `{group}` with this `command` and `arguments` that match its input \
                 schema: {}",
                tool.description.as_deref().unwrap_or_default(),
                Value::Object((*tool.input_schema).clone())
            );
            if let Some(schema) = &tool.output_schema {
                text.push_str("\n\nIts structured content matches this output schema: ");
                text.push_str(&Value::Object((**schema).clone()).to_string());
            }
            text
        }
        Resolved::Found { indices, query } if indices.is_empty() => format!(
            "No tool matches `{query}`. The commands are: {}. Search for one of them, or for \
             other words of what you want to do.",
            surface.commands().join(", ")
        ),
        Resolved::Found { indices, .. } => {
            let found: Vec<&Tool> = indices.iter().map(|&index| &flat[index]).collect();
            match serde_json::to_string(&found) {
                Ok(json) => json,
                Err(error) => error.to_string(),
            }
        }
        Resolved::Refused(message) => {
            return CallToolResult::error(vec![ContentBlock::text(message)]);
        }
        Resolved::Tool { .. } => unreachable!("a tool call is run, not answered"),
    };
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// A tool the grouped or search mode makes. It has no `outputSchema`:
/// one such tool answers for commands of several shapes (and with a
/// command's definition, for `help`); a command's own is in its
/// definition.
fn made_tool(listed: &Listed) -> Tool {
    let tool = Tool::new(
        listed.name.clone(),
        listed.description.clone(),
        Arc::new(listed.schema.clone()),
    );
    described(
        tool,
        listed.title.as_ref(),
        listed.icon.as_ref(),
        listed.hints,
    )
}

pub(super) fn rmcp_tool(spec: &ToolSpec) -> Tool {
    let mut tool = Tool::new(
        spec.name.clone(),
        spec.description.clone(),
        Arc::new(spec.input_schema()),
    );
    if let Some(schema) = spec.output_schema() {
        tool.output_schema = Some(Arc::new(schema));
    }
    described(tool, spec.title.as_ref(), spec.icon.as_ref(), spec.hints)
}

/// A tool's title, icon and annotations, where it has them.
fn described(
    mut tool: Tool,
    title: Option<&String>,
    icon: Option<&String>,
    hints: crate::spec::ToolHints,
) -> Tool {
    if let Some(title) = title {
        tool = tool.with_title(title.clone());
    }
    if let Some(src) = icon {
        let mut icon = rmcp::model::Icon::new(src.clone());
        if let Some(mime) = icon_mime_type(src) {
            icon = icon.with_mime_type(mime);
        }
        tool = tool.with_icons(vec![icon]);
    }
    if !hints.is_empty() {
        tool = tool.annotate(rmcp::model::ToolAnnotations::from_raw(
            None,
            hints.read_only,
            hints.destructive,
            hints.idempotent,
            hints.open_world,
        ));
    }
    tool
}

/// The MIME type of an icon: a `data:` URI's own, or the one its URL's
/// extension names; `None` leaves it to the client.
fn icon_mime_type(src: &str) -> Option<&str> {
    if let Some(data) = src.strip_prefix("data:") {
        return data.split([';', ',']).next().filter(|m| !m.is_empty());
    }
    let path = src.split(['?', '#']).next().unwrap_or(src);
    let extension = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match extension.as_str() {
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "gif" => "image/gif",
        _ => return None,
    })
}
