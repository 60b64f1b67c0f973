//! The tool table: built once from the command tree, then looked up by
//! exact name on every call.
//!
//! [`rules`] says what is exposed and how it is named; [`flatten`] applies
//! the rules to the tree the derive describes; [`tree`] applies the same
//! rules at compile time, to the constant nodes the derive emits.

mod examples;
mod flatten;
pub(crate) mod rules;
mod surface;
#[doc(hidden)]
pub(crate) mod tree;

use std::collections::HashMap;
use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::error::{CallError, DuplicateTool, InvalidToolName, RegistryError};
use crate::spec::relations::any_rules;
use crate::spec::{CommandSpec, DocOutcome, ToolSpec};
use crate::traits::McpCommand;

pub(crate) use examples::{log as log_doc_examples, warning as doc_example_warning};
pub use surface::ToolMode;
pub(crate) use surface::{Listed, Resolved, Shown, Surface};

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
    table: Table,
    cli: PhantomData<fn() -> C>,
}

/// The tool table without the CLI's type: everything but building the
/// typed value. Kept apart from [`Registry`] so that its code is compiled
/// once, in this crate, and not again for every CLI type.
pub(crate) struct Table {
    root: CommandSpec,
    outline: flatten::Outline,
    entries: Vec<Entry>,
    by_name: HashMap<String, usize>,
}

/// Builds (and drops) the typed value for the tool at an index of a
/// [`Table`]: how the untyped code checks a call against the CLI's type.
pub(crate) type Builds<'a> =
    &'a dyn Fn(&Table, usize, &Map<String, Value>) -> Result<(), CallError>;

