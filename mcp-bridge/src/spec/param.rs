//! Parameters: one clap argument as the client sees it, with the builder
//! the generated code fills it with.

use serde::Serialize;
use serde_json::Value;

use super::{Arity, ValueType, ValuesSource};

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
    /// What the client reads: `#[mcp(description)]` or the help text, with
    /// notes (`[env: NAME]`, values per use).
    pub description: Option<String>,
    /// The help text as clap has it (`long_help`, else `help`: the doc
    /// comment).
    #[serde(skip)]
    pub help: Option<String>,
    /// `global = true`: offered on every subcommand below.
    pub global: bool,
    /// `last = true`: a positional given after `--`, which an earlier
    /// positional left out does not hold back.
    pub last: bool,
    /// Hidden from the tool schema (`#[arg(hide = true)]`, `#[mcp(skip)]`).
    pub hidden: bool,
    /// `ignore_case`: clap compares the value in any case, in its parser
    /// and where a relation names a value (`required_if_eq`).
    #[serde(skip)]
    pub ignore_case: bool,
    /// What giving the argument does (clap's `ArgAction`).
    pub action: ParamAction,
    /// Relations to other arguments (read as [`ParamRelations`]).
    #[serde(skip_serializing_if = "ParamRelations::is_empty")]
    pub relations: Relations,
    /// `env = "NAME"`: when the property is absent, the server's
    /// environment variable is read, as clap does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    /// `null` is accepted: the flag given without a value
    /// (`num_args = 0..=1`, `Option<Option<T>>`).
    pub nullable: bool,
    /// `value_delimiter`: a string item is split on it, as clap splits.
    #[serde(skip)]
    pub delimiter: Option<char>,
    /// Values per use (`num_args`) of a list, as clap counts them.
    #[serde(skip)]
    pub arity: Option<Arity>,
    /// Other long names clap accepts (`alias`, `visible_aliases`...): a
    /// call naming one is told the property's name.
    #[serde(skip)]
    pub aliases: Vec<String>,
    /// Other short names clap accepts (`short_alias`...).
    #[serde(skip)]
    pub short_aliases: Vec<char>,
    /// Left out on purpose (`#[mcp(skip)]`, or a `()` field that cannot
    /// change the value), not because clap hides it.
    #[serde(skip)]
    pub skipped: bool,
    /// `#[mcp(values = path::to_fn)]`: the allowed values, fetched at run
    /// time; the schema's `enum` and the calls' check follow them.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "values_name"
    )]
    pub values: Option<ValuesSource>,
    /// `#[mcp(header = "Region")]`: over HTTP the client sends the value
    /// in an `Mcp-Param-Region` header as well (SEP-2243), which the
    /// server checks against the arguments; in the schema as
    /// `x-mcp-header`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// `default_value_if(s)`: the default when another argument is given
    /// (or given a value), in clap's order; the plain default otherwise.
    #[serde(skip)]
    pub default_ifs: Vec<DefaultIf>,
}

/// One `default_value_if(arg, predicate, default)` (or
/// `default_values_if`, with several): when the argument of id `arg` is
/// given (explicitly, or by its environment variable), with the text
/// `equals` when there is one, the default is `default` (none at all when
/// `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultIf {
    /// The id of the argument the default depends on.
    pub arg: String,
    /// The value it must have, or `None` when being given is enough.
    pub equals: Option<String>,
    /// The default texts then.
    pub default: Option<Vec<String>>,
}

impl DefaultIf {
    /// What it says, for a description (`other` is the property the rule
    /// depends on): `(default: "never" when `plain` is given)`.
    pub fn describe(&self, other: &str, boolean: bool) -> String {
        let when = match &self.equals {
            Some(value) if boolean && (value == "true" || value == "false") => {
                format!("when `{other}` is {value}")
            }
            Some(value) => format!("when `{other}` is {value:?}"),
            None => format!("when `{other}` is given"),
        };
        match self.default.as_deref() {
            Some([default]) => format!("(default: {default:?} {when})"),
            Some(defaults) => format!("(default: {defaults:?} {when})"),
            None => format!("(no default {when})"),
        }
    }
}

