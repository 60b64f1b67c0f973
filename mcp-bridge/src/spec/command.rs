//! Commands and tools: the tree the derive fills once, and the flat tools
//! the registry makes of it.

use serde::Serialize;

use super::{ParamData, ParamSpec, ValueType};

/// One command of the CLI as clap would build it: its name, help texts,
/// arguments and subcommands.
///
/// ```
/// use mcp_bridge::spec::CommandSpec;
/// let root = CommandSpec::new("taskctl");
/// assert_eq!(root.name, "taskctl");
/// assert!(root.subcommands.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandSpec {
    /// The name clap gives the command (`#[command(name)]`, or the variant
    /// name cased by `rename_all`).
    pub name: String,
    /// Short help (`about`), as clap derives it from the doc comment.
    pub about: Option<String>,
    /// Long help (`long_about`), as clap derives it from the doc comment.
    pub long_about: Option<String>,
    /// `#[command(hide = true)]`: not listed, not exposed.
    pub hidden: bool,
    /// Other names clap accepts for the command (`alias`,
    /// `visible_aliases`...); a tool has one name.
    #[serde(skip)]
    pub aliases: Vec<String>,
    /// Arguments declared on this command (globals of ancestors excluded).
    pub params: Vec<ParamSpec>,
    /// Subcommands in declaration order.
    pub subcommands: Vec<CommandSpec>,
    /// Whether a subcommand must be given; a parent whose subcommand is
    /// optional is itself runnable.
    pub subcommand_required: bool,
    /// `#[command(args_conflicts_with_subcommands = true)]`: this
    /// command's own arguments (not its globals) cannot be given with a
    /// subcommand, so its subcommands' tools do not offer them.
    #[serde(skip)]
    pub args_conflict_with_subcommands: bool,
    /// `#[command(subcommand_negates_reqs = true)]`: this command's
    /// required arguments are not required once a subcommand is given, so
    /// its subcommands' tools offer them as optional.
    #[serde(skip)]
    pub subcommand_negates_reqs: bool,
    /// Version string shown by `--version`, when the command has one.
    pub version: Option<String>,
    /// `#[mcp(...)]` refinements.
    pub mcp: McpAttrs,
    /// Argument groups of this command.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupSpec>,
    /// How the typed build reaches this command from its parent: the
    /// variant indices each enum on the way consumes.
    #[serde(skip)]
    pub(crate) selector: Vec<u32>,
    /// `#[command(external_subcommand)]`: stands for the commands the
    /// parent does not define (plugins), given by name (property
    /// `command`) with their arguments (`args`); clap has no command of
    /// this node's name.
    #[serde(skip)]
    pub external: bool,
}

/// The property naming the command of an external subcommand's tool.
pub(crate) const EXTERNAL_COMMAND: &str = "command";
/// The property holding the arguments of an external subcommand's tool.
pub(crate) const EXTERNAL_ARGS: &str = "args";

/// Refinements given with `#[mcp(...)]` on a command.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct McpAttrs {
    /// `#[mcp(name = "...")]`: the tool name, replacing the joined path.
    pub name: Option<String>,
    /// `#[mcp(description = "...")]`: replaces the derived description.
    pub description: Option<String>,
    /// `#[mcp(skip)]`: the command (and everything below it) is not exposed.
    pub skip: bool,
    /// `#[mcp(serial)]`: never runs at the same time as a call of another
    /// serial command (or of itself).
    pub serial: bool,
    /// `#[mcp(timeout = "30s")]`: the longest a call may run.
    #[serde(skip)]
    pub timeout: Option<std::time::Duration>,
    /// `#[mcp(isolate)]`: calls run in a child process.
    pub isolate: bool,
    /// `#[mcp(task)]`: long-running; a client that supports the MCP Tasks
    /// extension gets a task to poll (when: [`TaskSupport`]).
    ///
    /// Changed in 0.1: a `bool` before `task = "required"` and
    /// `task = "deferred"` (`true` is `Some(TaskSupport::Optional)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskSupport>,
    /// `#[mcp(title = "...")]`: the tool's human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `#[mcp(icon = "https://...")]`: the icon of this command's tools
    /// and of those below it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// `#[mcp(read_only)]`, `#[mcp(destructive)]`...: what the tool does to
    /// its environment, as MCP's tool annotations say it.
    #[serde(skip_serializing_if = "ToolHints::is_empty")]
    pub hints: ToolHints,
    /// `#[mcp(prefix = "...")]` (root only): what starts the tool names
    /// made from paths, in place of the root's name (`""`: nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// `#[mcp(max_name_len = N)]` (root only): the longest tool name; a
    /// longer name made from a path is shortened (64 when not set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_name_len: Option<usize>,
    /// `#[mcp(output = "...")]`: what the command prints, parsed into the
    /// result's structured content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputFormat>,
    /// `#[mcp(output = Type)]`: the value the command's handler returns
    /// ([`Output`](crate::Output)), whose schema is the tool's
    /// `outputSchema`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<OutputType>,
    /// `#[mcp(args(name = value, ...))]`: values fixed for every call of
    /// the command's tool, by property name; the properties leave its
    /// schema.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixed: Vec<(String, serde_json::Value)>,
    /// `#[mcp(example = "{...}")]`: calls of the command's tool, each its
    /// arguments as JSON text.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
}

