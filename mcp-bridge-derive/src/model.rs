//! The command model: what the derive understood from the user's types,
//! with the syn nodes kept so checks can point at the user's tokens. No
//! token generation happens here.

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::spanned::Spanned as _;
use syn::{Expr, GenericArgument, Ident, PathArguments, Type};

use crate::attr::{self, ClapItem, McpAttrs, McpPlace};
use crate::ctxt::Ctxt;
use crate::doc::{doc_help, DocHelp};
use crate::naming::{unraw, Casing};

pub(crate) enum Input<'a> {
    Struct(Container<'a>, Vec<Field<'a>>),
    Enum(Container<'a>, Vec<Variant<'a>>),
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
    pub(crate) group: Option<crate::relations::GroupDecl>,
    /// Groups built with `#[command(group(ArgGroup::new(..)...))]`.
    pub(crate) builder_groups: Vec<crate::relations::GroupDecl>,
}

/// The help and visibility attributes one item applies to a command, in
/// clap's order: the doc comment first, then explicit methods.
#[derive(Default)]
pub(crate) struct Layer {
    pub(crate) about: Option<Option<TokenStream>>,
    pub(crate) long_about: Option<Option<TokenStream>>,
    pub(crate) hide: Option<bool>,
    pub(crate) version: Option<TokenStream>,
    pub(crate) mcp: McpAttrs,
    /// The literal help texts, when known, for checks and docs.
    pub(crate) doc: DocHelp,
}

pub(crate) struct Field<'a> {
    pub(crate) member: syn::Member,
    pub(crate) original: &'a syn::Field,
    pub(crate) kind: FieldKind,
}

pub(crate) enum FieldKind {
    Arg(Box<Arg>),
    Flatten(Type),
    Subcommand {
        inner: Type,
        optional: bool,
    },
    /// `#[arg(skip)]` / `#[command(skip)]`: not an argument; the value is
    /// the expression or `Default::default()`.
    Skip(Option<Expr>),
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
    KeyValue { parser: Expr, value: Type },
    /// `HashMap`/`BTreeMap<String, V>`.
    Map { value: Type },
    /// Anything else: picked at compile time by trait resolution.
    Auto,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    String,
    OsString,
    PathBuf,
    Char,
    Bool,
    Integer,
    Float,
    Duration,
    IpAddr,
    Ipv4Addr,
    Ipv6Addr,
    SocketAddr,
}

impl Builtin {
    pub(crate) fn of(ty: &Type) -> Option<Builtin> {
        let name = last_segment(ty)?;
        Some(match name.as_str() {
            "String" => Builtin::String,
            "OsString" => Builtin::OsString,
            "PathBuf" => Builtin::PathBuf,
            "char" => Builtin::Char,
            "bool" => Builtin::Bool,
            "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
            | "u128" | "usize" => Builtin::Integer,
            "f32" | "f64" => Builtin::Float,
            "Duration" => Builtin::Duration,
            "IpAddr" => Builtin::IpAddr,
            "Ipv4Addr" => Builtin::Ipv4Addr,
            "Ipv6Addr" => Builtin::Ipv6Addr,
            "SocketAddr" => Builtin::SocketAddr,
            _ => return None,
        })
    }
}

/// Where a default comes from.
pub(crate) enum DefaultValue {
    None,
    /// `default_value = "..."` / `default_values = [...]`: texts.
    Texts(Vec<Expr>),
    /// `default_value_t [= expr]`: displayed at run time.
    ValueT(Option<Expr>),
    /// `default_values_t = expr`.
    ValuesT(Expr),
}

impl DefaultValue {
    pub(crate) fn is_some(&self) -> bool {
        !matches!(self, DefaultValue::None)
    }
}

pub(crate) struct Arg {
    pub(crate) id: String,
    pub(crate) long: Option<String>,
    pub(crate) short: Option<char>,
    pub(crate) positional: bool,
    pub(crate) shape: Shape,
    /// The type of one value (inside `Option`/`Vec`).
    pub(crate) inner: Type,
    pub(crate) action: Action,
    pub(crate) value: ValueKind,
    pub(crate) default: DefaultValue,
    pub(crate) default_missing: Option<Expr>,
    pub(crate) required: bool,
    pub(crate) global: bool,
    pub(crate) hide: bool,
    pub(crate) help: Option<TokenStream>,
    pub(crate) long_help: Option<TokenStream>,
    pub(crate) ignore_case: bool,
    pub(crate) delimiter: Option<char>,
    pub(crate) mcp: McpAttrs,
    pub(crate) span: Span,
    pub(crate) relations: crate::relations::ArgRelations,
    /// `env = "NAME"` (or bare `env`: the id in SCREAMING_SNAKE_CASE).
    pub(crate) env: Option<String>,
    /// `num_args = 0..=1` (or `0..`): the flag may be given without a value.
    pub(crate) value_optional: bool,
    /// `num_args` as (min, max) values per use, when given.
    pub(crate) num_args: Option<(u32, Option<u32>)>,
}

