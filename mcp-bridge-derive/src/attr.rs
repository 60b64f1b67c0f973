//! Reading `#[command]`, `#[arg]` (and clap's other attribute names) and
//! `#[mcp]` into spanned key/value items.
//!
//! clap's keys we do not model are kept and ignored; keys inside `#[mcp]`
//! are ours, so an unknown or repeated one is an error.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, LitStr, Token};

use crate::ctxt::Ctxt;

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
    /// `key(args)`: a builder call with its arguments.
    Call(TokenStream),
}

impl ClapItem {
    pub(crate) fn is(&self, key: &str) -> bool {
        self.key == key
    }

    pub(crate) fn expr(&self) -> Option<&Expr> {
        match &self.value {
            ClapValue::Expr(expr) => Some(expr),
            _ => None,
        }
    }

    /// `key` alone means true; `key = true/false` is read; anything else
    /// (an expression) is treated as true, as clap would at run time for
    /// most code.
    pub(crate) fn flag_value(&self) -> bool {
        match self.expr() {
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            })) => b.value,
            _ => true,
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
            ClapValue::Call(content.parse()?)
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

/// All clap items of an item's attributes, in order.
pub(crate) fn clap_items(attrs: &[Attribute]) -> Vec<ClapItem> {
    let mut items = Vec::new();
    for attr in attrs {
        let kind = if attr.path().is_ident("command") {
            ClapAttrKind::Command
        } else if attr.path().is_ident("arg") || attr.path().is_ident("clap") {
            ClapAttrKind::Arg
        } else if attr.path().is_ident("group") {
            ClapAttrKind::Group
        } else if attr.path().is_ident("value") {
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
    /// On a `#[command(flatten)]` variant: its commands are the inner
    /// enum's variants.
    FlattenVariant,
    /// On a variant that is no command (`#[command(skip)]`,
    /// `external_subcommand`).
    NotACommand,
}

impl McpPlace {
    /// Why no key applies here, and where the user may have meant to put it.
    fn misplaced(self) -> &'static str {
        match self {
            McpPlace::Container | McpPlace::Variant | McpPlace::ArgField => "",
            McpPlace::NestingField => {
                "a `flatten` or `subcommand` field, which is neither an argument nor a command; put it on the fields or variants of the nested type"
            }
            McpPlace::SkippedField => {
                "a field clap skips (`#[arg(skip)]`), which is not an argument"
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
            McpPlace::Container | McpPlace::Variant | McpPlace::ArgField => {
                matches!(key, keys::NAME | keys::DESCRIPTION | keys::SKIP)
            }
            McpPlace::NestingField
            | McpPlace::SkippedField
            | McpPlace::FlattenVariant
            | McpPlace::NotACommand => false,
        }
    }
}

/// The keys `#[mcp(...)]` understands.
pub(crate) mod keys {
    pub(crate) const NAME: &str = "name";
    pub(crate) const DESCRIPTION: &str = "description";
    pub(crate) const SKIP: &str = "skip";
    pub(crate) const ALL: &[&str] = &[NAME, DESCRIPTION, SKIP];
}

/// A value with the span of the tokens it came from.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

/// What `#[mcp(...)]` says about one item.
#[derive(Debug, Clone, Default)]
pub(crate) struct McpAttrs {
    pub(crate) name: Option<Spanned<String>>,
    pub(crate) description: Option<Spanned<String>>,
    pub(crate) skip: Option<Span>,
}

enum McpItem {
    Flag(Ident),
    Str(Ident, LitStr),
    Other(Ident, Expr),
}

impl Parse for McpItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            let expr: Expr = input.parse()?;
            match expr {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Ok(McpItem::Str(key, s)),
                other => Ok(McpItem::Other(key, other)),
            }
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
    for attr in attrs.iter().filter(|a| a.path().is_ident("mcp")) {
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
                McpItem::Flag(key) | McpItem::Str(key, _) | McpItem::Other(key, _) => key.clone(),
            };
            let key_name = key.to_string();
            if !keys::ALL.contains(&key_name.as_str()) {
                cx.error_at(
                    &key,
                    format!(
                        "unknown key `{key_name}` in `#[mcp(...)]`: expected `name`, `description` or `skip` (clap's own keys belong in `#[command(...)]` or `#[arg(...)]`)"
                    ),
                );
                continue;
            }
            if !place.accepts(&key_name) {
                cx.error_at(
                    &key,
                    format!(
                        "`#[mcp({key_name})]` has no meaning on {}",
                        place.misplaced()
                    ),
                );
                continue;
            }
            match (key_name.as_str(), item) {
                (keys::SKIP, McpItem::Flag(key)) => {
                    if out.skip.is_some() {
                        cx.error_at(&key, "`skip` is given twice in `#[mcp(...)]`; keep one");
                    }
                    out.skip = Some(key.span());
                }
                (keys::SKIP, McpItem::Str(key, _) | McpItem::Other(key, _)) => {
                    cx.error_at(&key, "`skip` takes no value: write `#[mcp(skip)]`");
                }
                (_, McpItem::Str(key, lit)) => {
                    let slot = if key == keys::NAME {
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
    out
}