/// Which calls of a command are tasks of the MCP Tasks extension
/// (`#[mcp(task)]`): answered at once with a task the client polls with
/// `tasks/get` for the result (and answers the command's questions
/// through, with `tasks/update`) and may stop with `tasks/cancel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TaskSupport {
    /// `#[mcp(task)]`: a task from its start when the client supports the
    /// Tasks extension; an ordinary call otherwise.
    Optional,
    /// `#[mcp(task = "required")]`: always a task; a client that does not
    /// support the Tasks extension is refused with MCP's missing client
    /// capability error (`-32021`), naming the extension.
    Required,
    /// `#[mcp(task = "deferred")]`: an ordinary call (its questions asked
    /// the ordinary way) until its handler calls
    /// [`Io::start_task`](crate::Io::start_task) — a handler that prints
    /// with `println!` calls [`start_task`](crate::start_task) from its
    /// own thread, an `async` one
    /// [`start_task_async`](crate::start_task_async) —; a task from there
    /// when the client supports the Tasks extension and speaks protocol
    /// 2026-07-28 or later. A call in a child process cannot become a
    /// task: `#[mcp(isolate)]` with it is refused at compile time, and
    /// under [`Bridge::isolate_calls`](crate::Bridge::isolate_calls) the
    /// functions return `false`.
    Deferred,
}

/// What a command prints, parsed into a call's `structuredContent` by
/// `#[mcp(output = "...")]` (the text is sent as printed, too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum OutputFormat {
    /// One JSON document.
    Json,
    /// One YAML document.
    Yaml,
    /// A table: a header row, then one row per line, columns apart by
    /// two or more spaces or by a tab.
    Table,
    /// One item per non-empty line.
    Lines,
}

/// The type a command's handler returns as data, `#[mcp(output = Type)]`:
/// its name, its identity (to check the value a call returns) and its
/// JSON Schema.
#[derive(Clone, Copy)]
pub struct OutputType {
    name: fn() -> &'static str,
    id: fn() -> std::any::TypeId,
    schema: fn() -> serde_json::Map<String, serde_json::Value>,
}

impl OutputType {
    /// The output type `T`; what generated code writes.
    #[doc(hidden)]
    pub const fn of<T: serde::Serialize + schemars::JsonSchema + 'static>() -> Self {
        Self {
            name: std::any::type_name::<T>,
            id: std::any::TypeId::of::<T>,
            schema: super::schema::type_schema::<T>,
        }
    }

    /// The type's name, as Rust writes it (`taskctl::TaskList`).
    pub fn name(&self) -> &'static str {
        (self.name)()
    }

    /// Whether a value of the type with this identity is of this type.
    pub(crate) fn is(&self, id: std::any::TypeId) -> bool {
        (self.id)() == id
    }

    /// The type's JSON Schema, as `schemars` derives it (draft 2020-12,
    /// subschemas inlined).
    pub fn schema(&self) -> serde_json::Map<String, serde_json::Value> {
        (self.schema)()
    }
}

