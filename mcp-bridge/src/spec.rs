//! Static descriptions of commands, tools and their parameters.
//!
//! The derive emits code that fills a [`CommandSpec`] tree once; the
//! [`Registry`](crate::Registry) flattens it into [`ToolSpec`]s. Nothing here
//! calls into clap: these specs are what `tools/list` is answered from.

use serde::Serialize;
use serde_json::{json, Map, Value};

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
    /// Arguments declared on this command (globals of ancestors excluded).
    pub params: Vec<ParamSpec>,
    /// Subcommands in declaration order.
    pub subcommands: Vec<CommandSpec>,
    /// Whether a subcommand must be given; a parent whose subcommand is
    /// optional is itself runnable.
    pub subcommand_required: bool,
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
    pub selector: Vec<u32>,
}

/// Refinements given with `#[mcp(...)]` on a command.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct McpAttrs {
    /// `#[mcp(name = "...")]`: the tool name, replacing the joined path.
    pub name: Option<String>,
    /// `#[mcp(description = "...")]`: replaces the derived description.
    pub description: Option<String>,
    /// `#[mcp(skip)]`: the command (and everything below it) is not exposed.
    pub skip: bool,
}

impl CommandSpec {
    /// An empty command named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            about: None,
            long_about: None,
            hidden: false,
            params: Vec::new(),
            subcommands: Vec::new(),
            subcommand_required: false,
            version: None,
            mcp: McpAttrs::default(),
            groups: Vec::new(),
            selector: Vec::new(),
        }
    }

    /// Adds arguments to group `id`, creating it with clap's defaults (not
    /// required, at most one member) when no declaration made it.
    #[doc(hidden)]
    pub fn add_to_group(&mut self, id: &str, members: &[&str]) {
        let group = match self.groups.iter_mut().position(|g| g.id == id) {
            Some(index) => &mut self.groups[index],
            None => {
                self.groups
                    .push(GroupSpec::new(id, &[], false, false, &[], &[]));
                self.groups.last_mut().expect("just pushed")
            }
        };
        for member in members {
            if !group.members.iter().any(|m| m == member) {
                group.members.push((*member).to_owned());
            }
        }
    }

    /// Is this command a tool on its own (a leaf, or a parent whose
    /// subcommand is optional)?
    pub fn is_runnable(&self) -> bool {
        self.subcommands.is_empty() || !self.subcommand_required
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
        if let Some(name) = layer.mcp_name {
            self.mcp.name = Some(name.to_owned());
        }
        if let Some(description) = layer.mcp_description {
            self.mcp.description = Some(description.to_owned());
        }
        if layer.mcp_skip {
            self.mcp.skip = true;
        }
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
    pub mcp_name: Option<&'static str>,
    pub mcp_description: Option<&'static str>,
    pub mcp_skip: bool,
}

/// Whether a parameter is a flag (`--long` / `-s`) or a positional argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ParamKind {
    /// A flag or option, given as `--long` (or `-s`) on the command line.
    Flag {
        /// The long name without dashes, if any.
        long: Option<String>,
        /// The short name, if any.
        short: Option<char>,
    },
    /// A positional argument.
    Positional,
}

/// The JSON type of one value of a parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum ValueType {
    /// A JSON string, optionally constrained.
    String(StringFacets),
    /// A JSON integer with optional inclusive bounds.
    Integer {
        /// Smallest accepted value.
        minimum: Option<i128>,
        /// Largest accepted value.
        maximum: Option<i128>,
    },
    /// A JSON number.
    Number,
    /// A JSON boolean.
    Boolean,
    /// One of a fixed set of strings, as clap names them.
    Enum {
        /// The accepted values.
        values: Vec<String>,
    },
    /// A JSON object whose values are all of one type (key=value maps).
    Map {
        /// The type of each value.
        values: Box<ValueType>,
    },
}

/// Constraints on a string value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StringFacets {
    /// JSON Schema `format` (`ipv4`, `ipv6`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    /// A regular expression the value must match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<&'static str>,
    /// Minimum length in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u32>,
    /// Maximum length in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u32>,
    /// Example values shown to the client.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub examples: &'static [&'static str],
    /// Alternatives (`anyOf`), e.g. IPv4 or IPv6.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub any_format: &'static [&'static str],
}

