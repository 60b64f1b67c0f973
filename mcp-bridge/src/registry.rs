//! The tool table: built once from the command tree, then looked up by
//! exact name on every call.

use std::collections::HashMap;
use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::build::BuildCtx;
use crate::command::McpCommand;
use crate::error::{ArgError, Problem};
use crate::spec::{CommandSpec, ParamSpec, ToolSpec};
use crate::tree_check::RegistryError;

/// A `tools/call` that cannot be turned into a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// No tool has this name.
    #[error("unknown tool `{name}`; call tools/list for the available tools")]
    UnknownTool {
        /// The name asked for.
        name: String,
    },
    /// The arguments do not fit the tool.
    #[error(transparent)]
    InvalidArguments(#[from] ArgError),
}

/// Two commands end up as tools with the same name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tool name `{name}` is used by both `{first}` and `{second}`; rename one with #[mcp(name = \"...\")]")]
pub struct DuplicateTool {
    /// The shared name.
    pub name: String,
    /// The first command path.
    pub first: String,
    /// The second command path.
    pub second: String,
}

struct Entry {
    spec: ToolSpec,
    /// Property names, sorted, for the unknown-property check.
    properties: Vec<String>,
    /// Whether calls must go through the relation check.
    has_rules: bool,
}

/// Every tool of the CLI `C`, with its schema, ready to route calls.
///
/// ```
/// use clap::{Parser, Subcommand};
/// use mcp_bridge::{McpTool, Registry};
///
/// #[derive(Parser, McpTool, Debug)]
/// #[command(name = "app")]
/// struct App {
///     #[command(subcommand)]
///     command: Cmd,
/// }
///
/// #[derive(Subcommand, McpTool, Debug)]
/// enum Cmd {
///     /// Say something
///     Say { text: String },
/// }
///
/// let registry = Registry::<App>::new().unwrap();
/// assert_eq!(registry.tools().next().unwrap().name, "app_say");
/// let args = serde_json::json!({ "text": "--help" });
/// let app = registry.build("app_say", args.as_object().unwrap()).unwrap();
/// let Cmd::Say { text } = app.command;
/// assert_eq!(text, "--help");
/// ```
pub struct Registry<C> {
    root: CommandSpec,
    entries: Vec<Entry>,
    by_name: HashMap<String, usize>,
    cli: PhantomData<fn() -> C>,
}

impl<C> std::fmt::Debug for Registry<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field(
                "tools",
                &self
                    .entries
                    .iter()
                    .map(|e| &e.spec.name)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<C: McpCommand> Registry<C> {
    /// Builds the table from `C`'s command tree.
    pub fn new() -> Result<Self, RegistryError> {
        Self::from_spec(C::command_spec())
    }
}

impl<C> Registry<C> {
    /// Builds the table from an explicit tree (it must be `C`'s).
    pub fn from_spec(mut root: CommandSpec) -> Result<Self, RegistryError> {
        let mut specs = Vec::new();
        collect_tools(&root, &mut Vec::new(), &[], &mut Vec::new(), &mut specs);
        // The tools now hold everything below the root; keeping the tree
        // too would hold the CLI's description twice in memory.
        root.subcommands = Vec::new();
        crate::tree_check::check_tool_names(&specs)?;
        let mut by_name = HashMap::with_capacity(specs.len());
        let mut entries: Vec<Entry> = Vec::with_capacity(specs.len());
        for spec in specs {
            if let Some(&first) = by_name.get(&spec.name) {
                let first: &Entry = &entries[first];
                return Err(DuplicateTool {
                    name: spec.name.clone(),
                    first: first.spec.path.join(" "),
                    second: spec.path.join(" "),
                }
                .into());
            }
            let mut properties: Vec<String> = spec.params.iter().map(|p| p.name.clone()).collect();
            properties.sort();
            by_name.insert(spec.name.clone(), entries.len());
            let has_rules = crate::relations::any_rules(&spec);
            entries.push(Entry {
                spec,
                properties,
                has_rules,
            });
        }
        Ok(Self {
            root,
            entries,
            by_name,
            cli: PhantomData,
        })
    }

    /// The root command: its name, help texts, version and own arguments.
    /// Its subcommands live on as [`tools`](Self::tools); for the whole
    /// tree, call [`McpCommand::command_spec`].
    pub fn root(&self) -> &CommandSpec {
        &self.root
    }

    /// All tools, in the order of the command tree.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &ToolSpec> + '_ {
        self.entries.iter().map(|e| &e.spec)
    }

    /// The tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&ToolSpec> {
        self.position(name).map(|i| &self.entries[i].spec)
    }

    /// Where the tool named `name` stands in [`tools`](Self::tools).
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the CLI exposes no tool at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Checks the property names of a call against the tool's schema.
    fn check_properties(entry: &Entry, args: &Map<String, Value>) -> Result<(), ArgError> {
        for key in args.keys() {
            if entry.properties.binary_search(key).is_err() {
                return Err(ArgError::new(
                    entry.spec.name.clone(),
                    Some(key),
                    Problem::Unknown {
                        suggestion: closest(key, &entry.properties),
                        accepted: entry.spec.params.iter().map(|p| p.name.clone()).collect(),
                    },
                ));
            }
        }
        Ok(())
    }
}