impl std::fmt::Debug for OutputType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("OutputType").field(&self.name()).finish()
    }
}

impl PartialEq for OutputType {
    fn eq(&self, other: &Self) -> bool {
        (self.id)() == (other.id)()
    }
}

impl Eq for OutputType {}

impl Serialize for OutputType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A value `#[mcp(args(...))]` fixes, as the derive writes it.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FixedValue {
    Str(&'static str),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl FixedValue {
    /// The JSON a call would give for it.
    pub(crate) fn to_json(self) -> serde_json::Value {
        match self {
            FixedValue::Str(text) => text.into(),
            FixedValue::Int(n) => n.into(),
            FixedValue::Float(x) => x.into(),
            FixedValue::Bool(b) => b.into(),
        }
    }
}

/// What a tool does to its environment: MCP's tool annotations
/// (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`),
/// from `#[mcp(read_only)]`, `#[mcp(destructive)]`, `#[mcp(idempotent)]`
/// and `#[mcp(open_world)]` (each a flag, or `= true` / `= false`).
///
/// `None` sends nothing, and a client assumes MCP's defaults: the tool may
/// change and destroy things, is not idempotent, and reaches beyond the
/// machine — the safe reading of a command nobody described.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolHints {
    /// Changes nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// May destroy or overwrite (meaningful when not read-only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// A second identical call changes nothing more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// Reaches an open world (the network, other people's systems).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl ToolHints {
    /// No hint.
    pub const NONE: Self = Self {
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// No hint given.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The hints of one tool that runs any of the tools with `all` hints
    /// (a grouped tool, `call_tool`): what holds for every one of them, and
    /// the unsafe reading wherever one of them gives it or says nothing —
    /// read-only only if all are, not destructive only if none is (a
    /// read-only tool destroys nothing), idempotent only if all are, closed
    /// only if all are. A hint that would only repeat MCP's default is left
    /// out.
    pub fn for_any_of<'a>(all: impl IntoIterator<Item = &'a ToolHints>) -> Self {
        let mut read_only = true;
        let mut never_destroys = true;
        let mut idempotent = true;
        let mut closed = true;
        let mut any = false;
        for hints in all {
            any = true;
            let reads_only = hints.read_only == Some(true);
            read_only &= reads_only;
            never_destroys &= reads_only || hints.destructive == Some(false);
            idempotent &= reads_only || hints.idempotent == Some(true);
            closed &= hints.open_world == Some(false);
        }
        if !any {
            return Self::NONE;
        }
        Self {
            read_only: read_only.then_some(true),
            destructive: (!read_only && never_destroys).then_some(false),
            idempotent: (!read_only && idempotent).then_some(true),
            open_world: closed.then_some(false),
        }
    }

    /// `other`'s hints where it gives them, ours elsewhere.
    fn overridden_by(self, other: Self) -> Self {
        Self {
            read_only: other.read_only.or(self.read_only),
            destructive: other.destructive.or(self.destructive),
            idempotent: other.idempotent.or(self.idempotent),
            open_world: other.open_world.or(self.open_world),
        }
    }
}

