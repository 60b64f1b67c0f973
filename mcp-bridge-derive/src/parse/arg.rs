//! One argument: a field's `#[arg(...)]` keys, its type's shape, and how
//! its values are converted.

use syn::spanned::Spanned as _;
use syn::{Expr, Ident, Type};

use super::attr::{self, keys, ClapAttrKind, ClapItem, McpPlace};
use super::doc::doc_help;
use super::lit::{int_literal, path_ends_with, str_literal};
use super::naming::{unraw, Naming};
use super::{option_text, relations, ty};
use crate::ctxt::Ctxt;
use crate::model::{
    Action, Arg, BoolValue, CharValue, DefaultIfs, DefaultValue, Direct, DirectValue, EnvName,
    Missing, NumArgs, Shape, Text, ValueKind,
};

pub(super) fn arg(
    cx: &Ctxt,
    field: &syn::Field,
    ident: &Ident,
    items: &[ClapItem],
    naming: Naming,
) -> Arg {
    let casing = naming.casing;
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
    let mut global = BoolValue::Lit(false);
    let mut last = BoolValue::Lit(false);
    let mut hide = BoolValue::Lit(false);
    // `Some(None)`: explicitly unset (`help = None`), which hides the doc comment.
    let mut help: Option<Option<Text>> = None;
    let mut long_help: Option<Option<Text>> = None;
    let mut ignore_case = BoolValue::Lit(false);
    let mut delimiter = None;
    let mut env = None;
    let mut value_optional = false;
    let mut num_args = None;
    let mut aliases = Vec::new();
    let mut short_aliases = Vec::new();
    let mut default_ifs = Vec::new();

    for item in items.iter().filter(|i| i.kind == ClapAttrKind::Arg) {
        let key = item.key.to_string();
        match key.as_str() {
            keys::ID | keys::NAME => match item.lit_str() {
                Some(value) => {
                    id = value;
                    id_assigned = true;
                }
                None => names_needed(cx, item),
            },
            keys::LONG => {
                has_long_or_short = true;
                long = Some(match item.lit_str() {
                    Some(value) => value,
                    None if item.expr().is_some() => {
                        names_needed(cx, item);
                        continue;
                    }
                    None if id_assigned => id.clone(),
                    None => casing.apply(&id),
                });
            }
            keys::SHORT => {
                has_long_or_short = true;
                short = match item.lit_char() {
                    Some(c) => Some(c),
                    None if item.expr().is_some() => {
                        names_needed(cx, item);
                        continue;
                    }
                    None if id_assigned => id.chars().next(),
                    None => casing.apply_char(&id),
                };
            }
            keys::ACTION => match item.expr().map(action_of) {
                // A bare `action`: the type's default action, as without it.
                None => {}
                Some(Some(known)) => action = Some(known),
                Some(None) => cx.error_at(
                    item.expr().map_or(&item.key as &dyn quote::ToTokens, |e| e as &dyn quote::ToTokens),
                    "mcp-bridge reads `action` as a path to one of clap's `ArgAction` variants \
                     (`ArgAction::Count`, `clap::ArgAction::SetTrue`, ...): the JSON type of the \
                     property depends on it",
                ),
            },
            keys::VALUE_PARSER => value_parser = item.expr().cloned(),
            // clap takes no value here (and reports one itself).
            keys::VALUE_ENUM => value_enum = true,
            keys::DEFAULT_VALUE | keys::DEFAULT_VALUE_OS => {
                if let Some(expr) = item.expr() {
                    default = match str_literal(expr) {
                        Some(_) => DefaultValue::Texts(vec![expr.clone()]),
                        None => DefaultValue::One(expr.clone()),
                    };
                }
            }
            keys::DEFAULT_VALUES | keys::DEFAULT_VALUES_OS => {
                let literal = match item.expr() {
                    Some(Expr::Array(array)) => Some(array),
                    Some(Expr::Reference(r)) => match &*r.expr {
                        Expr::Array(array) => Some(array),
                        _ => None,
                    },
                    _ => None,
                };
                match (literal, item.expr()) {
                    (Some(array), _) => {
                        default = DefaultValue::Texts(array.elems.iter().cloned().collect());
                    }
                    // A constant list, evaluated as clap evaluates it.
                    (None, Some(expr)) => default = DefaultValue::TextsOf(expr.clone()),
                    (None, None) => {}
                }
            }
            keys::DEFAULT_VALUE_T => default = DefaultValue::ValueT(item.expr().cloned()),
            keys::DEFAULT_VALUES_T => {
                if let Some(expr) = item.expr() {
                    default = DefaultValue::ValuesT(expr.clone());
                }
            }
            keys::DEFAULT_VALUE_OS_T => default = DefaultValue::OsT(item.expr().cloned()),
            keys::DEFAULT_VALUES_OS_T => {
                if let Some(expr) = item.expr() {
                    default = DefaultValue::OsValuesT(expr.clone());
                }
            }
            keys::DEFAULT_MISSING_VALUE | keys::DEFAULT_MISSING_VALUE_OS => {
                default_missing = item.expr().cloned().map(Missing::One);
            }
            keys::DEFAULT_MISSING_VALUES | keys::DEFAULT_MISSING_VALUES_OS => {
                default_missing = item.expr().cloned().map(Missing::Many);
            }
            keys::REQUIRED => {
                required = item.literal_bool(cx, "the input schema says which properties are required");
            }
            keys::GLOBAL => global = item.bool_value(),
            keys::LAST => last = item.bool_value(),
            keys::HIDE => hide = item.bool_value(),
            keys::HELP => help = item.expr().map(option_text),
            keys::LONG_HELP => long_help = item.expr().map(option_text),
            keys::IGNORE_CASE => ignore_case = item.bool_value(),
            keys::VALUE_DELIMITER => {
                delimiter = match item.expr() {
                    Some(Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Char(c),
                        ..
                    })) => Some(CharValue::Lit(c.value())),
                    Some(expr) => Some(CharValue::Expr(expr.clone())),
                    None => None,
                }
            }
            // clap 3's switch, still in clap 4: on, `,` unless a delimiter
            // is set already; off, none.
            keys::USE_VALUE_DELIMITER => match item.bool_value() {
                BoolValue::Lit(true) => {
                    delimiter = delimiter.or(Some(CharValue::Lit(',')));
                }
                BoolValue::Lit(false) => delimiter = None,
                BoolValue::Expr(expr) => {
                    let before = match delimiter.take() {
                        Some(CharValue::Lit(c)) => quote::quote!(::core::option::Option::Some(#c)),
                        Some(CharValue::Expr(e)) => quote::quote!(::core::option::Option::<char>::from(#e)),
                        None => quote::quote!(::core::option::Option::None),
                    };
                    let expr: Expr = syn::parse_quote! {
                        match #expr {
                            true => ::core::option::Option::Some(::core::option::Option::unwrap_or(#before, ',')),
                            false => ::core::option::Option::<char>::None,
                        }
                    };
                    delimiter = Some(CharValue::Expr(expr));
                }
            },
            keys::ENV | keys::ENV_OS => {
                env = Some(match (item.lit_str(), item.expr()) {
                    (Some(name), _) => EnvName::Lit(name),
                    (None, Some(expr)) => EnvName::Expr(expr.clone()),
                    (None, None) => EnvName::Lit(naming.env.apply(&id)),
                });
            }
            keys::RAW
                if item
                    .literal_bool(cx, "it decides whether the property is a list")
                    .unwrap_or(false) =>
            {
                num_args.get_or_insert(NumArgs::Lit(1, None));
                last = BoolValue::Lit(true);
            }
            keys::NUM_ARGS | keys::NUMBER_OF_VALUES => match item.expr() {
                Some(expr) => match literal_arity(expr) {
                    Some(range) => {
                        value_optional = range.0 == 0;
                        num_args = Some(NumArgs::Lit(range.0, range.1));
                    }
                    None => num_args = Some(NumArgs::Expr(expr.clone())),
                },
                None => cx.error_at(&item.key, "`num_args` needs a value"),
            },
            keys::ALIAS
            | keys::ALIASES
            | keys::VISIBLE_ALIAS
            | keys::VISIBLE_ALIASES
            | keys::SHORT_ALIAS
            | keys::SHORT_ALIASES
            | keys::VISIBLE_SHORT_ALIAS
            | keys::VISIBLE_SHORT_ALIASES => match item.literal_list() {
                Some(literals) => {
                    let short = key.contains("short");
                    for literal in literals {
                        match (literal, short) {
                            (syn::Lit::Str(s), false) => aliases.push(s.value()),
                            (syn::Lit::Char(c), true) => short_aliases.push(c.value()),
                            (other, _) => cx.error_at(
                                &other,
                                format!("`{key}` takes {}", if short { "characters" } else { "strings" }),
                            ),
                        }
                    }
                }
                None => cx.error_at(
                    item.expr().map_or(&item.key as &dyn quote::ToTokens, |e| e as &dyn quote::ToTokens),
                    format!(
                        "mcp-bridge reads `{key}` only as literals (`\"name\"`, `[\"a\", \"b\"]`, `'c'`): \
                         a call naming an alias is told the property's name; write the aliases out"
                    ),
                ),
            },
            // Malformed, clap's own call reports it.
            keys::DEFAULT_VALUE_IF | keys::DEFAULT_VALUE_IF_OS | keys::DEFAULT_VALUES_IF => {
                if let Some([arg, predicate, default]) = item.call_args().as_deref() {
                    let (arg, predicate, default) = (arg.clone(), predicate.clone(), default.clone());
                    default_ifs.push(match item.is(keys::DEFAULT_VALUES_IF) {
                        true => DefaultIfs::Values(arg, predicate, default),
                        false => DefaultIfs::One(arg, predicate, default),
                    });
                }
            }
            keys::DEFAULT_VALUE_IFS | keys::DEFAULT_VALUE_IFS_OS => {
                if let Some(expr) = item.expr() {
                    default_ifs.push(DefaultIfs::Many(expr.clone()));
                }
            }
            keys::DEFAULT_VALUES_IFS => {
                if let Some(expr) = item.expr() {
                    default_ifs.push(DefaultIfs::ManyValues(expr.clone()));
                }
            }
            _ => {}
        }
    }

    let shape = ty::shape_of(&field.ty);
    let inner = ty::inner_type(&field.ty, shape).clone();
    let action = action.unwrap_or(match shape {
        Shape::Bool => Action::SetTrue,
        Shape::Vec | Shape::OptionVec => Action::Append,
        _ => Action::Set,
    });

    let value = value_kind(cx, &inner, shape, value_parser, value_enum);
    if let Some(NumArgs::Expr(expr)) = &num_args {
        let list = matches!(shape, Shape::Vec | Shape::OptionVec)
            && !matches!(value, ValueKind::KeyValue { .. });
        if !list {
            cx.error_at(
                expr,
                "mcp-bridge evaluates a `num_args` expression only on a list field (`Vec<T>`): \
                 on a single value it decides whether the property accepts `null`, which the \
                 schema states at compile time; write an integer or a range of integer literals \
                 (`1`, `0..=1`)",
            );
        }
    }

    let takes_values = matches!(action, Action::Set | Action::Append);
    let required = match required {
        Some(explicit) => explicit,
        None => matches!(shape, Shape::Other | Shape::Bool) && takes_values && !default.is_some(),
    };

    let verbatim = attr::has(items, keys::VERBATIM_DOC_COMMENT);
    // A bare `long_help`: the doc comment is the long help, even of one
    // paragraph.
    let force_long = items
        .iter()
        .any(|i| i.kind == ClapAttrKind::Arg && i.is(keys::LONG_HELP) && i.expr().is_none());
    let doc = doc_help(&field.attrs, verbatim, force_long);
    let help = help.unwrap_or_else(|| doc.short.map(Text::Lit));
    let long_help = long_help.unwrap_or_else(|| doc.long.map(Text::Lit));

    let mut arg = Arg {
        id,
        long,
        short,
        positional: !has_long_or_short,
        shape,
        inner_builtin: ty::builtin(&inner),
        inner,
        action,
        value,
        default,
        default_missing,
        required,
        global,
        last,
        hide,
        help,
        long_help,
        ignore_case,
        delimiter,
        mcp: attr::mcp_attrs(
            cx,
            &field.attrs,
            if items.iter().any(|item| item.key == keys::FROM_GLOBAL) {
                McpPlace::FromGlobalField
            } else {
                McpPlace::ArgField
            },
        ),
        span: field.span(),
        relations: relations::arg_relations(cx, items),
        env,
        value_optional,
        num_args,
        aliases,
        short_aliases,
        direct: None,
        auto_name: None,
        default_ifs,
        cross_name: None,
    };
    if arg.mcp.json.is_some() {
        // Offered as JSON, deserialized by serde: whatever parser the CLI
        // reads the text with.
        arg.value = ValueKind::Json;
    }
    arg.direct = if is_unit(&field.ty) {
        // `()`: clap accepts the flag and stores nothing.
        Some(DirectValue::Unit)
    } else {
        direct_value(&arg)
    };
    arg
}

fn is_unit(ty: &Type) -> bool {
    matches!(ty, Type::Tuple(tuple) if tuple.elems.is_empty())
}

/// An argument's id, long or short name given as an expression: property
/// names are checked at compile time, so they must be literals.
fn names_needed(cx: &Ctxt, item: &ClapItem) {
    let what = if item.is(keys::SHORT) {
        "a character literal"
    } else {
        "a string literal"
    };
    match item.expr() {
        Some(expr) => cx.error_at(
            expr,
            format!(
                "mcp-bridge reads `{}` only as {what}: tool property names are checked at compile \
                 time; write the name out",
                item.key
            ),
        ),
        None => cx.error_at(&item.key, format!("`{}` needs a value", item.key)),
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
        "Help" | "HelpShort" | "HelpLong" | "Version" => Action::Info,
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
    // `value_parser!(T)` is what clap uses when no parser is given: the
    // converter is chosen by type, as without it. Written out, it wins
    // over `value_enum` (which only picks the parser clap would use
    // otherwise), so `T` need not be a `ValueEnum`.
    let explicit_default = parser.as_ref().is_some_and(is_default_parser);
    let value_enum = value_enum && !explicit_default;
    let parser = parser.filter(|parser| !is_default_parser(parser));
    // `ValueParser::new(f)` parses with `f`.
    let parser = parser.map(unwrap_value_parser_new);
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
                    let value = tuple.elems[1].clone();
                    return ValueKind::KeyValue {
                        parser,
                        value_builtin: ty::builtin(&value),
                        value,
                    };
                }
            }
        }
        return ValueKind::Parser(parser);
    }
    if value_enum {
        return ValueKind::Enum;
    }
    if let Some(value) = ty::map_value(inner) {
        return ValueKind::Map {
            value: value.clone(),
            value_builtin: ty::builtin(value),
        };
    }
    match ty::builtin(inner) {
        Some(crate::model::Builtin::Duration) | None => ValueKind::Auto,
        Some(builtin) => ValueKind::Builtin(builtin),
    }
}