impl ParamSpec {
    /// Adds a conditional default (`default_value_if`); the registry says
    /// it in the tool's description.
    #[doc(hidden)]
    pub fn default_if(mut self, rule: DefaultIf) -> Self {
        self.default_ifs.push(rule);
        self
    }

    /// Adds conditional defaults (`default_value_ifs`), in order.
    #[doc(hidden)]
    pub fn default_ifs(mut self, rules: impl IntoIterator<Item = DefaultIf>) -> Self {
        self.default_ifs.extend(rules);
        self
    }

    /// Adds `note` at the end of the description.
    pub(crate) fn note(&mut self, note: String) {
        self.append_note(note);
    }
}

/// A values function, serialized as its name.
fn values_name<S: serde::Serializer>(
    values: &Option<ValuesSource>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match values {
        Some(source) => serializer.serialize_str(source.name),
        None => serializer.serialize_none(),
    }
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

impl ParamAction {
    /// Whether giving the argument takes no value (`SetTrue`, `SetFalse`,
    /// `Count`).
    pub fn is_flag(self) -> bool {
        matches!(self, Self::SetTrue | Self::SetFalse | Self::Count)
    }
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
    /// `overrides_with(_all)`: on the command line the later of the two
    /// wins; a call has no order, so giving both is refused.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides_with: Vec<String>,
}

/// One of the relations that name other arguments by id
/// ([`ParamSpec::relate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelationKind {
    /// `conflicts_with(_all)`.
    ConflictsWith,
    /// `requires(_all)`.
    Requires,
    /// `required_unless_present(_any)`.
    RequiredUnlessAny,
    /// `required_unless_present_all`.
    RequiredUnlessAll,
    /// `overrides_with(_all)`.
    OverridesWith,
}

/// A parameter's [`ParamRelations`], read through it (an empty one when
/// there are none) and written through it too. Most arguments declare no
/// relation, and then nothing is allocated: a parameter holds a pointer
/// where it held 152 bytes, a quarter of its size (every tool keeps its
/// parameters for as long as the server runs).
#[derive(Clone, Default)]
pub struct Relations(Option<Box<ParamRelations>>);

/// What an argument without relations reads.
static NO_RELATIONS: ParamRelations = ParamRelations {
    conflicts_with: Vec::new(),
    requires: Vec::new(),
    required_unless_any: Vec::new(),
    required_unless_all: Vec::new(),
    required_if_eq: Vec::new(),
    exclusive: false,
    overrides_with: Vec::new(),
};

impl std::ops::Deref for Relations {
    type Target = ParamRelations;

    fn deref(&self) -> &ParamRelations {
        self.0.as_deref().unwrap_or(&NO_RELATIONS)
    }
}

impl std::ops::DerefMut for Relations {
    fn deref_mut(&mut self) -> &mut ParamRelations {
        self.0.get_or_insert_with(Box::default)
    }
}

impl From<ParamRelations> for Relations {
    fn from(relations: ParamRelations) -> Self {
        Self((!relations.is_empty()).then(|| Box::new(relations)))
    }
}

