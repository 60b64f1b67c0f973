//! The command model: what the derive understood from the user's types, as
//! data. `parse` builds it, `check` reads it, `expand` turns it into code.
//!
//! Nodes keep the syn nodes they came from (and the user's expressions),
//! so checks can point at the user's tokens and expansion can paste them.

use proc_macro2::Span;
use syn::{Expr, Ident, Type};

/// One derive input: a struct (`Parser`/`Args`) or an enum (`Subcommand`).
pub(crate) enum Input<'a> {
    Struct(Container<'a>, Vec<Field<'a>>),
    Enum(Container<'a>, Vec<Variant<'a>>),
}

impl<'a> Input<'a> {
    pub(crate) fn container(&self) -> &Container<'a> {
        match self {
            Input::Struct(container, _) | Input::Enum(container, _) => container,
        }
    }
}

/// A struct or enum: its own command attributes.
pub(crate) struct Container<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a syn::Generics,
    pub(crate) layer: Layer,
    /// `#[command(name = ...)]`, for the root.
    pub(crate) name: Option<Expr>,
    /// The struct's own argument group (clap makes one per `Args` struct),
    /// `None` for enums and `#[group(skip)]`.
    pub(crate) group: Option<GroupDecl>,
    /// Groups built with `#[command(group(ArgGroup::new(..)...))]`.
    pub(crate) builder_groups: Vec<GroupDecl>,
}

/// The help and visibility attributes one item applies to a command, in
/// clap's order: the doc comment first, then explicit methods.
#[derive(Default)]
pub(crate) struct Layer {
    /// `None`: not given; `Some(None)`: explicitly unset (`about = None`).
    pub(crate) about: Option<Option<Text>>,
    pub(crate) long_about: Option<Option<Text>>,
    pub(crate) hide: Option<BoolValue>,
    pub(crate) version: Option<Text>,
    /// `alias`, `visible_aliases`...: names clap also accepts.
    pub(crate) aliases: Vec<String>,
    /// `mut_arg(id, f)`: changes to an argument, evaluated through clap's
    /// `Arg` after the arguments are added, as clap applies them.
    pub(crate) mut_args: Vec<(Expr, Expr)>,
    /// `mut_args(f)`: a change to every argument, as `mut_arg` applies it.
    pub(crate) mut_all: Vec<Expr>,
    /// `subcommand_required = ...`, written out: it overrides what the
    /// subcommand field's `Option` says.
    pub(crate) subcommand_required: Option<BoolValue>,
    /// `args_conflicts_with_subcommands = ...`.
    pub(crate) args_conflicts_with_subcommands: Option<BoolValue>,
    /// `subcommand_negates_reqs = ...`.
    pub(crate) subcommand_negates_reqs: Option<BoolValue>,
    pub(crate) mcp: McpAttrs,
}

/// A boolean key's value: a literal, or the user's expression, evaluated
/// where clap evaluates it (`hide = !cfg!(feature = "x")`).
#[derive(Clone)]
pub(crate) enum BoolValue {
    Lit(bool),
    Expr(Expr),
}

impl BoolValue {
    /// Whether it is the literal `true` (an expression may be false).
    pub(crate) fn is_true(&self) -> bool {
        matches!(self, BoolValue::Lit(true))
    }
}

/// `num_args`: literal (min, max) values per use, or the user's
/// expression (on a list only), evaluated through clap's `ValueRange`.
pub(crate) enum NumArgs {
    Lit(u32, Option<u32>),
    Expr(Expr),
}

/// A `char` key's value (`value_delimiter`): a literal or an expression.
#[derive(Clone)]
pub(crate) enum CharValue {
    Lit(char),
    Expr(Expr),
}

/// A help or version text as the generated code gives it.
pub(crate) enum Text {
    /// Known when the derive runs (a doc comment).
    Lit(String),
    /// The user's expression (`about = "..."`, `help = HELP`).
    Expr(Expr),
    /// A bare `about`: the package description.
    PkgDescription,
    /// A bare `version`: the package version.
    PkgVersion,
}

/// A value with the span of the tokens it came from.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