impl<C> std::fmt::Debug for Registry<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field(
                "tools",
                &self
                    .table
                    .entries
                    .iter()
                    .map(|e| &e.spec.name)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<C: McpCommand> Registry<C> {
    /// Builds the table from `C`'s command tree. Each
    /// `#[mcp(example = "...")]` must be a call its tool accepts. The
    /// command lines of the doc comments' example sections become examples
    /// too when their tools accept them; those that cannot are skipped and
    /// logged as warnings (see [`ToolSpec::doc_examples`]).
    pub fn new() -> Result<Self, RegistryError> {
        let mut table = Table::from_spec(C::command_spec())?;
        table.check_examples(&Self::builds)?;
        table.check_doc_examples(&Self::builds);
        examples::log(table.tools());
        Ok(Self::from_table(table))
    }

    /// [`Builds`] for `C`.
    pub(crate) fn builds(
        table: &Table,
        index: usize,
        args: &Map<String, Value>,
    ) -> Result<(), CallError> {
        Self::build_in(table, index, args).map(drop)
    }

    fn build_in(table: &Table, index: usize, args: &Map<String, Value>) -> Result<C, CallError> {
        let mut built = None;
        table.with_ctx(index, args, &mut |ctx| {
            built = Some(C::mcp_build(ctx)?);
            Ok(())
        })?;
        Ok(built.expect("built when the build did not fail"))
    }
}

impl Table {
    /// Builds every `#[mcp(example)]` call with its tool: one the tool
    /// refuses is an error (the CLI's author wrote it for the model, so
    /// it must work).
    pub(crate) fn check_examples(&self, builds: Builds<'_>) -> Result<(), RegistryError> {
        for (index, entry) in self.entries.iter().enumerate() {
            for example in &entry.spec.examples {
                if let Err(error) = builds(self, index, example) {
                    return Err(RegistryError::Example {
                        command: entry.spec.path.join(" "),
                        example: Value::Object(example.clone()).to_string(),
                        problem: format!("its tool refuses it: {error}"),
                    });
                }
            }
        }
        Ok(())
    }

    /// Builds each doc-comment example each tool has not built yet: one its
    /// tool accepts joins its examples (and, when the description does not
    /// show the doc comment, its description as `Example: {...}`); one it
    /// refuses is skipped.
    pub(crate) fn check_doc_examples(&mut self, builds: Builds<'_>) {
        let mut built = Vec::new();
        for (index, entry) in self.entries.iter().enumerate() {
            for (at, example) in entry.spec.doc_examples.iter().enumerate() {
                if let DocOutcome::Converted(arguments) = &example.outcome {
                    let outcome = match builds(self, index, arguments) {
                        Ok(()) => DocOutcome::Accepted(arguments.clone()),
                        Err(error) => DocOutcome::Skipped(format!("its tool refuses it: {error}")),
                    };
                    built.push((index, at, outcome));
                }
            }
        }
        for (index, at, outcome) in built {
            let spec = &mut self.entries[index].spec;
            if let DocOutcome::Accepted(arguments) = &outcome {
                if !spec.examples.contains(arguments) {
                    if !spec.doc_in_description {
                        let shown = flatten::described_examples(&spec.examples);
                        flatten::describe_example(&mut spec.description, shown, arguments);
                    }
                    spec.examples.push(arguments.clone());
                }
            }
            spec.doc_examples[at].outcome = outcome;
        }
    }

    /// Runs `build` on the context of a call to the tool at `index`, the
    /// operator's fixed values joined to the call's.
    pub(crate) fn with_ctx(
        &self,
        index: usize,
        args: &Map<String, Value>,
        build: &mut dyn FnMut(&mut crate::call::BuildCtx<'_>) -> Result<(), crate::error::ArgError>,
    ) -> Result<(), CallError> {
        let entry = &self.entries[index];
        if entry.spec.pinned.is_empty() {
            let mut ctx =
                crate::call::prepare(&entry.spec, &entry.properties, entry.has_rules, args)?;
            return Ok(build(&mut ctx)?);
        }
        // The operator's values join the call's (which may not give them).
        crate::call::refuse_pinned(&entry.spec, args)?;
        let mut merged = args.clone();
        for pinned in &entry.spec.pinned {
            merged.insert(pinned.name.clone(), pinned.value.clone());
        }
        // `properties` still holds the pinned names: the merged call has them.
        let mut ctx =
            crate::call::prepare(&entry.spec, &entry.properties, entry.has_rules, &merged)?;
        Ok(build(&mut ctx)?)
    }
}

impl<C> Registry<C> {
    /// Builds the table from an explicit tree (it must be `C`'s).
    pub fn from_spec(root: CommandSpec) -> Result<Self, RegistryError> {
        Table::from_spec(root).map(Self::from_table)
    }

    pub(crate) fn from_table(table: Table) -> Self {
        Self {
            table,
            cli: PhantomData,
        }
    }

    /// The table, without the CLI's type.
    pub(crate) fn table(&self) -> &Table {
        &self.table
    }

    /// The root command: its name, help texts, version and own arguments.
    /// Its subcommands live on as [`tools`](Self::tools); for the whole
    /// tree, call [`McpCommand::command_spec`].
    pub fn root(&self) -> &CommandSpec {
        self.table.root()
    }

    /// All tools, in the order of the command tree.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &ToolSpec> + '_ {
        self.table.tools()
    }

    /// The tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&ToolSpec> {
        self.table.tool(name)
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the CLI exposes no tool at all.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

impl Table {
    /// Builds the table from a command tree.
    pub(crate) fn from_spec(mut root: CommandSpec) -> Result<Self, RegistryError> {
        let (specs, outline) = flatten::tools_and_outline(&root)?;
        // The tools now hold everything below the root; keeping the tree
        // too would hold the CLI's description twice in memory.
        root.subcommands = Vec::new();
        check_tool_names(
            &specs,
            rules::name_budget(root.mcp.max_name_len.unwrap_or(0)),
        )?;
        check_property_names(&specs)?;
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
            // Fixed values (`#[mcp(args(...))]`) join every call, so the
            // check of a call's property names knows them too.
            let mut properties: Vec<String> = spec
                .params
                .iter()
                .map(|p| p.name.clone())
                .chain(spec.pinned.iter().map(|p| p.name.clone()))
                .collect();
            properties.sort();
            by_name.insert(spec.name.clone(), entries.len());
            let has_rules = any_rules(&spec);
            entries.push(Entry {
                spec,
                properties,
                has_rules,
            });
        }
        Ok(Self {
            root,
            outline,
            entries,
            by_name,
        })
    }

    /// Fixes arguments of the root command for every call, as the server's
    /// operator gave them (`taskctl --db tasks.json mcp serve`): `values`
    /// holds, by clap id, the JSON a call would give. They leave every
    /// tool's schema, and a call giving one is refused.
    pub(crate) fn pin(&mut self, values: &[(String, Value, String)]) -> Result<(), String> {
        for (id, value, given_as) in values {
            let Some(root_param) = self.root.params.iter().find(|p| &p.id == id) else {
                return Err(format!(
                    "`{given_as}` is not an argument of the root command"
                ));
            };
            for entry in &mut self.entries {
                let spec = &mut entry.spec;
                // The root is level 0; a nearer argument of its name renamed it.
                let name = spec
                    .renamed
                    .iter()
                    .find(|r| r.depth == 0 && r.from == root_param.name)
                    .map_or(root_param.name.as_str(), |r| r.to.as_str())
                    .to_owned();
                let Some(at) = spec
                    .params
                    .iter()
                    .position(|p| p.name == name && p.id == *id)
                else {
                    continue;
                };
                spec.params.remove(at);
                spec.pinned.push(crate::spec::Pinned {
                    name: name.clone(),
                    id: id.clone(),
                    value: value.clone(),
                    given_as: given_as.clone(),
                    by_cli: false,
                });
            }
        }
        Ok(())
    }

    /// Keeps only the tools `keep` accepts (`--include`/`--exclude`).
    pub(crate) fn retain(&mut self, keep: &dyn Fn(&ToolSpec) -> bool) {
        self.entries.retain(|entry| keep(&entry.spec));
        self.by_name = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, entry)| (entry.spec.name.clone(), i))
            .collect();
    }

    /// The root command: its name, help texts, version and own arguments.
    /// Its subcommands live on as [`tools`](Self::tools); for the whole
    /// tree, call [`McpCommand::command_spec`].
    pub(crate) fn root(&self) -> &CommandSpec {
        &self.root
    }

    /// All tools, in the order of the command tree.
    pub(crate) fn tools(&self) -> impl ExactSizeIterator<Item = &ToolSpec> + '_ {
        self.entries.iter().map(|e| &e.spec)
    }

    /// The tool named `name`.
    pub(crate) fn tool(&self, name: &str) -> Option<&ToolSpec> {
        self.position(name).map(|i| &self.entries[i].spec)
    }

    /// Where the tool named `name` stands in [`tools`](Self::tools).
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The number of tools.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the CLI exposes no tool at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<C: McpCommand> Registry<C> {
    /// Turns a call's arguments into the CLI's typed value, as if the user
    /// had typed the command; no argv is built and clap does not run.
    pub fn build(&self, tool: &str, args: &Map<String, Value>) -> Result<C, CallError> {
        let index = self
            .table
            .position(tool)
            .ok_or_else(|| CallError::UnknownTool {
                name: tool.to_owned(),
            })?;
        self.build_at(index, args)
    }

    /// [`build`](Self::build) for the tool at `index` in the table.
    pub(crate) fn build_at(&self, index: usize, args: &Map<String, Value>) -> Result<C, CallError> {
        Self::build_in(&self.table, index, args)
    }
}

