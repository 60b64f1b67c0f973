//! Reading `#[command]`, `#[arg]` (and clap's other attribute names) and
//! `#[mcp]` into spanned key/value items.
//!
//! clap's keys we do not model are kept and ignored; keys inside `#[mcp]`
//! are ours, so an unknown or repeated one is an error.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, LitStr, Token};

use crate::check::{is_tool_name_char, MAX_TOOL_NAME, MIN_NAME_BUDGET};
use crate::ctxt::Ctxt;
use crate::model::{BoolValue, McpAttrs, Spanned, TaskMode};

/// The attribute names the derive reads.
pub(crate) mod names {
    pub(crate) const COMMAND: &str = "command";
    pub(crate) const ARG: &str = "arg";
    /// clap 3's attribute, which clap 4 still reads: `arg` on a field,
    /// `command` elsewhere (see `clap_items`).
    pub(crate) const CLAP: &str = "clap";
    /// structopt's attribute, which clap 4's `Parser` derive still reads,
    /// as `clap`.
    pub(crate) const STRUCTOPT: &str = "structopt";
    pub(crate) const GROUP: &str = "group";
    pub(crate) const VALUE: &str = "value";
    pub(crate) const MCP: &str = "mcp";
    pub(crate) const DOC: &str = "doc";
}

/// The clap keys the derive reads, in `#[command]`, `#[arg]` and
/// `#[group]` (clap's keys are its builder methods; so are the methods of
/// an `ArgGroup` chain read from `#[command(group(...))]`).
pub(crate) mod keys {
    // Commands and containers.
    pub(crate) const NAME: &str = "name";
    pub(crate) const ABOUT: &str = "about";
    pub(crate) const LONG_ABOUT: &str = "long_about";
    pub(crate) const VERSION: &str = "version";
    pub(crate) const HIDE: &str = "hide";
    pub(crate) const RENAME_ALL: &str = "rename_all";
    pub(crate) const RENAME_ALL_ENV: &str = "rename_all_env";
    pub(crate) const VERBATIM_DOC_COMMENT: &str = "verbatim_doc_comment";
    pub(crate) const SKIP: &str = "skip";
    pub(crate) const FLATTEN: &str = "flatten";
    pub(crate) const SUBCOMMAND: &str = "subcommand";
    pub(crate) const EXTERNAL_SUBCOMMAND: &str = "external_subcommand";
    pub(crate) const FROM_GLOBAL: &str = "from_global";

    // Arguments.
    pub(crate) const ID: &str = "id";
    pub(crate) const LONG: &str = "long";
    pub(crate) const SHORT: &str = "short";
    pub(crate) const ACTION: &str = "action";
    pub(crate) const VALUE_PARSER: &str = "value_parser";
    pub(crate) const VALUE_ENUM: &str = "value_enum";
    pub(crate) const DEFAULT_VALUE: &str = "default_value";
    pub(crate) const DEFAULT_VALUE_OS: &str = "default_value_os";
    pub(crate) const DEFAULT_VALUES: &str = "default_values";
    pub(crate) const DEFAULT_VALUES_OS: &str = "default_values_os";
    pub(crate) const DEFAULT_VALUE_T: &str = "default_value_t";
    pub(crate) const DEFAULT_VALUES_T: &str = "default_values_t";
    pub(crate) const DEFAULT_VALUE_OS_T: &str = "default_value_os_t";
    pub(crate) const DEFAULT_VALUES_OS_T: &str = "default_values_os_t";
    pub(crate) const DEFAULT_MISSING_VALUE: &str = "default_missing_value";
    pub(crate) const DEFAULT_MISSING_VALUE_OS: &str = "default_missing_value_os";
    pub(crate) const DEFAULT_MISSING_VALUES: &str = "default_missing_values";
    pub(crate) const DEFAULT_MISSING_VALUES_OS: &str = "default_missing_values_os";
    pub(crate) const DEFAULT_VALUE_IF: &str = "default_value_if";
    pub(crate) const DEFAULT_VALUE_IF_OS: &str = "default_value_if_os";
    pub(crate) const DEFAULT_VALUES_IF: &str = "default_values_if";
    pub(crate) const DEFAULT_VALUE_IFS: &str = "default_value_ifs";
    pub(crate) const DEFAULT_VALUE_IFS_OS: &str = "default_value_ifs_os";
    pub(crate) const DEFAULT_VALUES_IFS: &str = "default_values_ifs";
    pub(crate) const REQUIRED: &str = "required";
    pub(crate) const GLOBAL: &str = "global";
    pub(crate) const LAST: &str = "last";
    pub(crate) const MUT_ARG: &str = "mut_arg";
    pub(crate) const MUT_ARGS: &str = "mut_args";
    pub(crate) const SUBCOMMAND_REQUIRED: &str = "subcommand_required";
    pub(crate) const ARGS_CONFLICTS_WITH_SUBCOMMANDS: &str = "args_conflicts_with_subcommands";
    pub(crate) const SUBCOMMAND_NEGATES_REQS: &str = "subcommand_negates_reqs";
    pub(crate) const HELP: &str = "help";
    pub(crate) const LONG_HELP: &str = "long_help";
    pub(crate) const IGNORE_CASE: &str = "ignore_case";
    pub(crate) const VALUE_DELIMITER: &str = "value_delimiter";
    /// clap 3's name: `true` is `value_delimiter = ','`.
    pub(crate) const USE_VALUE_DELIMITER: &str = "use_value_delimiter";
    pub(crate) const ENV: &str = "env";
    pub(crate) const ENV_OS: &str = "env_os";
    pub(crate) const NUM_ARGS: &str = "num_args";
    /// clap 3's name for `num_args` of one count.
    pub(crate) const NUMBER_OF_VALUES: &str = "number_of_values";
    /// `raw = true`: `num_args(1..)` unless set, `last`, hyphens taken.
    pub(crate) const RAW: &str = "raw";
    pub(crate) const ALIAS: &str = "alias";
    pub(crate) const ALIASES: &str = "aliases";
    pub(crate) const VISIBLE_ALIAS: &str = "visible_alias";
    pub(crate) const VISIBLE_ALIASES: &str = "visible_aliases";
    pub(crate) const SHORT_ALIAS: &str = "short_alias";
    pub(crate) const SHORT_ALIASES: &str = "short_aliases";
    pub(crate) const VISIBLE_SHORT_ALIAS: &str = "visible_short_alias";
    pub(crate) const VISIBLE_SHORT_ALIASES: &str = "visible_short_aliases";

