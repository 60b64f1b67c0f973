//! Checks one derive can make on its own, all reported through the
//! accumulator. (Checks across types — tool names made from command paths,
//! collisions, globals — run in `const` items: see `expand/tree.rs`.)

use std::collections::HashMap;

use quote::ToTokens;
use syn::{Expr, Type};

use crate::ctxt::Ctxt;
use crate::model::{
    Action, Arg, Builtin, DefaultValue, Field, FieldKind, Input, Int, McpAttrs, Spanned, TaskMode,
    ValueKind, VariantKind,
};
use crate::parse::lit::int_literal;

pub(crate) fn check(cx: &Ctxt, input: &Input<'_>) {
    match input {
        Input::Struct(container, fields) => {
            check_tool_name(cx, container.layer.mcp.name.as_ref());
            check_hints(cx, &container.layer.mcp);
            check_task(cx, &container.layer.mcp);
            check_fields(cx, fields);
            check_fixed(cx, &container.layer.mcp, fields);
        }
        Input::Enum(container, variants) => {
            check_tool_name(cx, container.layer.mcp.name.as_ref());
            check_hints(cx, &container.layer.mcp);
            check_task(cx, &container.layer.mcp);
            for variant in variants {
                check_tool_name(cx, variant.layer.mcp.name.as_ref());
                check_hints(cx, &variant.layer.mcp);
                check_task(cx, &variant.layer.mcp);
                if let VariantKind::Named(fields) = &variant.kind {
                    check_fields(cx, fields);
                    check_fixed(cx, &variant.layer.mcp, fields);
                }
            }
        }
    }
}

/// A command that changes nothing cannot also destroy: `read_only` with
/// `destructive` contradicts itself (MCP reads `destructiveHint` only when
/// `readOnlyHint` is false).
fn check_hints(cx: &Ctxt, mcp: &McpAttrs) {
    let [read_only, destructive, ..] = &mcp.hints;
    if let (Some(read_only), Some(destructive)) = (read_only, destructive) {
        if read_only.value && destructive.value {
            cx.error_span(
                destructive.span,
                "a command cannot be both `read_only` and `destructive`: a read-only command \
                 changes nothing; keep the one that is true",
            );
        }
    }
}

/// A call in a child process (`isolate`) has no way back to its server
/// to become a task part-way through: with `task = "deferred"` it never
/// would (`start_task` returns `false` there).
fn check_task(cx: &Ctxt, mcp: &McpAttrs) {
    if let (Some(_), Some(task)) = (mcp.isolate, &mcp.task) {
        if task.value == TaskMode::Deferred {
            cx.error_span(
                task.span,
                "`task = \"deferred\"` cannot go with `isolate`: a call in a child process \
                 cannot become a task part-way through (`start_task` returns `false` there); \
                 write `task` to make each call a task from its start, or drop `isolate`",
            );
        }
    }
}