/// Checks every tool name against the MCP rule.
fn check_tool_names(tools: &[ToolSpec], max: usize) -> Result<(), InvalidToolName> {
    match tools
        .iter()
        .find(|tool| !rules::is_valid_tool_name(&tool.name) || tool.name.len() > max)
    {
        Some(tool) => Err(InvalidToolName {
            name: tool.name.clone(),
            path: tool.path.join(" "),
            max,
        }),
        None => Ok(()),
    }
}

/// Checks that no tool offers two properties of one name.
fn check_property_names(tools: &[ToolSpec]) -> Result<(), RegistryError> {
    for tool in tools {
        let mut names: Vec<&str> = tool.params.iter().map(|p| p.name.as_str()).collect();
        names.sort_unstable();
        if let Some(pair) = names.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(RegistryError::DuplicateProperty {
                tool: tool.name.clone(),
                name: pair[0].to_owned(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ancestors_argument_is_renamed_and_a_taken_name_refused() {
        use crate::spec::{ParamSpec, ValueType};
        let config = || ParamSpec::flag("config", Some("config"), None, ValueType::string());
        let mut root = CommandSpec::new("app");
        root.params.push(config());
        let mut run = CommandSpec::new("run");
        run.selector = vec![0];
        run.params.push(config());
        root.subcommands.push(run.clone());
        let registry = Registry::<()>::from_spec(root.clone()).unwrap();
        let tool = registry.tool("app_run").unwrap();
        let names: Vec<&str> = tool.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["config", "app-config"]);
        assert_eq!(tool.renamed[0].depth, 0);

        run.params.push(ParamSpec::flag(
            "app_config",
            Some("app-config"),
            None,
            ValueType::string(),
        ));
        root.subcommands[0] = run;
        assert_eq!(
            Registry::<()>::from_spec(root).unwrap_err(),
            RegistryError::DuplicateProperty {
                tool: "app_run".into(),
                name: "app-config".into(),
            }
        );
    }

    #[test]
    fn the_registry_maps_command_names_and_refuses_invalid_given_names() {
        // A command name no tool name allows: mapped byte by byte.
        let mut root = CommandSpec::new("app");
        root.subcommands.push(CommandSpec::new("my cmd"));
        root.subcommands.push(CommandSpec::new("c++"));
        assert_eq!(names(root)[1..], ["app_my_cmd", "app_c__"]);
        // A given one is never changed: refused.
        let mut given = CommandSpec::new("app");
        given.mcp.name = Some("my app".into());
        assert_eq!(
            Registry::<()>::from_spec(given).unwrap_err(),
            RegistryError::InvalidToolName(InvalidToolName {
                name: "my app".into(),
                path: "app".into(),
                max: 64,
            })
        );
        // A given name is never changed: past the budget it is refused.
        let mut given = CommandSpec::new("app");
        given.mcp.name = Some("x".repeat(65));
        assert!(Registry::<()>::from_spec(given.clone()).is_err());
        given.mcp.max_name_len = Some(65);
        assert!(Registry::<()>::from_spec(given).is_ok());
    }

    #[test]
    fn fixed_values_leave_the_schema_and_must_fit_their_property() {
        use crate::spec::{ParamSpec, ValueType};
        let tool = |fixed: (&str, Value)| {
            let mut root = CommandSpec::new("app");
            root.params.push(ParamSpec::flag(
                "json",
                Some("json"),
                None,
                ValueType::Boolean,
            ));
            root.params.push(ParamSpec::flag(
                "depth",
                Some("depth"),
                None,
                ValueType::integer(0, 9),
            ));
            root.mcp.fixed = vec![(fixed.0.to_owned(), fixed.1)];
            Registry::<()>::from_spec(root)
        };
        let registry = tool(("json", Value::Bool(true))).unwrap();
        let spec = registry.tool("app").unwrap();
        assert!(spec.param("json").is_none());
        assert_eq!(spec.pinned[0].name, "json");
        assert!(spec.pinned[0].by_cli);
        let error = tool(("json", Value::from("yes"))).unwrap_err().to_string();
        assert!(
            error.starts_with("`#[mcp(args(json = ...))]` on the command `app`: `\"yes\"` is no value of the property"),
            "{error}"
        );
        assert!(tool(("depth", Value::from(1.5))).is_err());
        assert!(tool(("depth", Value::from(3))).is_ok());
        let error = tool(("colour", Value::from("x"))).unwrap_err().to_string();
        assert!(
            error.ends_with("its tool has no property of that name"),
            "{error}"
        );
    }

    #[test]
    fn a_long_name_beyond_ascii_is_mapped_before_it_is_cut() {
        let mut root = CommandSpec::new("é".repeat(40));
        root.subcommand_required = true;
        root.subcommands.push(CommandSpec::new("sub"));
        let name = &names(root)[0];
        // 80 `_` and `_sub`, cut: the separators it would start with go.
        assert!(name.len() <= 64 && name.starts_with("sub_"), "{name}");
        assert!(crate::registry::rules::is_valid_tool_name(name), "{name}");
        // A budget out of range is held to 16..=128.
        let mut tiny = tree("application");
        tiny.mcp.max_name_len = Some(3);
        assert_eq!(names(tiny)[0].len(), 16);
    }

    fn names(root: CommandSpec) -> Vec<String> {
        let registry = Registry::<()>::from_spec(root).unwrap();
        registry.tools().map(|tool| tool.name.clone()).collect()
    }

    fn tree(root: &str) -> CommandSpec {
        let mut root = CommandSpec::new(root);
        let mut task = CommandSpec::new("task");
        task.subcommands.push(CommandSpec::new("add"));
        task.subcommand_required = true;
        root.subcommands.push(task);
        root.subcommand_required = true;
        root
    }

    #[test]
    fn names_made_from_paths_follow_the_roots_prefix_and_budget() {
        assert_eq!(names(tree("app")), ["app_task_add"]);
        let mut short = tree("app");
        short.mcp.prefix = Some("tc".into());
        assert_eq!(names(short), ["tc_task_add"]);
        let mut none = tree("app");
        none.mcp.prefix = Some(String::new());
        assert_eq!(names(none), ["task_add"]);
        // A runnable root with an empty prefix keeps its own name.
        let mut runnable = tree("app");
        runnable.mcp.prefix = Some(String::new());
        runnable.subcommand_required = false;
        assert_eq!(names(runnable), ["app", "task_add"]);
        // Past the budget: the end of the path and a hash.
        let long = "a-very-long-root-command-name-indeed".repeat(2);
        let served = names(tree(&long));
        assert_eq!(served[0].len(), 64);
        assert!(served[0].contains("indeed_task_add_"), "{}", served[0]);
        assert!(
            served[0].starts_with("ame-indeeda-very-long"),
            "{}",
            served[0]
        );
        let mut budget = tree(&long);
        budget.mcp.max_name_len = Some(128);
        assert_eq!(names(budget), [format!("{long}_task_add")]);
    }
}