    // Relations, and groups.
    pub(crate) const CONFLICTS_WITH: &str = "conflicts_with";
    pub(crate) const CONFLICTS_WITH_ALL: &str = "conflicts_with_all";
    pub(crate) const REQUIRES: &str = "requires";
    pub(crate) const REQUIRES_ALL: &str = "requires_all";
    pub(crate) const REQUIRED_UNLESS_PRESENT: &str = "required_unless_present";
    pub(crate) const REQUIRED_UNLESS_PRESENT_ANY: &str = "required_unless_present_any";
    pub(crate) const REQUIRED_UNLESS_PRESENT_ALL: &str = "required_unless_present_all";
    pub(crate) const REQUIRED_IF_EQ: &str = "required_if_eq";
    pub(crate) const EXCLUSIVE: &str = "exclusive";
    pub(crate) const GROUP: &str = "group";
    pub(crate) const GROUPS: &str = "groups";
    pub(crate) const MULTIPLE: &str = "multiple";
    pub(crate) const ARG: &str = "arg";
    pub(crate) const ARGS: &str = "args";
    pub(crate) const REQUIRED_IF_EQ_ANY: &str = "required_if_eq_any";
    pub(crate) const OVERRIDES_WITH: &str = "overrides_with";
    pub(crate) const OVERRIDES_WITH_ALL: &str = "overrides_with_all";
}

/// The keys `#[mcp(...)]` understands.
pub(crate) mod mcp_keys {
    pub(crate) const NAME: &str = "name";
    pub(crate) const DESCRIPTION: &str = "description";
    pub(crate) const SKIP: &str = "skip";
    pub(crate) const CRATE: &str = "crate";
    pub(crate) const SERIAL: &str = "serial";
    pub(crate) const TIMEOUT: &str = "timeout";
    pub(crate) const ISOLATE: &str = "isolate";
    pub(crate) const TASK: &str = "task";
    pub(crate) const TITLE: &str = "title";
    pub(crate) const ICON: &str = "icon";
    pub(crate) const READ_ONLY: &str = "read_only";
    pub(crate) const DESTRUCTIVE: &str = "destructive";
    pub(crate) const IDEMPOTENT: &str = "idempotent";
    pub(crate) const OPEN_WORLD: &str = "open_world";
    pub(crate) const PREFIX: &str = "prefix";
    pub(crate) const MAX_NAME_LEN: &str = "max_name_len";
    pub(crate) const OUTPUT: &str = "output";
    pub(crate) const JSON: &str = "json";
    pub(crate) const EXAMPLE: &str = "example";
    pub(crate) const ARGS: &str = "args";
    pub(crate) const VALUES: &str = "values";
    pub(crate) const VALUES_TTL: &str = "values_ttl";
    pub(crate) const HEADER: &str = "header";
    /// What `output = "..."` takes.
    pub(crate) const OUTPUT_FORMATS: [&str; 4] = ["json", "yaml", "table", "lines"];
    /// The behaviour hints, in the order of `McpAttrs::hints`.
    pub(crate) const HINTS: [&str; 4] = [READ_ONLY, DESTRUCTIVE, IDEMPOTENT, OPEN_WORLD];
    pub(crate) const ALL: &[&str] = &[
        NAME,
        DESCRIPTION,
        SKIP,
        CRATE,
        SERIAL,
        TIMEOUT,
        ISOLATE,
        TASK,
        TITLE,
        ICON,
        READ_ONLY,
        DESTRUCTIVE,
        IDEMPOTENT,
        OPEN_WORLD,
        PREFIX,
        MAX_NAME_LEN,
        OUTPUT,
        ARGS,
        JSON,
        EXAMPLE,
        VALUES,
        VALUES_TTL,
        HEADER,
    ];
}

/// Which attribute an item came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClapAttrKind {
    Command,
    Arg,
    Group,
    Value,
}

/// One `key`, `key = value` or `key(args)` inside a clap attribute.
#[derive(Clone)]
pub(crate) struct ClapItem {
    pub(crate) kind: ClapAttrKind,
    pub(crate) key: Ident,
    pub(crate) value: ClapValue,
}

#[derive(Clone)]
pub(crate) enum ClapValue {
    None,
    Expr(Expr),
    /// `key(args)`: a builder call with its arguments, and the argument
    /// when there is exactly one (`num_args(1..)` means `num_args = 1..`,
    /// as clap's derive emits both as the same builder call).
    Call(TokenStream, Option<Expr>),
}

impl ClapItem {
    pub(crate) fn is(&self, key: &str) -> bool {
        self.key == key
    }