fn check_fields(cx: &Ctxt, fields: &[Field<'_>]) {
    check_properties(cx, fields);
    check_headers(cx, fields);
    for field in fields {
        if let FieldKind::Arg(arg) = &field.kind {
            check_property_name(cx, arg);
            check_value_type(cx, arg);
            check_defaults(cx, arg);
            check_skip_required(cx, arg);
            check_values(cx, field, arg);
        }
        if let FieldKind::FromGlobal(arg) = &field.kind {
            check_value_type(cx, arg);
        }
    }
}

// ---------------------------------------------------------------------------
// The MCP rule for tool names.
//
// The runtime holds the same rule (`is_valid_tool_name` and
// `MAX_TOOL_NAME` in its `registry` (`registry/rules.rs`), which the
// compile-time tree checks also use). The derive cannot depend on the
// runtime, so this is its copy, and a test in the tests crate ties the two.
// Every check of a tool name in the derive goes through these items.

/// The longest tool name MCP allows, in bytes (all allowed characters are
/// ASCII).
pub(crate) const MAX_TOOL_NAME: usize = 128;

/// The shortest limit `#[mcp(max_name_len = N)]` may set: a name shortened
/// to it keeps a few characters of its path besides the 9 of its hash.
pub(crate) const MIN_NAME_BUDGET: usize = 16;

/// The rule as error messages state it.
const TOOL_NAME_RULE: &str =
    "MCP tool names are 1 to 128 characters of A-Z, a-z, 0-9, `_`, `.` and `-`";

/// Whether `c` may appear in a tool name.
pub(crate) fn is_tool_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// The MCP rule for tool names: 1 to [`MAX_TOOL_NAME`] characters of
/// `[A-Za-z0-9_.-]`.
fn is_valid_tool_name(name: &str) -> bool {
    (1..=MAX_TOOL_NAME).contains(&name.len()) && name.chars().all(is_tool_name_char)
}

fn check_tool_name(cx: &Ctxt, name: Option<&Spanned<String>>) {
    let Some(name) = name else { return };
    if is_valid_tool_name(&name.value) {
        return;
    }
    let why = match name.value.chars().count() {
        0 => "it is empty".to_owned(),
        n if n > MAX_TOOL_NAME => format!("it has {n} characters"),
        _ => {
            let bad = name
                .value
                .chars()
                .find(|c| !is_tool_name_char(*c))
                .unwrap_or(' ');
            format!("{bad:?} is not allowed")
        }
    };
    cx.error_span(
        name.span,
        format!(
            "`{}` is not a valid MCP tool name ({why}): {TOOL_NAME_RULE}",
            name.value
        ),
    );
}

fn check_property_name(cx: &Ctxt, arg: &Arg) {
    if let Some(name) = &arg.mcp.name {
        if name.value.is_empty() {
            cx.error_span(name.span, "a property name cannot be empty");
        }
    }
}

/// Two arguments of one struct (or variant) exposed under the same
/// property name.
fn check_properties(cx: &Ctxt, fields: &[Field<'_>]) {
    let mut seen: HashMap<String, &Field<'_>> = HashMap::new();
    for field in fields {
        let FieldKind::Arg(arg) = &field.kind else {
            continue;
        };
        if !arg.exposed() {
            continue;
        }
        let property = arg.property();
        if let Some(first) = seen.insert(property.clone(), field) {
            let span = match &field.original.ident {
                Some(ident) => ident.span(),
                None => arg.span,
            };
            cx.error_span(
                span,
                format!(
                    "two arguments are exposed as the property `{property}`: `{}` and `{}`; rename one with `#[mcp(name = \"...\")]`, or hide it with `#[mcp(skip)]`",
                    field_name(first),
                    field_name(field),
                ),
            );
        }
    }
}

/// `#[mcp(header = "...")]`: on an offered argument of one value, and
/// each header name once per struct (or variant), as HTTP compares them:
/// without case. (The value's JSON type is checked when the tools are
/// built, where it is known.)
fn check_headers(cx: &Ctxt, fields: &[Field<'_>]) {
    let mut seen: HashMap<String, &Field<'_>> = HashMap::new();
    for field in fields {
        let FieldKind::Arg(arg) = &field.kind else {
            continue;
        };
        let Some(header) = &arg.mcp.header else {
            continue;
        };
        if !arg.exposed() {
            cx.error_span(
                header.span,
                format!(
                    "`{}` is no property of the tool (hidden, skipped, or a help flag): \
                     `header` has nothing to send; remove it",
                    field_name(field)
                ),
            );
            continue;
        }
        if arg.multiple() {
            cx.error_span(
                header.span,
                format!(
                    "`{}` takes a list of values, and an `Mcp-Param-` header carries one: \
                     use `header` on an argument of one string, integer or boolean",
                    field_name(field)
                ),
            );
            continue;
        }
        if let Some(first) = seen.insert(header.value.to_ascii_lowercase(), field) {
            cx.error_span(
                header.span,
                format!(
                    "`{}` and `{}` are both sent as the header `Mcp-Param-{}` (header names \
                     ignore case); give each its own name",
                    field_name(first),
                    field_name(field),
                    header.value
                ),
            );
        }
    }
}

fn field_name(field: &Field<'_>) -> String {
    field.member.to_token_stream().to_string()
}

// ---------------------------------------------------------------------------
// Types that cannot be a JSON value.

const TYPE_HINT: &str = "give the field a `value_parser`, use a type implementing `mcp_bridge::McpValue`, or keep it out of MCP with `#[mcp(skip)]` and a `default_value_t`";

/// A field type that no converter can produce, visible in its syntax. Types
/// the derive cannot judge by their syntax are checked by the trait bound
/// on `McpValue`, whose message says the same.
fn check_value_type(cx: &Ctxt, arg: &Arg) {
    // A skipped argument built directly needs no conversion.
    if !matches!(arg.action, Action::Set | Action::Append) || arg.direct.is_some() {
        return;
    }
    let ty = match &arg.value {
        ValueKind::Builtin(_) | ValueKind::Auto | ValueKind::Enum => &arg.inner,
        ValueKind::Map { value, .. } => value,
        // A parser of the user's makes the value.
        ValueKind::OneOf(_)
        | ValueKind::Range { .. }
        | ValueKind::Parser(_)
        | ValueKind::KeyValue { .. }
        | ValueKind::Json => return,
    };
    if let Some(reason) = unconvertible(ty) {
        cx.error_at(
            ty,
            format!(
                "`{}` cannot be an MCP property: {reason}; {TYPE_HINT}",
                type_text(ty)
            ),
        );
    }
}

fn unconvertible(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::Reference(_) => {
            "a reference cannot be built from a JSON value; use an owned type (`String` for `&str`, `PathBuf` for `&Path`)"
        }
        Type::Ptr(_) => "a raw pointer cannot be built from a JSON value",
        Type::TraitObject(_) | Type::ImplTrait(_) => {
            "a trait object cannot be built from a JSON value; use a concrete type"
        }
        Type::Tuple(_) => {
            "a tuple maps to JSON only as key=value pairs, as `Vec<(K, V)>` with a key=value `value_parser`"
        }
        Type::BareFn(_) => "a function pointer cannot be built from a JSON value",
        Type::Array(_) | Type::Slice(_) => {
            "an array or slice cannot be built from one JSON value; use `Vec<T>` for a list"
        }
        Type::Never(_) | Type::Infer(_) => "this type cannot be built from a JSON value",
        Type::Paren(inner) => return unconvertible(&inner.elem),
        Type::Group(inner) => return unconvertible(&inner.elem),
        Type::Path(path) => {
            // `Box<dyn Trait>` and the like; `Box<dyn Error>` is
            // `From<String>`, so it is left to the trait bound.
            let segment = path.path.segments.last()?;
            if !matches!(segment.ident.to_string().as_str(), "Box" | "Rc" | "Arc") {
                return None;
            }
            let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
                return None;
            };
            let Some(syn::GenericArgument::Type(Type::TraitObject(object))) = args.args.first()
            else {
                return None;
            };
            let is_error = object.bounds.iter().any(|bound| match bound {
                syn::TypeParamBound::Trait(t) => {
                    t.path.segments.last().is_some_and(|s| s.ident == "Error")
                }
                _ => false,
            });
            if is_error {
                return None;
            }
            "a trait object cannot be built from a JSON value; use a concrete type"
        }
        _ => return None,
    })
}