impl Arg {
    /// The property name: the long name for flags, the id otherwise.
    pub(crate) fn property(&self) -> String {
        if let Some(name) = &self.mcp.name {
            return name.value.clone();
        }
        match (&self.long, self.positional) {
            (Some(long), false) => long.clone(),
            _ => self.id.clone(),
        }
    }

    pub(crate) fn multiple(&self) -> bool {
        matches!(self.shape, Shape::Vec | Shape::OptionVec)
            && !matches!(self.value, ValueKind::KeyValue { .. })
    }
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) name: String,
    /// The `#[command(name = "...")]` literal, when the name is given.
    pub(crate) name_span: Option<Span>,
    pub(crate) layer: Layer,
    pub(crate) kind: VariantKind<'a>,
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
    /// `#[command(skip)]`, `#[command(external_subcommand)]`: not a tool.
    NotATool,
}

// ---------------------------------------------------------------------------
// Reading syn into the model.

pub(crate) fn from_syn<'a>(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Input<'a>> {
    let items = attr::clap_items(&input.attrs);
    let casing = casing_of(cx, &items).unwrap_or(Casing::Kebab);
    let container = Container {
        ident: &input.ident,
        generics: &input.generics,
        layer: layer(cx, &input.attrs, &items, McpPlace::Container),
        name: attr::last(&items, "name").and_then(|i| i.expr().cloned()),
        group: match &input.data {
            syn::Data::Struct(_) => {
                crate::relations::struct_group(cx, &items, &input.ident.to_string())
            }
            _ => None,
        },
        builder_groups: crate::relations::command_groups(cx, &items),
    };
    match &input.data {
        syn::Data::Struct(data) => {
            let fields = fields(cx, &data.fields, casing);
            Some(Input::Struct(container, fields))
        }
        syn::Data::Enum(data) => {
            let variants = data
                .variants
                .iter()
                .map(|v| variant(cx, v, casing))
                .collect();
            Some(Input::Enum(container, variants))
        }
        syn::Data::Union(_) => {
            cx.error_at(input, "McpTool cannot be derived for unions; use a struct (clap `Parser`/`Args`) or an enum (clap `Subcommand`)");
            None
        }
    }
}

fn casing_of(cx: &Ctxt, items: &[ClapItem]) -> Option<Casing> {
    let item = attr::last(items, "rename_all")?;
    match item.lit_str() {
        Some(value) => Casing::parse(&value).or_else(|| {
            // clap rejects it too; say so once.
            cx.error_at(&item.key, format!("unsupported casing: `{value}`"));
            None
        }),
        None => None,
    }
}