/// What `#[mcp(...)]` says about one item.
#[derive(Default)]
pub(crate) struct McpAttrs {
    pub(crate) name: Option<Spanned<String>>,
    pub(crate) description: Option<Spanned<String>>,
    pub(crate) skip: Option<Span>,
    /// `serial`: calls of the command never overlap another serial one's.
    pub(crate) serial: Option<Span>,
    /// `timeout = "30s"`, in milliseconds.
    pub(crate) timeout: Option<u64>,
    /// `isolate`: calls of the command run in a child process.
    pub(crate) isolate: Option<Span>,
    /// `task` (`"optional"`) or `task = "required"`/`"deferred"`: calls
    /// may become tasks (MCP Tasks extension), and when.
    pub(crate) task: Option<Spanned<TaskMode>>,
    /// `title = "..."`: the tool's human-readable title.
    pub(crate) title: Option<Spanned<String>>,
    /// `icon = "https://..."`: the icon of the command's tools and of
    /// those below it.
    pub(crate) icon: Option<Spanned<String>>,
    /// The behaviour hints (`read_only`, `destructive`, `idempotent`,
    /// `open_world`, each a flag or `= true`/`= false`), in that order.
    pub(crate) hints: [Option<Spanned<bool>>; 4],
    /// `prefix = "..."` (root only): what starts the tool names made from
    /// paths, in place of the root's name.
    pub(crate) prefix: Option<Spanned<String>>,
    /// `max_name_len = N` (root only): the longest tool name.
    pub(crate) max_name_len: Option<usize>,
    /// `output = "json"`: what the command prints, parsed into the
    /// result's structured content.
    pub(crate) output: Option<Spanned<String>>,
    /// `output = Type`: the value the command's handler returns, whose
    /// schema is its tool's `outputSchema`.
    pub(crate) returns: Option<syn::Type>,
    /// `example = "{...}"` (repeatable): a call's arguments, as JSON.
    pub(crate) examples: Vec<syn::LitStr>,
    /// `json` (arguments): the value is JSON, offered as JSON.
    pub(crate) json: Option<proc_macro2::Span>,
    /// `values = path` (arguments): the function giving the allowed values
    /// at run time.
    pub(crate) values: Option<syn::Path>,
    /// `values_ttl = "5m"` (arguments), in milliseconds.
    pub(crate) values_ttl: Option<Spanned<u64>>,
    /// `header = "Region"` (arguments): over HTTP, the client sends the
    /// value in an `Mcp-Param-Region` header too (SEP-2243).
    pub(crate) header: Option<Spanned<String>>,
    /// `args(name = value, ...)`: arguments fixed for every call of the
    /// command, by property name.
    pub(crate) fixed: Vec<(Spanned<String>, syn::Lit)>,
    /// `crate = "path"` (containers only): the path of the `mcp-bridge`
    /// crate, for users who renamed or re-export it.
    pub(crate) krate: Option<syn::Path>,
}

pub(crate) struct Field<'a> {
    pub(crate) member: syn::Member,
    pub(crate) original: &'a syn::Field,
    pub(crate) kind: FieldKind,
}

pub(crate) enum FieldKind {
    Arg(Box<Arg>),
    /// `#[command(flatten)]`: the struct's arguments at this level;
    /// `optional` for `Option<T>` (clap gives `None` when none of `T`'s own
    /// arguments is given).
    Flatten {
        inner: Type,
        optional: bool,
    },
    Subcommand {
        inner: Type,
        optional: bool,
    },
    /// `#[arg(skip)]` / `#[command(skip)]`: not an argument; the value is
    /// the expression or `Default::default()`.
    Skip(Option<Expr>),
    /// `#[arg(from_global)]`: not an argument of this command; the value
    /// of the global argument of that id declared on an ancestor, read
    /// through the field's own converter.
    FromGlobal(Box<Arg>),
}

/// How many values a field holds, from its type (clap's grouping).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Bool,
    Option,
    OptionOption,
    OptionVec,
    Vec,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Set,
    Append,
    SetTrue,
    SetFalse,
    Count,
    /// `Help`, `HelpShort`, `HelpLong`, `Version`: clap prints and exits;
    /// not a property of any tool.
    Info,
}

/// How a value is converted from JSON.
pub(crate) enum ValueKind {
    /// A type the derive recognises by name.
    Builtin(Builtin),
    /// `#[arg(value_enum)]`.
    Enum,
    /// `value_parser = ["a", "b"]`.
    OneOf(Vec<String>),
    /// `value_parser = value_parser!(T).range(..)` with literal bounds.
    Range {
        min: Option<i128>,
        max: Option<i128>,
    },
    /// Any other `value_parser = expr`.
    Parser(Expr),
    /// `Vec<(K, V)>` with a key=value `value_parser`.
    KeyValue {
        parser: Expr,
        value: Type,
        /// `value` recognised by name.
        value_builtin: Option<Builtin>,
    },
    /// `HashMap`/`BTreeMap<String, V>`.
    Map {
        value: Type,
        /// `value` recognised by name.
        value_builtin: Option<Builtin>,
    },
    /// Anything else: picked at compile time by trait resolution.
    Auto,
    /// `#[mcp(json)]`: a value the CLI reads as JSON text, offered as JSON
    /// with the schema of its type.
    Json,
}