/// A type as the user would write it.
fn type_text(ty: &Type) -> String {
    let text = ty.to_token_stream().to_string();
    let mut out = text
        .replace("& ", "&")
        .replace("* ", "*")
        .replace(" ,", ",")
        .replace(" ;", ";")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace("fn (", "fn(")
        .replace(":: ", "::")
        .replace(" ::", "::");
    if out.starts_with("dyn ") || out.starts_with("impl ") {
        out = out.trim().to_owned();
    }
    out
}

// ---------------------------------------------------------------------------
// Literal defaults that the argument would refuse.

/// What a primitive value type accepts, for checking literal defaults.
enum Accepts {
    /// An integer within inclusive bounds.
    Integer {
        min: i128,
        max: i128,
        ty: &'static str,
    },
    Float,
    Bool,
    Char,
    Path,
    OneOf(Vec<String>, bool),
}

/// The bounds of a `value_parser!(int).range(min..=max)` argument: the
/// range's, within the integer type's.
fn range_bounds(int: Int, min: Option<i128>, max: Option<i128>) -> (i128, i128) {
    let (ty_min, ty_max) = integer_bounds(int);
    (
        min.map_or(ty_min, |m| m.max(ty_min)),
        max.map_or(ty_max, |m| m.min(ty_max)),
    )
}