    /// The value: `key = value`, or the one argument of `key(value)`.
    pub(crate) fn expr(&self) -> Option<&Expr> {
        match &self.value {
            ClapValue::Expr(expr) | ClapValue::Call(_, Some(expr)) => Some(expr),
            _ => None,
        }
    }

    /// A boolean key: `key` alone means true, `key = true/false` is read;
    /// anything else is an expression clap evaluates at run time.
    pub(crate) fn bool_value(&self) -> BoolValue {
        match self.expr() {
            None => BoolValue::Lit(true),
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            })) => BoolValue::Lit(b.value),
            Some(expr) => BoolValue::Expr(expr.clone()),
        }
    }

    /// A boolean key mcp-bridge must know at compile time: a literal, or
    /// an error saying so (`None`).
    pub(crate) fn literal_bool(&self, cx: &Ctxt, why: &str) -> Option<bool> {
        match self.bool_value() {
            BoolValue::Lit(value) => Some(value),
            BoolValue::Expr(expr) => {
                cx.error_at(
                    &expr,
                    format!(
                        "mcp-bridge reads `{}` only as `true` or `false`: {why}; write the value out",
                        self.key
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn lit_str(&self) -> Option<String> {
        match self.expr() {
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) => Some(s.value()),
            _ => None,
        }
    }

    /// `key = "a"`, `key = ["a", "b"]` (or `'a'`, `['a', 'b']`) as the
    /// literals' tokens; `None` for anything else.
    pub(crate) fn literal_list(&self) -> Option<Vec<syn::Lit>> {
        let literal = |expr: &Expr| match expr {
            Expr::Lit(syn::ExprLit {
                lit: lit @ (syn::Lit::Str(_) | syn::Lit::Char(_)),
                ..
            }) => Some(lit.clone()),
            _ => None,
        };
        match self.expr()? {
            Expr::Array(array) => array.elems.iter().map(literal).collect(),
            Expr::Reference(reference) => match &*reference.expr {
                Expr::Array(array) => array.elems.iter().map(literal).collect(),
                _ => None,
            },
            expr => literal(expr).map(|lit| vec![lit]),
        }
    }

    /// The arguments of `key(a, b, c)`, as expressions.
    pub(crate) fn call_args(&self) -> Option<Vec<Expr>> {
        match &self.value {
            ClapValue::Call(tokens, _) => {
                let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
                syn::parse::Parser::parse2(parser, tokens.clone())
                    .ok()
                    .map(|args| args.into_iter().collect())
            }
            _ => None,
        }
    }

    pub(crate) fn lit_char(&self) -> Option<char> {
        match self.expr() {
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Char(c),
                ..
            })) => Some(c.value()),
            _ => None,
        }
    }
}

impl Parse for ClapItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            ClapValue::Expr(input.parse()?)
        } else if input.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in input);
            let tokens: TokenStream = content.parse()?;
            let single = syn::parse2::<Expr>(tokens.clone()).ok();
            ClapValue::Call(tokens, single)
        } else {
            ClapValue::None
        };
        Ok(ClapItem {
            kind: ClapAttrKind::Arg,
            key,
            value,
        })
    }
}

/// All clap items of an item's attributes, in order. `#[clap(...)]` (and
/// structopt's `#[structopt(...)]`), which clap 4 still reads, means
/// `#[arg]` on a field and `#[command]` on a struct, an enum or a variant
/// (`on_field`).
/// The caller looks every key up in clap's keys (`clap_keys`).
pub(crate) fn clap_items(attrs: &[Attribute], on_field: bool) -> Vec<ClapItem> {
    let mut items = Vec::new();
    for attr in attrs {
        let path = attr.path();
        let clap = path.is_ident(names::CLAP) || path.is_ident(names::STRUCTOPT);
        let kind = if path.is_ident(names::COMMAND) {
            ClapAttrKind::Command
        } else if path.is_ident(names::ARG) || (on_field && clap) {
            ClapAttrKind::Arg
        } else if clap {
            ClapAttrKind::Command
        } else if path.is_ident(names::GROUP) {
            ClapAttrKind::Group
        } else if path.is_ident(names::VALUE) {
            ClapAttrKind::Value
        } else {
            continue;
        };
        if matches!(attr.meta, syn::Meta::Path(_)) {
            continue;
        }
        // clap reports its own syntax errors; repeating them would only add noise.
        if let Ok(parsed) =
            attr.parse_args_with(Punctuated::<ClapItem, Token![,]>::parse_terminated)
        {
            items.extend(parsed.into_iter().map(|mut item| {
                item.kind = kind;
                item
            }));
        }
    }
    items
}

/// The last item with `key` (clap applies items in order; the last wins).
pub(crate) fn last<'a>(items: &'a [ClapItem], key: &str) -> Option<&'a ClapItem> {
    items.iter().rev().find(|item| item.is(key))
}

pub(crate) fn has(items: &[ClapItem], key: &str) -> bool {
    items.iter().any(|item| item.is(key))
}

/// Where an `#[mcp]` attribute sits, which decides the keys it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum McpPlace {
    /// On the root struct, a subcommand enum, or an `Args` struct.
    Container,
    /// On an enum variant (a subcommand).
    Variant,
    /// On a field that is an argument.
    ArgField,
    /// On a `flatten`ed or `subcommand` field, where no key applies.
    NestingField,
    /// On a field clap skips (`#[arg(skip)]`): not an argument.
    SkippedField,
    /// On a `#[arg(from_global)]` field: it reads an ancestor's global.
    FromGlobalField,
    /// On a `#[command(flatten)]` variant: its commands are the inner
    /// enum's variants.
    FlattenVariant,
    /// On a variant that is no command (`#[command(skip)]`,
    /// `external_subcommand`).
    NotACommand,
}