impl CommandSpec {
    /// An empty command named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            about: None,
            long_about: None,
            hidden: false,
            aliases: Vec::new(),
            params: Vec::new(),
            subcommands: Vec::new(),
            subcommand_required: false,
            args_conflict_with_subcommands: false,
            subcommand_negates_reqs: false,
            version: None,
            mcp: McpAttrs::default(),
            groups: Vec::new(),
            selector: Vec::new(),
            external: false,
        }
    }

    /// Makes this node the parent's external subcommand
    /// (`#[command(external_subcommand)]`): a tool taking the name of a
    /// command the CLI does not define and its arguments, which clap hands
    /// the variant as `[name, args...]`.
    pub fn make_external(&mut self) {
        self.external = true;
        if self.about.is_none() {
            self.about = Some(
                "Runs a command this CLI does not define itself (an external subcommand, \
                 such as a plugin), with its arguments"
                    .to_owned(),
            );
        }
        self.params.push(
            ParamSpec::positional(EXTERNAL_COMMAND, ValueType::string())
                .required(true)
                .description(Some("The command's name")),
        );
        self.params.push(
            ParamSpec::positional(EXTERNAL_ARGS, ValueType::string())
                .multiple(None)
                .description(Some("Its arguments, each a word of its command line")),
        );
    }

    /// Adds the command `name`, the variant `index` of the enum that
    /// declares it, as the last subcommand, and returns it to be described.
    ///
    /// What the derive calls for each variant: one call, not inlined, in
    /// place of a command built in the caller and moved in (the code of
    /// every CLI's crate, compiled for each of its commands).
    #[doc(hidden)]
    #[inline(never)]
    pub fn push_subcommand(&mut self, name: &str, index: u32) -> &mut CommandSpec {
        let mut sub = CommandSpec::new(name);
        sub.route_step(index);
        self.subcommands.push(sub);
        self.subcommands.last_mut().expect("just pushed")
    }

    /// Adds an argument built from its static data and what is known only
    /// at run time (see [`ParamSpec::from_data`]): one call per argument in
    /// the derive's code.
    #[doc(hidden)]
    #[inline(never)]
    pub fn push_param(
        &mut self,
        data: &ParamData,
        value_type: ValueType,
        description: Option<&str>,
        computed_defaults: Option<Vec<std::borrow::Cow<'static, str>>>,
        delimiter: Option<char>,
    ) {
        self.params.push(ParamSpec::from_data(
            data,
            value_type,
            description,
            computed_defaults,
            delimiter,
        ));
    }

    /// Adds a step to the route from the parent: this command is the
    /// variant `index` of the enum that declares it.
    #[doc(hidden)]
    pub fn route_step(&mut self, index: u32) {
        self.selector.push(index);
    }

    /// Puts a step in front of the route from the parent: the command was
    /// declared by an enum flattened into the variant `index`.
    #[doc(hidden)]
    pub fn route_prefix(&mut self, index: u32) {
        self.selector.insert(0, index);
    }

    /// Declares a group (`#[group(...)]`, `#[command(group(...))]`): its
    /// settings replace those of a group of that id made by an argument
    /// joining it (a flattened struct's, which clap's build merges into the
    /// declared one); its members join.
    #[doc(hidden)]
    pub fn declare_group(&mut self, group: GroupSpec) {
        match self
            .groups
            .iter_mut()
            .find(|g| g.id == group.id && g.implicit)
        {
            Some(made) => {
                let mut members = std::mem::take(&mut made.members);
                for member in group.members.iter().rev() {
                    if !members.contains(member) {
                        members.insert(0, member.clone());
                    }
                }
                *made = GroupSpec { members, ..group };
            }
            None => self.groups.push(group),
        }
    }

    /// Adds arguments to group `id`, creating it with clap's defaults (not
    /// required, at most one member) when no declaration made it.
    #[doc(hidden)]
    pub fn add_to_group(&mut self, id: &str, members: &[&str]) {
        let group = match self.groups.iter_mut().position(|g| g.id == id) {
            Some(index) => &mut self.groups[index],
            None => {
                let mut made = GroupSpec::new(id, &[], false, false, &[], &[]);
                made.implicit = true;
                self.groups.push(made);
                self.groups.last_mut().expect("just pushed")
            }
        };
        for member in members {
            if !group.members.iter().any(|m| m == member) {
                group.members.push((*member).to_owned());
            }
        }
    }

    /// Applies one layer of command attributes, the way clap applies builder
    /// calls in order: a later layer overrides what it sets.
    #[doc(hidden)]
    pub fn apply(&mut self, layer: &CommandLayer) {
        if let Some(about) = &layer.about {
            self.about = about.map(str::to_owned);
        }
        if let Some(long_about) = &layer.long_about {
            self.long_about = long_about.map(str::to_owned);
        }
        if let Some(hide) = layer.hide {
            self.hidden = hide;
        }
        if let Some(version) = layer.version {
            self.version = Some(version.to_owned());
        }
        if let Some(required) = layer.subcommand_required {
            self.subcommand_required = required;
        }
        if let Some(conflict) = layer.args_conflicts_with_subcommands {
            self.args_conflict_with_subcommands = conflict;
        }
        if let Some(negates) = layer.subcommand_negates_reqs {
            self.subcommand_negates_reqs = negates;
        }
        self.aliases
            .extend(layer.aliases.iter().map(|alias| (*alias).to_owned()));
        if let Some(name) = layer.mcp_name {
            self.mcp.name = Some(name.to_owned());
        }
        if let Some(description) = layer.mcp_description {
            self.mcp.description = Some(description.to_owned());
        }
        if layer.mcp_skip {
            self.mcp.skip = true;
        }
        if layer.mcp_serial {
            self.mcp.serial = true;
        }
        if let Some(timeout) = layer.mcp_timeout {
            self.mcp.timeout = Some(timeout);
        }
        if layer.mcp_isolate {
            self.mcp.isolate = true;
        }
        if let Some(task) = layer.mcp_task {
            self.mcp.task = Some(task);
        }
        if let Some(title) = layer.mcp_title {
            self.mcp.title = Some(title.to_owned());
        }
        if let Some(prefix) = layer.mcp_prefix {
            self.mcp.prefix = Some(prefix.to_owned());
        }
        if let Some(max) = layer.mcp_max_name_len {
            self.mcp.max_name_len = Some(max);
        }
        if let Some(output) = layer.mcp_output {
            self.mcp.output = Some(output);
        }
        if let Some(returns) = layer.mcp_returns {
            self.mcp.returns = Some(returns);
        }
        if !layer.mcp_examples.is_empty() {
            self.mcp.examples = layer.mcp_examples.iter().map(|e| (*e).to_owned()).collect();
        }
        if !layer.mcp_fixed.is_empty() {
            self.mcp.fixed = layer
                .mcp_fixed
                .iter()
                .map(|(name, value)| ((*name).to_owned(), value.to_json()))
                .collect();
        }
        if let Some(icon) = layer.mcp_icon {
            self.mcp.icon = Some(icon.to_owned());
        }
        self.mcp.hints = self.mcp.hints.overridden_by(layer.mcp_hints);
    }
}