fn integer_bounds(int: Int) -> (i128, i128) {
    match int {
        Int::I8 => (i8::MIN.into(), i8::MAX.into()),
        Int::I16 => (i16::MIN.into(), i16::MAX.into()),
        Int::I32 => (i32::MIN.into(), i32::MAX.into()),
        Int::I64 | Int::Isize => (i64::MIN.into(), i64::MAX.into()),
        Int::I128 => (i128::MIN, i128::MAX),
        Int::U8 => (0, u8::MAX.into()),
        Int::U16 => (0, u16::MAX.into()),
        Int::U32 => (0, u32::MAX.into()),
        Int::U64 | Int::Usize => (0, u64::MAX.into()),
        Int::U128 => (0, i128::MAX),
    }
}

fn accepts(arg: &Arg) -> Option<Accepts> {
    if !matches!(arg.action, Action::Set | Action::Append) {
        return None;
    }
    match &arg.value {
        ValueKind::Builtin(Builtin::Integer(int)) => {
            let (min, max) = integer_bounds(*int);
            Some(Accepts::Integer {
                min,
                max,
                ty: int.name(),
            })
        }
        ValueKind::Range { min, max } => {
            let Some(Builtin::Integer(int)) = arg.inner_builtin else {
                return None;
            };
            let (min, max) = range_bounds(int, *min, *max);
            Some(Accepts::Integer {
                min,
                max,
                ty: int.name(),
            })
        }
        ValueKind::Builtin(Builtin::Float) => Some(Accepts::Float),
        ValueKind::Builtin(Builtin::Bool) => Some(Accepts::Bool),
        ValueKind::Builtin(Builtin::Char) => Some(Accepts::Char),
        ValueKind::Builtin(Builtin::PathBuf) => Some(Accepts::Path),
        ValueKind::OneOf(values) => Some(Accepts::OneOf(values.clone(), arg.ignore_case.is_true())),
        _ => None,
    }
}

/// As the runtime says it (`convert::describe_range`).
fn describe_integers(min: i128, max: i128) -> String {
    const WIDE: i128 = i64::MAX as i128;
    match (min > -WIDE, max < WIDE) {
        (true, true) => format!("an integer from {min} to {max}"),
        (true, false) => format!("an integer ≥ {min}"),
        (false, true) => format!("an integer ≤ {max}"),
        (false, false) => "an integer".to_owned(),
    }
}