impl McpPlace {
    /// Why `key` has no meaning here, and where the user may have meant to
    /// put it.
    fn misplaced(self, key: &str) -> &'static str {
        if key == mcp_keys::CRATE {
            return match self {
                McpPlace::Container => "",
                McpPlace::Variant | McpPlace::FlattenVariant | McpPlace::NotACommand => {
                    "an enum variant: the path of mcp-bridge applies to a whole derive; put it on the enum, next to `#[derive(McpTool)]`"
                }
                McpPlace::ArgField
                | McpPlace::NestingField
                | McpPlace::SkippedField
                | McpPlace::FromGlobalField => {
                    "a field: the path of mcp-bridge applies to a whole derive; put it on the struct or enum, next to `#[derive(McpTool)]`"
                }
            };
        }
        if matches!(key, mcp_keys::PREFIX | mcp_keys::MAX_NAME_LEN) && self != McpPlace::Container {
            return "anything but the root: the prefix and the length of tool names are set once for the whole CLI; put it on the struct (or enum) deriving `Parser`, or name this command's tool with `name = \"...\"`";
        }
        if matches!(
            key,
            mcp_keys::SERIAL | mcp_keys::TIMEOUT | mcp_keys::ISOLATE | mcp_keys::TASK
        ) && self == McpPlace::ArgField
        {
            return "an argument: how a call runs is said of its command; put it on the variant or struct of the command";
        }
        if key == mcp_keys::JSON && matches!(self, McpPlace::Container | McpPlace::Variant) {
            return "a command: `json` says an argument's value is JSON; put it on the argument's field";
        }
        if matches!(key, mcp_keys::VALUES | mcp_keys::VALUES_TTL)
            && matches!(self, McpPlace::Container | McpPlace::Variant)
        {
            return "a command: `values` gives an argument's allowed values; put it on the argument's field";
        }
        if key == mcp_keys::HEADER && matches!(self, McpPlace::Container | McpPlace::Variant) {
            return "a command: `header` sends one argument's value in an HTTP header too; put it on the argument's field";
        }
        if key == mcp_keys::EXAMPLE && self == McpPlace::ArgField {
            return "an argument: an example is a whole call of a command's tool; put it on the variant or struct of the command";
        }
        if matches!(key, mcp_keys::OUTPUT | mcp_keys::ARGS) && self == McpPlace::ArgField {
            return "an argument: what a command prints and the values fixed for its calls are said of the command; put it on the variant or struct of the command";
        }
        if (key == mcp_keys::TITLE || key == mcp_keys::ICON || mcp_keys::HINTS.contains(&key))
            && self == McpPlace::ArgField
        {
            return "an argument: a title, an icon and behaviour hints describe a tool; put it on the variant or struct of the command";
        }
        match self {
            McpPlace::Container | McpPlace::Variant | McpPlace::ArgField => "",
            McpPlace::NestingField => {
                "a `flatten` or `subcommand` field, which is neither an argument nor a command; put it on the fields or variants of the nested type"
            }
            McpPlace::SkippedField => {
                "a field clap skips (`#[arg(skip)]`), which is not an argument"
            }
            McpPlace::FromGlobalField => {
                "a `from_global` field, which reads a global argument declared above; put it on that argument"
            }
            McpPlace::FlattenVariant => {
                "a `#[command(flatten)]` variant, whose commands are the inner enum's variants; put it on those"
            }
            McpPlace::NotACommand => {
                "a variant that is no command (`#[command(skip)]`, `external_subcommand`)"
            }
        }
    }

    fn accepts(self, key: &str) -> bool {
        match self {
            McpPlace::Container => {
                mcp_keys::ALL.contains(&key)
                    && !matches!(
                        key,
                        mcp_keys::JSON | mcp_keys::VALUES | mcp_keys::VALUES_TTL | mcp_keys::HEADER
                    )
            }
            McpPlace::Variant => !matches!(
                key,
                mcp_keys::CRATE
                    | mcp_keys::PREFIX
                    | mcp_keys::MAX_NAME_LEN
                    | mcp_keys::JSON
                    | mcp_keys::VALUES
                    | mcp_keys::VALUES_TTL
                    | mcp_keys::HEADER
            ),
            McpPlace::ArgField => matches!(
                key,
                mcp_keys::NAME
                    | mcp_keys::DESCRIPTION
                    | mcp_keys::SKIP
                    | mcp_keys::JSON
                    | mcp_keys::VALUES
                    | mcp_keys::VALUES_TTL
                    | mcp_keys::HEADER
            ),
            McpPlace::NestingField
            | McpPlace::SkippedField
            | McpPlace::FromGlobalField
            | McpPlace::FlattenVariant
            | McpPlace::NotACommand => false,
        }
    }

    /// The keys an unknown key is told apart from.
    fn expected(self) -> &'static str {
        match self {
            McpPlace::Container => {
                "`name`, `description`, `title`, `icon`, `skip`, `serial`, `timeout`, `isolate`, \
                 `task`, `read_only`, `destructive`, `idempotent`, `open_world`, `output`, \
                 `args(...)`, `example`, `prefix`, `max_name_len` or `crate`"
            }
            McpPlace::Variant => {
                "`name`, `description`, `title`, `icon`, `skip`, `serial`, `timeout`, `isolate`, \
                 `task`, `read_only`, `destructive`, `idempotent`, `open_world`, `output`, \
                 `args(...)` or `example`"
            }
            _ => "`name`, `description`, `json`, `values`, `values_ttl`, `header` or `skip`",
        }
    }
}