/// A value type recognised by its name (the last path segment, as clap
/// does: an alias is not recognised).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    String,
    OsString,
    PathBuf,
    Char,
    Bool,
    Integer(Int),
    Float,
    Duration,
    IpAddr,
    Ipv4Addr,
    Ipv6Addr,
    SocketAddr,
}

/// The primitive integer types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Int {
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
}

impl Int {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Int::I8 => "i8",
            Int::I16 => "i16",
            Int::I32 => "i32",
            Int::I64 => "i64",
            Int::I128 => "i128",
            Int::Isize => "isize",
            Int::U8 => "u8",
            Int::U16 => "u16",
            Int::U32 => "u32",
            Int::U64 => "u64",
            Int::U128 => "u128",
            Int::Usize => "usize",
        }
    }
}

/// Where a default comes from.
pub(crate) enum DefaultValue {
    None,
    /// `default_value = "..."` / `default_values = [...]`: texts.
    Texts(Vec<Expr>),
    /// `default_value(_os) = expr`, not a literal: through clap's
    /// `IntoResettable<OsStr>` (`None` unsets it).
    One(Expr),
    /// `default_values = EXPR` (a constant list): evaluated through clap's
    /// `Arg::default_values`.
    TextsOf(Expr),
    /// `default_value_t [= expr]`: displayed at run time.
    ValueT(Option<Expr>),
    /// `default_values_t = expr`.
    ValuesT(Expr),
    /// `default_value_os_t [= expr]`: the value made an `OsString`, as
    /// clap's derive makes it.
    OsT(Option<Expr>),
    /// `default_values_os_t = expr`.
    OsValuesT(Expr),
}

impl DefaultValue {
    pub(crate) fn is_some(&self) -> bool {
        !matches!(self, DefaultValue::None)
    }
}

/// The value of an `#[mcp(skip)]`ped argument when it is known without
/// converting anything (so its type needs no JSON conversion).
pub(crate) enum Direct {
    /// `default_value_t = expr`, typed as the value type.
    Typed(Expr),
    /// A bare `default_value_t`: the value type's `Default`.
    Default,
    /// `default_values_t = expr`, collected.
    Collected(Expr),
}

/// How a skipped argument is built directly.
pub(crate) enum DirectValue {
    /// The value, in `Some` when `some` (an `Option` field).
    Value { value: Direct, some: bool },
    /// An absent optional argument: `None`.
    None,
    /// An absent list: an empty `Vec`.
    EmptyVec,
    /// A `()` field.
    Unit,
}

pub(crate) struct Arg {
    pub(crate) id: String,
    pub(crate) long: Option<String>,
    pub(crate) short: Option<char>,
    pub(crate) positional: bool,
    pub(crate) shape: Shape,
    /// The type of one value (inside `Option`/`Vec`).
    pub(crate) inner: Type,
    /// `inner` recognised by name, whatever converts it.
    pub(crate) inner_builtin: Option<Builtin>,
    pub(crate) action: Action,
    pub(crate) value: ValueKind,
    pub(crate) default: DefaultValue,
    /// `default_missing_value(s)(_os)`: what the flag given without a
    /// value gets.
    pub(crate) default_missing: Option<Missing>,
    pub(crate) required: bool,
    pub(crate) global: BoolValue,
    /// `last = true`: a positional given after `--`.
    pub(crate) last: BoolValue,
    pub(crate) hide: BoolValue,
    pub(crate) help: Option<Text>,
    pub(crate) long_help: Option<Text>,
    pub(crate) ignore_case: BoolValue,
    pub(crate) delimiter: Option<CharValue>,
    pub(crate) mcp: McpAttrs,
    pub(crate) span: Span,
    pub(crate) relations: ArgRelations,
    /// `env = "NAME"` (or bare `env`: the id in the `rename_all_env`
    /// casing, SCREAMING_SNAKE_CASE by default).
    pub(crate) env: Option<EnvName>,
    /// `num_args = 0..=1` (or `0..`): the flag may be given without a value.
    pub(crate) value_optional: bool,
    /// `num_args`, when given.
    pub(crate) num_args: Option<NumArgs>,
    /// Long aliases (`alias`, `visible_aliases`...).
    pub(crate) aliases: Vec<String>,
    /// Short aliases (`short_alias`, `visible_short_aliases`...).
    pub(crate) short_aliases: Vec<char>,
    /// Built without a converter (`#[mcp(skip)]` with a typed default, or
    /// absent), when it is.
    pub(crate) direct: Option<DirectValue>,
    /// The property name the positional/flag rule gives a positional
    /// argument named like a flag of its command (`parse::positional_names`).
    pub(crate) auto_name: Option<String>,
    /// `default_value_if(...)` / `default_value_ifs(...)`, in order.
    pub(crate) default_ifs: Vec<DefaultIfs>,
    /// A positional argument of a struct that flattens others: its
    /// property follows the positional/flag rule across them, decided in
    /// a constant of this name (`expand::positional_consts`).
    pub(crate) cross_name: Option<String>,
}