impl<C: McpCommand> Registry<C> {
    /// Turns a call's arguments into the CLI's typed value, as if the user
    /// had typed the command; no argv is built and clap does not run.
    pub fn build(&self, tool: &str, args: &Map<String, Value>) -> Result<C, CallError> {
        let &index = self
            .by_name
            .get(tool)
            .ok_or_else(|| CallError::UnknownTool {
                name: tool.to_owned(),
            })?;
        let entry = &self.entries[index];
        Self::check_properties(entry, args)?;
        if entry.has_rules {
            crate::relations::check(&entry.spec, args)?;
        }
        let mut ctx = BuildCtx::new(&entry.spec.name, args, &entry.spec.route);
        Ok(C::mcp_build(&mut ctx)?)
    }
}

/// The accepted name closest to a misspelt one, if it is close enough to
/// be a likely typo.
fn closest(given: &str, accepted: &[String]) -> Option<String> {
    accepted
        .iter()
        .map(|name| (strsim::jaro(given, name), name))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.clone())
}

fn collect_tools(
    node: &CommandSpec,
    path: &mut Vec<String>,
    inherited: &[ParamSpec],
    route: &mut Vec<u32>,
    out: &mut Vec<ToolSpec>,
) {
    if node.hidden || node.mcp.skip {
        return;
    }
    path.push(node.name.clone());
    let route_len = route.len();
    route.extend_from_slice(&node.selector);

    if node.is_runnable() {
        let mut params: Vec<ParamSpec> =
            node.params.iter().filter(|p| !p.hidden).cloned().collect();
        for global in inherited {
            if !params.iter().any(|p| p.name == global.name) {
                params.push(global.clone());
            }
        }
        let name = node.mcp.name.clone().unwrap_or_else(|| path.join("_"));
        let mut tool = ToolSpec {
            name,
            path: path.clone(),
            description: describe(node, path),
            params,
            groups: node.groups.clone(),
            route: route.clone(),
        };
        let rules = crate::relations::describe_rules(&tool);
        if !rules.is_empty() {
            tool.description.push_str("\n\nRules: ");
            tool.description.push_str(&rules.join("; "));
            tool.description.push('.');
        }
        out.push(tool);
    }

    if !node.subcommands.is_empty() {
        let mut globals = inherited.to_vec();
        for param in node.params.iter().filter(|p| p.global && !p.hidden) {
            globals.retain(|g| g.name != param.name);
            globals.push(param.clone());
        }
        for sub in &node.subcommands {
            collect_tools(sub, path, &globals, route, out);
        }
    }

    route.truncate(route_len);
    path.pop();
}

fn describe(node: &CommandSpec, path: &[String]) -> String {
    let context = path.join(" ");
    let text = node
        .mcp
        .description
        .as_ref()
        .or(node.long_about.as_ref())
        .or(node.about.as_ref());
    match text {
        Some(text) if !text.is_empty() => format!("{context}: {text}"),
        _ => context,
    }
}