fn layer(cx: &Ctxt, attrs: &[syn::Attribute], items: &[ClapItem], place: McpPlace) -> Layer {
    let verbatim = attr::has(items, "verbatim_doc_comment");
    let doc = doc_help(attrs, verbatim);
    let mut layer = Layer {
        mcp: attr::mcp_attrs(cx, attrs, place),
        ..Layer::default()
    };
    if doc.present {
        layer.about = Some(doc.short.clone().map(|s| quote!(#s)));
        layer.long_about = Some(doc.long.clone().map(|s| quote!(#s)));
    }
    layer.doc = doc;
    for item in items
        .iter()
        .filter(|i| i.kind == attr::ClapAttrKind::Command)
    {
        let key = item.key.to_string();
        match key.as_str() {
            "about" => {
                let text = match item.expr() {
                    Some(expr) => option_text(expr),
                    None => quote!(::core::env!("CARGO_PKG_DESCRIPTION")),
                };
                layer.about = Some((!text.is_empty()).then_some(text));
            }
            "long_about" => {
                if let Some(expr) = item.expr() {
                    let text = option_text(expr);
                    layer.long_about = Some((!text.is_empty()).then_some(text));
                }
            }
            "hide" => layer.hide = Some(item.flag_value()),
            "version" => {
                layer.version = Some(match item.expr() {
                    Some(expr) => expr.to_token_stream(),
                    None => quote!(::core::env!("CARGO_PKG_VERSION")),
                });
            }
            _ => {}
        }
    }
    layer
}

/// `Some(expr)` → tokens of a `&str`; `None` → empty tokens (meaning unset).
fn option_text(expr: &Expr) -> TokenStream {
    if let Expr::Path(path) = expr {
        if path.path.is_ident("None") {
            return TokenStream::new();
        }
    }
    quote!(#expr)
}

fn fields<'a>(cx: &Ctxt, fields: &'a syn::Fields, casing: Casing) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let member = match &field.ident {
                Some(ident) => syn::Member::Named(ident.clone()),
                None => syn::Member::Unnamed(index.into()),
            };
            let kind = field_kind(cx, field, casing)?;
            Some(Field {
                member,
                original: field,
                kind,
            })
        })
        .collect()
}

fn field_kind(cx: &Ctxt, field: &syn::Field, casing: Casing) -> Option<FieldKind> {
    let items = attr::clap_items(&field.attrs);
    for item in items.iter().rev() {
        match item.key.to_string().as_str() {
            "skip" if item.kind != attr::ClapAttrKind::Group => {
                reject_mcp_on_nesting(cx, field, McpPlace::SkippedField);
                return Some(FieldKind::Skip(item.expr().cloned()));
            }
            "flatten" => {
                reject_mcp_on_nesting(cx, field, McpPlace::NestingField);
                return Some(FieldKind::Flatten(field.ty.clone()));
            }
            "subcommand" => {
                reject_mcp_on_nesting(cx, field, McpPlace::NestingField);
                let (inner, optional) = match option_inner(&field.ty) {
                    Some(inner) => (inner.clone(), true),
                    None => (field.ty.clone(), false),
                };
                return Some(FieldKind::Subcommand { inner, optional });
            }
            "from_global" => {
                cx.error_at(
                    &item.key,
                    "`from_global` is not supported by mcp-bridge yet; read the global from the struct that declares it",
                );
                return None;
            }
            _ => {}
        }
    }
    let Some(ident) = &field.ident else {
        cx.error_at(
            field,
            "McpTool needs named fields for arguments, as clap does",
        );
        return None;
    };
    Some(FieldKind::Arg(Box::new(arg(
        cx, field, ident, &items, casing,
    ))))
}

fn reject_mcp_on_nesting(cx: &Ctxt, field: &syn::Field, place: McpPlace) {
    let _ = attr::mcp_attrs(cx, &field.attrs, place);
}

fn arg(cx: &Ctxt, field: &syn::Field, ident: &Ident, items: &[ClapItem], casing: Casing) -> Arg {
    let mut id = unraw(ident);
    let mut id_assigned = false;
    let mut long = None;
    let mut short = None;
    let mut has_long_or_short = false;
    let mut action = None;
    let mut value_parser = None;
    let mut value_enum = false;
    let mut default = DefaultValue::None;
    let mut default_missing = None;
    let mut required = None;
    let mut global = false;
    let mut hide = false;
    let mut help = None;
    let mut long_help = None;
    let mut ignore_case = false;
    let mut delimiter = None;
    let mut env = None;
    let mut value_optional = false;
    let mut num_args = None;
    let mut env_span = None;

    for item in items.iter().filter(|i| i.kind == attr::ClapAttrKind::Arg) {
        let key = item.key.to_string();
        match key.as_str() {
            "id" | "name" => {
                if let Some(value) = item.lit_str() {
                    id = value;
                    id_assigned = true;
                }
            }
            "long" => {
                has_long_or_short = true;
                long = Some(match item.lit_str() {
                    Some(value) => value,
                    None if id_assigned => id.clone(),
                    None => casing.apply(&id),
                });
            }
            "short" => {
                has_long_or_short = true;
                short = match item.lit_char() {
                    Some(c) => Some(c),
                    None if id_assigned => id.chars().next(),
                    None => casing.apply_char(&id),
                };
            }
            "action" => action = item.expr().and_then(action_of),
            "value_parser" => value_parser = item.expr().cloned(),
            "value_enum" => value_enum = true,
            "default_value" => {
                if let Some(expr) = item.expr() {
                    default = DefaultValue::Texts(vec![expr.clone()]);
                }
            }
            "default_values" => {
                if let Some(Expr::Array(array)) = item.expr() {
                    default = DefaultValue::Texts(array.elems.iter().cloned().collect());
                } else if let Some(Expr::Reference(r)) = item.expr() {
                    if let Expr::Array(array) = &*r.expr {
                        default = DefaultValue::Texts(array.elems.iter().cloned().collect());
                    }
                }
            }
            "default_value_t" => default = DefaultValue::ValueT(item.expr().cloned()),
            "default_values_t" => {
                if let Some(expr) = item.expr() {
                    default = DefaultValue::ValuesT(expr.clone());
                }
            }
            "default_missing_value" => default_missing = item.expr().cloned(),
            "required" => required = Some(item.flag_value()),
            "global" => global = item.flag_value(),
            "hide" => hide = item.flag_value(),
            "help" => help = item.expr().map(option_text),
            "long_help" => long_help = item.expr().map(option_text),
            "ignore_case" => ignore_case = item.flag_value(),
            "value_delimiter" => delimiter = item.lit_char(),
            "env" => {
                env_span = Some(item.key.span());
                env = Some(match item.lit_str() {
                    Some(name) => name,
                    None if item.expr().is_some() => {
                        cx.error_at(&item.key, "mcp-bridge reads `env` only as a string literal");
                        continue;
                    }
                    None => Casing::ScreamingSnake.apply(&id),
                });
            }
            "num_args" => match item.expr().and_then(literal_arity) {
                Some(range) => {
                    value_optional = range.0 == 0;
                    num_args = Some(range);
                }
                None => cx.error_at(
                    &item.key,
                    "mcp-bridge reads `num_args` only as an integer literal or a literal range (`2`, `1..=3`, `0..`)",
                ),
            },
            "default_value_if" | "default_value_ifs" => cx.error_at(
                &item.key,
                format!(
                    "`{}` is not supported by mcp-bridge yet: the default would depend on other arguments, \
                     which MCP calls could not mirror; use a plain default",
                    item.key
                ),
            ),
            _ => {}
        }
    }

    let shape = shape_of(&field.ty);
    let inner = inner_type(&field.ty, shape).clone();
    let action = action.unwrap_or(match shape {
        Shape::Bool => Action::SetTrue,
        Shape::Vec | Shape::OptionVec => Action::Append,
        _ => Action::Set,
    });

    let value = value_kind(cx, &inner, shape, value_parser, value_enum);
    if env.is_some() && !matches!(action, Action::Set | Action::Append) {
        cx.error_span(
            env_span.unwrap_or_else(|| field.span()),
            "`env` on a flag is not supported by mcp-bridge yet: clap reads the variable's text as a boolean or count, which MCP calls could not mirror",
        );
    }

    let takes_values = matches!(action, Action::Set | Action::Append);
    let required = match required {
        Some(explicit) => explicit,
        None => matches!(shape, Shape::Other | Shape::Bool) && takes_values && !default.is_some(),
    };

    let verbatim = attr::has(items, "verbatim_doc_comment");
    let doc = doc_help(&field.attrs, verbatim);
    let help = help.or_else(|| doc.short.as_ref().map(|s| quote!(#s)));
    let long_help = long_help.or_else(|| doc.long.as_ref().map(|s| quote!(#s)));

    Arg {
        id,
        long,
        short,
        positional: !has_long_or_short,
        shape,
        inner,
        action,
        value,
        default,
        default_missing,
        required,
        global,
        hide,
        help: help.filter(|t| !t.is_empty()),
        long_help: long_help.filter(|t| !t.is_empty()),
        ignore_case,
        delimiter,
        mcp: attr::mcp_attrs(cx, &field.attrs, McpPlace::ArgField),
        span: field.span(),
        relations: crate::relations::arg_relations(cx, items),
        env,
        value_optional,
        num_args,
    }
}

/// `num_args = 2`, `1..=3`, `0..`, `..=2` as (min, max) values per use.
fn literal_arity(expr: &Expr) -> Option<(u32, Option<u32>)> {
    if let Some(n) = int_literal(expr) {
        let n = u32::try_from(n).ok()?;
        return Some((n, Some(n)));
    }
    let Expr::Range(range) = expr else {
        return None;
    };
    let min = match &range.start {
        Some(start) => u32::try_from(int_literal(start)?).ok()?,
        None => 0,
    };
    let max = match &range.end {
        Some(end) => {
            let end = u32::try_from(int_literal(end)?).ok()?;
            Some(match range.limits {
                syn::RangeLimits::HalfOpen(_) => end.checked_sub(1)?,
                syn::RangeLimits::Closed(_) => end,
            })
        }
        None => None,
    };
    Some((min, max))
}

fn action_of(expr: &Expr) -> Option<Action> {
    let Expr::Path(path) = expr else { return None };
    let last = path.path.segments.last()?.ident.to_string();
    Some(match last.as_str() {
        "Set" => Action::Set,
        "Append" => Action::Append,
        "SetTrue" => Action::SetTrue,
        "SetFalse" => Action::SetFalse,
        "Count" => Action::Count,
        _ => return None,
    })
}

fn value_kind(
    cx: &Ctxt,
    inner: &Type,
    shape: Shape,
    parser: Option<Expr>,
    value_enum: bool,
) -> ValueKind {
    // A `value_parser` always wins: clap hands it the text, and so do we
    // (a map with a parser of its own is one string in the parser's format).
    if let Some(parser) = parser {
        if let Expr::Array(array) = &parser {
            let values: Option<Vec<String>> = array
                .elems
                .iter()
                .map(|e| match e {
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) => Some(s.value()),
                    _ => None,
                })
                .collect();
            return match values {
                Some(values) => ValueKind::OneOf(values),
                None => {
                    cx.error_at(
                        &parser,
                        "mcp-bridge reads `value_parser = [...]` only as a list of string literals",
                    );
                    ValueKind::Auto
                }
            };
        }
        if let Some((min, max)) = literal_range(&parser) {
            return ValueKind::Range { min, max };
        }
        if matches!(shape, Shape::Vec | Shape::OptionVec) {
            if let Type::Tuple(tuple) = inner {
                if tuple.elems.len() == 2 {
                    return ValueKind::KeyValue {
                        parser,
                        value: tuple.elems[1].clone(),
                    };
                }
            }
        }
        return ValueKind::Parser(parser);
    }
    if value_enum {
        return ValueKind::Enum;
    }
    if let Some(value) = map_value(inner) {
        return ValueKind::Map {
            value: value.clone(),
        };
    }
    match Builtin::of(inner) {
        Some(Builtin::Duration) => ValueKind::Auto,
        Some(builtin) => ValueKind::Builtin(builtin),
        None => ValueKind::Auto,
    }
}

/// `value_parser!(T).range(A..B)` (any path to the macro) with integer
/// literal bounds, as inclusive `(min, max)`.
fn literal_range(expr: &Expr) -> Option<(Option<i128>, Option<i128>)> {
    let Expr::MethodCall(call) = expr else {
        return None;
    };
    if call.method != "range" || call.args.len() != 1 {
        return None;
    }
    let Expr::Macro(mac) = &*call.receiver else {
        return None;
    };
    if mac.mac.path.segments.last()?.ident != "value_parser" {
        return None;
    }
    let Expr::Range(range) = &call.args[0] else {
        return None;
    };
    let start = match &range.start {
        Some(e) => Some(int_literal(e)?),
        None => None,
    };
    let end = match &range.end {
        Some(e) => {
            let n = int_literal(e)?;
            Some(match range.limits {
                syn::RangeLimits::HalfOpen(_) => n - 1,
                syn::RangeLimits::Closed(_) => n,
            })
        }
        None => None,
    };
    Some((start, end))
}

pub(crate) fn int_literal(expr: &Expr) -> Option<i128> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse().ok(),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => int_literal(expr).map(|n| -n),
        Expr::Paren(p) => int_literal(&p.expr),
        Expr::Group(g) => int_literal(&g.expr),
        _ => None,
    }
}

fn variant<'a>(cx: &Ctxt, variant: &'a syn::Variant, casing: Casing) -> Variant<'a> {
    let items = attr::clap_items(&variant.attrs);
    let inner_casing = casing_of(cx, &items).unwrap_or(casing);
    let name = attr::last(&items, "name")
        .and_then(ClapItem::lit_str)
        // A variant's own `rename_all` also cases its name, as in clap.
        .unwrap_or_else(|| inner_casing.apply(&unraw(&variant.ident)));
    let newtype = match &variant.fields {
        syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
            Some(fields.unnamed[0].ty.clone())
        }
        _ => None,
    };
    let command_key = |key: &str| {
        items
            .iter()
            .any(|i| i.kind == attr::ClapAttrKind::Command && i.is(key))
    };
    let kind = if command_key("skip") || command_key("external_subcommand") {
        VariantKind::NotATool
    } else if command_key("flatten") {
        match newtype {
            Some(ty) => VariantKind::Flatten(ty),
            None => {
                cx.error_at(variant, "`#[command(flatten)]` needs a newtype variant");
                VariantKind::NotATool
            }
        }
    } else if command_key("subcommand") {
        match newtype {
            Some(ty) => VariantKind::Subcommand(ty),
            None => {
                cx.error_at(variant, "`#[command(subcommand)]` needs a newtype variant");
                VariantKind::NotATool
            }
        }
    } else {
        match &variant.fields {
            syn::Fields::Unit => VariantKind::Unit,
            syn::Fields::Named(_) => VariantKind::Named(fields(cx, &variant.fields, inner_casing)),
            syn::Fields::Unnamed(_) => match newtype {
                Some(ty) => VariantKind::Args(ty),
                None => {
                    cx.error_at(variant, "a subcommand variant holds one `Args` type or named fields, as clap requires");
                    VariantKind::NotATool
                }
            },
        }
    };
    let place = match kind {
        VariantKind::Flatten(_) => McpPlace::FlattenVariant,
        VariantKind::NotATool => McpPlace::NotACommand,
        _ => McpPlace::Variant,
    };
    let layer = if matches!(kind, VariantKind::Flatten(_) | VariantKind::NotATool) {
        Layer {
            mcp: attr::mcp_attrs(cx, &variant.attrs, place),
            ..Layer::default()
        }
    } else {
        layer(cx, &variant.attrs, &items, place)
    };
    Variant {
        ident: &variant.ident,
        name,
        name_span: attr::last(&items, "name")
            .filter(|item| item.lit_str().is_some())
            .and_then(ClapItem::expr)
            .map(|expr| expr.span()),
        layer,
        kind,
    }
}

// ---------------------------------------------------------------------------
// Type helpers. Like clap, these match the last path segment, so a type
// alias of `Option`/`Vec` is not recognised (documented in the guide).

pub(crate) fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            path.path.segments.last().map(|s| s.ident.to_string())
        }
        Type::Group(group) => last_segment(&group.elem),
        Type::Paren(paren) => last_segment(&paren.elem),
        _ => None,
    }
}