/// `value_parser!(T)` alone (any path to the macro).
fn is_default_parser(expr: &Expr) -> bool {
    matches!(expr, Expr::Macro(mac)
        if mac.mac.path.segments.last().is_some_and(|s| s.ident == "value_parser"))
}

/// `ValueParser::new(f)` (any path to the type) → `f`.
fn unwrap_value_parser_new(expr: Expr) -> Expr {
    match &expr {
        Expr::Call(call)
            if call.args.len() == 1 && path_ends_with(&call.func, &["ValueParser", "new"]) =>
        {
            call.args[0].clone()
        }
        _ => expr,
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

/// The value of a skipped argument that needs no converter: its typed
/// default (`default_value_t`, `default_values_t`), or what clap gives an
/// absent optional argument. `None` when the argument is exposed, reads an
/// environment variable, has a textual default (parsed like clap does), or
/// has a `value_parser` (which could transform the default).
fn direct_value(arg: &Arg) -> Option<DirectValue> {
    if arg.action == Action::Info {
        // clap prints help or the version and exits: the field never gets
        // a value from the command line.
        return Some(match arg.shape {
            Shape::Option | Shape::OptionOption | Shape::OptionVec => DirectValue::None,
            Shape::Vec => DirectValue::EmptyVec,
            Shape::Bool | Shape::Other => DirectValue::Value {
                value: Direct::Default,
                some: false,
            },
        });
    }
    if arg.mcp.skip.is_none()
        || arg.env.is_some()
        || !matches!(arg.action, Action::Set | Action::Append)
        || !matches!(
            arg.value,
            ValueKind::Builtin(_) | ValueKind::Auto | ValueKind::Enum
        )
    {
        return None;
    }
    let value = |value: Direct, some: bool| Some(DirectValue::Value { value, some });
    match (&arg.default, arg.shape) {
        (DefaultValue::ValueT(Some(expr)), Shape::Other | Shape::Bool) => {
            value(Direct::Typed(expr.clone()), false)
        }
        (DefaultValue::ValueT(Some(expr)), Shape::Option) => {
            value(Direct::Typed(expr.clone()), true)
        }
        (DefaultValue::ValueT(None), Shape::Other | Shape::Bool) => value(Direct::Default, false),
        (DefaultValue::ValueT(None), Shape::Option) => value(Direct::Default, true),
        (DefaultValue::ValuesT(expr), Shape::Vec) => value(Direct::Collected(expr.clone()), false),
        (DefaultValue::ValuesT(expr), Shape::OptionVec) => {
            value(Direct::Collected(expr.clone()), true)
        }
        (DefaultValue::None, Shape::Option | Shape::OptionOption | Shape::OptionVec)
            if !arg.required =>
        {
            Some(DirectValue::None)
        }
        (DefaultValue::None, Shape::Vec) if !arg.required => Some(DirectValue::EmptyVec),
        _ => None,
    }
}