/// The attributes of one struct, enum or variant, applied to a command in
/// the order clap applies them.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct CommandLayer {
    pub about: Option<Option<&'static str>>,
    pub long_about: Option<Option<&'static str>>,
    pub hide: Option<bool>,
    pub version: Option<&'static str>,
    pub aliases: &'static [&'static str],
    pub subcommand_required: Option<bool>,
    pub args_conflicts_with_subcommands: Option<bool>,
    pub subcommand_negates_reqs: Option<bool>,
    pub mcp_name: Option<&'static str>,
    pub mcp_description: Option<&'static str>,
    pub mcp_skip: bool,
    pub mcp_serial: bool,
    pub mcp_timeout: Option<std::time::Duration>,
    pub mcp_isolate: bool,
    /// `#[mcp(task)]`, `task = "..."`. Changed in 0.1: a `bool` before the
    /// modes (`true` is `Some(TaskSupport::Optional)`).
    pub mcp_task: Option<TaskSupport>,
    pub mcp_title: Option<&'static str>,
    pub mcp_icon: Option<&'static str>,
    pub mcp_prefix: Option<&'static str>,
    pub mcp_max_name_len: Option<usize>,
    pub mcp_output: Option<OutputFormat>,
    pub mcp_returns: Option<OutputType>,
    pub mcp_fixed: &'static [(&'static str, FixedValue)],
    pub mcp_examples: &'static [&'static str],
    pub mcp_hints: ToolHints,
}

impl CommandLayer {
    /// No attribute: what generated code completes its literals with.
    pub const NONE: Self = Self {
        about: None,
        long_about: None,
        hide: None,
        version: None,
        aliases: &[],
        subcommand_required: None,
        args_conflicts_with_subcommands: None,
        subcommand_negates_reqs: None,
        mcp_name: None,
        mcp_description: None,
        mcp_skip: false,
        mcp_serial: false,
        mcp_timeout: None,
        mcp_isolate: false,
        mcp_task: None,
        mcp_title: None,
        mcp_icon: None,
        mcp_prefix: None,
        mcp_max_name_len: None,
        mcp_output: None,
        mcp_returns: None,
        mcp_fixed: &[],
        mcp_examples: &[],
        mcp_hints: ToolHints::NONE,
    };
}