impl PartialEq for Relations {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Relations {}

impl std::fmt::Debug for Relations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl Serialize for Relations {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
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

/// The literal part of a parameter as the derive writes it: static data
/// (one constant per argument, no code), completed by
/// [`ParamSpec::from_data`] with what is only known at run time.
#[doc(hidden)]
#[derive(Debug)]
pub struct ParamData {
    /// The clap id.
    pub id: &'static str,
    /// A positional argument (`long` and `short` are then `None`).
    pub positional: bool,
    /// The long name, for a flag that has one.
    pub long: Option<&'static str>,
    /// The short name.
    pub short: Option<char>,
    /// Whether the property is required.
    pub required: bool,
    /// `Some(min_items)` for a list.
    pub multiple: Option<Option<u32>>,
    /// Literal default texts (used when no computed default is given).
    pub default_text: &'static [&'static str],
    /// `global = true`.
    pub global: bool,
    /// Hidden from the schema.
    pub hidden: bool,
    /// Hidden because of `#[mcp(skip)]` or a `()` field, not clap's `hide`.
    pub skipped: bool,
    /// `#[mcp(name = "...")]`.
    pub rename: Option<&'static str>,
    /// `#[mcp(description = "...")]`, which replaces the help text.
    pub mcp_description: Option<&'static str>,
    /// Long aliases.
    pub aliases: &'static [&'static str],
    /// Short aliases.
    pub short_aliases: &'static [char],
    /// clap's action.
    pub action: ParamAction,
    /// Relations, by clap ids.
    pub relations: RelationData,
    /// `env = "NAME"`.
    pub env: Option<&'static str>,
    /// `null` accepted.
    pub nullable: bool,
    /// Values per use, for a list.
    pub arity: Option<Arity>,
    /// `#[mcp(values = ...)]`.
    pub values: Option<ValuesSource>,
    /// `#[mcp(header = "...")]`.
    pub header: Option<&'static str>,
}

/// [`ParamRelations`] as static data.
#[doc(hidden)]
#[derive(Debug)]
pub struct RelationData {
    /// `conflicts_with(_all)`.
    pub conflicts_with: &'static [&'static str],
    /// `requires(_all)`.
    pub requires: &'static [&'static str],
    /// `required_unless_present(_any)`.
    pub required_unless_any: &'static [&'static str],
    /// `required_unless_present_all`.
    pub required_unless_all: &'static [&'static str],
    /// `required_if_eq(arg, value)`.
    pub required_if_eq: &'static [(&'static str, &'static str)],
    /// `exclusive = true`.
    pub exclusive: bool,
    /// `overrides_with(_all)`.
    pub overrides_with: &'static [&'static str],
}

impl RelationData {
    /// No relation.
    pub const NONE: Self = Self {
        conflicts_with: &[],
        requires: &[],
        required_unless_any: &[],
        required_unless_all: &[],
        required_if_eq: &[],
        exclusive: false,
        overrides_with: &[],
    };

    fn to_relations(&self) -> ParamRelations {
        let owned = |ids: &[&str]| ids.iter().map(|id| (*id).to_owned()).collect();
        ParamRelations {
            conflicts_with: owned(self.conflicts_with),
            requires: owned(self.requires),
            required_unless_any: owned(self.required_unless_any),
            required_unless_all: owned(self.required_unless_all),
            required_if_eq: self
                .required_if_eq
                .iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect(),
            exclusive: self.exclusive,
            overrides_with: owned(self.overrides_with),
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
            help: None,
            global: false,
            last: false,
            hidden: false,
            ignore_case: false,
            action: ParamAction::Set,
            relations: Relations::default(),
            env: None,
            nullable: false,
            delimiter: None,
            arity: None,
            aliases: Vec::new(),
            short_aliases: Vec::new(),
            skipped: false,
            values: None,
            header: None,
            default_ifs: Vec::new(),
        }
    }

    /// A parameter from the derive's static `data`, its value type, its
    /// help text (as clap has it) and, when they are computed
    /// (`default_value_t`), its default texts.
    #[doc(hidden)]
    pub fn from_data(
        data: &ParamData,
        value_type: ValueType,
        description: Option<&str>,
        computed_defaults: Option<Vec<std::borrow::Cow<'static, str>>>,
        delimiter: Option<char>,
    ) -> Self {
        // Set in place: a parameter is large, and each builder step would
        // move it (this runs for every argument of the CLI at start-up).
        let mut param = if data.positional {
            Self::positional(data.id, value_type)
        } else {
            Self::flag(data.id, data.long, data.short, value_type)
        };
        if let Some(min_items) = data.multiple {
            param.multiple = true;
            param.min_items = min_items;
        }
        param.required = data.required;
        // Before the defaults: a list's default is split on it.
        param.delimiter = delimiter;
        param.set_default_text(match computed_defaults {
            Some(texts) => texts.into_iter().map(Into::into).collect(),
            None => data
                .default_text
                .iter()
                .map(|text| (*text).to_owned())
                .collect(),
        });
        param.help = description.map(str::to_owned);
        match data.mcp_description {
            Some(text) => param.description = Some(text.to_owned()),
            None => {
                param.description.clone_from(&param.help);
                param.add_value_help();
            }
        }
        param.global = data.global;
        param.hidden = data.hidden;
        if let Some(name) = data.rename {
            param.name = name.to_owned();
        }
        param.action = data.action;
        param.relations = data.relations.to_relations().into();
        param.set_env(data.env);
        param.nullable = data.nullable;
        param.skipped = data.skipped;
        param.aliases = data.aliases.iter().map(|a| (*a).to_owned()).collect();
        param.short_aliases = data.short_aliases.to_vec();
        param.values = data.values;
        param.header = data.header.map(str::to_owned);
        if let Some(arity) = data.arity {
            param.set_arity(arity);
        }
        param
    }