/// Why `text` (a default as clap stores it) is refused, if it is.
fn refuse_text(accepts: &Accepts, text: &str) -> Option<String> {
    match accepts {
        Accepts::Integer { min, max, ty } => match text.parse::<i128>() {
            Ok(n) if n < *min || n > *max => Some(format!(
                "`{n}` is out of range: expected {}",
                describe_integers(*min, *max)
            )),
            Ok(_) => None,
            Err(_) => Some(format!(
                "`{text}` is not a `{ty}`: expected {}",
                describe_integers(*min, *max)
            )),
        },
        Accepts::Float => text
            .parse::<f64>()
            .is_err()
            .then(|| format!("`{text}` is not a number")),
        Accepts::Bool => (!matches!(text, "true" | "false"))
            .then(|| format!("`{text}` is not a `bool`: expected `true` or `false`")),
        Accepts::Char => (text.chars().count() != 1)
            .then(|| format!("`{text}` is not a `char`: expected exactly one character")),
        Accepts::Path => text
            .is_empty()
            .then(|| "an empty path is refused, as clap refuses it".to_owned()),
        Accepts::OneOf(values, ignore_case) => {
            let found = values.iter().any(|v| {
                if *ignore_case {
                    v.eq_ignore_ascii_case(text)
                } else {
                    v == text
                }
            });
            (!found).then(|| {
                let list: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
                format!("`{text}` is not one of {}", list.join(", "))
            })
        }
    }
}

fn lit_str(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        Expr::Group(group) => lit_str(&group.expr),
        _ => None,
    }
}

fn check_defaults(cx: &Ctxt, arg: &Arg) {
    let Some(accepts) = accepts(arg) else { return };
    let report = |expr: &Expr, why: String| {
        cx.error_at(
            expr,
            format!(
                "invalid default for `{}`: {why}; clap would refuse it when the command runs",
                arg.id
            ),
        );
    };
    match &arg.default {
        // Evaluated when the table is built.
        DefaultValue::None
        | DefaultValue::TextsOf(_)
        | DefaultValue::One(_)
        | DefaultValue::OsT(_)
        | DefaultValue::OsValuesT(_) => {}
        DefaultValue::Texts(texts) => {
            for expr in texts {
                if let Some(text) = lit_str(expr) {
                    if let Some(why) = refuse_text(&accepts, &text) {
                        report(expr, why);
                    }
                }
            }
        }
        DefaultValue::ValueT(Some(expr)) => {
            if let Some(why) = refuse_typed(&accepts, expr) {
                report(expr, why);
            }
        }
        DefaultValue::ValueT(None) => {
            // `Default::default()`: 0 for integers, which a range may refuse.
            if let Accepts::Integer { min, max, .. } = &accepts {
                if 0 < *min || 0 > *max {
                    cx.error_span(
                        arg.span,
                        format!(
                            "invalid default for `{}`: `default_value_t` without a value is `0`, which is out of range: expected {}",
                            arg.id,
                            describe_integers(*min, *max)
                        ),
                    );
                }
            }
        }
        DefaultValue::ValuesT(expr) => {
            let elems = match expr {
                Expr::Array(array) => Some(&array.elems),
                Expr::Reference(r) => match &*r.expr {
                    Expr::Array(array) => Some(&array.elems),
                    _ => None,
                },
                _ => None,
            };
            for elem in elems.into_iter().flatten() {
                if let Some(why) = refuse_typed(&accepts, elem) {
                    report(elem, why);
                }
            }
        }
    }
}

/// A typed literal default (`default_value_t = 300`).
fn refuse_typed(accepts: &Accepts, expr: &Expr) -> Option<String> {
    match accepts {
        Accepts::Integer { .. } => {
            let n = int_literal(expr)?;
            refuse_text(accepts, &n.to_string())
        }
        Accepts::Char | Accepts::Bool | Accepts::Float | Accepts::Path | Accepts::OneOf(..) => None,
    }
}

// ---------------------------------------------------------------------------
// The JSON type of a property, where the derive knows it for certain.

/// The JSON type of one value of an argument, as the registry will state
/// it in the schema, where the derive knows it for certain.
enum JsonKind {
    String,
    /// Strings from a fixed set: the ones listed in `value_parser = ["a",
    /// "b"]`, or `None` for a `ValueEnum`'s, which the derive cannot read.
    Enum(Option<Vec<String>>),
    /// An integer, within inclusive bounds when the type is known.
    Integer(Option<(i128, i128)>),
    Number,
    Boolean,
    /// A map of key=value pairs.
    Object,
    /// `#[mcp(json)]`: whatever the type's schema says.
    Json,
}