/// `key = "30s"`: the duration in milliseconds, above zero; otherwise an
/// error at the string showing `examples`.
fn duration_millis(cx: &Ctxt, key: &Ident, lit: &LitStr, examples: &str) -> Option<u64> {
    let millis = parse_duration_millis(&lit.value()).filter(|millis| *millis > 0);
    if millis.is_none() {
        cx.error_at(
            lit,
            format!(
                "`{key} = {:?}` is not a duration: write a number with a unit, `ms`, `s`, `m` or \
                 `h` ({examples}), above zero",
                lit.value()
            ),
        );
    }
    millis
}

/// `"30s"`, `"1m30s"`, `"500ms"`, `"2h"` in milliseconds.
fn parse_duration_millis(text: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut rest = text.trim();
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let number: u64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let millis = match rest[..unit].trim() {
            "ms" => 1,
            "s" => 1_000,
            "m" | "min" => 60_000,
            "h" => 3_600_000,
            _ => return None,
        };
        total = total.checked_add(number.checked_mul(millis)?)?;
        rest = rest[unit..].trim_start();
    }
    Some(total)
}

enum McpItem {
    Flag(Ident),
    Str(Ident, LitStr),
    Other(Ident, Expr),
    /// `args(name = literal, ...)`.
    Args(Ident, Vec<(Spanned<String>, syn::Lit)>),
}

/// One `name = literal` of `args(...)`: the property's name as an
/// identifier, or as a string when it is no identifier (`"dry-run"`).
struct FixedItem(Spanned<String>, syn::Lit);

impl Parse for FixedItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let name = if input.peek(LitStr) {
            let lit: LitStr = input.parse()?;
            Spanned {
                value: lit.value(),
                span: lit.span(),
            }
        } else {
            let ident: Ident = input.call(syn::ext::IdentExt::parse_any)?;
            Spanned {
                value: syn::ext::IdentExt::unraw(&ident).to_string(),
                span: ident.span(),
            }
        };
        input.parse::<Token![=]>()?;
        let expr: Expr = input.parse()?;
        let lit = match expr {
            Expr::Lit(syn::ExprLit { lit, .. }) => lit,
            // `-3`, `-1.5`
            Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) => match *expr {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(int),
                    ..
                }) => syn::Lit::Int(syn::LitInt::new(
                    &format!("-{}", int.base10_digits()),
                    int.span(),
                )),
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Float(float),
                    ..
                }) => syn::Lit::Float(syn::LitFloat::new(
                    &format!("-{}", float.base10_digits()),
                    float.span(),
                )),
                other => return Err(fixed_not_literal(&other)),
            },
            other => return Err(fixed_not_literal(&other)),
        };
        if !matches!(
            lit,
            syn::Lit::Str(_) | syn::Lit::Int(_) | syn::Lit::Float(_) | syn::Lit::Bool(_)
        ) {
            return Err(syn::Error::new(
                lit.span(),
                "a fixed value is a string, a number or `true`/`false`",
            ));
        }
        Ok(FixedItem(name, lit))
    }
}

fn fixed_not_literal(expr: &Expr) -> syn::Error {
    syn::Error::new_spanned(
        expr,
        "`args(...)` fixes literal values (a string, a number, `true` or `false`): the schema \
         and every call use them as they are written",
    )
}

impl Parse for McpItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            // `output = Type`: a type, which an expression cannot always
            // be (`Vec<Task>`); kept verbatim.
            if key == mcp_keys::OUTPUT && !input.peek(LitStr) {
                let ty: syn::Type = input.parse()?;
                return Ok(McpItem::Other(
                    key,
                    Expr::Verbatim(quote::ToTokens::to_token_stream(&ty)),
                ));
            }
            let expr: Expr = input.parse()?;
            match expr {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Ok(McpItem::Str(key, s)),
                other => Ok(McpItem::Other(key, other)),
            }
        } else if input.peek(syn::token::Paren) && key == mcp_keys::ARGS {
            let content;
            syn::parenthesized!(content in input);
            let items = Punctuated::<FixedItem, Token![,]>::parse_terminated(&content)?;
            Ok(McpItem::Args(
                key,
                items.into_iter().map(|FixedItem(n, l)| (n, l)).collect(),
            ))
        } else if input.peek(syn::token::Paren) {
            let content;
            let paren = syn::parenthesized!(content in input);
            let _: TokenStream = content.parse()?;
            Err(syn::Error::new(
                paren.span.join(),
                format!("`#[mcp({key}(...))]` is not a form mcp-bridge understands; write `{key} = ...`"),
            ))
        } else {
            Ok(McpItem::Flag(key))
        }
    }
}