impl ValueType {
    /// A plain, unconstrained string.
    pub const fn string() -> Self {
        ValueType::String(StringFacets {
            format: None,
            pattern: None,
            min_length: None,
            max_length: None,
            examples: &[],
            any_format: &[],
        })
    }

    /// The name of the JSON type (`"string"`, `"integer"`, ...).
    pub fn json_type(&self) -> &'static str {
        match self {
            ValueType::String(_) | ValueType::Enum { .. } => "string",
            ValueType::Integer { .. } => "integer",
            ValueType::Number => "number",
            ValueType::Boolean => "boolean",
            ValueType::Map { .. } => "object",
        }
    }

    /// Turns a default as clap stores it (a string) into a JSON value of
    /// this type: `"10"` becomes `10` for an integer. Falls back to the
    /// string when it does not read as this type.
    pub fn typed_default(&self, text: &str) -> Value {
        match self {
            ValueType::Integer { .. } => text
                .parse::<i64>()
                .map(Value::from)
                .or_else(|_| text.parse::<u64>().map(Value::from))
                .unwrap_or_else(|_| Value::from(text)),
            ValueType::Number => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number)
                .unwrap_or_else(|| Value::from(text)),
            ValueType::Boolean => match text {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => Value::from(text),
            },
            _ => Value::from(text),
        }
    }

    /// The JSON Schema of one value of this type.
    pub fn schema(&self) -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert("type".into(), self.json_type().into());
        match self {
            ValueType::String(facets) => {
                if let Some(format) = facets.format {
                    schema.insert("format".into(), format.into());
                }
                if !facets.any_format.is_empty() {
                    let alternatives: Vec<Value> = facets
                        .any_format
                        .iter()
                        .map(|format| json!({ "format": format }))
                        .collect();
                    schema.insert("anyOf".into(), alternatives.into());
                }
                if let Some(pattern) = facets.pattern {
                    schema.insert("pattern".into(), pattern.into());
                }
                if let Some(min) = facets.min_length {
                    schema.insert("minLength".into(), min.into());
                }
                if let Some(max) = facets.max_length {
                    schema.insert("maxLength".into(), max.into());
                }
                if !facets.examples.is_empty() {
                    schema.insert("examples".into(), facets.examples.into());
                }
            }
            ValueType::Integer { minimum, maximum } => {
                if let Some(min) = minimum {
                    schema.insert("minimum".into(), integer_json(*min));
                }
                if let Some(max) = maximum {
                    schema.insert("maximum".into(), integer_json(*max));
                }
            }
            ValueType::Enum { values } => {
                schema.insert("enum".into(), values.clone().into());
            }
            ValueType::Map { values } => {
                schema.insert("additionalProperties".into(), values.schema().into());
            }
            ValueType::Number | ValueType::Boolean => {}
        }
        schema
    }
}

fn integer_json(value: i128) -> Value {
    if let Ok(small) = i64::try_from(value) {
        Value::from(small)
    } else if let Ok(unsigned) = u64::try_from(value) {
        Value::from(unsigned)
    } else {
        // Beyond 64 bits JSON numbers lose precision in most clients anyway.
        Value::from(value as f64)
    }
}

/// One parameter of a tool: a clap argument as the client sees it.
///
/// ```
/// use mcp_bridge::spec::{ParamSpec, ValueType};
/// let p = ParamSpec::positional("title", ValueType::string()).required(true);
/// assert_eq!(p.name, "title");
/// assert_eq!(p.property_schema()["type"], "string");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParamSpec {
    /// The property name in the tool's input schema: the long name as clap
    /// shows it in `--help` for flags, the id for positionals.
    pub name: String,
    /// The clap id of the argument.
    pub id: String,
    /// Flag or positional.
    pub kind: ParamKind,
    /// The type of one value.
    pub value_type: ValueType,
    /// Whether the property must be present.
    pub required: bool,
    /// Whether it takes a list of values (`Vec<T>`, `Append`, `num_args`).
    pub multiple: bool,
    /// Smallest number of values when `multiple` and required.
    pub min_items: Option<u32>,
    /// Largest number of values (`num_args` on a single-use list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u32>,
    /// The default, typed (`10`, not `"10"`).
    pub default: Option<Value>,
    /// The default as clap stores it, before parsing.
    #[serde(skip)]
    pub default_text: Vec<String>,
    /// Help text from the doc comment or `help`/`long_help`.
    pub description: Option<String>,
    /// `global = true`: offered on every subcommand below.
    pub global: bool,
    /// Hidden from the tool schema (`#[arg(hide = true)]`, `#[mcp(skip)]`).
    pub hidden: bool,
    /// What giving the argument does (clap's `ArgAction`).
    pub action: ParamAction,
    /// Relations to other arguments.
    #[serde(skip_serializing_if = "ParamRelations::is_empty")]
    pub relations: ParamRelations,
    /// `env = "NAME"`: when the property is absent, the server's
    /// environment variable is read, as clap does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    /// `null` is accepted: the flag given without a value
    /// (`num_args = 0..=1`, `Option<Option<T>>`).
    pub nullable: bool,
}