    /// Adds `note` at the end of the description (`[env: NAME]`, values
    /// per use, what the values mean).
    fn append_note(&mut self, note: String) {
        self.description = Some(match self.description.take() {
            Some(text) => format!("{text} {note}"),
            None => note,
        });
    }

    /// Replaces the help text (clap's, once changed or rendered): the
    /// description follows it, unless `#[mcp(description)]` gave another;
    /// what was added after the help (values, notes) stays.
    pub(crate) fn replace_help(&mut self, help: Option<String>) {
        if help == self.help {
            return;
        }
        let rest = match (&self.description, &self.help) {
            (Some(description), Some(old)) => description.strip_prefix(old.as_str()),
            (None, None) => Some(""),
            _ => None,
        };
        if let Some(rest) = rest {
            self.description = match &help {
                Some(help) => Some(format!("{help}{rest}")),
                None => Some(rest.trim_start().to_owned()).filter(|r| !r.is_empty()),
            };
        }
        self.help = help;
    }

    /// Adds what each value of an enum means, when its doc comments say
    /// (`(todo: Not started; done: Finished)`): cheaper in bytes than a
    /// `oneOf` of `const`s with descriptions, and read the same way.
    fn add_value_help(&mut self) {
        let ValueType::Enum { values, help } = &self.value_type else {
            return;
        };
        if help.is_empty() {
            return;
        }
        let listed: Vec<String> = values
            .iter()
            .zip(help)
            .map(|(value, help)| match help.as_str() {
                "" => value.clone(),
                help => format!("{value}: {help}"),
            })
            .collect();
        let note = format!("({})", listed.join("; "));
        self.append_note(note);
    }

    /// Sets clap's action.
    pub fn action(mut self, action: ParamAction) -> Self {
        self.action = action;
        self
    }

    /// Sets the relations.
    pub fn relations(mut self, relations: ParamRelations) -> Self {
        self.relations = relations.into();
        self
    }

    /// Adds `ids` to one relation (ids the CLI computes, as
    /// `conflicts_with_all = list::CONFLICTS`).
    pub fn relate(mut self, kind: RelationKind, ids: Vec<String>) -> Self {
        if ids.is_empty() {
            return self;
        }
        let relations = &mut *self.relations;
        let list = match kind {
            RelationKind::ConflictsWith => &mut relations.conflicts_with,
            RelationKind::Requires => &mut relations.requires,
            RelationKind::RequiredUnlessAny => &mut relations.required_unless_any,
            RelationKind::RequiredUnlessAll => &mut relations.required_unless_all,
            RelationKind::OverridesWith => &mut relations.overrides_with,
        };
        list.extend(ids);
        self
    }

    /// Reads `name` from the environment when absent. The description
    /// names the variable; a variable set when the table is built is the
    /// effective default (a single value's text, typed) and makes a
    /// required argument optional.
    pub fn env(mut self, name: Option<&str>) -> Self {
        self.set_env(name);
        self
    }