/// Defaults that depend on other arguments, as the user wrote them:
/// evaluated through clap's own conversions when the table is built.
pub(crate) enum DefaultIfs {
    /// `default_value_if(_os)(arg, predicate, default)`.
    One(Expr, Expr, Expr),
    /// `default_values_if(arg, predicate, [defaults])`.
    Values(Expr, Expr, Expr),
    /// `default_value_ifs(_os)([(arg, predicate, default), ...])`.
    Many(Expr),
    /// `default_values_ifs([(arg, predicate, [defaults]), ...])`.
    ManyValues(Expr),
}

/// The value of a flag given without one: what clap's
/// `default_missing_value(s)` takes.
pub(crate) enum Missing {
    /// `default_missing_value(_os) = expr` (`IntoResettable<OsStr>`; a
    /// string literal is static data).
    One(Expr),
    /// `default_missing_values(_os) = [...]` (`IntoIterator<Item: Into<OsStr>>`).
    Many(Expr),
}

/// The variable an argument reads (`env`): a literal, or the user's
/// expression (`IntoResettable<OsStr>`, as clap takes it), evaluated when
/// the table is built and by each call.
pub(crate) enum EnvName {
    Lit(String),
    Expr(Expr),
}

impl Arg {
    /// The property name: the long name for flags, the id otherwise.
    pub(crate) fn property(&self) -> String {
        if let Some(name) = &self.mcp.name {
            return name.value.clone();
        }
        if let Some(name) = &self.auto_name {
            return name.clone();
        }
        match (&self.long, self.positional) {
            (Some(long), false) => long.clone(),
            _ => self.id.clone(),
        }
    }