/// What giving an argument does, as clap's `ArgAction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ParamAction {
    /// Takes a value (or values, with `num_args`).
    Set,
    /// Takes values, repeatable.
    Append,
    /// A flag setting `true` (`--force`).
    SetTrue,
    /// A flag setting `false` (`--no-color`).
    SetFalse,
    /// A flag counting its occurrences (`-vvv`).
    Count,
}

/// Relations one argument declares, by clap ids (of arguments or groups).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParamRelations {
    /// `conflicts_with(_all)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts_with: Vec<String>,
    /// `requires(_all)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
    /// `required_unless_present(_any)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required_unless_any: Vec<String>,
    /// `required_unless_present_all`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required_unless_all: Vec<String>,
    /// `required_if_eq(arg, value)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required_if_eq: Vec<(String, String)>,
    /// `exclusive = true`: no other argument may be given with it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exclusive: bool,
}

impl ParamRelations {
    /// Whether no relation is declared.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Whether the argument is required only under a condition.
    pub fn is_conditional(&self) -> bool {
        !self.required_unless_any.is_empty()
            || !self.required_unless_all.is_empty()
            || !self.required_if_eq.is_empty()
    }
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
        }
    }
}

impl ParamSpec {
    /// A flag named by its long name.
    pub fn flag(
        id: impl Into<String>,
        long: Option<&str>,
        short: Option<char>,
        value_type: ValueType,
    ) -> Self {
        let id = id.into();
        let name = long.map(str::to_owned).unwrap_or_else(|| id.clone());
        Self::new(
            name,
            id,
            ParamKind::Flag {
                long: long.map(str::to_owned),
                short,
            },
            value_type,
        )
    }

    /// A positional argument named by its id.
    pub fn positional(id: impl Into<String>, value_type: ValueType) -> Self {
        let id = id.into();
        Self::new(id.clone(), id, ParamKind::Positional, value_type)
    }

    fn new(name: String, id: String, kind: ParamKind, value_type: ValueType) -> Self {
        Self {
            name,
            id,
            kind,
            value_type,
            required: false,
            multiple: false,
            min_items: None,
            max_items: None,
            default: None,
            default_text: Vec::new(),
            description: None,
            global: false,
            hidden: false,
            action: ParamAction::Set,
            relations: ParamRelations::default(),
            env: None,
            nullable: false,
        }
    }

    /// Sets clap's action.
    pub fn action(mut self, action: ParamAction) -> Self {
        self.action = action;
        self
    }

    /// Sets the relations.
    pub fn relations(mut self, relations: ParamRelations) -> Self {
        self.relations = relations;
        self
    }

    /// Reads `name` from the environment when absent. A required argument
    /// whose variable is set when the server starts is no longer required.
    pub fn env(mut self, name: Option<&str>) -> Self {
        if let Some(name) = name {
            if std::env::var_os(name).is_some() {
                self.required = false;
            }
            self.env = Some(name.to_owned());
        }
        self
    }