impl JsonKind {
    /// The JSON type, as a schema names it.
    fn name(&self) -> &'static str {
        match self {
            JsonKind::String | JsonKind::Enum(_) => "string",
            JsonKind::Integer(_) => "integer",
            JsonKind::Number => "number",
            JsonKind::Boolean => "boolean",
            JsonKind::Object => "object",
            JsonKind::Json => "JSON",
        }
    }

    /// What a value of it is, for messages.
    fn describe(&self) -> String {
        match self {
            JsonKind::String => "a string".to_owned(),
            JsonKind::Enum(Some(values)) => {
                let list: Vec<String> = values.iter().map(|v| format!("`{v:?}`")).collect();
                format!("one of {}", list.join(", "))
            }
            JsonKind::Enum(None) => "one of its possible values (a string)".to_owned(),
            JsonKind::Integer(Some((min, max))) => describe_integers(*min, *max),
            JsonKind::Integer(None) => "an integer".to_owned(),
            JsonKind::Number => "a number".to_owned(),
            JsonKind::Boolean => "`true` or `false`".to_owned(),
            JsonKind::Object => "an object of key=value pairs".to_owned(),
            JsonKind::Json => "a JSON value".to_owned(),
        }
    }
}

/// The JSON type of one value of `arg`, from its action, a type the derive
/// recognises without a `value_parser`, or a literal parser (a list, a
/// range). `None` where a parser of the user's or trait resolution decides
/// (`value_parser = expr`, a type the derive does not know, `Duration`):
/// the registry checks those when it is made.
fn json_kind(arg: &Arg) -> Option<JsonKind> {
    if arg.direct.is_some() {
        return None;
    }
    match arg.action {
        Action::SetTrue | Action::SetFalse => return Some(JsonKind::Boolean),
        // Offered as a `u8` count.
        Action::Count => return Some(JsonKind::Integer(Some((0, u8::MAX.into())))),
        Action::Info => return None,
        Action::Set | Action::Append => {}
    }
    Some(match &arg.value {
        ValueKind::Builtin(builtin) => match builtin {
            Builtin::Integer(int) => JsonKind::Integer(Some(integer_bounds(*int))),
            Builtin::Float => JsonKind::Number,
            Builtin::Bool => JsonKind::Boolean,
            Builtin::Duration => return None,
            Builtin::String
            | Builtin::OsString
            | Builtin::PathBuf
            | Builtin::Char
            | Builtin::IpAddr
            | Builtin::Ipv4Addr
            | Builtin::Ipv6Addr
            | Builtin::SocketAddr => JsonKind::String,
        },
        ValueKind::Enum => JsonKind::Enum(None),
        ValueKind::OneOf(values) => JsonKind::Enum(Some(values.clone())),
        ValueKind::Range { min, max } => JsonKind::Integer(match arg.inner_builtin {
            Some(Builtin::Integer(int)) => Some(range_bounds(int, *min, *max)),
            _ => None,
        }),
        ValueKind::Map { .. } | ValueKind::KeyValue { .. } => JsonKind::Object,
        ValueKind::Json => JsonKind::Json,
        ValueKind::Parser(_) | ValueKind::Auto => return None,
    })
}

// ---------------------------------------------------------------------------
// `#[mcp(values = ...)]` where the values could not be offered.