/// Reads every `#[mcp(...)]` on an item, reporting unknown, repeated,
/// misplaced and ill-typed keys.
pub(crate) fn mcp_attrs(cx: &Ctxt, attrs: &[Attribute], place: McpPlace) -> McpAttrs {
    let mut out = McpAttrs::default();
    let mut crate_given = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident(names::MCP)) {
        let items = match &attr.meta {
            syn::Meta::List(_) => {
                match attr.parse_args_with(Punctuated::<McpItem, Token![,]>::parse_terminated) {
                    Ok(items) => items,
                    Err(error) => {
                        cx.push(error);
                        continue;
                    }
                }
            }
            _ => {
                cx.error_at(
                    attr,
                    "expected `#[mcp(...)]` with keys, e.g. `#[mcp(skip)]` or `#[mcp(name = \"...\")]`",
                );
                continue;
            }
        };
        for item in items {
            let key = match &item {
                McpItem::Flag(key)
                | McpItem::Str(key, _)
                | McpItem::Other(key, _)
                | McpItem::Args(key, _) => key.clone(),
            };
            let key_name = key.to_string();
            if !mcp_keys::ALL.contains(&key_name.as_str()) {
                cx.error_at(
                    &key,
                    format!(
                        "unknown key `{key_name}` in `#[mcp(...)]`: expected {} (clap's own keys belong in `#[command(...)]` or `#[arg(...)]`)",
                        place.expected()
                    ),
                );
                continue;
            }
            if !place.accepts(&key_name) {
                cx.error_at(
                    &key,
                    format!(
                        "`#[mcp({key_name})]` has no meaning on {}",
                        place.misplaced(&key_name)
                    ),
                );
                continue;
            }
            match (key_name.as_str(), item) {
                (mcp_keys::SKIP, McpItem::Flag(key)) => {
                    if out.skip.is_some() {
                        cx.error_at(&key, "`skip` is given twice in `#[mcp(...)]`; keep one");
                    }
                    out.skip = Some(key.span());
                }
                (mcp_keys::SKIP, McpItem::Str(key, _) | McpItem::Other(key, _)) => {
                    cx.error_at(&key, "`skip` takes no value: write `#[mcp(skip)]`");
                }
                (mcp_keys::JSON, McpItem::Flag(key)) => {
                    if out.json.is_some() {
                        cx.error_at(&key, "`json` is given twice in `#[mcp(...)]`; keep one");
                    }
                    out.json = Some(key.span());
                }
                (mcp_keys::JSON, McpItem::Str(key, _) | McpItem::Other(key, _)) => {
                    cx.error_at(&key, "`json` takes no value: write `#[mcp(json)]`");
                }
                (mcp_keys::SERIAL, McpItem::Flag(key)) => out.serial = Some(key.span()),
                (mcp_keys::ISOLATE, McpItem::Flag(key)) => out.isolate = Some(key.span()),
                (mcp_keys::TASK, McpItem::Flag(key)) => {
                    if out.task.is_some() {
                        cx.error_at(&key, "`task` is given twice in `#[mcp(...)]`; keep one");
                    }
                    out.task = Some(Spanned {
                        value: TaskMode::Optional,
                        span: key.span(),
                    });
                }
                (mcp_keys::TASK, McpItem::Str(key, lit)) => {
                    if out.task.is_some() {
                        cx.error_at(&key, "`task` is given twice in `#[mcp(...)]`; keep one");
                    }
                    let name = lit.value();
                    match TaskMode::NAMED.iter().find(|(named, _)| *named == name) {
                        Some(&(_, mode)) => {
                            out.task = Some(Spanned {
                                value: mode,
                                span: lit.span(),
                            });
                        }
                        None => cx.error_at(
                            &lit,
                            format!(
                                "`task = {name:?}` is not a task mode: `\"optional\"` (what \
                                 `task` alone means), `\"required\"` or `\"deferred\"`"
                            ),
                        ),
                    }
                }
                (mcp_keys::TASK, McpItem::Other(key, _)) => {
                    cx.error_at(
                        &key,
                        "`task` is a flag or takes a string: write `#[mcp(task)]` or \
                         `#[mcp(task = \"required\")]` (or `\"deferred\"`)",
                    );
                }
                (
                    key_name @ (mcp_keys::SERIAL | mcp_keys::ISOLATE),
                    McpItem::Str(key, _) | McpItem::Other(key, _),
                ) => {
                    cx.error_at(
                        &key,
                        format!("`{key_name}` takes no value: write `#[mcp({key_name})]`"),
                    );
                }
                (mcp_keys::TIMEOUT, McpItem::Str(key, lit)) => {
                    if out.timeout.is_some() {
                        cx.error_at(&key, "`timeout` is given twice in `#[mcp(...)]`; keep one");
                    }
                    let examples = "`\"30s\"`, `\"1m30s\"`, `\"500ms\"`";
                    if let Some(millis) = duration_millis(cx, &key, &lit, examples) {
                        out.timeout = Some(millis);
                    }
                }
                (hint, item) if mcp_keys::HINTS.contains(&hint) => {
                    let index = mcp_keys::HINTS
                        .iter()
                        .position(|h| *h == hint)
                        .expect("a hint key");
                    let (key, value) = match item {
                        McpItem::Flag(key) => (key, Some(true)),
                        McpItem::Other(
                            key,
                            Expr::Lit(syn::ExprLit {
                                lit: syn::Lit::Bool(value),
                                ..
                            }),
                        ) => (key, Some(value.value)),
                        McpItem::Str(key, _) | McpItem::Other(key, _) | McpItem::Args(key, _) => {
                            (key, None)
                        }
                    };
                    let Some(value) = value else {
                        cx.error_at(
                            &key,
                            format!(
                                "`{hint}` is a flag or takes `true` or `false`: write \
                                 `#[mcp({hint})]` or `#[mcp({hint} = false)]`"
                            ),
                        );
                        continue;
                    };
                    if out.hints[index].is_some() {
                        cx.error_at(
                            &key,
                            format!("`{hint}` is given twice in `#[mcp(...)]`; keep one"),
                        );
                    }
                    out.hints[index] = Some(Spanned {
                        value,
                        span: key.span(),
                    });
                }
                (mcp_keys::TITLE, McpItem::Str(key, lit)) => {
                    if out.title.is_some() {
                        cx.error_at(&key, "`title` is given twice in `#[mcp(...)]`; keep one");
                    }
                    if lit.value().trim().is_empty() {
                        cx.error_at(&lit, "`title` is empty: give the tool a title people read, or leave the key out");
                    }
                    out.title = Some(Spanned {
                        value: lit.value(),
                        span: lit.span(),
                    });
                }
                (mcp_keys::ICON, McpItem::Str(key, lit)) => {
                    if out.icon.is_some() {
                        cx.error_at(&key, "`icon` is given twice in `#[mcp(...)]`; keep one");
                    }
                    let src = lit.value();
                    if !(src.starts_with("https://") || src.starts_with("data:image/")) {
                        cx.error_at(
                            &lit,
                            "`icon` is an `https://` URL or a `data:image/...` URI: clients \
                             load icons from nothing else",
                        );
                    }
                    out.icon = Some(Spanned {
                        value: src,
                        span: lit.span(),
                    });
                }
                (mcp_keys::EXAMPLE, McpItem::Str(_, lit)) => {
                    let text = lit.value();
                    let trimmed = text.trim();
                    if !(trimmed.starts_with('{') && trimmed.ends_with('}')) {
                        cx.error_at(
                            &lit,
                            "`example` is a call's arguments as a JSON object, e.g. \
                             `example = r#\"{\"title\": \"Write the docs\"}\"#`",
                        );
                    }
                    out.examples.push(lit);
                }
                (mcp_keys::OUTPUT, McpItem::Other(key, Expr::Verbatim(tokens))) => {
                    if out.output.is_some() || out.returns.is_some() {
                        cx.error_at(&key, "`output` is given twice in `#[mcp(...)]`; keep one");
                    }
                    match syn::parse2::<syn::Type>(tokens) {
                        // `output = json`: a format written without quotes.
                        Ok(syn::Type::Path(path))
                            if path.path.get_ident().is_some_and(|ident| {
                                mcp_keys::OUTPUT_FORMATS.contains(&ident.to_string().as_str())
                            }) =>
                        {
                            let format = path.path.get_ident().map(ToString::to_string);
                            cx.error_at(
                                &path,
                                format!(
                                    "`output = {0}` names a type; for the format write `output = \"{0}\"`",
                                    format.unwrap_or_default()
                                ),
                            );
                        }
                        Ok(ty) => out.returns = Some(ty),
                        Err(error) => cx.push(error),
                    }
                }
                (mcp_keys::OUTPUT, McpItem::Str(key, lit)) => {
                    if out.output.is_some() || out.returns.is_some() {
                        cx.error_at(&key, "`output` is given twice in `#[mcp(...)]`; keep one");
                    }
                    let format = lit.value();
                    if !mcp_keys::OUTPUT_FORMATS.contains(&format.as_str()) {
                        cx.error_at(
                            &lit,
                            format!(
                                "`output = {format:?}` is not a format mcp-bridge parses: \
                                 `\"json\"`, `\"yaml\"`, `\"table\"` (a header row, columns \
                                 apart by two spaces or a tab) or `\"lines\"`"
                            ),
                        );
                    }
                    out.output = Some(Spanned {
                        value: format,
                        span: lit.span(),
                    });
                }
                (mcp_keys::ARGS, McpItem::Args(key, items)) => {
                    if !out.fixed.is_empty() {
                        cx.error_at(
                            &key,
                            "`args(...)` is given twice in `#[mcp(...)]`; keep one",
                        );
                    }
                    if items.is_empty() {
                        cx.error_at(&key, "`args()` fixes nothing: give `args(name = value, ...)` or leave it out");
                    }
                    for (name, lit) in items {
                        if out.fixed.iter().any(|(given, _)| given.value == name.value) {
                            cx.push(syn::Error::new(
                                name.span,
                                format!("`{}` is fixed twice in `args(...)`; keep one", name.value),
                            ));
                        }
                        out.fixed.push((name, lit));
                    }
                }
                (
                    mcp_keys::ARGS,
                    McpItem::Flag(key) | McpItem::Str(key, _) | McpItem::Other(key, _),
                ) => {
                    cx.error_at(
                        &key,
                        "`args` takes the fixed values in parentheses: `args(format = \"json\")`",
                    );
                }
                (_, McpItem::Args(key, _)) => {
                    cx.error_at(
                        &key,
                        format!("`#[mcp({key}(...))]` is not a form mcp-bridge understands; write `{key} = ...`"),
                    );
                }
                (mcp_keys::PREFIX, McpItem::Str(key, lit)) => {
                    if out.prefix.is_some() {
                        cx.error_at(&key, "`prefix` is given twice in `#[mcp(...)]`; keep one");
                    }
                    let prefix = lit.value();
                    if !prefix.chars().all(is_tool_name_char) {
                        cx.error_at(
                            &lit,
                            format!(
                                "`prefix = {prefix:?}` cannot start a tool name: use A-Z, a-z, \
                                 0-9, `_`, `.` and `-`, or `\"\"` for no prefix"
                            ),
                        );
                    }
                    out.prefix = Some(Spanned {
                        value: prefix,
                        span: lit.span(),
                    });
                }
                (mcp_keys::MAX_NAME_LEN, item) => {
                    let (key, value) = match &item {
                        McpItem::Other(
                            key,
                            Expr::Lit(syn::ExprLit {
                                lit: syn::Lit::Int(int),
                                ..
                            }),
                        ) => (key, int.base10_parse::<usize>().ok()),
                        McpItem::Flag(key)
                        | McpItem::Str(key, _)
                        | McpItem::Other(key, _)
                        | McpItem::Args(key, _) => (key, None),
                    };
                    if out.max_name_len.is_some() {
                        cx.error_at(
                            key,
                            "`max_name_len` is given twice in `#[mcp(...)]`; keep one",
                        );
                    }
                    match value {
                        Some(max) if (MIN_NAME_BUDGET..=MAX_TOOL_NAME).contains(&max) => {
                            out.max_name_len = Some(max);
                        }
                        _ => {
                            let at: &dyn quote::ToTokens = match &item {
                                McpItem::Other(_, expr) => expr,
                                McpItem::Str(_, lit) => lit,
                                McpItem::Flag(key) | McpItem::Args(key, _) => key,
                            };
                            cx.error_at(
                                at,
                                format!(
                                    "`max_name_len` takes a number from {MIN_NAME_BUDGET} to \
                                     {MAX_TOOL_NAME} (MCP's limit): the longest tool name, \
                                     e.g. `max_name_len = 64`"
                                ),
                            );
                        }
                    }
                }
                (mcp_keys::VALUES, McpItem::Other(key, Expr::Path(path))) => {
                    if out.values.is_some() {
                        cx.error_at(&key, "`values` is given twice in `#[mcp(...)]`; keep one");
                    }
                    out.values = Some(path.path);
                }
                (
                    mcp_keys::VALUES,
                    McpItem::Flag(key) | McpItem::Str(key, _) | McpItem::Other(key, _),
                ) => {
                    cx.error_at(
                        &key,
                        "`values` takes the path of a function giving the allowed values, \
                         `values = labels::fetch` (a `fn() -> Result<Vec<String>, E>`)",
                    );
                }
                (mcp_keys::VALUES_TTL, McpItem::Str(key, lit)) => {
                    if out.values_ttl.is_some() {
                        cx.error_at(
                            &key,
                            "`values_ttl` is given twice in `#[mcp(...)]`; keep one",
                        );
                    }
                    if let Some(millis) = duration_millis(cx, &key, &lit, "`\"5m\"`, `\"30s\"`") {
                        out.values_ttl = Some(Spanned {
                            value: millis,
                            span: key.span(),
                        });
                    }
                }
                (mcp_keys::VALUES_TTL, McpItem::Flag(key) | McpItem::Other(key, _)) => {
                    cx.error_at(&key, "`values_ttl` takes a duration: `values_ttl = \"5m\"`");
                }
                (mcp_keys::HEADER, McpItem::Str(key, lit)) => {
                    if out.header.is_some() {
                        cx.error_at(&key, "`header` is given twice in `#[mcp(...)]`; keep one");
                    }
                    let header = lit.value();
                    if header.is_empty() || !header.chars().all(is_header_char) {
                        cx.error_at(
                            &lit,
                            format!(
                                "`header = {header:?}` cannot name an HTTP header: use letters, \
                                 digits and ``!#$%&'*+-.^_`|~``, e.g. `header = \"Region\"` (sent \
                                 as `Mcp-Param-Region`)"
                            ),
                        );
                    }
                    out.header = Some(Spanned {
                        value: header,
                        span: lit.span(),
                    });
                }
                (mcp_keys::HEADER, McpItem::Flag(key) | McpItem::Other(key, _)) => {
                    cx.error_at(
                        &key,
                        "`header` takes the name a client sends the value under in HTTP: \
                         `header = \"Region\"` (as `Mcp-Param-Region`)",
                    );
                }
                (mcp_keys::CRATE, McpItem::Str(key, lit)) => {
                    if crate_given {
                        cx.error_at(&key, "`crate` is given twice in `#[mcp(...)]`; keep one");
                    }
                    crate_given = true;
                    out.krate = crate_path(cx, &lit).or(out.krate);
                }
                (_, McpItem::Str(key, lit)) => {
                    let slot = if key == mcp_keys::NAME {
                        &mut out.name
                    } else {
                        &mut out.description
                    };
                    if slot.is_some() {
                        cx.error_at(
                            &key,
                            format!("`{key}` is given twice in `#[mcp(...)]`; keep one"),
                        );
                    }
                    *slot = Some(Spanned {
                        value: lit.value(),
                        span: lit.span(),
                    });
                }
                (_, McpItem::Other(key, expr)) => {
                    cx.error_at(
                        &expr,
                        format!("`{key}` expects a string literal, e.g. `{key} = \"...\"`"),
                    );
                }
                (_, McpItem::Flag(key)) => {
                    cx.error_at(
                        &key,
                        format!("`{key}` expects a value: write `{key} = \"...\"`"),
                    );
                }
            }
        }
    }
    if let (None, Some(ttl)) = (&out.values, &out.values_ttl) {
        cx.push(syn::Error::new(
            ttl.span,
            "`values_ttl` says how long the values of `values = ...` hold; give `values` too",
        ));
    }
    out
}

/// Whether `c` may appear in an HTTP header name (RFC 9110 `tchar`).
fn is_header_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// `crate = "path"`: a module path, its tokens spanned at the literal (so
/// a path that does not resolve is reported there).
fn crate_path(cx: &Ctxt, lit: &LitStr) -> Option<syn::Path> {
    match lit.parse_with(syn::Path::parse_mod_style) {
        Ok(path) => Some(path),
        Err(_) => {
            let value = lit.value();
            let what = if value.is_empty() {
                "an empty string".to_owned()
            } else {
                format!("`{value}`")
            };
            cx.error_at(
                lit,
                format!(
                    "`crate` expects the path of the mcp-bridge crate as Rust code names it, e.g. `crate = \"mcp_bridge\"` or `crate = \"::reexport::mcp_bridge\"`; {what} is not a path"
                ),
            );
            None
        }
    }
}