    /// Records how many values one use takes (`num_args`): a single-use
    /// list gets `minItems`/`maxItems`; a repeatable one with a fixed
    /// count per use says so in its description.
    pub fn arity(mut self, arity: crate::build::Arity) -> Self {
        if arity.repeatable {
            if arity.min > 1 || arity.max.is_some_and(|max| max > 1) {
                let note = format!("({})", arity.describe());
                self.description = Some(match self.description.take() {
                    Some(text) => format!("{text} {note}"),
                    None => note,
                });
            }
        } else {
            if arity.min > 1 {
                self.min_items = Some(arity.min);
            }
            self.max_items = arity.max;
        }
        self
    }

    /// Accepts `null` (the flag given without a value).
    pub fn nullable(mut self, nullable: bool) -> Self {
        self.nullable = nullable;
        self
    }

    /// Sets whether the property is required.
    pub fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// Makes the parameter take a list of values.
    pub fn multiple(mut self, min_items: Option<u32>) -> Self {
        self.multiple = true;
        self.min_items = min_items;
        self
    }

    /// Sets the default from clap's textual default(s); empty strings and
    /// empty lists are not shown, as in `--help`.
    pub fn default_text<I, S>(mut self, texts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.default_text = texts.into_iter().map(Into::into).collect();
        self.default = if self.multiple {
            (!self.default_text.is_empty()).then(|| {
                Value::Array(
                    self.default_text
                        .iter()
                        .map(|t| self.value_type.typed_default(t))
                        .collect(),
                )
            })
        } else {
            self.default_text
                .first()
                .filter(|text| !text.is_empty())
                .map(|text| self.value_type.typed_default(text))
        };
        self
    }

    /// Sets the description.
    pub fn description(mut self, description: Option<&str>) -> Self {
        self.description = description.map(str::to_owned);
        self
    }

    /// Marks the argument global.
    pub fn global(mut self, global: bool) -> Self {
        self.global = global;
        self
    }

    /// Marks the argument hidden.
    pub fn hidden(mut self, hidden: bool) -> Self {
        self.hidden = hidden;
        self
    }

    /// Renames the property (`#[mcp(name = "...")]`).
    pub fn rename(mut self, name: Option<&str>) -> Self {
        if let Some(name) = name {
            self.name = name.to_owned();
        }
        self
    }

    /// The JSON Schema of this property.
    pub fn property_schema(&self) -> Value {
        let item = self.value_type.schema();
        let mut schema = if self.multiple {
            let mut array = Map::new();
            array.insert("type".into(), "array".into());
            array.insert("items".into(), item.into());
            if let Some(min) = self.min_items {
                array.insert("minItems".into(), min.into());
            }
            if let Some(max) = self.max_items {
                array.insert("maxItems".into(), max.into());
            }
            array
        } else {
            item
        };
        if self.nullable {
            let json_type = schema.remove("type").unwrap_or(Value::Null);
            schema.insert("type".into(), json!([json_type, "null"]));
        }
        if let Some(description) = &self.description {
            schema.insert("description".into(), description.clone().into());
        }
        if let Some(default) = &self.default {
            schema.insert("default".into(), default.clone());
        }
        Value::Object(schema)
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
    /// The variant indices the typed build follows to reach this command.
    #[serde(skip)]
    pub route: Vec<u32>,
}

impl ToolSpec {
    /// The tool's input schema: `type: object`, one property per
    /// parameter, `required`, `additionalProperties: false`.
    pub fn input_schema(&self) -> Map<String, Value> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for param in &self.params {
            properties.insert(param.name.clone(), param.property_schema());
            if param.required {
                required.push(Value::from(param.name.clone()));
            }
        }
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), properties.into());
        if !required.is_empty() {
            schema.insert("required".into(), required.into());
        }
        schema.insert("additionalProperties".into(), false.into());
        let rules = crate::relations::schema_rules(self);
        if !rules.is_empty() {
            schema.insert("allOf".into(), rules.into());
        }
        schema
    }

    /// The parameter a property name refers to.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// The output schema every tool shares: what the command printed and its
/// exit code.
pub fn output_schema() -> Map<String, Value> {
    let schema = json!({
        "type": "object",
        "properties": {
            "stdout": { "type": "string", "description": "What the command wrote to standard output" },
            "stderr": { "type": "string", "description": "What the command wrote to standard error" },
            "exitCode": { "type": "integer", "description": "The command's exit code; 0 means success" }
        },
        "required": ["stdout", "stderr", "exitCode"]
    });
    match schema {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}