/// An argument group (`#[group(...)]`, `#[arg(group = "...")]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupSpec {
    /// The group's id.
    pub id: String,
    /// Ids of its member arguments.
    pub members: Vec<String>,
    /// At least one member must be given.
    pub required: bool,
    /// More than one member may be given.
    pub multiple: bool,
    /// Ids the group conflicts with.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts_with: Vec<String>,
    /// Ids the group requires.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
    /// Made by an argument joining it (`#[arg(group = "x")]`) with clap's
    /// defaults, not declared: a declaration of the id decides its
    /// settings, wherever it comes.
    #[serde(skip)]
    pub implicit: bool,
}

impl GroupSpec {
    /// A group as declared.
    pub fn new(
        id: &str,
        members: &[&str],
        required: bool,
        multiple: bool,
        conflicts_with: &[&str],
        requires: &[&str],
    ) -> Self {
        let owned = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect();
        Self {
            id: id.to_owned(),
            members: owned(members),
            required,
            multiple,
            conflicts_with: owned(conflicts_with),
            requires: owned(requires),
            implicit: false,
        }
    }
}

/// A runnable command exposed as an MCP tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSpec {
    /// The tool name (`taskctl_task_add`).
    pub name: String,
    /// The command path, root first (`["taskctl", "task", "add"]`).
    pub path: Vec<String>,
    /// The description: the command path, then its help text.
    pub description: String,
    /// Every property: local arguments, then globals of ancestors.
    pub params: Vec<ParamSpec>,
    /// Argument groups of the command.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupSpec>,
    /// `#[mcp(serial)]`: calls never overlap another serial command's.
    #[serde(skip)]
    pub serial: bool,
    /// `#[mcp(timeout = "...")]`: the longest a call may run.
    #[serde(skip)]
    pub timeout: Option<std::time::Duration>,
    /// `#[mcp(isolate)]`: calls run in a child process.
    #[serde(skip)]
    pub isolate: bool,
    /// `#[mcp(task)]`: a call may become a task (MCP Tasks extension),
    /// and when.
    ///
    /// Changed in 0.1: a `bool` before `task = "required"` and
    /// `task = "deferred"` (`true` is `Some(TaskSupport::Optional)`).
    #[serde(skip)]
    pub task: Option<TaskSupport>,
    /// `#[mcp(title = "...")]`: the tool's human-readable title.
    pub title: Option<String>,
    /// `#[mcp(icon = "...")]` of the command or its nearest ancestor
    /// that has one.
    pub icon: Option<String>,
    /// `#[mcp(read_only)]`...: MCP's tool annotations.
    pub hints: ToolHints,
    /// `#[mcp(output = "...")]`: what the command prints, parsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputFormat>,
    /// `#[mcp(output = Type)]`: the value the handler returns, which the
    /// tool's `outputSchema` describes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<OutputType>,
    /// Example calls' arguments: `#[mcp(example = "...")]`, then the
    /// command lines of the command's doc comment that the tool accepts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<serde_json::Map<String, serde_json::Value>>,
    /// The command lines of the command's doc comment (`$ taskctl task add
    /// ...` under `Examples:`), each with what became of it.
    #[serde(skip)]
    pub doc_examples: Vec<DocExample>,
    /// Whether the description shows the doc comment (no
    /// `#[mcp(description)]`): its command lines are then not repeated as
    /// JSON.
    #[serde(skip)]
    pub(crate) doc_in_description: bool,
    /// The variant indices the typed build follows to reach this command.
    #[serde(skip)]
    pub(crate) route: Vec<u32>,
    /// Arguments of ancestors offered under another name, because a
    /// command nearer the tool declares one of the same name.
    #[serde(skip)]
    pub(crate) renamed: Vec<Renamed>,
    /// Hidden arguments of the command and its ancestors: not offered, but
    /// a `from_global` field still reads a hidden global's default.
    #[serde(skip)]
    pub(crate) unoffered: Vec<ParamSpec>,
    /// Arguments the server's operator fixed for every call (given to
    /// `mcp serve`): not offered; their values join every call's.
    #[serde(skip)]
    pub(crate) pinned: Vec<Pinned>,
    /// An external subcommand's tool ([`CommandSpec::external`]): the
    /// names of the parent's own commands (and clap's `help`), which a
    /// command line would give to those, so a call may not name them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external: Option<Vec<String>>,
}