    /// The property name as generated code says it: the literal, or the
    /// constant that decides it across flattened structs.
    pub(crate) fn property_tokens(&self) -> proc_macro2::TokenStream {
        match &self.cross_name {
            Some(name) => {
                let ident = proc_macro2::Ident::new(name, self.span);
                quote::quote!(#ident)
            }
            None => {
                let property = self.property();
                quote::quote!(#property)
            }
        }
    }

    /// Whether the argument can never change the value: a help or version
    /// flag, or a `()` field that no relation ties to another argument (one
    /// that does, `--characters` overriding `--no-characters`, changes what
    /// the other gives). Such arguments are no property of a tool.
    pub(crate) fn inert(&self) -> bool {
        self.action == Action::Info
            || matches!(self.direct, Some(DirectValue::Unit)) && !self.relations.ties()
    }

    /// Whether the field is `()`: clap takes the argument and stores nothing.
    pub(crate) fn direct_is_unit(&self) -> bool {
        matches!(self.direct, Some(DirectValue::Unit))
    }

    /// Whether the argument is a property of its tool: not hidden, not
    /// skipped, not inert.
    pub(crate) fn exposed(&self) -> bool {
        !self.hide.is_true() && self.mcp.skip.is_none() && !self.inert()
    }

    pub(crate) fn multiple(&self) -> bool {
        matches!(self.shape, Shape::Vec | Shape::OptionVec)
            && !matches!(self.value, ValueKind::KeyValue { .. })
    }
}

/// What one argument says about others.
#[derive(Default)]
pub(crate) struct ArgRelations {
    pub(crate) conflicts_with: Vec<String>,
    pub(crate) requires: Vec<String>,
    pub(crate) required_unless_any: Vec<String>,
    pub(crate) required_unless_all: Vec<String>,
    pub(crate) required_if_eq: Vec<(String, String)>,
    pub(crate) exclusive: bool,
    /// `overrides_with(_all)`: on the command line the later one wins; in
    /// a call, which has no order, both given is refused.
    pub(crate) overrides_with: Vec<String>,
    pub(crate) groups: Vec<String>,
    /// Relations whose ids an expression gives (`conflicts_with_all =
    /// list::CONFLICTS`): evaluated through clap's `Id` conversions when
    /// the table is built.
    pub(crate) computed: Vec<ComputedRelation>,
}

/// One relation of ids written as an expression.
pub(crate) struct ComputedRelation {
    /// The runtime's `RelationKind` variant it adds to.
    pub(crate) kind: &'static str,
    /// `_all`/`_any`: a list (`IntoIterator<Item = impl Into<Id>>`), not
    /// one id (`IntoResettable<Id>`).
    pub(crate) many: bool,
    pub(crate) expr: syn::Expr,
}

impl ArgRelations {
    /// Whether any relation ties the argument to another.
    pub(crate) fn ties(&self) -> bool {
        !(self.conflicts_with.is_empty()
            && self.requires.is_empty()
            && self.required_unless_any.is_empty()
            && self.required_unless_all.is_empty()
            && self.required_if_eq.is_empty()
            && !self.exclusive
            && self.overrides_with.is_empty()
            && self.groups.is_empty()
            && self.computed.is_empty())
    }

    /// Whether the argument is required only under a condition.
    pub(crate) fn is_conditional(&self) -> bool {
        !self.required_unless_any.is_empty()
            || !self.required_unless_all.is_empty()
            || !self.required_if_eq.is_empty()
            || self
                .computed
                .iter()
                .any(|c| c.kind.starts_with("RequiredUnless"))
    }
}

/// A group of arguments: `#[group(...)]` on a struct, or one named by
/// `#[arg(group = "...")]`.
pub(crate) struct GroupDecl {
    pub(crate) id: String,
    pub(crate) required: bool,
    pub(crate) multiple: bool,
    /// Extra members named with `args = [...]`.
    pub(crate) args: Vec<String>,
    pub(crate) conflicts_with: Vec<String>,
    pub(crate) requires: Vec<String>,
    /// Whether the struct's own arguments are its members (clap's
    /// per-struct group).
    pub(crate) struct_members: bool,
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) name: String,
    /// `#[command(name = EXPR)]` that is no literal: a `&'static str`
    /// constant, in place of `name`.
    pub(crate) name_expr: Option<Expr>,
    /// The `#[command(name = "...")]` literal, when the name is given.
    pub(crate) name_span: Option<Span>,
    pub(crate) layer: Layer,
    pub(crate) kind: VariantKind<'a>,
    /// Groups built with `#[command(group(ArgGroup::new(..)...))]` on the
    /// variant.
    pub(crate) builder_groups: Vec<GroupDecl>,
}

impl Variant<'_> {
    /// The subcommand's name as generated code says it: the literal, or
    /// the user's constant.
    pub(crate) fn name_tokens(&self) -> proc_macro2::TokenStream {
        match &self.name_expr {
            Some(expr) => quote::quote!(#expr),
            None => {
                let name = &self.name;
                quote::quote!(#name)
            }
        }
    }
}

pub(crate) enum VariantKind<'a> {
    Unit,
    Named(Vec<Field<'a>>),
    /// A newtype variant over an `Args` struct.
    Args(Type),
    /// `#[command(subcommand)]` on a newtype variant: a nested subcommand enum.
    Subcommand(Type),
    /// `#[command(flatten)]`: the inner enum's variants at this level.
    Flatten(Type),
    /// `#[command(external_subcommand)]` over `Vec<T>` (`String` or
    /// `OsString`): a tool taking a command the CLI does not define, by
    /// name, and its arguments; `T` is held.
    External(Type),
    /// `#[command(skip)]`: not a tool.
    NotATool,
}

/// What `#[mcp(task = "...")]` asks (a bare `task` is `Optional`); the
/// runtime's `TaskSupport` of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TaskMode {
    Optional,
    Required,
    Deferred,
}

impl TaskMode {
    /// The modes by the names `task = "..."` takes.
    pub(crate) const NAMED: [(&'static str, Self); 3] = [
        ("optional", Self::Optional),
        ("required", Self::Required),
        ("deferred", Self::Deferred),
    ];
}