fn generic_args(ty: &Type) -> Vec<&Type> {
    let ty = match ty {
        Type::Group(group) => &*group.elem,
        other => other,
    };
    let Type::Path(path) = ty else {
        return Vec::new();
    };
    let Some(segment) = path.path.segments.last() else {
        return Vec::new();
    };
    match &segment.arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn single_arg<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    if last_segment(ty).as_deref() != Some(wrapper) {
        return None;
    }
    match generic_args(ty).as_slice() {
        [inner] => Some(inner),
        _ => None,
    }
}

pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    single_arg(ty, "Option")
}

fn vec_inner(ty: &Type) -> Option<&Type> {
    single_arg(ty, "Vec")
}

fn map_value(ty: &Type) -> Option<&Type> {
    let name = last_segment(ty)?;
    if name != "HashMap" && name != "BTreeMap" && name != "IndexMap" {
        return None;
    }
    match generic_args(ty).as_slice() {
        [_key, value, ..] => Some(value),
        _ => None,
    }
}

pub(crate) fn shape_of(ty: &Type) -> Shape {
    if last_segment(ty).as_deref() == Some("bool") {
        return Shape::Bool;
    }
    if let Some(inner) = option_inner(ty) {
        if option_inner(inner).is_some() {
            return Shape::OptionOption;
        }
        if vec_inner(inner).is_some() {
            return Shape::OptionVec;
        }
        return Shape::Option;
    }
    if vec_inner(ty).is_some() {
        return Shape::Vec;
    }
    Shape::Other
}

pub(crate) fn inner_type(ty: &Type, shape: Shape) -> &Type {
    match shape {
        Shape::Bool | Shape::Other => ty,
        Shape::Option => option_inner(ty).unwrap_or(ty),
        Shape::Vec => vec_inner(ty).unwrap_or(ty),
        Shape::OptionOption => option_inner(ty).and_then(option_inner).unwrap_or(ty),
        Shape::OptionVec => option_inner(ty).and_then(vec_inner).unwrap_or(ty),
    }
}