/// A command line from a command's doc comment: a line starting with
/// `$ ` in a paragraph headed `Example:`, `Examples:` or `# Examples`.
#[derive(Debug, Clone, PartialEq)]
pub struct DocExample {
    /// The command line as written, after `$ `.
    pub line: String,
    /// Its words, split as a shell splits them (the binary's name first);
    /// empty when its quotes do not close.
    pub words: Vec<String>,
    /// What became of it.
    pub outcome: DocOutcome,
}

/// What became of a [`DocExample`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DocOutcome {
    /// Turned into the tool's arguments, not built yet: the table was made
    /// without the CLI's type ([`Registry::from_spec`](crate::Registry::from_spec)).
    Converted(serde_json::Map<String, serde_json::Value>),
    /// Built by the tool: one of its [`examples`](ToolSpec::examples).
    Accepted(serde_json::Map<String, serde_json::Value>),
    /// A line for another command (why, logged at debug level).
    OtherCommand(String),
    /// Skipped, with a warning in the log: why.
    Skipped(String),
}

/// An argument fixed by the server's operator.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pinned {
    /// The property it would have been.
    pub(crate) name: String,
    /// The argument's clap id.
    pub(crate) id: String,
    /// Its value, as a call would give it.
    pub(crate) value: serde_json::Value,
    /// How the operator gave it (`--db`), for errors.
    pub(crate) given_as: String,
    /// Fixed by the CLI itself (`#[mcp(args(...))]`), not by the operator.
    pub(crate) by_cli: bool,
}

/// An ancestor's argument offered under another property name.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Renamed {
    /// The level of the command that declares it (route steps from the
    /// root): the build reads it while at that level.
    pub(crate) depth: u32,
    /// The name it has on its own command.
    pub(crate) from: String,
    /// The name the tool offers it under: `<command>-<name>`.
    pub(crate) to: String,
}

impl ToolSpec {
    /// The parameter a property name refers to.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The arguments fixed for every call, which the schema leaves out:
    /// by the operator (`taskctl --db x mcp serve`) or by
    /// `#[mcp(args(...))]`; each property name with the value a call would
    /// give.
    pub fn fixed(&self) -> impl Iterator<Item = (&str, &serde_json::Value)> + '_ {
        self.pinned.iter().map(|p| (p.name.as_str(), &p.value))
    }
}

#[cfg(test)]
mod tests {
    use super::ToolHints;

    fn hints(read_only: Option<bool>, destructive: Option<bool>) -> ToolHints {
        ToolHints {
            read_only,
            destructive,
            ..ToolHints::NONE
        }
    }

    #[test]
    fn a_tool_running_any_of_several_says_what_holds_for_all() {
        let reading = ToolHints {
            read_only: Some(true),
            open_world: Some(false),
            ..ToolHints::NONE
        };
        assert_eq!(ToolHints::for_any_of([&reading, &reading]), reading);
        // Not read-only once one writes; idempotent and harmless only if
        // every writer says so (a reader counts as both).
        let safe_writer = ToolHints {
            destructive: Some(false),
            idempotent: Some(true),
            open_world: Some(false),
            ..ToolHints::NONE
        };
        assert_eq!(ToolHints::for_any_of([&reading, &safe_writer]), safe_writer);
        // One command that says nothing leaves MCP's defaults.
        assert_eq!(
            ToolHints::for_any_of([&safe_writer, &ToolHints::NONE]),
            ToolHints::NONE
        );
        let destroys = hints(Some(false), Some(true));
        assert_eq!(
            ToolHints::for_any_of([&reading, &destroys]),
            ToolHints::NONE
        );
        assert_eq!(ToolHints::for_any_of([]), ToolHints::NONE);
    }
}