    pub(crate) fn set_env(&mut self, name: Option<&str>) {
        if let Some(name) = name {
            if let Some(value) = std::env::var_os(name) {
                self.required = false;
                if let (false, Some(text)) = (self.multiple, value.to_str()) {
                    if !text.is_empty() {
                        // `default_text` stays what the CLI declares.
                        self.default = Some(self.value_type.typed_default(text));
                    }
                }
            }
            let note = format!("[env: {name}]");
            self.append_note(note);
            self.env = Some(name.to_owned());
        }
    }

    /// Records how many values one use takes (`num_args`): a single-use
    /// list gets `minItems`/`maxItems`; a repeatable one with a fixed
    /// count per use says so in its description.
    pub fn arity(mut self, arity: Arity) -> Self {
        self.set_arity(arity);
        self
    }

    pub(crate) fn set_arity(&mut self, arity: Arity) {
        self.arity = Some(arity);
        if arity.repeatable {
            if arity.min > 1 || arity.max.is_some_and(|max| max > 1) {
                let note = format!("({})", arity.describe());
                self.append_note(note);
            }
        } else {
            if arity.min > 1 {
                self.min_items = Some(arity.min);
            }
            self.max_items = arity.max;
        }
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

    /// Sets the default from clap's textual default(s); an empty list is
    /// not shown, as in `--help`.
    pub fn default_text<I, S>(mut self, texts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.set_default_text(texts.into_iter().map(Into::into).collect());
        self
    }

    pub(crate) fn set_default_text(&mut self, texts: Vec<String>) {
        // A list's default is split on its delimiter, as clap splits it.
        self.default_text = match (self.multiple, self.delimiter) {
            (true, Some(d)) => texts
                .iter()
                .flat_map(|text| text.split(d).map(str::to_owned))
                .collect(),
            _ => texts,
        };
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
                // `default_value = ""` is a default of a string; of a
                // number it is no value the schema could show.
                .filter(|text| !text.is_empty() || self.value_type.read_text(text).is_some())
                .map(|text| self.value_type.typed_default(text))
        };
    }

    /// Sets the help text, which is also the description.
    pub fn description(mut self, description: Option<&str>) -> Self {
        self.description = description.map(str::to_owned);
        self.help = self.description.clone();
        self
    }

    /// Marks the argument global.
    pub fn global(mut self, global: bool) -> Self {
        self.global = global;
        self
    }

    /// Marks a positional given after `--` (`last = true`).
    pub fn last(mut self, last: bool) -> Self {
        self.last = last;
        self
    }

    /// Marks the argument as matched in any case (`ignore_case`).
    pub fn ignore_case(mut self, ignore_case: bool) -> Self {
        self.ignore_case = ignore_case;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An argument without relations holds a pointer's worth and nothing
    /// on the heap; it reads, compares and serialises as an empty
    /// `ParamRelations`, and a write through it keeps what is written.
    #[test]
    fn relations_are_allocated_only_when_there_are_some() {
        assert_eq!(
            std::mem::size_of::<Relations>(),
            std::mem::size_of::<usize>()
        );
        let none = Relations::from(ParamRelations::default());
        assert!(none.0.is_none() && Relations::default().0.is_none());
        assert!(none.is_empty() && none.requires.is_empty() && !none.exclusive);
        assert_eq!(
            serde_json::to_value(&none).unwrap(),
            serde_json::to_value(ParamRelations::default()).unwrap()
        );

        let mut written = Relations::default();
        written.requires.push("other".into());
        assert_eq!(written.requires, ["other"]);
        let declared = Relations::from(ParamRelations {
            requires: vec!["other".into()],
            ..ParamRelations::default()
        });
        assert_eq!(written, declared);
        assert_eq!(format!("{written:?}"), format!("{:?}", *declared));

        // Emptied again, it equals one never written.
        written.requires.clear();
        assert_eq!(written, none);

        // What the builder and the derive's data give.
        let param = ParamSpec::flag("x", Some("x"), None, ValueType::Boolean);
        assert!(param.relations.0.is_none());
        let param = param.relations(ParamRelations {
            exclusive: true,
            ..ParamRelations::default()
        });
        assert!(param.relations.exclusive);
    }
}