/// A values function gives strings, which become the property's `enum`:
/// on an argument that is no property, or whose values are known not to
/// be plain strings, it could do nothing. (Where a `value_parser` decides
/// the type, the registry checks it when it is made.)
fn check_values(cx: &Ctxt, field: &Field<'_>, arg: &Arg) {
    let Some(path) = &arg.mcp.values else { return };
    let written = format!(
        "`#[mcp(values = {})]` on `{}`",
        path.to_token_stream().to_string().replace(' ', ""),
        field_name(field)
    );
    if !arg.exposed() {
        cx.error_at(
            path,
            format!(
                "{written} does nothing: the argument is no property of the tool (hidden, \
                 skipped, or a help flag), so no client is offered its values; remove it"
            ),
        );
        return;
    }
    let problem = match json_kind(arg) {
        None | Some(JsonKind::String) => return,
        Some(JsonKind::Enum(_)) => "its values are a fixed set already (clap's possible \
                                    values: `value_enum` or `value_parser = [...]`): keep one \
                                    or the other"
            .to_owned(),
        Some(kind) => format!(
            "its values are {} values, and a values function gives strings: use it on a \
             string argument (`String`, or a type read from text)",
            kind.name()
        ),
    };
    cx.error_at(path, format!("{written}: {problem}"));
}

// ---------------------------------------------------------------------------
// `#[mcp(args(name = value))]` with a value its property cannot take.

/// A fixed value against the command's own argument of that property name,
/// when it is declared by this derive (on the same struct or variant) and
/// its JSON type is known; the registry checks the rest when it is made,
/// with the same rule (`registry/flatten.rs`, `fits`): the JSON type, the
/// listed values, the integer bounds, an item of a list.
fn check_fixed(cx: &Ctxt, mcp: &McpAttrs, fields: &[Field<'_>]) {
    for (name, lit) in &mcp.fixed {
        let arg = fields.iter().find_map(|field| match &field.kind {
            FieldKind::Arg(arg) if arg.exposed() && arg.property() == name.value => Some(arg),
            _ => None,
        });
        let Some(arg) = arg else { continue };
        let Some(kind) = json_kind(arg) else { continue };
        let fits = match (&kind, lit) {
            // The type's schema decides; a map's entries are not literals.
            (JsonKind::Json | JsonKind::Object, _) => true,
            (JsonKind::String, syn::Lit::Str(_)) => true,
            (JsonKind::Enum(None), syn::Lit::Str(_)) => true,
            (JsonKind::Enum(Some(values)), syn::Lit::Str(text)) => values.contains(&text.value()),
            (JsonKind::Integer(bounds), syn::Lit::Int(int)) => match int.base10_parse::<i128>() {
                Ok(n) => bounds.is_none_or(|(min, max)| min <= n && n <= max),
                Err(_) => false,
            },
            (JsonKind::Number, syn::Lit::Int(_) | syn::Lit::Float(_)) => true,
            (JsonKind::Boolean, syn::Lit::Bool(_)) => true,
            _ => false,
        };
        if fits {
            continue;
        }
        let takes = if arg.multiple() {
            format!("takes a list, each item {}", kind.describe())
        } else {
            format!("takes {}", kind.describe())
        };
        // As written: a name that is no identifier is quoted.
        let written = if name.value.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !name.value.starts_with(|c: char| c.is_ascii_digit())
        {
            name.value.clone()
        } else {
            format!("{:?}", name.value)
        };
        cx.error_at(
            lit,
            format!(
                "`#[mcp(args({written} = {}))]` fixes a value the property cannot take: `{}` \
                 {takes}; write a value of its schema, as a call would give it",
                lit.to_token_stream(),
                name.value,
            ),
        );
    }
}

// ---------------------------------------------------------------------------
// `#[mcp(skip)]` on an argument the command cannot run without.

fn check_skip_required(cx: &Ctxt, arg: &Arg) {
    let Some(skip) = arg.mcp.skip else { return };
    if arg.required
        && !arg.default.is_some()
        && arg.env.is_none()
        && !arg.relations.is_conditional()
        && matches!(arg.action, Action::Set | Action::Append)
    {
        cx.error_span(
            skip,
            format!(
                "`#[mcp(skip)]` hides `{}`, which clap requires and which has no default, so the tool could never be called; give it a default (`default_value_t = ...`), make it optional (`Option<...>`), or do not skip it",
                arg.id
            ),
        );
    }
}
